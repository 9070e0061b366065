import { describe, expect, it } from "vitest";
import { ValuesReader } from "../../src/exec/sources/values-reader.js";
import { BaseOperator, OperatorOutput, type Output } from "../../src/exec/operator.js";
import { $, ArgumentTrait, DataTypes, descriptor, EnvironmentSettings, ProcessTableFunction, Row, RowKind, Schema, tableArg, TableEnvironment } from "../../src/index.js";
import type { ValuesNode } from "../../src/plan/nodes.js";
import { ResolvedSchema } from "../../src/types/resolved-schema.js";

/** Records what a reader emits, in order: `+I[..]`, `wm 5`, `end`. */
class Recorder implements Output {
  readonly events: string[] = [];
  record(kind: number, row: unknown[]): void {
    this.events.push(`${["+I", "-U", "+U", "-D"][kind]}[${row.map((v) => (v instanceof Date ? v.getTime() : String(v))).join(", ")}]`);
  }
  watermark(wm: number): void { this.events.push(`wm ${wm}`); }
  endInput(): void { this.events.push("end"); }
}

/** The same events, received as an operator behind a job's edge (OperatorOutput: the source hands a slice to the edge's loop). */
class RecordingOperator extends BaseOperator {
  readonly events: string[] = [];
  private readonly recorder = new Recorder();
  constructor(private readonly failAt = -1) { super(1); }
  processElement(_input: number, kind: number, row: unknown[]): void {
    if (this.recorder.events.filter((e) => !e.startsWith("wm")).length === this.failAt) throw new Error(`row ${this.failAt} fails`);
    this.recorder.record(kind, row);
    this.events.push(this.recorder.events.at(-1)!);
  }
  protected override onWatermark(wm: number): void { this.events.push(`wm ${wm}`); }
  protected override onEndOfInput(): void { this.events.push("end"); }
}

const schema = new ResolvedSchema([
  { name: "k", type: DataTypes.STRING() },
  { name: "ts", type: DataTypes.TIMESTAMP_LTZ(3) },
]);

function node(rows: unknown[][], extra: Partial<ValuesNode> = {}): ValuesNode {
  return { kind: "Values", id: 1, schema, rows, ...extra };
}

describe("ValuesReader", () => {
  it("emits at most `max` records per poll, then +Infinity and end of input", () => {
    const r = new ValuesReader(node([["a", new Date(1)], ["b", new Date(2)], ["c", new Date(3)]]));
    const out = new Recorder();
    expect(r.poll(out, 2)).toBe("more");
    expect(out.events).toEqual(["+I[a, 1]", "+I[b, 2]"]);
    expect(r.position()).toBe(2);
    expect(r.poll(out, 2)).toBe("end");
    expect(out.events).toEqual(["+I[a, 1]", "+I[b, 2]", "+I[c, 3]", "wm Infinity", "end"]);
  });

  it("resumes from a position given to seek (checkpoint restore)", () => {
    const r = new ValuesReader(node([["a", null], ["b", null], ["c", null]]));
    r.seek(2);
    const out = new Recorder();
    expect(r.poll(out, 10)).toBe("end");
    expect(out.events).toEqual(["+I[c, null]", "wm Infinity", "end"]);
  });

  it("carries each row's kind for a changelog given to fromValues", () => {
    const r = new ValuesReader(node([["a", null], ["a", null], ["a", null]], { kinds: [0, 1, 2] }));
    const out = new Recorder();
    r.poll(out, 10);
    expect(out.events).toEqual(["+I[a, null]", "-U[a, null]", "+U[a, null]", "wm Infinity", "end"]);
  });

  it("emits a watermark of max(rowtime) - delay after each record that raises it; null rowtimes are skipped", () => {
    const rows = [["a", new Date(1000)], ["b", new Date(800)], ["c", null], ["d", new Date(1500)], ["e", new Date(1500)]];
    const r = new ValuesReader(node(rows, { watermark: { rowtimeColumn: "ts", delayMillis: 100, emit: "on-event" } }));
    const out = new Recorder();
    r.poll(out, 10);
    expect(out.events).toEqual([
      "+I[a, 1000]", "wm 900", "+I[b, 800]", "+I[c, null]", "+I[d, 1500]", "wm 1400", "+I[e, 1500]", "wm Infinity", "end",
    ]);
  });

  it("an empty table ends at the first poll", () => {
    const out = new Recorder();
    expect(new ValuesReader(node([])).poll(out, 10)).toBe("end");
    expect(out.events).toEqual(["wm Infinity", "end"]);
  });
});

describe("records are shared, never copied: no operator may change its input", () => {
  const T = DataTypes.ROW(
    DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT()), DataTypes.FIELD("ts", DataTypes.TIMESTAMP_LTZ(3)));
  const values = [
    Row.of("a", 1, new Date(10)), Row.of("b", 2, new Date(20)), Row.of("a", 3, new Date(30)),
    Row.ofKind(RowKind.UPDATE_BEFORE, "a", 3, new Date(30)), Row.ofKind(RowKind.UPDATE_AFTER, "a", 4, new Date(40)),
    Row.of("c", null, null), Row.ofKind(RowKind.DELETE, "b", 2, new Date(20)),
  ];
  const plans = {
    calc: (t: ReturnType<typeof table>) => t.filter($("v").isGreater(1)).select($("k"), $("v").plus(1).as("v1"), $("ts")),
    aggregate: (t: ReturnType<typeof table>) =>
      t.groupBy($("k")).select($("k"), $("v").sum().as("s"), $("v").max().as("mx"), $("ts").min().as("first"), $("v").count().as("n")),
    distinct: (t: ReturnType<typeof table>) => t.select($("k")).distinct(),
    union: (t: ReturnType<typeof table>) => t.unionAll(t),
  };
  function table(env: TableEnvironment) {
    return env.fromValues(T, ...values);
  }

  for (const [name, plan] of Object.entries(plans)) {
    for (const mode of ["streaming", "batch"] as const) {
      it(`${name} (${mode}) leaves the plan's rows as they were, so a second run gives the same result`, async () => {
        const env = TableEnvironment.create(mode === "batch" ? EnvironmentSettings.inBatchMode() : EnvironmentSettings.inStreamingMode());
        const t = table(env);
        const rows = (t.node as ValuesNode).rows;
        const before = structuredClone(rows);
        const q = plan(t);
        const first = await q.execute().toChangelog();
        expect(first.length).toBeGreaterThan(0);
        expect(rows).toEqual(before);
        expect(await q.execute().toChangelog()).toEqual(first);
      });
    }
  }
});

describe("ValuesReader into an operator's edge (the edge's record loop)", () => {
  const rows = [["a", new Date(1000)], ["b", new Date(800)], ["c", null], ["d", new Date(1500)], ["e", new Date(1500)]];
  const watermark = { rowtimeColumn: "ts", delayMillis: 100, emit: "on-event" as const };

  it("delivers the same records, kinds and watermarks as record by record, slice by slice", () => {
    for (const extra of [{}, { watermark }, { kinds: [0, 1, 2, 3, 0] }, { watermark, kinds: [0, 0, 1, 2, 3] }]) {
      const byRecord = new Recorder();
      const a = new ValuesReader(node(rows, extra));
      while (a.poll(byRecord, 2) === "more");
      const op = new RecordingOperator();
      const b = new ValuesReader(node(rows, extra));
      const edge = new OperatorOutput(op, 0);
      let polls = 1;
      while (b.poll(edge, 2) === "more") polls++;
      expect(polls).toBe(3);
      expect(op.events).toEqual(byRecord.events);
    }
  });

  it("a row the operator fails on still counts as emitted (numRecordsOut)", () => {
    for (const extra of [{}, { watermark }]) {
      const op = new RecordingOperator(3);
      const r = new ValuesReader(node(rows, extra));
      let out: Record<string, () => unknown> = {};
      r.setMetrics({ gauge: (name: string, f: () => unknown) => { out = { ...out, [name]: f }; } } as never);
      const edge = new OperatorOutput(op, 0);
      expect(r.poll(edge, 2)).toBe("more");
      expect(() => r.poll(edge, 2)).toThrow("row 3 fails");
      expect(out.numRecordsOut!()).toBe(4);
      expect(op.events.filter((e) => !e.startsWith("wm"))).toEqual(["+I[a, 1000]", "+I[b, 800]", "+I[c, null]"]);
    }
  });

  it("in batch mode the declared watermarks do not go out, only +Infinity at the end (timers fire last)", async () => {
    const Mark = ProcessTableFunction.define({
      name: "Mark",
      args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.REQUIRE_ON_TIME) },
      output: DataTypes.STRING(),
      eval(ctx, _state, { r }) {
        const time = ctx.timeContext("millis");
        time.registerOnTime("t", time.time()!);
        ctx.collect(`row ${(r as { k: string }).k}`);
      },
      onTimer(ctx) { ctx.collect("timer"); },
    });
    const run = async (settings: EnvironmentSettings) => {
      const env = TableEnvironment.create(settings);
      const s = Schema.newBuilder().column("k", DataTypes.STRING()).column("ts", DataTypes.TIMESTAMP_LTZ(3)).watermark("ts", "ts").build();
      const t = env.fromValues(s, Row.of("a", new Date(1000)), Row.of("b", new Date(2000)), Row.of("c", new Date(3000)));
      const out = await t.partitionBy($("k")).process(Mark, descriptor("ts").asArgument("on_time")).execute().toArray();
      return out.map((r) => `${(r as { k: string }).k} ${(r as { EXPR$0: string }).EXPR$0}`);
    };
    expect(await run(EnvironmentSettings.inStreamingMode())).toEqual(["a row a", "a timer", "b row b", "b timer", "c row c", "c timer"]);
    expect(await run(EnvironmentSettings.inBatchMode())).toEqual(["a row a", "b row b", "c row c", "a timer", "b timer", "c timer"]);
  });
});
