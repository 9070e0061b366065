// Processing-time OVER aggregation and interval joins in running jobs: SQL and the Table API, each row's
// processing time read from a manualClock the test moves, timers woken by it, savepoints, explain() and toSql().
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { $, CollectionSink, DataTypes, EnvironmentSettings, Over, Row, Schema, TableEnvironment, lit, manualClock, rowInterval } from "../../src/index.js";
import { pushable, rowsIn, settle } from "../support/pushable-source.js";

/** The explain line of the first `name(...)` operator, without its tree prefix and output schema (VALUES read back types its columns NOT NULL). */
function operatorLine(explain: string, name: string): string {
  const line = explain.split("\n").find((l) => l.replace(/^[\s:+-]*/, "").startsWith(`${name}(`));
  if (line === undefined) throw new Error(`no ${name} in\n${explain}`);
  return line.replace(/^[\s:+-]*/, "").split(" -> ")[0]!;
}

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });
const at = (hms: string) => Date.parse(`2020-04-15T${hms}Z`);

const BIDS = Schema.newBuilder().column("price", DataTypes.INT()).column("item", DataTypes.STRING())
  .columnByExpression("proc_time", "PROCTIME()").build();
const OVER_SINK = Schema.newBuilder().column("item", DataTypes.STRING()).column("price", DataTypes.INT()).column("total", DataTypes.INT()).build();
const RANGE_SQL = "SELECT item, price, SUM(price) OVER (PARTITION BY item ORDER BY proc_time RANGE BETWEEN INTERVAL '2' SECOND PRECEDING AND CURRENT ROW) AS total FROM bids";

function streaming(clock: ReturnType<typeof manualClock>, savepoint?: string): TableEnvironment {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  env.setClock(clock);
  if (savepoint !== undefined) env.getConfig().set("execution.savepoint.path", savepoint);
  return env;
}

function bids(env: TableEnvironment, sink: CollectionSink) {
  const source = pushable();
  env.createTemporaryView("bids", env.fromAsyncIterable(BIDS, source.rows as never, { name: "bids" }) as never);
  env.createTemporaryTable("out", sink.descriptor(OVER_SINK));
  return source;
}

describe("OVER ordered by a processing-time attribute", () => {
  it("SQL RANGE BETWEEN INTERVAL PRECEDING: rows of one millisecond wait for it to pass, then share a value over [t - 2 s, t]", async () => {
    const clock = manualClock(at("08:00:01"));
    const env = streaming(clock);
    const sink = new CollectionSink();
    const source = bids(env, sink);
    const job = env.sqlQuery(RANGE_SQL).executeInsert("out");
    source.push(4, "A"); source.push(2, "A"); source.push(7, "B");
    await settle();
    expect(sink.changelog()).toEqual([]);
    clock.advanceTo(at("08:00:01.001"));
    expect(await rowsIn(sink, 3)).toEqual(["+I[A, 4, 6]", "+I[A, 2, 6]", "+I[B, 7, 7]"]);
    clock.advanceTo(at("08:00:02.500"));
    source.push(5, "A");
    await settle();
    clock.advanceBy(1);
    expect((await rowsIn(sink, 4)).slice(3)).toEqual(["+I[A, 5, 11]"]);
    clock.advanceTo(at("08:00:04"));
    source.push(1, "A"); // the rows of 08:00:01 are out of its frame [08:00:02, 08:00:04]
    await settle();
    clock.advanceBy(1);
    expect((await rowsIn(sink, 5)).slice(4)).toEqual(["+I[A, 1, 6]"]);
    await job.getJobClient().cancel();
  });

  it("Table API ROWS BETWEEN 1 PRECEDING: each row is emitted on arrival, in arrival order, without the clock moving", async () => {
    const clock = manualClock(at("08:00:01"));
    const env = streaming(clock);
    const sink = new CollectionSink();
    const source = bids(env, sink);
    const q = env.from("bids").window(Over.partitionBy($("item")).orderBy($("proc_time")).preceding(rowInterval(1)).as("w"))
      .select($("item"), $("price"), $("price").sum().over($("w")).as("total"));
    const job = q.executeInsert("out");
    source.push(4, "A"); source.push(2, "A"); source.push(9, "B"); source.push(3, "A");
    expect(await rowsIn(sink, 4)).toEqual(["+I[A, 4, 4]", "+I[A, 2, 6]", "+I[B, 9, 9]", "+I[A, 3, 5]"]);
    await job.getJobClient().cancel();
  });

  it("rows waiting at a savepoint come back with their timer, and the restored frame goes on", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ts-proc-over-"));
    dirs.push(dir);
    const sink = new CollectionSink();
    const first = streaming(manualClock(at("08:00:01")));
    const source1 = bids(first, sink);
    const job1 = first.sqlQuery(RANGE_SQL).executeInsert("out");
    source1.push(4, "A");
    await settle();
    const path = await job1.getJobClient().stopWithSavepoint(dir);
    expect(sink.changelog()).toEqual([]);

    const clock = manualClock(at("08:00:01"));
    const second = streaming(clock, path);
    const source2 = bids(second, sink);
    const job2 = second.sqlQuery(RANGE_SQL).executeInsert("out");
    await settle();
    expect(sink.changelog()).toEqual([]);
    clock.advanceTo(at("08:00:01.001"));
    expect(await rowsIn(sink, 1)).toEqual(["+I[A, 4, 4]"]);
    clock.advanceTo(at("08:00:02"));
    source2.push(2, "A");
    await settle();
    clock.advanceBy(1);
    expect(await rowsIn(sink, 2)).toEqual(["+I[A, 4, 4]", "+I[A, 2, 6]"]);
    await job2.getJobClient().cancel();
  });

  it("explain prints it as Flink does; toSql() reads back to the same plan; DESC is refused", () => {
    const env = streaming(manualClock(at("08:00:01")));
    bids(env, new CollectionSink());
    const q = env.sqlQuery(RANGE_SQL);
    expect(q.explain()).toContain("OverAggregate(partitionBy=[item], orderBy=[proc_time ASC], window=[RANGE BETWEEN 2000ms PRECEDING AND CURRENT ROW], select=[SUM(price) AS ");
    // toSql() over a VALUES view (a scan of a pushed source has no SQL form)
    const values = streaming(manualClock(at("08:00:01")));
    values.createTemporaryView("bids", values.fromValues(BIDS, Row.of(4, "A")) as never);
    const over = values.sqlQuery(RANGE_SQL);
    const sql = over.toSql();
    expect(sql).toContain("OVER (PARTITION BY `item` ORDER BY `proc_time` ASC RANGE BETWEEN INTERVAL '2' SECOND PRECEDING AND CURRENT ROW)");
    expect(operatorLine(values.sqlQuery(sql).explain(), "OverAggregate")).toBe(operatorLine(over.explain(), "OverAggregate"));
    const t = env.from("bids");
    expect(() => t.window(Over.partitionBy($("item")).orderBy($("proc_time").desc()).preceding(rowInterval(1)).as("w"))
      .select($("price").sum().over($("w")))).toThrow("over window 'w': an over window on the processing-time attribute 'proc_time' must be ordered ascending");
  });
});

const ORDERS = Schema.newBuilder().column("id", DataTypes.INT()).columnByExpression("op", "PROCTIME()").build();
const SHIPS = Schema.newBuilder().column("oid", DataTypes.INT()).column("sid", DataTypes.INT()).columnByExpression("sp", "PROCTIME()").build();
const JOIN_SINK = Schema.newBuilder().column("id", DataTypes.INT()).column("sid", DataTypes.INT()).build();
// a shipment within 2 s after its order: op - sp in [-2000, 0]
const JOIN_SQL = "SELECT o.id, s.sid FROM orders o LEFT JOIN ships s ON o.id = s.oid AND s.sp BETWEEN o.op AND o.op + INTERVAL '2' SECOND";

function joinTables(env: TableEnvironment, sink: CollectionSink) {
  const orders = pushable();
  const ships = pushable();
  env.createTemporaryView("orders", env.fromAsyncIterable(ORDERS, orders.rows as never, { name: "orders" }) as never);
  env.createTemporaryView("ships", env.fromAsyncIterable(SHIPS, ships.rows as never, { name: "ships" }) as never);
  env.createTemporaryTable("out", sink.descriptor(JOIN_SINK));
  return { orders, ships };
}

function joinJob(env: TableEnvironment, sink: CollectionSink) {
  return { ...joinTables(env, sink), job: env.sqlQuery(JOIN_SQL).executeInsert("out") };
}

describe("interval join on processing-time attributes", () => {
  it("SQL LEFT JOIN: a shipment joins the orders of the 2 s before it; an order without one comes out padded when its 2 s have passed", async () => {
    const clock = manualClock(at("08:00:01"));
    const env = streaming(clock);
    const sink = new CollectionSink();
    const { orders, ships, job } = joinJob(env, sink);
    orders.push(1); orders.push(2);
    await settle();
    clock.advanceTo(at("08:00:02"));
    ships.push(1, 10);
    expect(await rowsIn(sink, 1)).toEqual(["+I[1, 10]"]);
    clock.advanceTo(at("08:00:03"));
    await settle();
    expect(sink.changelog()).toEqual(["+I[1, 10]"]);
    clock.advanceTo(at("08:00:03.001"));
    expect(await rowsIn(sink, 2)).toEqual(["+I[1, 10]", "+I[2, null]"]);
    ships.push(2, 20); // too late for order 2
    orders.push(3);
    clock.advanceTo(at("08:00:04"));
    ships.push(3, 30);
    expect(await rowsIn(sink, 3)).toEqual(["+I[1, 10]", "+I[2, null]", "+I[3, 30]"]);
    await job.getJobClient().cancel();
  });

  it("an order waiting at a savepoint is restored with its timer: padded in the new job once its time has passed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ts-proc-join-"));
    dirs.push(dir);
    const sink = new CollectionSink();
    const first = joinJob(streaming(manualClock(at("08:00:01"))), sink);
    first.orders.push(7); first.orders.push(8);
    await settle();
    const path = await first.job.getJobClient().stopWithSavepoint(dir);
    expect(sink.changelog()).toEqual([]);
    const clock = manualClock(at("08:00:02"));
    const second = joinJob(streaming(clock, path), sink);
    second.ships.push(8, 80);
    expect(await rowsIn(sink, 1)).toEqual(["+I[8, 80]"]);
    clock.advanceTo(at("08:00:03.001"));
    expect(await rowsIn(sink, 2)).toEqual(["+I[8, 80]", "+I[7, null]"]);
    await second.job.getJobClient().cancel();
  });

  it("explain prints windowBounds=[isRowTime=false, ...]; toSql() reads back to the same plan; a mixed pair is no interval join", () => {
    const env = streaming(manualClock(at("08:00:01")));
    joinTables(env, new CollectionSink());
    const q = env.sqlQuery(JOIN_SQL);
    expect(q.explain()).toContain("IntervalJoin(joinType=[LeftOuterJoin], ");
    expect(q.explain()).toContain("windowBounds=[isRowTime=false, leftLowerBound=-2000, leftUpperBound=0, leftTimeIndex=1, rightTimeIndex=2]");
    const t = env.from("orders").join(env.from("ships")).where($("id").isEqual($("oid")).and($("sp").between($("op"), $("op").plus(lit(2).seconds()))));
    expect(t.explain()).toContain("windowBounds=[isRowTime=false, leftLowerBound=-2000, leftUpperBound=0, leftTimeIndex=1, rightTimeIndex=2]");
    expect(operatorLine(t.explain(), "IntervalJoin")).toContain("joinType=[InnerJoin]");
    // toSql() over VALUES views (a scan of a pushed source has no SQL form)
    const values = streaming(manualClock(at("08:00:01")));
    values.createTemporaryView("orders", values.fromValues(ORDERS, Row.of(1)) as never);
    values.createTemporaryView("ships", values.fromValues(SHIPS, Row.of(1, 10)) as never);
    const joined = values.from("orders").join(values.from("ships")).where($("id").isEqual($("oid")).and($("sp").between($("op"), $("op").plus(lit(2).seconds()))));
    const sql = joined.toSql();
    expect(sql).toMatch(/AND \(t0\.`op` BETWEEN \(t\d\.`sp` - INTERVAL '2' SECOND\) AND t\d\.`sp`\)$/);
    // the condition reads back in its SQL form; the join and its bounds are the same
    const back = operatorLine(values.sqlQuery(sql).explain(), "IntervalJoin");
    expect(back).toMatch(/^IntervalJoin\(joinType=\[InnerJoin\], /);
    expect(back).toContain("leftKeys=[id], rightKeys=[oid], windowBounds=[isRowTime=false, leftLowerBound=-2000, leftUpperBound=0, leftTimeIndex=1, rightTimeIndex=2]");
    // a processing-time attribute bounded against an event-time one is no interval join (Flink's rule)
    const events = Schema.newBuilder().column("eid", DataTypes.INT()).column("et", DataTypes.TIMESTAMP(3)).watermark("et", "et").build();
    const mixed = values.from("orders").join(values.fromValues(events)).where($("id").isEqual($("eid"))
      .and($("op").between($("et"), $("et").plus(lit(2).seconds()))));
    expect(mixed.explain()).not.toContain("IntervalJoin(");
  });
});
