import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  $, CollectionSink, DataTypes, EnvironmentSettings, Over, Row, Schema, Session, TableDescriptor, TableEnvironment, Tumble,
  UNBOUNDED_RANGE, lit,
} from "../../src/index.js";

import { ev, events } from "../windows/support.js";
import { OrderByFunction, timedSourceLateEventsLarge } from "../ptf/flink-multi-functions.js";
import { descriptor } from "../../src/index.js";

describe("late rows are counted in the job's metrics", () => {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());

  it("a tumbling window: WindowAggregate[w].numLateRecordsDropped", async () => {
    const t = env.fromValues(events,
      ev("a", 1, 0.5),
      ev("a", 2, 3.0), // wm 2.0: [0, 2) fires
      ev("a", 3, 1.5), // late: [0, 2) has fired
      ev("b", 4, 3.5),
    );
    const result = t.window(Tumble.over(lit(2).seconds()).on($("ts")).as("w"))
      .groupBy($("k"), $("w"))
      .select($("k"), $("v").sum().as("total"))
      .execute();
    // the job starts when the result is consumed: nothing to report before
    expect(result.getMetrics()).toEqual({});
    expect(await result.toChangelog()).toEqual(["+I[a, 1]", "+I[a, 2]", "+I[b, 4]"]);
    expect(result.getMetrics()).toEqual({
      "Values.numRecordsOut": 4,
      "WindowAggregate[w].numLateRecordsDropped": 1,
      "Collect.numRecordsIn": 3,
    });
  });

  it("a session window and an OVER aggregate count their own late rows", async () => {
    const input = env.fromValues(events,
      ev("a", 1, 1),
      ev("a", 2, 10), // wm 9: the session [1, 3) fires
      ev("a", 3, 1.5), // late for the session, and for the OVER operator (1.5 <= wm 9)
      ev("a", 4, 2), // late for both too
    );
    const sessions = input.window(Session.withGap(lit(2).seconds()).on($("ts")).as("s"))
      .groupBy($("k"), $("s")).select($("k"), $("v").sum().as("total")).execute();
    expect(await sessions.toChangelog()).toEqual(["+I[a, 1]", "+I[a, 2]"]);
    expect(sessions.getMetrics()).toEqual({
      "Values.numRecordsOut": 4,
      "WindowAggregate[s].numLateRecordsDropped": 2,
      "Collect.numRecordsIn": 2,
    });

    const running = input.window(Over.partitionBy($("k")).orderBy($("ts")).preceding(UNBOUNDED_RANGE).as("o"))
      .select($("k"), $("v").sum().over($("o")).as("total")).execute();
    expect(await running.toChangelog()).toEqual(["+I[a, 1]", "+I[a, 3]"]);
    expect(running.getMetrics()).toEqual({
      "Values.numRecordsOut": 4,
      "OverAggregate[o].numLateRecordsDropped": 2,
      "Collect.numRecordsIn": 2,
    });
  });

  it("a PTF's ORDER BY sort buffer: Process[<function>].numLateRecordsDropped", async () => {
    const ptfEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    timedSourceLateEventsLarge(ptfEnv);
    ptfEnv.createTemporaryFunction("f", OrderByFunction);
    const result = ptfEnv.fromCall("f", ptfEnv.from("t_large").partitionBy($("name")).orderBy($("ts").asc(), $("score").desc()).asArgument("r"),
      descriptor("ts").asArgument("on_time")).execute();
    // (Alice, 3, ts 1) arrives behind watermark 9: dropped by the sort buffer, the other 9 reach eval
    expect((await result.toChangelog()).length).toBe(9);
    expect(result.getMetrics()).toEqual({
      "Values.numRecordsOut": 10,
      "Process[f].numLateRecordsDropped": 1,
      "Collect.numRecordsIn": 9,
    });
    // a call without ORDER BY drops nothing and reports nothing for the function
    const plain = ptfEnv.fromCall("f", ptfEnv.from("t_large").partitionBy($("name")).asArgument("r"), descriptor("ts").asArgument("on_time")).execute();
    await plain.toArray();
    expect(Object.keys(plain.getMetrics())).toEqual(["Values.numRecordsOut", "Collect.numRecordsIn"]);
  });

  it("two windows with one alias get distinct scopes, upstream first", async () => {
    const perSecond = env.fromValues(events, ev("a", 1, 0), ev("a", 1, 1.2), ev("a", 1, 3), ev("a", 1, 0.5))
      .window(Tumble.over(lit(1).seconds()).on($("ts")).as("w"))
      .groupBy($("k"), $("w"))
      .select($("k"), $("w").rowtime().as("rt"), $("v").count().as("n"));
    const result = perSecond.window(Tumble.over(lit(5).seconds()).on($("rt")).as("w"))
      .groupBy($("w")).select($("n").sum().as("rows")).execute();
    expect(await result.toChangelog()).toEqual(["+I[3]"]);
    // the row at 0.5 s comes at watermark 2 (after 3 s): [0, 1) has fired, so the per-second window (the
    // upstream one, named first) drops it; the 5 s window gets the per-second rowtimes in order
    expect(result.getMetrics()).toEqual({
      "Values.numRecordsOut": 4,
      "WindowAggregate[w].numLateRecordsDropped": 1,
      "WindowAggregate[w]#2.numLateRecordsDropped": 0,
      "Collect.numRecordsIn": 1,
    });
  });
});

describe("records in and out of sources and sinks", () => {
  it("counts the rows a source emits and the rows the result receives", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const people = env.fromValues(
      DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("age", DataTypes.INT())),
      Row.of("Alice", 35), Row.of("Bob", 12), Row.of("Carol", 40));
    const adults = people.filter($("age").isGreaterOrEqual(18)).select($("name")).execute();
    expect(await adults.toChangelog()).toEqual(["+I[Alice]", "+I[Carol]"]);
    expect(adults.getMetrics()).toEqual({ "Values.numRecordsOut": 3, "Collect.numRecordsIn": 2 });

    // an aggregate's changelog: 3 rows in, 4 changes out (+I, +I, -U, +U)
    const counts = people.addColumns($("age").isGreaterOrEqual(18).as("adult"))
      .groupBy($("adult")).select($("adult"), $("name").count().as("n")).execute();
    expect(await counts.toChangelog()).toEqual(["+I[true, 1]", "+I[false, 1]", "-U[true, 1]", "+U[true, 2]"]);
    expect(counts.getMetrics()).toEqual({ "Values.numRecordsOut": 3, "Collect.numRecordsIn": 4 });
  });

  it("a batch result counts the changelog it materializes, not the rows it returns", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING())), Row.of("a"), Row.of("a"), Row.of("b"))
      .groupBy($("k")).select($("k"), $("k").count().as("n")).execute();
    expect(await t.toChangelog()).toEqual(["+I[a, 2]", "+I[b, 1]"]);
    expect(t.getMetrics()).toEqual({ "Values.numRecordsOut": 3, "Collect.numRecordsIn": 2 });
  });

  it("is readable while the job runs: counts up to the slice the job has processed", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const rows = Array.from({ length: 10_000 }, (_, i) => Row.of(i));
    const result = env.fromValues(DataTypes.ROW(DataTypes.FIELD("n", DataTypes.INT())), rows)
      .filter($("n").mod(2).isEqual(0)).execute();
    const seen: Record<string, number>[] = [];
    let received = 0;
    for await (const _r of result.collect()) {
      if (received++ === 0) seen.push({ ...result.getMetrics() });
    }
    expect(received).toBe(5_000);
    // a job runs 4096 source records per slice before the consumer gets that slice's rows
    expect(seen).toEqual([{ "Values.numRecordsOut": 4096, "Collect.numRecordsIn": 2048 }]);
    expect(result.getMetrics()).toEqual({ "Values.numRecordsOut": 10_000, "Collect.numRecordsIn": 5_000 });
  });

  it("stays readable after a job failed, counting the failing record", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const result = env.fromValues(events, ev("a", 1, 0.5), ev("b", 2, 3), Row.of("c", 3, null), ev("d", 4, 4))
      .window(Tumble.over(lit(2).seconds()).on($("ts")).as("w"))
      .groupBy($("k"), $("w")).select($("k"), $("v").sum().as("total"))
      .execute();
    await expect(result.toArray()).rejects.toThrow("RowTime field should not be null");
    // [0, 2) fired at the second row; the third row failed the job in the window operator
    expect(result.getMetrics()).toEqual({
      "Values.numRecordsOut": 3,
      "WindowAggregate[w].numLateRecordsDropped": 0,
      "Collect.numRecordsIn": 1,
    });
  });

  it("an insert job: the source, and the sink's records in and written (an upsert sink takes no -U)", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const sink = new CollectionSink();
    env.createTemporaryTable("out", sink.descriptor(Schema.newBuilder()
      .column("k", DataTypes.STRING().notNull()).column("n", DataTypes.BIGINT()).primaryKey("k").build()));
    const insert = env.fromValues(DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING().notNull())), Row.of("a"), Row.of("a"), Row.of("b"))
      .groupBy($("k")).select($("k"), $("k").count().as("n"))
      .executeInsert("out");
    // the metrics exist from submission on; the job runs after this turn of the event loop
    expect(insert.getMetrics()).toEqual({ "Values.numRecordsOut": 0, "Sink[out].numRecordsIn": 0, "Sink[out].numRecordsOut": 0 });
    await insert.await();
    expect(sink.changelog()).toEqual(["+I[a, 1]", "+U[a, 2]", "+I[b, 1]"]);
    expect(insert.getMetrics()).toEqual({ "Values.numRecordsOut": 3, "Sink[out].numRecordsIn": 4, "Sink[out].numRecordsOut": 3 });
  });

  it("an unbounded source, cancelled: what it emitted is what the result received", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    env.createTemporaryTable("Names", TableDescriptor.forConnector("datagen")
      .schema(Schema.newBuilder().column("id", DataTypes.INT()).build())
      .option("rows-per-second", "100000").option("seed", "1").build());
    const result = env.from("Names").execute();
    let received = 0;
    for await (const _r of result.collect()) if (++received === 3) break;
    const m = result.getMetrics();
    expect(Object.keys(m)).toEqual(["datagen[Names].numRecordsOut", "Collect.numRecordsIn"]);
    expect(m["datagen[Names].numRecordsOut"]).toBe(m["Collect.numRecordsIn"]);
    expect(m["Collect.numRecordsIn"]).toBeGreaterThanOrEqual(3);
  });
});

describe("malformed lines skipped by the filesystem source are counted", () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), "tablestream-metrics-")); });
  afterEach(() => { rmSync(dir, { recursive: true, force: true }); vi.restoreAllMocks(); });

  const people = Schema.newBuilder().column("name", DataTypes.STRING()).column("age", DataTypes.INT()).build();
  const table = (path: string, format: string, ignore: boolean) => TableDescriptor.forConnector("filesystem")
    .schema(people).option("path", path).format(format).option(`${format}.ignore-parse-errors`, String(ignore)).build();

  it("CSV: filesystem[t].numSkippedRecords, read through execute()", async () => {
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const csv = join(dir, "people.csv");
    writeFileSync(csv, "Bob,3\nEve,x\nZed\nAnn,5\n");
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    env.createTable("t", table(csv, "csv", true));
    const result = env.from("t").execute();
    expect(await result.toChangelog()).toEqual(["+I[Bob, 3]", "+I[Ann, 5]"]);
    expect(result.getMetrics()).toEqual({
      "filesystem[t].numRecordsOut": 2,
      "filesystem[t].numSkippedRecords": 2,
      "Collect.numRecordsIn": 2,
    });
    // one warning line besides the metric
    expect(stderr).toHaveBeenCalledTimes(1);
  });

  it("JSON Lines: counted in the insert result's metrics", async () => {
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const json = join(dir, "people.json");
    writeFileSync(json, `{"name":"a","age":1}\nnot json\n{"name":"b","age":"old"}\n{"name":"c","age":3}\n`);
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    env.createTable("j", table(json, "json", true));
    const sink = new CollectionSink();
    env.createTemporaryTable("out", sink.descriptor(people));
    const insert = env.from("j").executeInsert("out");
    await insert.await();
    expect(sink.changelog()).toEqual(["+I[a, 1]", "+I[c, 3]"]);
    expect(insert.getMetrics()).toEqual({
      "filesystem[j].numRecordsOut": 2,
      "filesystem[j].numSkippedRecords": 2,
      "Sink[out].numRecordsIn": 2,
      "Sink[out].numRecordsOut": 2,
    });
  });

  it("without ignore-parse-errors the job fails; the metrics show how far it got", async () => {
    const csv = join(dir, "people.csv");
    writeFileSync(csv, "Bob,3\nEve,x\nAnn,5\n");
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    env.createTable("t", table(csv, "csv", false));
    const result = env.from("t").execute();
    await expect(result.toArray()).rejects.toThrow(`filesystem table 't': file '${csv}', line 2, column 2 ('age'): cannot parse 'x' as INT`);
    expect(result.getMetrics()).toEqual({
      "filesystem[t].numRecordsOut": 1,
      "filesystem[t].numSkippedRecords": 0,
      "Collect.numRecordsIn": 1,
    });
  });
});
