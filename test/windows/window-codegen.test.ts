import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AggregateOptions } from "../../src/exec/aggregates/aggregate-layout.js";
import { WindowAggregateOperator } from "../../src/exec/operators/window-aggregate.js";
import { $, Cumulate, DataTypes, Row, Schema, Slide, TableEnvironment, Tumble, lit } from "../../src/index.js";
import type { WindowAggregateNode } from "../../src/plan/nodes.js";

/**
 * The fixed-window operator generates its per-record path (window assignment, key probe, accumulator
 * updates) and its firing; with `inlineAccumulators: false` the accumulators are the builtin.ts objects.
 * Both must emit the same rows in the same order and drop the same late rows, for every window type,
 * key type and aggregate, on random out-of-order input with per-record watermarks.
 */

const SCHEMA = Schema.newBuilder()
  .column("k", DataTypes.STRING())
  .column("i", DataTypes.INT())
  .column("d", DataTypes.DOUBLE())
  .column("ts", "TIMESTAMP(3)")
  .watermark("ts", "ts - INTERVAL '1' SECOND")
  .build();
const env = TableEnvironment.create();
const t = env.fromValues(SCHEMA, Row.of("a", 1, 1.5, "2020-10-10 00:00:01"));

const aggs = () => [
  lit(1).count().as("n"), $("i").count().as("ci"), $("i").sum().as("si"), $("d").sum0().as("s0"), $("i").avg().as("ai"),
  $("d").avg().as("ad"), $("d").min().as("mn"), $("i").max().as("mx"), $("i").countDistinct().as("cd"), $("k").max().as("mk"),
] as const;

const windows = {
  tumble: Tumble.over(lit(2).seconds()).on($("ts")).as("w"),
  slide: Slide.over(lit(3).seconds()).every(lit(1).seconds()).on($("ts")).as("w"),
  cumulate: Cumulate.over(lit(4).seconds()).step(lit(2).seconds()).on($("ts")).as("w"),
};

const plans = Object.entries(windows).flatMap(([type, w]) => [
  [`${type}, INT key`, t.window(w).groupBy($("i"), $("w")).select($("i"), $("w").start(), $("w").end(), $("w").rowtime(), ...aggs())],
  [`${type}, string key`, t.window(w).groupBy($("k"), $("w")).select($("k"), ...aggs(), $("w").end())],
  [`${type}, composite key`, t.window(w).groupBy($("k"), $("i"), $("w")).select($("k"), $("i"), $("d").max().as("mx"), $("w").start())],
  [`${type}, no key`, t.window(w).groupBy($("w")).select(...aggs())],
] as const);

const windowNode = (q: { node: unknown }): WindowAggregateNode => {
  let n = q.node as { kind: string; input?: unknown };
  while (n.kind !== "WindowAggregate") n = n.input as typeof n;
  return n as unknown as WindowAggregateNode;
};

/** Rows at times that mostly advance, sometimes jump back (late rows), with NULLs and NaN. */
const rows = fc.array(fc.tuple(
  fc.constantFrom("a", "b", null), fc.option(fc.integer({ min: -2, max: 2 }), { freq: 4 }), fc.constantFrom(0, -0, 2.5, -1, NaN, null),
  // steps near whole seconds put rows on window boundaries and exactly at the watermark
  fc.oneof(fc.integer({ min: -2500, max: 900 }), fc.constantFrom(-2001, -2000, -1999, -1001, -1000, -999, -1, 0, 1, 999, 1000, 1001)),
), { maxLength: 50 }).map((cmds) => {
  let time = 10_000;
  return cmds.map(([k, i, d, step]) => {
    time = Math.max(0, time + step);
    return [k, i, d, new Date(time)];
  });
});

function show(v: unknown): string {
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (v instanceof Date) return `@${v.getTime()}`;
  return JSON.stringify(v);
}

function operator(node: WindowAggregateNode, options: AggregateOptions, out: string[]): WindowAggregateOperator {
  const op = new WindowAggregateOperator(node, undefined, options);
  op.out = { record: (k, r) => out.push(`${k}[${r.map(show).join(",")}]`), watermark: (wm) => out.push(`wm ${wm}`), endInput: () => out.push("end") };
  op.open();
  return op;
}

/** Feeds the rows with the source's watermarks (max time - 1 s after each row); returns the output and the late count. */
function feed(op: WindowAggregateOperator, input: readonly unknown[][], state: { max: number }): void {
  for (const r of input) {
    op.processElement(0, 0, r);
    const ts = (r[3] as Date).getTime();
    if (ts > state.max) {
      state.max = ts;
      op.processWatermark(0, ts - 1000);
    }
  }
}

function run(node: WindowAggregateNode, input: readonly unknown[][], options: AggregateOptions): { out: string[]; late: number } {
  const out: string[] = [];
  const op = operator(node, options, out);
  feed(op, input, { max: -Infinity });
  op.endInput(0);
  return { out, late: op.numLateRecordsDropped };
}

describe("window aggregate: generated inline accumulators = accumulator objects", () => {
  for (const [name, q] of plans) {
    const node = windowNode(q);
    it(name, () => {
      fc.assert(fc.property(rows, (input) => {
        const inline = run(node, input, {});
        expect(inline).toEqual(run(node, input, { inlineAccumulators: false }));
        expect(inline.out.at(-1)).toBe("end");
      }), { numRuns: 80 });
    });
  }

  /**
   * An oracle for window assignment and firing: the windows of each row computed from the definitions of
   * docs/time.md, a window fires when the watermark reaches end - 1 ms (windows by end, keys by first row),
   * a row whose windows all fired is late.
   */
  function expected(type: keyof typeof windows, input: readonly unknown[][]): { fired: string[]; late: number } {
    const windowsOf = (ts: number): [number, number][] => {
      const out: [number, number][] = [];
      if (type === "tumble") out.push([Math.floor(ts / 2000) * 2000, Math.floor(ts / 2000) * 2000 + 2000]);
      else if (type === "slide") for (let s = Math.floor(ts / 1000) * 1000; s > ts - 3000; s -= 1000) out.push([s, s + 3000]);
      else {
        const c = Math.floor(ts / 4000) * 4000;
        for (let end = c + 2000; end <= c + 4000; end += 2000) if (ts < end) out.push([c, end]);
      }
      return out;
    };
    const open = new Map<number, { start: number; groups: Map<unknown, { n: number; mx: number | null }> }>();
    const fired: string[] = [];
    let wm = -Infinity;
    let max = -Infinity;
    let late = 0;
    const fire = () => {
      for (const end of [...open.keys()].sort((a, b) => a - b)) {
        if (end - 1 > wm) break;
        const w = open.get(end)!;
        for (const [k, g] of w.groups) fired.push(`0[${[k, g.n, g.mx, new Date(w.start), new Date(end)].map(show).join(",")}]`);
        open.delete(end);
      }
    };
    for (const r of input) {
      const ts = (r[3] as Date).getTime();
      let accepted = false;
      for (const [start, end] of windowsOf(ts)) {
        if (end - 1 <= wm) continue;
        accepted = true;
        if (!open.has(end)) open.set(end, { start, groups: new Map() });
        const groups = open.get(end)!.groups;
        if (!groups.has(r[1])) groups.set(r[1], { n: 0, mx: null });
        const g = groups.get(r[1])!;
        g.n++;
        const d = r[2] as number | null;
        if (d !== null && (g.mx === null || d > g.mx)) g.mx = d;
      }
      if (!accepted) late++;
      if (ts > max) {
        max = ts;
        wm = ts - 1000;
        fire();
      }
    }
    wm = Infinity;
    fire();
    return { fired, late };
  }

  for (const type of Object.keys(windows) as (keyof typeof windows)[]) {
    it(`${type}: windows, firing order and late rows as defined (oracle)`, () => {
      const node = windowNode(t.window(windows[type]).groupBy($("i"), $("w"))
        .select($("i"), lit(1).count().as("n"), $("d").max().as("mx"), $("w").start(), $("w").end()));
      fc.assert(fc.property(rows, (input) => {
        const { out, late } = run(node, input, {});
        const want = expected(type, input);
        expect(out.filter((x) => x.startsWith("0["))).toEqual(want.fired);
        expect(late).toBe(want.late);
      }), { numRuns: 150 });
    });
  }

  it("fires a tumbling window with one row per key in arrival order, then forwards the watermark", () => {
    const node = windowNode(t.window(windows.tumble).groupBy($("i"), $("w"))
      .select($("i"), $("w").start(), $("w").end(), lit(1).count().as("n"), $("d").max().as("mx")));
    const at = (i: number | null, d: number | null, ms: number) => ["a", i, d, new Date(ms)];
    const { out, late } = run(node, [at(2, 1, 100), at(null, 4, 200), at(2, 3, 1999), at(2, 9, 4500), at(1, 0, 1500)], {});
    expect(out).toEqual([
      "wm -900", "wm -800", "wm 999",
      // the operator's rows are [keys, aggregates, window properties]; a projection reorders them
      "0[2,2,3,@0,@2000]", "0[null,1,4,@0,@2000]", "wm 3500",
      // the row at 1.5 s arrives after [0 s, 2 s) fired: late, dropped
      "0[2,1,9,@4000,@6000]", "wm Infinity", "end",
    ]);
    expect(late).toBe(1);
  });

  it("snapshots of the two paths are interchangeable", () => {
    const node = windowNode(plans[0]![1]);
    fc.assert(fc.property(rows, fc.nat(), fc.boolean(), (input, at, inlineFirst) => {
      const cut = at % (input.length + 1);
      const whole = run(node, input, {});
      const out: string[] = [];
      const a = operator(node, inlineFirst ? {} : { inlineAccumulators: false }, out);
      const state = { max: -Infinity };
      feed(a, input.slice(0, cut), state);
      const b = operator(node, inlineFirst ? { inlineAccumulators: false } : {}, out);
      b.restoreState(a.snapshotState());
      // a restored operator starts without a watermark (as in Flink): give it the one the first had
      if (state.max > -Infinity) b.processWatermark(0, state.max - 1000);
      feed(b, input.slice(cut), state);
      b.endInput(0);
      expect(b.numLateRecordsDropped).toBe(whole.late);
      expect(out.filter((s) => !s.startsWith("wm"))).toEqual(whole.out.filter((s) => !s.startsWith("wm")));
    }), { numRuns: 100 });
  });
});
