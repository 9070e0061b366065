import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  $, ArgumentTrait, DataTypes, ProcessTableFunction, Schema, Row, descriptor, tableArg, valueState, type TableEnvironment,
} from "../../src/index.js";
import {
  ArrivalOrderError, arbitraryArrivalOrder, arbitraryChangelog, arbitraryEventTimeStream, arbitraryInterleaving, arbitraryRows,
  changelogViolations, checkArrivalOrderInsensitive, checkStreamingEqualsBatch, materialize,
} from "../../src/testing/index.js";

const scores = DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING().notNull()), DataTypes.FIELD("score", DataTypes.INT()));

describe("generators", () => {
  it("arbitraryChangelog makes well-formed changelogs; with a key, one live row per key", () => {
    fc.assert(fc.property(arbitraryChangelog(scores, { key: ["name"] }), (log) => {
      const table = materialize(log); // throws on a retraction of a missing row
      expect(new Set(table.map((r) => r.name)).size).toBe(table.length);
      log.forEach((e, i) => { if (e.kind === "-U") expect(log[i + 1]!.kind).toBe("+U"); });
    }));
  });

  it("arbitraryEventTimeStream keeps on-time rows ahead of the watermark and makes late rows late", () => {
    const events = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("ts", DataTypes.TIMESTAMP_LTZ(3)));
    fc.assert(fc.property(arbitraryEventTimeStream(events, { timeField: "ts", delayMs: 2000, lateShare: 0.2 }), (stream) => {
      let max = -Infinity;
      for (const { row, late } of stream) {
        const t = (row.ts as Date).getTime();
        if (late) expect(t).toBeLessThanOrEqual(max - 2000);
        else expect(t).toBeGreaterThan(max - 2000);
        if (!late) max = Math.max(max, t);
      }
    }));
  });

  it("arbitraryArrivalOrder permutes rows without making any late; arbitraryInterleaving keeps each input's order", () => {
    const times = [0, 100, 150, 1000, 1001, 5000];
    fc.assert(fc.property(arbitraryArrivalOrder(times, (t) => t, 500), (order) => {
      expect([...order].sort((a, b) => a - b)).toEqual(times);
      let max = -Infinity;
      for (const t of order) { expect(t).toBeGreaterThan(max - 500); max = Math.max(max, t); }
    }));
    fc.assert(fc.property(arbitraryInterleaving(["a1", "a2", "a3"], ["b1", "b2"]), (mixed) => {
      expect(mixed.filter((m) => m.input === 0).map((m) => m.row)).toEqual(["a1", "a2", "a3"]);
      expect(mixed.filter((m) => m.input === 1).map((m) => m.row)).toEqual(["b1", "b2"]);
    }));
  });
});

describe("oracles", () => {
  it("checkStreamingEqualsBatch holds for an aggregation over random rows", async () => {
    // scores kept small: a SUM of INTs beyond the INT range is an error, not a wrapped value (docs/semantics.md)
    const small = arbitraryRows(scores, { maxLength: 20 }).map((rows) => rows.map((r) => ({ ...r, score: r.score === null ? null : r.score % 1000 })));
    await fc.assert(fc.asyncProperty(small, async (rows) => {
      await checkStreamingEqualsBatch((env) => env.fromValues(scores, rows).groupBy($("name")).select($("name"), $("score").sum().as("total")));
    }), { numRuns: 20 });
  });

  it("checkStreamingEqualsBatch shows both results when they differ", async () => {
    const program = (env: TableEnvironment) => {
      const t = env.fromValues(scores, Row.of("a", 1), Row.of("b", 2));
      return env.isBatch() ? t : t.filter($("score").isGreater(1));
    };
    await expect(checkStreamingEqualsBatch(program)).rejects.toThrow(
      "the materialized streaming result differs from the batch result (- batch, + streaming):\n"
      + "  | name | score |\n- | a    |     1 |\n  | b    |     2 |");
  });

  it("changelogViolations names retractions of rows that were never emitted", () => {
    expect(changelogViolations([{ kind: "+I", cells: ["a"] }, { kind: "-U", cells: ["b"] }, { kind: "+U", cells: ["c"] }, { kind: "-D", cells: ["a"] }, { kind: "-U", cells: ["c"] }]))
      .toEqual(["row 2: -U retracts [b], which is not in the table", "row 5: -U is not followed by its +U"]);
  });
});

/**
 * The worked example of docs/testing.md: a PTF with a planted event-time bug. It reports when a key went
 * idle: ten seconds after its latest event. The bug: it remembers the time of the row it saw *last*, not
 * the *latest* time — right as long as rows arrive in order, wrong when two rows of one key overtake each
 * other within the watermark delay.
 */
const events = Schema.newBuilder()
  .column("k", DataTypes.STRING()).column("ts", DataTypes.TIMESTAMP_LTZ(3))
  .watermark("ts", "ts - INTERVAL '5' SECOND")
  .build();

const IdleAfter = ProcessTableFunction.define({
  name: "IdleAfter",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.REQUIRE_ON_TIME) },
  state: { last: valueState({ time: 0 }) },
  output: DataTypes.STRING(),
  eval(ctx, { last }) {
    const time = ctx.timeContext();
    last.time = time.time()!.getTime(); // the planted bug: should be Math.max(last.time, ...)
    time.registerOnTime("idle", last.time + 10_000);
  },
  onTimer(ctx, { last }) {
    ctx.collect(`idle since ${new Date(last.time).toISOString().slice(11, 19)}`);
  },
});

describe("the planted event-time bug", () => {
  const idle = (env: TableEnvironment, rows: readonly { k: string; ts: Date }[]) =>
    env.fromValues(events, rows.map((r) => Row.of(r.k, r.ts))).partitionBy($("k")).process(IdleAfter, descriptor("ts").asArgument("on_time"));
  const keyed = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING().notNull()), DataTypes.FIELD("ts", DataTypes.TIMESTAMP_LTZ(3).notNull()));

  it("is found by the arrival-order oracle and shrunk to two rows of one key", async () => {
    const stream = arbitraryEventTimeStream(keyed, { timeField: "ts", delayMs: 5000, maxStepMs: 3000, maxLength: 8 })
      .map((s) => s.map((x) => ({ k: x.row.k.length % 2 === 0 ? "a" : "b", ts: x.row.ts as Date })));
    const outcome = await fc.check(fc.asyncProperty(stream, async (rows) => {
      const inOrder = [...rows].sort((x, y) => x.ts.getTime() - y.ts.getTime());
      await checkArrivalOrderInsensitive({ rows: inOrder, timeOf: (r) => r.ts.getTime(), delayMs: 5000, program: idle, runs: 30, seed: 7 });
    }), { seed: 42, numRuns: 100 });
    expect(outcome.failed).toBe(true);
    const counterexample = outcome.counterexample![0] as { k: string; ts: Date }[];
    expect(counterexample).toHaveLength(2);
    expect(counterexample[0]!.k).toBe(counterexample[1]!.k);
    const error = outcome.errorInstance as ArrivalOrderError<{ k: string; ts: Date }>;
    expect(error).toBeInstanceOf(ArrivalOrderError);
    expect(error.message).toMatch(/^the result depends on the arrival order within the watermark delay \(5000 ms\); arriving as\n  1\. k=\w, ts=.*\n  2\. k=\w, ts=.*\ngives \(- in event-time order, \+ in this order\):\n/);
    expect(error.message).toMatch(/\n- \| \w +\| idle since \d\d:\d\d:\d\d \|/);
  }, 120_000);

  it("is gone once the function keeps the latest time", async () => {
    const Fixed = ProcessTableFunction.define({
      name: "IdleAfterFixed",
      args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.REQUIRE_ON_TIME) },
      state: { last: valueState({ time: 0 }) },
      output: DataTypes.STRING(),
      eval(ctx, { last }) {
        const time = ctx.timeContext();
        last.time = Math.max(last.time, time.time()!.getTime());
        time.registerOnTime("idle", last.time + 10_000);
      },
      onTimer(ctx, { last }) {
        ctx.collect(`idle since ${new Date(last.time).toISOString().slice(11, 19)}`);
      },
    });
    const rows = [{ k: "a", ts: new Date(1000) }, { k: "a", ts: new Date(4000) }, { k: "b", ts: new Date(4500) }];
    await checkArrivalOrderInsensitive({
      rows, timeOf: (r) => r.ts.getTime(), delayMs: 5000, runs: 30,
      program: (env, order) => env.fromValues(events, order.map((r) => Row.of(r.k, r.ts))).partitionBy($("k")).process(Fixed, descriptor("ts").asArgument("on_time")),
    });
  });
});
