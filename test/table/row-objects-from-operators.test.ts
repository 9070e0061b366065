import { describe, expect, it, vi } from "vitest";
import {
  $, ArgumentTrait, ChangelogMode, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, RowKind, Schema,
  TableEnvironment, descriptor, tableArg, valueState,
} from "../../src/index.js";
import { rowConstructors, rowConverter } from "../../src/table/row-converter.js";
import { CollectSinkOperator } from "../../src/exec/operators/collect-sink.js";
import { OperatorOutput } from "../../src/exec/operator.js";
import { ALL_KINDS } from "../../src/plan/changelog-mode.js";
import { ColumnarValuesJob } from "../../src/exec/columnar/columnar-job.js";
import { batchLines, runWithRowObjectSink } from "./row-object-support.js";

// The operator in front of the result sink of batches() / forEachBatch() / toArray() builds its output rows as
// the consumer's row objects (one object per output row, no positional record copied into one): the group
// aggregate's generated code and the PTF collector. These tests pin that the rows are the same as through
// the record path (toChangelog(), which reads records) and that the path is taken.

const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const KINDS = ["+I", "-U", "+U", "-D"];

const bids = () => streaming().fromValues(
  DataTypes.ROW(DataTypes.FIELD("auction", DataTypes.INT().notNull()), DataTypes.FIELD("price", DataTypes.INT().notNull())),
  Row.of(1, 10), Row.of(2, 5), Row.of(1, 7), Row.of(1, 20), Row.of(3, 1), Row.of(2, 5),
);

describe("group aggregate: output rows built as the consumer's row objects", () => {
  const plan = () => bids().groupBy($("auction")).select($("auction"), $("auction").count().as("cnt"), $("price").max().as("hi"));
  const expected = [
    "+I[1, 1, 10]", "+I[2, 1, 5]", "-U[1, 1, 10]", "+U[1, 2, 10]", "-U[1, 2, 10]", "+U[1, 3, 20]", "+I[3, 1, 1]",
    "-U[2, 1, 5]", "+U[2, 2, 5]",
  ];

  it("batches() gives exactly the changelog of the record path", async () => {
    expect(await plan().execute().toChangelog()).toEqual(expected);
    expect(await batchLines(plan())).toEqual(expected);
  });

  it("after the first record (which resolves the downstream) every row reaches the sink as a row object, in order", () => {
    const r = runWithRowObjectSink(plan());
    expect(r.all).toEqual(expected);
    expect(r.viaRecord).toEqual(["+I[1, 1, 10]"]);
    expect(r.viaRowObject).toEqual(expected.slice(1));
  });

  it("rows have the kind's prototype and one constructor per kind, whichever way they were made", async () => {
    const rows = await plan().execute().toArray();
    expect(rows.map((r) => Row.kindOf(r))).toEqual(expected.map((e) => e.slice(0, 2)));
    expect(rows.map((r) => ({ ...r }))[3]).toEqual({ auction: 1, cnt: 2, hi: 10 });
    expect(String(rows[3])).toBe("+U[1, 2, 10]");
    const convert = rowConverter<object>(plan().node.schema);
    for (const [k, r] of rows.map((x) => [KINDS.indexOf(Row.kindOf(x)), x] as const)) {
      expect(Object.getPrototypeOf(r)).toBe(rowConstructors(plan().node.schema)[k].prototype);
      expect(Object.getPrototypeOf(convert(k, [0, 0, 0]))).toBe(Object.getPrototypeOf(r));
    }
  });

  it("retractions: -D when a group's last row is retracted, through row objects too", async () => {
    const changelog = () => streaming().fromValues(
      DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT())),
      Row.of("a", 1), Row.of("b", 2), Row.ofKind(RowKind.UPDATE_BEFORE, "a", 1), Row.ofKind(RowKind.UPDATE_AFTER, "a", 5),
      Row.ofKind(RowKind.DELETE, "b", 2),
    ).groupBy($("k")).select($("k"), $("v").sum().as("s"));
    const want = ["+I[a, 1]", "+I[b, 2]", "-D[a, 1]", "+I[a, 5]", "-D[b, 2]"];
    expect(await changelog().execute().toChangelog()).toEqual(want);
    expect(await batchLines(changelog())).toEqual(want);
    expect(runWithRowObjectSink(changelog()).viaRowObject).toEqual(want.slice(1));
  });

  it("mini-batch: the bundle's changes go out as row objects", async () => {
    const mb = () => {
      const t = plan();
      t.env.getConfig().set("table.exec.mini-batch.enabled", "true").set("table.exec.mini-batch.allow-latency", "1 h")
        .set("table.exec.mini-batch.size", "4").set("table.optimizer.agg-phase-strategy", "ONE_PHASE");
      return t;
    };
    // bundles of 4 records: (1,10) (2,5) (1,7) (1,20) fold into one +I per auction; (3,1) (2,5) end with the input
    const want = ["+I[1, 3, 20]", "+I[2, 1, 5]", "+I[3, 1, 1]", "-U[2, 1, 5]", "+U[2, 2, 5]"];
    expect(await mb().execute().toChangelog()).toEqual(want);
    expect(await batchLines(mb())).toEqual(want);
    const r = runWithRowObjectSink(mb());
    expect(r.all).toEqual(want);
    expect(r.viaRecord).toEqual(["+I[1, 3, 20]"]);
  });

  it("Collect.numRecordsIn counts the rows that came as row objects", async () => {
    const result = plan().execute();
    let n = 0;
    for await (const b of result.batches()) n += b.length;
    expect(n).toBe(expected.length);
    expect(result.getMetrics()["Collect.numRecordsIn"]).toBe(expected.length);
  });

  it("a batch job over an updating plan materializes at the sink: records, not row objects, and the final rows", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT())),
      Row.of("a", 1), Row.of("b", 2), Row.of("a", 3)).groupBy($("k")).select($("k"), $("v").sum().as("s"));
    expect(await batchLines(t)).toEqual(["+I[a, 4]", "+I[b, 2]"]);
    const sink = new CollectSinkOperator({ record: () => {} }, { schema: t.node.schema, mode: ALL_KINDS });
    expect(sink.rowObjectReceiver()).toBeNull();
  });

  it("an edge into a sink without row objects has none", () => {
    expect(new OperatorOutput(new CollectSinkOperator({ record: () => {} }), 0).rows).toBeNull();
  });
});

const CountPerKey = ProcessTableFunction.define({
  name: "CountPerKey",
  args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { counter: valueState({ count: 0 }) },
  output: DataTypes.BIGINT().notNull(),
  eval(ctx, { counter }) { ctx.collect(++counter.count); },
});

const Idle = ProcessTableFunction.define({
  name: "Idle",
  args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.REQUIRE_ON_TIME) },
  output: DataTypes.STRING(),
  eval(ctx) { const t = ctx.timeContext("millis"); t.registerOnTime("idle", t.time()! + 10); },
  onTimer(ctx) { ctx.collect("idle"); },
});

const Updating = ProcessTableFunction.define({
  name: "Updating",
  args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  output: DataTypes.STRING(),
  changelogMode: ChangelogMode.all(),
  eval(ctx) { ctx.collect("a"); ctx.collect(Row.ofKind(RowKind.UPDATE_BEFORE, "a")); ctx.collect(Row.ofKind(RowKind.UPDATE_AFTER, "b")); ctx.collect(Row.ofKind(RowKind.DELETE, "b")); },
});

describe("PTF collect(): output rows built as the consumer's row objects", () => {
  it("value-state counter (the fast path): the same rows as the record path, all but the first as row objects", async () => {
    const plan = () => bids().partitionBy($("auction")).process(CountPerKey);
    const want = ["+I[1, 1]", "+I[2, 1]", "+I[1, 2]", "+I[1, 3]", "+I[3, 1]", "+I[2, 2]"];
    expect(await plan().execute().toChangelog()).toEqual(want);
    expect(await batchLines(plan())).toEqual(want);
    const r = runWithRowObjectSink(plan());
    expect(r.all).toEqual(want);
    // the PTF's output edge knows the receiver when the graph is built: every row comes as a row object
    expect(r.viaRecord).toEqual([]);
  });

  it("timers: rows collected in onTimer carry the timer's rowtime", async () => {
    const env = streaming();
    const schema = Schema.newBuilder().column("k", DataTypes.INT().notNull()).column("ts", DataTypes.TIMESTAMP_LTZ(3).notNull())
      .watermark("ts", "ts").build();
    env.createTemporaryView("T", env.fromValues(schema, Row.of(1, new Date(0)), Row.of(2, new Date(5)), Row.of(1, new Date(30))));
    const timed = () => env.sqlQuery("SELECT * FROM T").partitionBy($("k")).process(Idle, descriptor("ts").asArgument("on_time"));
    const rows = await timed().execute().toArray();
    expect(rows.map((r) => [Row.kindOf(r), r.k, r.EXPR$0, r.rowtime.getTime()])).toEqual([
      // the row at 30 moves key 1's timer from 10 to 40 before the watermark 30 fires key 2's (at 15)
      ["+I", 2, "idle", 15], ["+I", 1, "idle", 40],
    ]);
    expect(await timed().execute().toChangelog()).toEqual(["+I[2, idle, 1970-01-01T00:00:00.015Z]", "+I[1, idle, 1970-01-01T00:00:00.040Z]"]);
    expect(runWithRowObjectSink(timed()).viaRecord).toEqual([]);
  });

  it("an updating PTF: each collected kind gets its kind's row object", async () => {
    const plan = () => bids().filter($("auction").isEqual(3)).partitionBy($("auction")).process(Updating);
    const want = ["+I[3, a]", "-U[3, a]", "+U[3, b]", "-D[3, b]"];
    expect(await plan().execute().toChangelog()).toEqual(want);
    expect(await batchLines(plan())).toEqual(want);
    expect(runWithRowObjectSink(plan()).viaRowObject).toEqual(want);
  });
});

describe("collect() runs the job of batches()", () => {
  it("a projection over fromValues runs columnar under collect() too, with the rows of the row job", async () => {
    const step = vi.spyOn(ColumnarValuesJob.prototype, "step");
    try {
      const plan = () => bids().filter($("price").isGreater(4)).select($("auction"), $("price").times(2).as("p2"));
      const rows: string[] = [];
      for await (const r of plan().execute().collect()) rows.push(String(r));
      expect(rows).toEqual(["+I[1, 20]", "+I[2, 10]", "+I[1, 14]", "+I[1, 40]", "+I[2, 10]"]);
      expect(step).toHaveBeenCalled();
      expect(await plan().execute().toChangelog()).toEqual(rows);
    } finally {
      step.mockRestore();
    }
  });

  it("a group aggregate under collect(): its rows come from the operator as row objects, in changelog order", async () => {
    const plan = () => bids().groupBy($("auction")).select($("auction"), $("price").sum().as("s"));
    const rows: string[] = [];
    const result = plan().execute();
    for await (const r of result.collect()) rows.push(String(r));
    expect(rows).toEqual(["+I[1, 10]", "+I[2, 5]", "-U[1, 10]", "+U[1, 17]", "-U[1, 17]", "+U[1, 37]", "+I[3, 1]", "-U[2, 5]", "+U[2, 10]"]);
    expect(result.getMetrics()["Collect.numRecordsIn"]).toBe(9);
  });

  it("breaking out of collect() after the first row cancels the job (later rows never arrive)", async () => {
    const result = streaming().fromValues(...Array.from({ length: 10_000 }, (_, i) => Row.of(i % 7, i))).as("k", "v")
      .groupBy($("k")).select($("k"), $("v").count().as("n")).execute();
    let seen = 0;
    for await (const r of result.collect()) { seen++; expect(String(r)).toBe("+I[0, 1]"); break; }
    expect(seen).toBe(1);
    // one slice ran (4096 of the 10,000 rows), no more
    expect(result.getMetrics()["Collect.numRecordsIn"]).toBe(7 + 2 * (4096 - 7));
  });
});
