// Processing time: PROCTIME() computed columns read from the job clock, and the operators that run on it —
// window aggregation, deduplication and temporal sort — with Flink's rows.
// Flink's restore programs run "before" and "after" rows at two moments of processing time; here each phase
// is a bounded job at its own (scripted) clock, whose end of input fires what is still open, as Flink does.
import { describe, expect, it } from "vitest";
import {
  $, DataTypes, EnvironmentSettings, Row, Schema, type Table, TableEnvironment, Tumble, ValidationError, lit, proctime,
} from "../../src/index.js";

const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const at = (hms: string) => Date.parse(`2020-04-15T${hms}Z`);

/** The bid table of Flink's window TVF programs (`bid_t`), with `proc_time AS PROCTIME()`. */
const BID_SCHEMA = Schema.newBuilder()
  .column("ts", DataTypes.STRING()).column("price", DataTypes.DECIMAL(10, 2)).column("item", DataTypes.STRING())
  .columnByExpression("bid_time", "TO_TIMESTAMP(`ts`)").columnByExpression("proc_time", "PROCTIME()")
  .watermark("bid_time", "`bid_time` - INTERVAL '1' SECOND")
  .build();
const BIDS_BEFORE = [
  Row.of("2020-04-15 08:00:05", "4.00", "C"), Row.of("2020-04-15 08:00:07", "2.00", "A"), Row.of("2020-04-15 08:00:09", "5.00", "D"),
  Row.of("2020-04-15 08:00:11", "3.00", "B"), Row.of("2020-04-15 08:00:13", "1.00", "E"), Row.of("2020-04-15 08:00:17", "6.00", "F"),
];
const BIDS_AFTER = [Row.of("2020-04-15 08:00:21", "4.00", "A"), Row.of("2020-04-15 08:00:27", "5.00", "C")];

/** Runs `sql` over `bid_t` holding `rows`, with the job clock standing at `now`. */
async function bidsAt(now: number, rows: readonly ReturnType<typeof Row.of>[], sql: string): Promise<string[]> {
  const env = streaming();
  env.setClock(() => now);
  env.createTemporaryView("bid_t", env.fromValues(BID_SCHEMA, rows as never) as never);
  return env.executeSql(sql).toChangelog();
}

const PROC_AGG = (tvf: string) => `SELECT SUM(price) FROM TABLE(${tvf}) GROUP BY window_start, window_end`;

describe("PROCTIME() columns", () => {
  it("is TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*, read from the job clock when the row is read (not when the table is made)", async () => {
    const env = streaming();
    let now = at("08:00:01");
    env.setClock(() => now);
    const t = env.fromValues(Schema.newBuilder().column("a", DataTypes.INT()).columnByExpression("p", proctime()).build(), Row.of(1), Row.of(2));
    expect(t.getResolvedSchema().toString()).toBe("(\n  `a` INT,\n  `p` TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*\n)");
    now = at("08:00:03");
    expect(await t.execute().toChangelog()).toEqual(["+I[1, 2020-04-15T08:00:03Z]", "+I[2, 2020-04-15T08:00:03Z]"]);
    now = at("09:30:00");
    expect(await t.execute().toChangelog()).toEqual(["+I[1, 2020-04-15T09:30:00Z]", "+I[2, 2020-04-15T09:30:00Z]"]);
  });

  it("works in SQL DDL on a connector table, and an expression over it is a plain TIMESTAMP_LTZ(3)", async () => {
    const env = streaming();
    let n = 0;
    env.setClock(() => at("08:00:00") + 1000 * n++);
    env.executeSql("CREATE TABLE src (a INT, proc_time AS PROCTIME()) WITH ('connector' = 'datagen', 'number-of-rows' = '3', 'fields.a.kind' = 'sequence', 'fields.a.start' = '1', 'fields.a.end' = '3')");
    const q = env.sqlQuery("SELECT a, proc_time, proc_time + INTERVAL '1' HOUR AS later FROM src");
    expect(q.getResolvedSchema().toString()).toBe("(\n  `a` INT,\n  `proc_time` TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*,\n  `later` TIMESTAMP_LTZ(3) NOT NULL\n)");
    const rows = await q.execute().toChangelog();
    expect(rows).toHaveLength(3);
    // each row is stamped once, when it is read: one clock reading per row, in order
    const times = rows.map((r) => Date.parse(r.split(", ")[1]!));
    expect(times[1]! - times[0]!).toBe(1000);
    expect(times[2]! - times[1]!).toBe(1000);
    expect(rows[0]).toBe(`+I[1, ${new Date(times[0]!).toISOString().replace(".000", "")}, ${new Date(times[0]! + 3600000).toISOString().replace(".000", "")}]`);
  });

  it("cannot carry a watermark; a window TVF without aggregation refuses it (Flink's rules)", () => {
    const env = streaming();
    const s = Schema.newBuilder().column("a", DataTypes.INT()).columnByExpression("p", "PROCTIME()").watermark("p", "p").build();
    expect(() => env.fromValues(s, Row.of(1))).toThrow(new ValidationError("Invalid watermark definition for 'p': a watermark cannot be defined for a processing-time attribute (PROCTIME()); declare it on an event-time column"));
    env.createTemporaryView("bid_t", env.fromValues(BID_SCHEMA, BIDS_BEFORE as never) as never);
    expect(() => env.sqlQuery("SELECT * FROM TABLE(TUMBLE(TABLE bid_t, DESCRIPTOR(proc_time), INTERVAL '10' SECOND))"))
      .toThrow(/Processing time Window TableFunction is not supported yet/);
    expect(() => env.sqlQuery("SELECT window_start, SUM(price) FROM TABLE(SESSION(TABLE bid_t, DESCRIPTOR(proc_time), INTERVAL '10' SECOND)) GROUP BY window_start, window_end"))
      .toThrow(/session windows on a processing-time attribute \('proc_time'\) are not supported/);
    expect(() => env.sqlQuery("SELECT PROCTIME(1) FROM bid_t")).toThrow(/expects 0 arguments/);
  });
});

describe("processing-time windows", () => {
  it("R-161 window-table-function-tumble-tvf-agg-proc-time: each phase falls in one 10 s window", async () => {
    const sql = PROC_AGG("TUMBLE(TABLE bid_t, DESCRIPTOR(proc_time), INTERVAL '10' SECOND)");
    expect(await bidsAt(at("08:00:01"), BIDS_BEFORE, sql)).toEqual(["+I[21.00]"]);
    expect(await bidsAt(at("08:00:12"), BIDS_AFTER, sql)).toEqual(["+I[9.00]"]);
  });

  it("R-167 window-table-function-cumulate-tvf-agg-proc-time: the first step's window and the whole window, then the second half only", async () => {
    const sql = PROC_AGG("CUMULATE(TABLE bid_t, DESCRIPTOR(proc_time), INTERVAL '5' SECOND, INTERVAL '10' SECOND)");
    expect(await bidsAt(at("08:00:01"), BIDS_BEFORE, sql)).toEqual(["+I[21.00]", "+I[21.00]"]);
    expect(await bidsAt(at("08:00:17"), BIDS_AFTER, sql)).toEqual(["+I[9.00]"]);
  });

  it("a window fires when processing time passes its end (the next row), not at the event times; window_time is a proctime attribute", async () => {
    const env = streaming();
    // the clock moves 4 s per row read: rows at 08:00:00, :04, :08, :12, :16, :20
    let n = 0;
    env.setClock(() => at("08:00:00") + 4000 * n++);
    env.createTemporaryView("bid_t", env.fromValues(BID_SCHEMA, BIDS_BEFORE as never) as never);
    const sql = "SELECT window_start, window_end, window_time, SUM(price) AS s, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE bid_t, DESCRIPTOR(proc_time), INTERVAL '10' SECOND)) GROUP BY window_start, window_end";
    const q = env.sqlQuery(sql);
    expect(q.getResolvedSchema().column("window_time").type.toString()).toBe("TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*");
    expect(q.changelogMode()).toBe("[I]");
    expect(await q.execute().toChangelog()).toEqual([
      "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:09.999Z, 11.00, 3]",
      "+I[2020-04-15T08:00:10, 2020-04-15T08:00:20, 2020-04-15T08:00:19.999Z, 4.00, 2]",
      "+I[2020-04-15T08:00:20, 2020-04-15T08:00:30, 2020-04-15T08:00:29.999Z, 6.00, 1]",
    ]);
  });

  it("the Table API's group window on a proctime column gives the same rows", async () => {
    const env = streaming();
    let n = 0;
    env.setClock(() => at("08:00:00") + 4000 * n++);
    const bids = env.fromValues(BID_SCHEMA, BIDS_BEFORE as never);
    const rows = await bids.window(Tumble.over(lit(10).seconds()).on($("proc_time")).as("w"))
      .groupBy($("w")).select($("w").start(), $("price").sum()).execute().toChangelog();
    expect(rows).toEqual(["+I[2020-04-15T08:00, 11.00]", "+I[2020-04-15T08:00:10, 4.00]", "+I[2020-04-15T08:00:20, 6.00]"]);
  });
});

describe("processing-time deduplication and sort", () => {
  const before = [
    Row.of(1, "terry", "pen", 1000), Row.of(2, "alice", "pen", 2000), Row.of(3, "bob", "pen", 3000), Row.of(4, "bob", "apple", 4000),
    Row.of(5, "fish", "apple", 5000),
  ];
  const after = [Row.of(6, "jerry", "pen", 6000), Row.of(7, "larry", "apple", 7000), Row.of(8, "bill", "banana", 8000), Row.of(9, "carol", "apple", 9000)];
  const schema = Schema.newBuilder().column("order_id", DataTypes.BIGINT()).column("user", DataTypes.STRING())
    .column("product", DataTypes.STRING()).column("order_time", DataTypes.BIGINT())
    .columnByExpression("proctime", "PROCTIME()").build();

  it("R-043 deduplicate-asc-proctime: ORDER BY proctime ASC keeps the first row per product (insert-only)", async () => {
    const env = streaming();
    env.createTemporaryView("MyTable", env.fromValues(schema, [...before, ...after]) as never);
    const sql = `select order_id, user, product, order_time 
FROM (  SELECT *,    ROW_NUMBER() OVER (PARTITION BY product ORDER BY proctime ASC) AS row_num
  FROM MyTable)WHERE row_num = 1`;
    const t = env.sqlQuery(sql) as unknown as Table<object>;
    expect(t.changelogMode()).toBe("[I]");
    expect(await t.execute().toChangelog()).toEqual(["+I[1, terry, pen, 1000]", "+I[4, bob, apple, 4000]", "+I[8, bill, banana, 8000]"]);
  });

  it("R-135 temporal-sort-proctime: ORDER BY proctime emits in processing-time order", async () => {
    const env = streaming();
    const s = Schema.newBuilder().column("a", DataTypes.INT()).column("b", DataTypes.BIGINT()).column("c", DataTypes.STRING())
      .columnByExpression("proctime", "PROCTIME()").build();
    env.createTemporaryView("source_t", env.fromValues(s, Row.of(1, 1, "Hi"), Row.of(2, 2, "Hello"), Row.of(3, 2, "Hello world"),
      Row.of(4, 1, "Guten Morgen"), Row.of(5, 2, "Guten Tag")) as never);
    expect(await env.executeSql("SELECT a from source_t ORDER BY proctime").toChangelog()).toEqual(["+I[1]", "+I[2]", "+I[3]", "+I[4]", "+I[5]"]);
  });

  it("rows of one processing time are sorted by the next keys; a later time releases them", async () => {
    const env = streaming();
    let n = 0;
    // two rows per clock tick
    env.setClock(() => at("08:00:00") + 1000 * Math.floor(n++ / 2));
    const s = Schema.newBuilder().column("a", DataTypes.INT()).columnByExpression("p", proctime()).build();
    const t = env.fromValues(s, Row.of(3), Row.of(1), Row.of(9), Row.of(2), Row.of(5)).orderBy($("p"), $("a")).select($("a"));
    expect(await t.execute().toChangelog()).toEqual(["+I[1]", "+I[3]", "+I[2]", "+I[9]", "+I[5]"]);
  });

  it("toSql renders PROCTIME() columns and processing-time deduplication; the text runs to the same rows", async () => {
    const env = streaming();
    env.setClock(() => at("08:00:00"));
    const s = Schema.newBuilder().column("a", DataTypes.INT()).column("k", DataTypes.STRING()).columnByExpression("p", proctime()).build();
    const d = env.fromValues(s, Row.of(1, "x"), Row.of(2, "x"), Row.of(3, "y")).deduplicate({ keys: [$("k")], keep: "first" });
    const sql = d.toSql();
    expect(sql).toContain("PROCTIME() AS `p`");
    expect(sql).toContain("ROW_NUMBER() OVER (PARTITION BY `k` ORDER BY `p` ASC) AS `rn`");
    expect(await env.executeSql(sql).toChangelog()).toEqual(await d.execute().toChangelog());
    expect(await d.execute().toChangelog()).toEqual(["+I[1, x, 2020-04-15T08:00:00Z]", "+I[3, y, 2020-04-15T08:00:00Z]"]);
  });
});
