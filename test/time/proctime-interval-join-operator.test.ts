// The processing-time interval join driven directly: each row carries its processing time (its PROCTIME() value,
// epoch ms) and the ProcessingTimeService is fired by hand, so the moment every row (and padded row) comes out is exact.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, Schema, TableEnvironment, lit } from "../../src/index.js";
import type { Expression } from "../../src/index.js";
import { ProcTimeIntervalJoinOperator } from "../../src/exec/operators/join/proctime-interval-join.js";
import { ProcessingTimeService } from "../../src/exec/time/processing-time-service.js";
import type { IntervalJoinNode } from "../../src/plan/nodes.js";

type JoinKind = "join" | "leftOuterJoin" | "rightOuterJoin" | "fullOuterJoin";

function joinNode(kind: JoinKind, bounds: (lp: Expression<unknown>, rp: Expression<unknown>) => Expression<unknown>): IntervalJoinNode {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  const l = env.fromValues(Schema.newBuilder().column("k", DataTypes.INT()).columnByExpression("lp", "PROCTIME()").build());
  const r = env.fromValues(Schema.newBuilder().column("rk", DataTypes.INT()).columnByExpression("rp", "PROCTIME()").build());
  const cond = $("k").isEqual($("rk")).and(bounds($("lp"), $("rp")) as never);
  const q = kind === "join" ? l.join(r).where(cond) : (l[kind] as unknown as (r: unknown, c: unknown) => typeof l).call(l, r, cond);
  const node = q.node as unknown as IntervalJoinNode;
  expect(node.kind).toBe("IntervalJoin");
  expect(node.procTime).toBe(true);
  return node;
}

/** lp BETWEEN rp - 2 s AND rp + 1 s: lower = -2000, upper = 1000. */
const STANDARD = (lp: Expression<unknown>, rp: Expression<unknown>) => lp.between(rp.minus(lit(2).seconds()), rp.plus(lit(1).seconds()));

function harness(node: IntervalJoinNode) {
  const out: string[] = [];
  const service = new ProcessingTimeService();
  const op = new ProcTimeIntervalJoinOperator(node);
  op.out = { record: (_k, r) => out.push(`+I[${r.map((v) => (v === null ? "null" : String(v))).join(", ")}]`), watermark: () => {}, endInput: () => {} };
  op.bindProcessingTime(service);
  op.open();
  return {
    op, out, service,
    left: (k: number | null, t: number) => op.processElement(0, 0, [k, t]),
    right: (k: number | null, t: number) => op.processElement(1, 0, [k, t]),
    fire: (now: number) => service.fireDue(now),
    take: () => out.splice(0),
  };
}

describe("processing-time interval join", () => {
  it("inner: a row joins the other side's cached rows in its range; cached rows leave on their timers", () => {
    const h = harness(joinNode("join", STANDARD));
    h.left(1, 1000);          // cached until 1000 + 2000 (leaves at 3001)
    h.right(1, 1500);         // left range [-500, 2500]; cached until 2500 (leaves at 2501)
    expect(h.take()).toEqual(["+I[1, 1000, 1, 1500]"]);
    h.left(1, 2400);          // right range [1400, 4400]
    expect(h.take()).toEqual(["+I[1, 2400, 1, 1500]"]);
    h.fire(2501);             // the right row leaves
    h.left(1, 2600);
    expect(h.take()).toEqual([]);
    h.right(1, 3000);         // left range [1000, 4000]: all three left rows, the one of 1000 still cached
    expect(h.take()).toEqual(["+I[1, 1000, 1, 3000]", "+I[1, 2400, 1, 3000]", "+I[1, 2600, 1, 3000]"]);
    h.fire(3001);
    h.right(1, 3100);         // left range [1100, 4100]: the row of 1000 has left
    expect(h.take()).toEqual(["+I[1, 2400, 1, 3100]", "+I[1, 2600, 1, 3100]"]);
    h.left(2, 3100);
    expect(h.take()).toEqual([]); // other key
  });

  it("left outer: a left row that never matched comes out padded when it leaves (its timer), not before", () => {
    const h = harness(joinNode("leftOuterJoin", STANDARD));
    h.left(1, 1000); h.left(2, 1000);
    h.right(1, 1200);
    expect(h.take()).toEqual(["+I[1, 1000, 1, 1200]"]);
    h.fire(3000);
    expect(h.take()).toEqual([]);
    h.fire(3001);
    expect(h.take()).toEqual(["+I[2, 1000, null, null]"]);
    h.left(null, 3002);       // a NULL key joins nothing: padded at once
    expect(h.take()).toEqual(["+I[null, 3002, null, null]"]);
  });

  it("right and full outer: an unmatched right row is padded at t + upper + 1", () => {
    for (const kind of ["rightOuterJoin", "fullOuterJoin"] as const) {
      const h = harness(joinNode(kind, STANDARD));
      h.right(3, 1000);
      h.fire(2000);
      expect(h.take()).toEqual([]);
      h.fire(2001);
      expect(h.take()).toEqual(["+I[null, null, 3, 1000]"]);
      h.left(4, 2001);
      h.op.processWatermark(0, Infinity); h.op.processWatermark(1, Infinity);
      // the end of input lets every cached row go: a full outer join pads the left one
      expect(h.take()).toEqual(kind === "fullOuterJoin" ? ["+I[4, 2001, null, null]"] : []);
    }
  });

  it("a side whose window does not reach ahead of it is not cached (Flink: no partner in the same millisecond is awaited)", () => {
    // lp BETWEEN rp AND rp + 1 s: a left row can only meet right rows that came before it
    const h = harness(joinNode("leftOuterJoin", (lp, rp) => lp.between(rp, rp.plus(lit(1).seconds()))));
    h.right(1, 1000);
    h.left(1, 1500);
    expect(h.take()).toEqual(["+I[1, 1500, 1, 1000]"]);
    h.left(1, 1600);
    h.right(1, 1600);         // the left row of 1600 (same millisecond) was not cached: no match
    expect(h.take()).toEqual(["+I[1, 1600, 1, 1000]"]);
    h.left(1, 2100);          // right range [1100, 2100]: the row of 1600
    expect(h.take()).toEqual(["+I[1, 2100, 1, 1600]"]);
    h.left(2, 2100);
    expect(h.take()).toEqual(["+I[2, 2100, null, null]"]);
  });

  it("a snapshot at any point restores the same continuation, and its timers (property)", () => {
    const node = joinNode("fullOuterJoin", STANDARD);
    type Step = readonly ["l" | "r", number, number] | readonly ["fire", number];
    const steps = fc.array(fc.oneof(
      fc.tuple(fc.constantFrom("l" as const, "r" as const), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 1500 })),
      fc.tuple(fc.constant("fire" as const), fc.integer({ min: 0, max: 1500 })),
    ), { maxLength: 30 });
    fc.assert(fc.property(steps, fc.nat(), (raw, cutAt) => {
      let now = 0;
      const timed: Step[] = raw.map((s) => (s[0] === "fire" ? ["fire", now += s[1]] as const : [s[0], s[1], now += s[2]] as const));
      const cut = cutAt % (timed.length + 1);
      const apply = (h: ReturnType<typeof harness>, s: Step) => (s[0] === "fire" ? h.fire(s[1]) : s[0] === "l" ? h.left(s[1], s[2]) : h.right(s[1], s[2]));
      const whole = harness(node);
      for (const s of timed) apply(whole, s);
      whole.fire(Infinity);
      const first = harness(node);
      for (const s of timed.slice(0, cut)) apply(first, s);
      const snapshot = JSON.parse(JSON.stringify(first.op.snapshotState()));
      const second = harness(node);
      second.op.restoreState(snapshot);
      for (const s of timed.slice(cut)) apply(second, s);
      second.fire(Infinity);
      expect([...first.out, ...second.out]).toEqual(whole.out);
    }), { numRuns: 150 });
  });
});
