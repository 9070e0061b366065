// The processing-time OVER operator driven directly: each row carries its processing time (the PROCTIME()
// value, epoch ms) and a ProcessingTimeService is fired by hand, so every emission time is exact.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, Over, Schema, TableEnvironment, UNBOUNDED_RANGE, UNBOUNDED_ROW, lit, rowInterval } from "../../src/index.js";
import type { Expression } from "../../src/index.js";
import { ProcTimeOverAggregateOperator } from "../../src/exec/operators/over-aggregate-proctime.js";
import { ProcessingTimeService } from "../../src/exec/time/processing-time-service.js";
import type { OverAggregateNode } from "../../src/plan/nodes.js";

const SCHEMA = Schema.newBuilder().column("k", DataTypes.STRING()).column("v", DataTypes.INT()).columnByExpression("proc", "PROCTIME()").build();

function overNode(preceding: Expression<unknown> | undefined): OverAggregateNode {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  const t = env.fromValues(SCHEMA);
  const w = Over.partitionBy($("k")).orderBy($("proc"));
  const windowed = t.window((preceding === undefined ? w : w.preceding(preceding as never)).as("w") as never) as unknown as { select(...fields: unknown[]): { node: unknown } };
  const q = windowed.select($("k"), $("v"), $("v").sum().over($("w")), $("v").count().over($("w")));
  const over = (q.node as unknown as { input: OverAggregateNode }).input;
  expect(over.kind).toBe("OverAggregate");
  expect(over.window.procTime).toBe(true);
  return over;
}

/** The operator with a sink that records `+I[k, v, proc, sum, count]` and a timer service the test fires. */
function harness(node: OverAggregateNode, ttl?: { ttl: number; clock: () => number }) {
  const out: string[] = [];
  const service = new ProcessingTimeService();
  const op = new ProcTimeOverAggregateOperator(node, undefined, ttl);
  op.out = { record: (_k, r) => out.push(`+I[${r.join(", ")}]`), watermark: () => {}, endInput: () => {} };
  op.bindProcessingTime(service);
  op.open();
  return {
    op, out, service,
    row: (k: string, v: number, proc: number) => op.processElement(0, 0, [k, v, proc]),
    fire: (now: number) => service.fireDue(now),
    take: () => out.splice(0),
  };
}

describe("processing-time OVER: UNBOUNDED and ROWS frames emit each row on arrival", () => {
  it("UNBOUNDED PRECEDING (RANGE or ROWS alike, Flink's ProcTimeUnboundedPrecedingFunction): a running aggregate in arrival order, no peers", () => {
    for (const preceding of [UNBOUNDED_RANGE, UNBOUNDED_ROW, undefined]) {
      const h = harness(overNode(preceding));
      h.row("a", 1, 100); h.row("a", 2, 100); h.row("b", 5, 100); h.row("a", 4, 200);
      expect(h.take()).toEqual(["+I[a, 1, 100, 1, 1]", "+I[a, 2, 100, 3, 2]", "+I[b, 5, 100, 5, 1]", "+I[a, 4, 200, 7, 3]"]);
      expect(h.service.size).toBe(0); // no timers
    }
  });

  it("ROWS BETWEEN 1 PRECEDING: the row and the one before it in its partition", () => {
    const h = harness(overNode(rowInterval(1)));
    h.row("a", 1, 100); h.row("a", 2, 100); h.row("b", 5, 101); h.row("a", 4, 102); h.row("a", 8, 103);
    expect(h.take()).toEqual(["+I[a, 1, 100, 1, 1]", "+I[a, 2, 100, 3, 2]", "+I[b, 5, 101, 5, 1]", "+I[a, 4, 102, 6, 2]", "+I[a, 8, 103, 12, 2]"]);
  });

  it("with table.exec.state.ttl a partition idle for the TTL starts afresh", () => {
    let wall = 0;
    const h = harness(overNode(UNBOUNDED_ROW), { ttl: 1000, clock: () => wall });
    h.row("a", 1, 0); h.row("a", 2, 10);
    wall = 1500;
    h.row("a", 4, 1500);
    expect(h.take()).toEqual(["+I[a, 1, 0, 1, 1]", "+I[a, 2, 10, 3, 2]", "+I[a, 4, 1500, 4, 1]"]);
  });
});

describe("processing-time OVER: RANGE BETWEEN INTERVAL PRECEDING waits for the time's timer", () => {
  it("rows of one millisecond are peers, released at t + 1; older rows leave the frame then", () => {
    const h = harness(overNode(lit(2).seconds()));
    h.row("a", 1, 1000); h.row("b", 10, 1000); h.row("a", 2, 1000);
    expect(h.take()).toEqual([]);
    expect(h.service.next()).toBe(1001);
    h.fire(1000);
    expect(h.take()).toEqual([]);
    h.fire(1001);
    expect(h.take()).toEqual(["+I[a, 1, 1000, 3, 2]", "+I[a, 2, 1000, 3, 2]", "+I[b, 10, 1000, 10, 1]"]);
    h.row("a", 4, 2500);
    // a row at a later time first releases what is due before it: here nothing; its own rows wait for 2501
    expect(h.take()).toEqual([]);
    h.row("a", 8, 3000); // 2500 is due before 3000
    expect(h.take()).toEqual(["+I[a, 4, 2500, 7, 3]"]);
    h.fire(3001);
    // frame of 3000: times [1000, 3000] — 1000 is still in (t − P is inclusive)
    expect(h.take()).toEqual(["+I[a, 8, 3000, 15, 4]"]);
    h.row("a", 16, 3001);
    h.fire(3002);
    expect(h.take()).toEqual(["+I[a, 16, 3001, 28, 3]"]); // 1000 left the frame [1001, 3001]
  });

  it("a partition without rows for 1.5 · P + 1 after its last time is dropped (Flink's cleanup timer), others stay", () => {
    const h = harness(overNode(lit(2).seconds()));
    h.row("a", 1, 1000); h.row("b", 2, 1000);
    h.fire(1001);
    h.row("b", 3, 3500);
    h.fire(3501);
    expect(h.take()).toEqual(["+I[a, 1, 1000, 1, 1]", "+I[b, 2, 1000, 2, 1]", "+I[b, 3, 3500, 3, 1]"]);
    expect(h.op.groupCount()).toBe(2);
    h.fire(4000); // a's cleanup: 1000 + 3000 + 1
    expect(h.op.groupCount()).toBe(2);
    h.fire(4001);
    expect(h.op.groupCount()).toBe(1);
    h.fire(6501); // b's: 3500 + 3001
    expect(h.op.groupCount()).toBe(0);
    h.row("a", 4, 7000);
    h.fire(7001);
    expect(h.take()).toEqual(["+I[a, 4, 7000, 4, 1]"]);
  });

  it("a row stamped before a timer that already fired counts at the timer's time and gets a timer of its own", () => {
    const h = harness(overNode(lit(2).seconds()));
    h.row("a", 1, 1000);
    h.fire(1001);
    expect(h.take()).toEqual(["+I[a, 1, 1000, 1, 1]"]);
    h.row("a", 2, 1000); // read at 1000, reaching the operator after its clock passed 1001
    expect(h.service.next()).toBe(1002);
    h.fire(1001);
    expect(h.take()).toEqual([]);
    h.fire(1002);
    expect(h.take()).toEqual(["+I[a, 2, 1000, 3, 2]"]);
  });

  it("the end of input releases the waiting rows; event-time watermarks release nothing", () => {
    const h = harness(overNode(lit(1).seconds()));
    h.row("a", 1, 1000);
    h.op.processWatermark(0, 5000);
    expect(h.take()).toEqual([]);
    h.op.processWatermark(0, Infinity);
    expect(h.take()).toEqual(["+I[a, 1, 1000, 1, 1]"]);
  });

  it("a snapshot at any point restores the same continuation, and its timers (property)", () => {
    const node = overNode(lit(2).seconds());
    type Step = readonly ["row", string, number, number] | readonly ["fire", number];
    const steps = fc.array(fc.oneof(
      fc.tuple(fc.constant("row" as const), fc.constantFrom("a", "b", "c"), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 1500 })),
      fc.tuple(fc.constant("fire" as const), fc.integer({ min: 0, max: 1500 })),
    ), { maxLength: 30 });
    fc.assert(fc.property(steps, fc.nat(), (raw, cutAt) => {
      // processing time only moves on: steps carry increments
      let now = 0;
      const timed: Step[] = raw.map((s) => (s[0] === "row" ? ["row", s[1], s[2], now += s[3]] as const : ["fire", now += s[1]] as const));
      const cut = cutAt % (timed.length + 1);
      const apply = (h: ReturnType<typeof harness>, s: Step) => (s[0] === "row" ? h.row(s[1], s[2], s[3]) : h.fire(s[1]));
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
