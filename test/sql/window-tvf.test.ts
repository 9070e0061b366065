// Window table functions in SQL: TUMBLE / HOP / CUMULATE / SESSION(TABLE t, DESCRIPTOR(ts), ...) on their own and
// as window aggregates (GROUP BY window_start, window_end), with the rows of Flink's window programs.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, Row, Schema, Session, TableEnvironment, ValidationError, lit } from "../../src/index.js";
import { windowSource } from "../windows/fixtures.js";
import { BACKENDS, BACKEND_NAMES, type BackendName } from "../windows/support.js";

/** The state backend the environments of the running describe block use (BACKENDS). */
let backend: BackendName = "hashmap";
const streaming = () => {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  for (const [k, v] of Object.entries(BACKENDS[backend])) env.getConfig().set(k, v);
  return env;
};
const sorted = (rows: readonly string[]) => [...rows].sort();

function windowEnv(): TableEnvironment {
  const env = streaming();
  env.createTemporaryView("window_source_t", windowSource(env) as never);
  return env;
}

const AGG = (tvf: string) => "SELECT name, window_start, window_end, COUNT(*), SUM(a_int), COUNT(DISTINCT `comment`) "
  + `FROM TABLE(${tvf}) GROUP BY name, window_start, window_end`;

describe.each(BACKEND_NAMES)("window aggregation over window TVFs (R-112 .. R-129 without offsets) (state.backend.type = %s)", (b) => {
  beforeEach(() => { backend = b; });
  afterEach(() => { backend = "hashmap"; });
  it("R-112 window-aggregate-tumble-event-time: the late row is dropped, one row per window and name", async () => {
    const env = windowEnv();
    const sql = AGG("TUMBLE(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND)");
    expect(env.sqlQuery(sql).changelogMode()).toBe("[I]");
    expect(sorted(await env.executeSql(sql).toChangelog())).toEqual(sorted([
      "+I[a, 2020-10-10T00:00, 2020-10-10T00:00:05, 4, 10, 2]", "+I[a, 2020-10-10T00:00:05, 2020-10-10T00:00:10, 1, 3, 1]",
      "+I[b, 2020-10-10T00:00:05, 2020-10-10T00:00:10, 2, 9, 2]", "+I[b, 2020-10-10T00:00:15, 2020-10-10T00:00:20, 1, 4, 1]",
      "+I[b, 2020-10-10T00:00:30, 2020-10-10T00:00:35, 1, 1, 1]", "+I[null, 2020-10-10T00:00:30, 2020-10-10T00:00:35, 1, 7, 0]",
      "+I[a, 2020-10-10T00:00:40, 2020-10-10T00:00:45, 1, 10, 1]", "+I[c, 2020-10-10T00:00:40, 2020-10-10T00:00:45, 1, 12, 1]",
      "+I[d, 2020-10-10T00:00:40, 2020-10-10T00:00:45, 2, 24, 2]",
    ]));
    expect(env.sqlQuery(sql).getResolvedSchema().names).toEqual(["name", "window_start", "window_end", "EXPR$3", "EXPR$4", "EXPR$5"]);
  });

  it("R-118 window-aggregate-hop-event-time: HOP(data, timecol, slide, size); the late row counts in the open windows", async () => {
    const env = windowEnv();
    const sql = AGG("HOP(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '10' SECOND)");
    expect(sorted(await env.executeSql(sql).toChangelog())).toEqual(sorted([
      "+I[a, 2020-10-09T23:59:55, 2020-10-10T00:00:05, 4, 10, 2]", "+I[b, 2020-10-10T00:00, 2020-10-10T00:00:10, 2, 9, 2]",
      "+I[a, 2020-10-10T00:00, 2020-10-10T00:00:10, 6, 18, 3]", "+I[b, 2020-10-10T00:00:05, 2020-10-10T00:00:15, 2, 9, 2]",
      "+I[a, 2020-10-10T00:00:05, 2020-10-10T00:00:15, 1, 3, 1]", "+I[b, 2020-10-10T00:00:10, 2020-10-10T00:00:20, 1, 4, 1]",
      "+I[b, 2020-10-10T00:00:15, 2020-10-10T00:00:25, 1, 4, 1]",
      "+I[b, 2020-10-10T00:00:25, 2020-10-10T00:00:35, 1, 1, 1]", "+I[null, 2020-10-10T00:00:25, 2020-10-10T00:00:35, 1, 7, 0]",
      "+I[b, 2020-10-10T00:00:30, 2020-10-10T00:00:40, 1, 1, 1]", "+I[null, 2020-10-10T00:00:30, 2020-10-10T00:00:40, 1, 7, 0]",
      "+I[c, 2020-10-10T00:00:35, 2020-10-10T00:00:45, 1, 12, 1]", "+I[d, 2020-10-10T00:00:35, 2020-10-10T00:00:45, 2, 24, 2]",
      "+I[a, 2020-10-10T00:00:35, 2020-10-10T00:00:45, 1, 10, 1]", "+I[d, 2020-10-10T00:00:40, 2020-10-10T00:00:50, 2, 24, 2]",
      "+I[a, 2020-10-10T00:00:40, 2020-10-10T00:00:50, 1, 10, 1]", "+I[c, 2020-10-10T00:00:40, 2020-10-10T00:00:50, 1, 12, 1]",
    ]));
  });

  it("R-124 window-aggregate-cumulate-event-time: CUMULATE(data, timecol, step, size), named arguments give the same rows", async () => {
    const env = windowEnv();
    const expected = sorted([
      "+I[a, 2020-10-10T00:00, 2020-10-10T00:00:05, 4, 10, 2]", "+I[b, 2020-10-10T00:00, 2020-10-10T00:00:10, 2, 9, 2]",
      "+I[a, 2020-10-10T00:00, 2020-10-10T00:00:10, 6, 18, 3]", "+I[b, 2020-10-10T00:00, 2020-10-10T00:00:15, 2, 9, 2]",
      "+I[a, 2020-10-10T00:00, 2020-10-10T00:00:15, 6, 18, 3]", "+I[b, 2020-10-10T00:00:15, 2020-10-10T00:00:20, 1, 4, 1]",
      "+I[b, 2020-10-10T00:00:15, 2020-10-10T00:00:25, 1, 4, 1]", "+I[b, 2020-10-10T00:00:15, 2020-10-10T00:00:30, 1, 4, 1]",
      "+I[b, 2020-10-10T00:00:30, 2020-10-10T00:00:35, 1, 1, 1]", "+I[null, 2020-10-10T00:00:30, 2020-10-10T00:00:35, 1, 7, 0]",
      "+I[b, 2020-10-10T00:00:30, 2020-10-10T00:00:40, 1, 1, 1]", "+I[null, 2020-10-10T00:00:30, 2020-10-10T00:00:40, 1, 7, 0]",
      "+I[b, 2020-10-10T00:00:30, 2020-10-10T00:00:45, 1, 1, 1]", "+I[c, 2020-10-10T00:00:30, 2020-10-10T00:00:45, 1, 12, 1]",
      "+I[d, 2020-10-10T00:00:30, 2020-10-10T00:00:45, 2, 24, 2]", "+I[a, 2020-10-10T00:00:30, 2020-10-10T00:00:45, 1, 10, 1]",
      "+I[null, 2020-10-10T00:00:30, 2020-10-10T00:00:45, 1, 7, 0]",
    ]);
    expect(sorted(await env.executeSql(AGG("CUMULATE(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '15' SECOND)")).toChangelog()))
      .toEqual(expected);
    const named = AGG("CUMULATE(DATA => TABLE window_source_t, TIMECOL => DESCRIPTOR(rowtime), SIZE => INTERVAL '15' SECOND, STEP => INTERVAL '5' SECOND)");
    expect(sorted(await windowEnv().executeSql(named).toChangelog())).toEqual(expected);
  });

  it("is the Table API's group window aggregate: the same plan node and changelog", async () => {
    const env = windowEnv();
    const sql = "SELECT name, window_start, window_end, window_time, SUM(a_int) AS s FROM TABLE(TUMBLE(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND)) GROUP BY window_start, window_end, name";
    const t = env.sqlQuery(sql);
    expect(t.explain()).toContain("WindowAggregate(");
    expect(t.getResolvedSchema().toString()).toContain("`window_time` TIMESTAMP(3) NOT NULL *ROWTIME*");
    const { Tumble } = await import("../../src/index.js");
    const api = env.from("window_source_t").window(Tumble.over(lit(5).seconds()).on($("rowtime")).as("w"))
      .groupBy($("w"), $("name")).select($("name"), $("w").start().as("window_start"), $("w").end().as("window_end"), $("w").rowtime().as("window_time"), $("a_int").sum().as("s"));
    expect(await t.execute().toChangelog()).toEqual(await api.execute().toChangelog());
  });

  it("a subquery SELECT * FROM TABLE(...) with an alias, WHERE on input columns, HAVING, and window_start in an expression", async () => {
    const env = windowEnv();
    const sql = "SELECT w.name, CAST(window_start AS STRING) AS ws, COUNT(*) AS n FROM (SELECT * FROM TABLE(TUMBLE(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND))) w "
      + "WHERE a_int > 1 GROUP BY w.name, window_start, window_end HAVING COUNT(*) > 1";
    expect(sorted(await env.executeSql(sql).toChangelog())).toEqual(sorted([
      "+I[a, 2020-10-10 00:00:00.000, 3]", "+I[b, 2020-10-10 00:00:05.000, 2]", "+I[d, 2020-10-10 00:00:40.000, 2]",
    ]));
  });

  it("SESSION(TABLE t PARTITION BY k, DESCRIPTOR(ts), gap) groups by the partition key, as Session windows do", async () => {
    const env = windowEnv();
    const sql = "SELECT name, window_start, window_end, COUNT(*) AS n FROM TABLE(SESSION(TABLE window_source_t PARTITION BY name, DESCRIPTOR(rowtime), INTERVAL '5' SECOND)) GROUP BY name, window_start, window_end";
    const api = env.from("window_source_t").window(Session.withGap(lit(5).seconds()).on($("rowtime")).as("w"))
      .groupBy($("w"), $("name")).select($("name"), $("w").start().as("window_start"), $("w").end().as("window_end"), lit(1).count().as("n"));
    const rows = await env.executeSql(sql).toChangelog();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows).toEqual(await api.execute().toChangelog());
    expect(() => env.sqlQuery("SELECT window_start, window_end, COUNT(*) FROM TABLE(SESSION(TABLE window_source_t PARTITION BY name, DESCRIPTOR(rowtime), INTERVAL '5' SECOND)) GROUP BY window_start, window_end"))
      .toThrow(/must group by window_start, window_end and exactly the PARTITION BY columns \[name\]/);
  });
});

function bidEnv(): TableEnvironment {
  const env = streaming();
  const schema = Schema.newBuilder().column("ts", DataTypes.STRING()).column("price", DataTypes.DECIMAL(10, 2)).column("item", DataTypes.STRING())
    .columnByExpression("bid_time", "TO_TIMESTAMP(`ts`)").watermark("bid_time", "`bid_time` - INTERVAL '1' SECOND").build();
  env.createTemporaryView("bid_t", env.fromValues(schema,
    Row.of("2020-04-15 08:00:05", "4.00", "C"), Row.of("2020-04-15 08:00:07", "2.00", "A"), Row.of("2020-04-15 08:00:09", "5.00", "D"),
    Row.of("2020-04-15 08:00:11", "3.00", "B"), Row.of("2020-04-15 08:00:13", "1.00", "E"), Row.of("2020-04-15 08:00:17", "6.00", "F"),
    Row.of("2020-04-15 08:00:21", "4.00", "A"), Row.of("2020-04-15 08:00:27", "5.00", "C")) as never);
  return env;
}
const TVF_ROWS = (tvf: string) => `SELECT bid_time, price, item, window_start, window_end, window_time FROM TABLE(${tvf})`;

describe("window table functions on their own (R-157 .. R-167)", () => {
  it("R-157 window-table-function-tumble-tvf: each row with its window; window_time is the window's end - 1 ms", async () => {
    const env = bidEnv();
    const t = env.sqlQuery(TVF_ROWS("TUMBLE(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '10' SECOND)"));
    expect(t.changelogMode()).toBe("[I]");
    expect(t.explain()).toContain("WindowTableFunction(window=[TUMBLE(time_col=[bid_time], size=[10000ms])]");
    expect(await t.execute().toChangelog()).toEqual([
      "+I[2020-04-15T08:00:05, 4.00, C, 2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:09.999]",
      "+I[2020-04-15T08:00:07, 2.00, A, 2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:09.999]",
      "+I[2020-04-15T08:00:09, 5.00, D, 2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:09.999]",
      "+I[2020-04-15T08:00:11, 3.00, B, 2020-04-15T08:00:10, 2020-04-15T08:00:20, 2020-04-15T08:00:19.999]",
      "+I[2020-04-15T08:00:13, 1.00, E, 2020-04-15T08:00:10, 2020-04-15T08:00:20, 2020-04-15T08:00:19.999]",
      "+I[2020-04-15T08:00:17, 6.00, F, 2020-04-15T08:00:10, 2020-04-15T08:00:20, 2020-04-15T08:00:19.999]",
      "+I[2020-04-15T08:00:21, 4.00, A, 2020-04-15T08:00:20, 2020-04-15T08:00:30, 2020-04-15T08:00:29.999]",
      "+I[2020-04-15T08:00:27, 5.00, C, 2020-04-15T08:00:20, 2020-04-15T08:00:30, 2020-04-15T08:00:29.999]",
    ]);
    const names = env.sqlQuery("SELECT * FROM TABLE(TUMBLE(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '10' SECOND))").getResolvedSchema().toString();
    expect(names).toContain("`window_start` TIMESTAMP(3) NOT NULL");
    expect(names).toContain("`window_time` TIMESTAMP(3) NOT NULL *ROWTIME*");
  });

  it("R-163 window-table-function-hop-tvf-agg: the empty window [07:59:55, 08:00:05) has no row", async () => {
    const sql = "SELECT window_start, window_end, SUM(price) FROM TABLE(HOP(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '5' SECOND, INTERVAL '10' SECOND)) GROUP BY window_start, window_end";
    expect(sorted(await bidEnv().executeSql(sql).toChangelog())).toEqual(sorted([
      "+I[2020-04-15T08:00, 2020-04-15T08:00:10, 11.00]", "+I[2020-04-15T08:00:05, 2020-04-15T08:00:15, 15.00]",
      "+I[2020-04-15T08:00:10, 2020-04-15T08:00:20, 10.00]", "+I[2020-04-15T08:00:15, 2020-04-15T08:00:25, 10.00]",
      "+I[2020-04-15T08:00:20, 2020-04-15T08:00:30, 9.00]", "+I[2020-04-15T08:00:25, 2020-04-15T08:00:35, 5.00]",
    ]));
  });

  it("R-165 window-table-function-cumulate-tvf: a row in every cumulating window that contains it", async () => {
    const rows = await bidEnv().executeSql(TVF_ROWS("CUMULATE(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '5' SECOND, INTERVAL '10' SECOND)")).toChangelog();
    expect(rows).toEqual([
      "+I[2020-04-15T08:00:05, 4.00, C, 2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:09.999]",
      "+I[2020-04-15T08:00:07, 2.00, A, 2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:09.999]",
      "+I[2020-04-15T08:00:09, 5.00, D, 2020-04-15T08:00, 2020-04-15T08:00:10, 2020-04-15T08:00:09.999]",
      "+I[2020-04-15T08:00:11, 3.00, B, 2020-04-15T08:00:10, 2020-04-15T08:00:15, 2020-04-15T08:00:14.999]",
      "+I[2020-04-15T08:00:11, 3.00, B, 2020-04-15T08:00:10, 2020-04-15T08:00:20, 2020-04-15T08:00:19.999]",
      "+I[2020-04-15T08:00:13, 1.00, E, 2020-04-15T08:00:10, 2020-04-15T08:00:15, 2020-04-15T08:00:14.999]",
      "+I[2020-04-15T08:00:13, 1.00, E, 2020-04-15T08:00:10, 2020-04-15T08:00:20, 2020-04-15T08:00:19.999]",
      "+I[2020-04-15T08:00:17, 6.00, F, 2020-04-15T08:00:10, 2020-04-15T08:00:20, 2020-04-15T08:00:19.999]",
      "+I[2020-04-15T08:00:21, 4.00, A, 2020-04-15T08:00:20, 2020-04-15T08:00:25, 2020-04-15T08:00:24.999]",
      "+I[2020-04-15T08:00:21, 4.00, A, 2020-04-15T08:00:20, 2020-04-15T08:00:30, 2020-04-15T08:00:29.999]",
      "+I[2020-04-15T08:00:27, 5.00, C, 2020-04-15T08:00:20, 2020-04-15T08:00:30, 2020-04-15T08:00:29.999]",
    ]);
  });

  it("HOP on its own: a row in size / slide windows, earliest first", async () => {
    const rows = await bidEnv().executeSql("SELECT item, window_start, window_end FROM TABLE(HOP(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '5' SECOND, INTERVAL '10' SECOND)) WHERE item = 'C'").toChangelog();
    expect(rows).toEqual([
      "+I[C, 2020-04-15T08:00, 2020-04-15T08:00:10]", "+I[C, 2020-04-15T08:00:05, 2020-04-15T08:00:15]",
      "+I[C, 2020-04-15T08:00:20, 2020-04-15T08:00:30]", "+I[C, 2020-04-15T08:00:25, 2020-04-15T08:00:35]",
    ]);
  });

  it("errors name the argument: a missing one, a non-time column, a non-interval offset, a wrong type, SESSION on its own", () => {
    const env = bidEnv();
    expect(() => env.sqlQuery("SELECT * FROM TABLE(TUMBLE(TABLE bid_t, DESCRIPTOR(bid_time)))")).toThrow(/TUMBLE is missing the argument SIZE: TUMBLE\(DATA, TIMECOL, SIZE \[, OFFSET\]\)/);
    expect(() => env.sqlQuery("SELECT * FROM TABLE(TUMBLE(TABLE bid_t, DESCRIPTOR(ts), INTERVAL '1' SECOND))")).toThrow(/column 'ts' is not an event-time attribute/);
    expect(() => env.sqlQuery("SELECT * FROM TABLE(TUMBLE(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '10' SECOND, 1))"))
      .toThrow(/At line 1, column 85: TUMBLE: the OFFSET argument must be a day-time interval/);
    expect(() => env.sqlQuery("SELECT * FROM TABLE(TUMBLE(TABLE bid_t, DESCRIPTOR(bid_time), 10))")).toThrow(/the SIZE argument must be a day-time interval/);
    expect(() => env.sqlQuery("SELECT * FROM TABLE(TUMBLE(TABLE bid_t, DESCRIPTOR(bid_time), SIZES => INTERVAL '1' SECOND))")).toThrow(/TUMBLE has no parameter 'SIZES'/);
    expect(() => env.sqlQuery("SELECT * FROM TABLE(HOP(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '3' SECOND, INTERVAL '10' SECOND))")).toThrow(/whole multiple of the slide/);
    expect(() => env.sqlQuery("SELECT * FROM TABLE(SESSION(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '10' SECOND))")).toThrow(/SESSION\(TABLE \.\.\.\) is supported in a window aggregate only/);
    expect(() => env.sqlQuery("SELECT * FROM TABLE(TUMBLE(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '10' SECOND)) x, bid_t")).not.toThrow();
    expect(() => env.sqlQuery("SELECT window_start, window_end, COUNT(*) FROM TABLE(TUMBLE(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '10' SECOND)) WHERE window_start > TIMESTAMP '2020-01-01 00:00:00' GROUP BY window_start, window_end"))
      .toThrow(ValidationError);
  });
});

const rowsOf = (s: string) => s.replace(/`/g, "").split(/(?<=\]), /);
describe.each(BACKEND_NAMES)("window offsets (R-115, R-121, R-127, R-159) (state.backend.type = %s)", (b) => {
  beforeEach(() => { backend = b; });
  afterEach(() => { backend = "hashmap"; });
  it("R-115 window-aggregate-tumble-event-time-with-offset: windows start 1 s after the epoch-aligned ones", async () => {
    const sql = AGG("TUMBLE(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '1' SECOND)");
    expect(sorted(await windowEnv().executeSql(sql).toChangelog())).toEqual(sorted(rowsOf(
      "`+I[a, 2020-10-10T00:00:01, 2020-10-10T00:00:06, 4, 10, 2]`, `+I[b, 2020-10-10T00:00:06, 2020-10-10T00:00:11, 2, 9, 2]`, `+I[a, 2020-10-10T00:00:06, 2020-10-10T00:00:11, 1, 3, 1]`, `+I[b, 2020-10-10T00:00:16, 2020-10-10T00:00:21, 1, 4, 1]`, "
      + "`+I[b, 2020-10-10T00:00:31, 2020-10-10T00:00:36, 1, 1, 1]`, `+I[null, 2020-10-10T00:00:31, 2020-10-10T00:00:36, 1, 7, 0]`, `+I[a, 2020-10-10T00:00:36, 2020-10-10T00:00:41, 1, 10, 1]`, `+I[c, 2020-10-10T00:00:41, 2020-10-10T00:00:46, 1, 12, 1]`, `+I[d, 2020-10-10T00:00:41, 2020-10-10T00:00:46, 2, 24, 2]`")));
    expect(windowEnv().sqlQuery(sql).explain()).toContain("TumblingGroupWindow('$window, rowtime, 5000ms, offset=1000ms)");
  });

  it("R-121 window-aggregate-hop-event-time-with-offset: HOP(data, timecol, slide, size, offset)", async () => {
    const sql = AGG("HOP(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '10' SECOND, INTERVAL '1' SECOND)");
    expect(sorted(await windowEnv().executeSql(sql).toChangelog())).toEqual(sorted(rowsOf(
      "`+I[a, 2020-10-09T23:59:56, 2020-10-10T00:00:06, 4, 10, 2]`, `+I[b, 2020-10-10T00:00:01, 2020-10-10T00:00:11, 2, 9, 2]`, `+I[a, 2020-10-10T00:00:01, 2020-10-10T00:00:11, 6, 18, 3]`, `+I[b, 2020-10-10T00:00:06, 2020-10-10T00:00:16, 2, 9, 2]`, `+I[a, 2020-10-10T00:00:06, 2020-10-10T00:00:16, 1, 3, 1]`, `+I[b, 2020-10-10T00:00:11, 2020-10-10T00:00:21, 1, 4, 1]`, `+I[b, 2020-10-10T00:00:16, 2020-10-10T00:00:26, 1, 4, 1]`, "
      + "`+I[b, 2020-10-10T00:00:26, 2020-10-10T00:00:36, 1, 1, 1]`, `+I[null, 2020-10-10T00:00:26, 2020-10-10T00:00:36, 1, 7, 0]`, `+I[a, 2020-10-10T00:00:31, 2020-10-10T00:00:41, 1, 10, 1]`, `+I[b, 2020-10-10T00:00:31, 2020-10-10T00:00:41, 1, 1, 1]`, `+I[null, 2020-10-10T00:00:31, 2020-10-10T00:00:41, 1, 7, 0]`, `+I[c, 2020-10-10T00:00:36, 2020-10-10T00:00:46, 1, 12, 1]`, `+I[d, 2020-10-10T00:00:36, 2020-10-10T00:00:46, 2, 24, 2]`, `+I[a, 2020-10-10T00:00:36, 2020-10-10T00:00:46, 1, 10, 1]`, `+I[d, 2020-10-10T00:00:41, 2020-10-10T00:00:51, 2, 24, 2]`, `+I[c, 2020-10-10T00:00:41, 2020-10-10T00:00:51, 1, 12, 1]`")));
  });

  it("R-127 window-aggregate-cumulate-event-time-with-offset: named arguments (OFFSET =>) give the same rows", async () => {
    const expected = sorted(rowsOf(
      "`+I[a, 2020-10-10T00:00:01, 2020-10-10T00:00:06, 4, 10, 2]`, `+I[b, 2020-10-10T00:00:01, 2020-10-10T00:00:11, 2, 9, 2]`, `+I[a, 2020-10-10T00:00:01, 2020-10-10T00:00:11, 6, 18, 3]`, `+I[b, 2020-10-10T00:00:01, 2020-10-10T00:00:16, 2, 9, 2]`, `+I[a, 2020-10-10T00:00:01, 2020-10-10T00:00:16, 6, 18, 3]`, `+I[b, 2020-10-10T00:00:16, 2020-10-10T00:00:21, 1, 4, 1]`, `+I[b, 2020-10-10T00:00:16, 2020-10-10T00:00:26, 1, 4, 1]`, `+I[b, 2020-10-10T00:00:16, 2020-10-10T00:00:31, 1, 4, 1]`, "
      + "`+I[b, 2020-10-10T00:00:31, 2020-10-10T00:00:36, 1, 1, 1]`, `+I[null, 2020-10-10T00:00:31, 2020-10-10T00:00:36, 1, 7, 0]`, `+I[a, 2020-10-10T00:00:31, 2020-10-10T00:00:41, 1, 10, 1]`, `+I[b, 2020-10-10T00:00:31, 2020-10-10T00:00:41, 1, 1, 1]`, `+I[null, 2020-10-10T00:00:31, 2020-10-10T00:00:41, 1, 7, 0]`, `+I[b, 2020-10-10T00:00:31, 2020-10-10T00:00:46, 1, 1, 1]`, `+I[c, 2020-10-10T00:00:31, 2020-10-10T00:00:46, 1, 12, 1]`, `+I[d, 2020-10-10T00:00:31, 2020-10-10T00:00:46, 2, 24, 2]`, `+I[a, 2020-10-10T00:00:31, 2020-10-10T00:00:46, 1, 10, 1]`, `+I[null, 2020-10-10T00:00:31, 2020-10-10T00:00:46, 1, 7, 0]`"));
    expect(sorted(await windowEnv().executeSql(AGG("CUMULATE(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '15' SECOND, INTERVAL '1' SECOND)")).toChangelog()))
      .toEqual(expected);
    const named = AGG("CUMULATE(DATA => TABLE window_source_t, TIMECOL => DESCRIPTOR(rowtime), OFFSET => INTERVAL '1' SECOND, SIZE => INTERVAL '15' SECOND, STEP => INTERVAL '5' SECOND)");
    expect(sorted(await windowEnv().executeSql(named).toChangelog())).toEqual(expected);
  });

  it("R-159 window-table-function-tumble-tvf-negative-offset: INTERVAL '-6' SECOND shifts the windows back", async () => {
    const t = bidEnv().sqlQuery(TVF_ROWS("TUMBLE(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '10' SECOND, INTERVAL '-6' SECOND)"));
    expect(t.explain()).toContain("WindowTableFunction(window=[TUMBLE(time_col=[bid_time], size=[10000ms], offset=[-6000ms])]");
    expect(await t.execute().toChangelog()).toEqual(rowsOf(
      "`+I[2020-04-15T08:00:05, 4.00, C, 2020-04-15T08:00:04, 2020-04-15T08:00:14, 2020-04-15T08:00:13.999]`, `+I[2020-04-15T08:00:07, 2.00, A, 2020-04-15T08:00:04, 2020-04-15T08:00:14, 2020-04-15T08:00:13.999]`, `+I[2020-04-15T08:00:09, 5.00, D, 2020-04-15T08:00:04, 2020-04-15T08:00:14, 2020-04-15T08:00:13.999]`, `+I[2020-04-15T08:00:11, 3.00, B, 2020-04-15T08:00:04, 2020-04-15T08:00:14, 2020-04-15T08:00:13.999]`, `+I[2020-04-15T08:00:13, 1.00, E, 2020-04-15T08:00:04, 2020-04-15T08:00:14, 2020-04-15T08:00:13.999]`, `+I[2020-04-15T08:00:17, 6.00, F, 2020-04-15T08:00:14, 2020-04-15T08:00:24, 2020-04-15T08:00:23.999]`, "
      + "`+I[2020-04-15T08:00:21, 4.00, A, 2020-04-15T08:00:14, 2020-04-15T08:00:24, 2020-04-15T08:00:23.999]`, `+I[2020-04-15T08:00:27, 5.00, C, 2020-04-15T08:00:24, 2020-04-15T08:00:34, 2020-04-15T08:00:33.999]`"));
  });

  it("HOP and CUMULATE on their own shift by the offset; an offset larger than the size is the same as its remainder", async () => {
    const hop = (off: string) => `SELECT item, window_start, window_end FROM TABLE(HOP(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '5' SECOND, INTERVAL '10' SECOND, INTERVAL '${off}' SECOND)) WHERE item = 'C'`;
    expect(await bidEnv().executeSql(hop("2")).toChangelog()).toEqual([
      "+I[C, 2020-04-15T07:59:57, 2020-04-15T08:00:07]", "+I[C, 2020-04-15T08:00:02, 2020-04-15T08:00:12]",
      "+I[C, 2020-04-15T08:00:22, 2020-04-15T08:00:32]", "+I[C, 2020-04-15T08:00:27, 2020-04-15T08:00:37]",
    ]);
    expect(await bidEnv().executeSql(hop("12")).toChangelog()).toEqual(await bidEnv().executeSql(hop("2")).toChangelog());
    expect(await bidEnv().executeSql("SELECT item, window_start, window_end FROM TABLE(CUMULATE(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '5' SECOND, INTERVAL '10' SECOND, INTERVAL '-2' SECOND)) WHERE item IN ('C', 'B')").toChangelog()).toEqual([
      "+I[C, 2020-04-15T07:59:58, 2020-04-15T08:00:08]", "+I[B, 2020-04-15T08:00:08, 2020-04-15T08:00:13]", "+I[B, 2020-04-15T08:00:08, 2020-04-15T08:00:18]",
      "+I[C, 2020-04-15T08:00:18, 2020-04-15T08:00:28]",
    ]);
  });
});
