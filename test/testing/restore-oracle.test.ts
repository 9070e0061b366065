// checkRestoreAtAnyRecord (src/testing/restore-oracle.ts): restore at any record = the uninterrupted run.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  $, ArgumentTrait, DataTypes, Over, ProcessTableFunction, ScalarFunction, Schema, Tumble, UNBOUNDED_RANGE, call, descriptor, lit, tableArg, valueState,
} from "../../src/index.js";
import { GroupAggregateOperator } from "../../src/exec/operators/group-aggregate.js";
import { type HarnessStep, RestoreMismatchError, arbitraryEventTimeStream, checkRestoreAtAnyRecord } from "../../src/testing/index.js";

const Clicks = DataTypes.ROW(DataTypes.FIELD("user", DataTypes.STRING().notNull()), DataTypes.FIELD("n", DataTypes.INT().notNull()));
const Events = Schema.newBuilder()
  .column("k", DataTypes.STRING().notNull()).column("v", DataTypes.INT().notNull()).column("ts", DataTypes.TIMESTAMP_LTZ(3).notNull())
  .watermark("ts", "ts - INTERVAL '2' SECOND")
  .build();
const EventRow = DataTypes.ROW(
  DataTypes.FIELD("k", DataTypes.STRING().notNull()), DataTypes.FIELD("v", DataTypes.INT().notNull()), DataTypes.FIELD("ts", DataTypes.TIMESTAMP_LTZ(3).notNull()),
);

const clicks = (...rows: [string, number][]): HarnessStep<{ clicks: typeof Clicks }>[] =>
  rows.map(([user, n]) => ({ input: "clicks", row: { user, n } }));

/** Event-time streams of a few keys, out of order within the watermark delay, with some late rows. */
const eventSteps = arbitraryEventTimeStream(EventRow, { timeField: "ts", delayMs: 2000, maxStepMs: 1500, lateShare: 0.1, maxLength: 12 })
  .map((s) => s.map((e): HarnessStep<{ events: typeof Events }> => ({
    input: "events", row: { k: ["a", "b", "c"][Math.abs(e.row.v) % 3]!, v: Math.abs(e.row.v) % 10, ts: e.row.ts as Date },
  })));

const Reminder = ProcessTableFunction.define({
  name: "Reminder",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.REQUIRE_ON_TIME) },
  state: { last: valueState({ time: 0, count: 0 }) },
  output: DataTypes.STRING(),
  eval(ctx, { last }) {
    const time = ctx.timeContext();
    last.time = Math.max(last.time, time.time()!.getTime());
    last.count++;
    time.registerOnTime("remind", last.time + 3000);
  },
  onTimer(ctx, { last }) {
    ctx.collect(`${last.count} events, quiet since ${last.time}`);
  },
});

describe("checkRestoreAtAnyRecord holds for the engine's stateful operators", () => {
  it("a group aggregate, at every cut point", () => {
    checkRestoreAtAnyRecord({
      inputs: { clicks: Clicks },
      program: ({ clicks }) => clicks.groupBy($("user")).select($("user"), $("n").sum().as("total"), $("n").max().as("best")),
      steps: clicks(["Ann", 1], ["Ben", 2], ["Ann", 3], ["Ann", 1], ["Ben", 7]),
    });
  });

  it("a group aggregate with state TTL, the clock moving between rows", () => {
    checkRestoreAtAnyRecord({
      inputs: { clicks: Clicks }, config: { "table.exec.state.ttl": "1 min" },
      program: ({ clicks }) => clicks.groupBy($("user")).select($("user"), $("n").sum().as("total")),
      steps: [
        ...clicks(["Ann", 1], ["Ben", 2]), { advanceProcessingTime: "40 s" }, ...clicks(["Ann", 3]),
        { advanceProcessingTime: "40 s" }, ...clicks(["Ann", 1], ["Ben", 7]),
      ],
    });
  });

  it("a regular join of two inputs", () => {
    const Users = DataTypes.ROW(DataTypes.FIELD("id", DataTypes.STRING().notNull()), DataTypes.FIELD("name", DataTypes.STRING()));
    checkRestoreAtAnyRecord({
      inputs: { clicks: Clicks, users: Users },
      program: ({ clicks, users }) => clicks.join(users, $("user").isEqual($("id"))).select($("name"), $("n")),
      steps: [
        { input: "clicks", row: { user: "u1", n: 1 } }, { input: "users", row: { id: "u1", name: "Ann" } },
        { input: "clicks", row: { user: "u1", n: 2 } }, { input: "users", row: { id: "u2", name: "Ben" } }, { input: "clicks", row: { user: "u2", n: 3 } },
      ],
    });
  });

  it("property: tumbling windows, event-time OVER and a PTF with timers, over random event-time streams with late rows", () => {
    fc.assert(fc.property(eventSteps, (steps) => {
      checkRestoreAtAnyRecord({
        inputs: { events: Events }, steps,
        program: ({ events }) => events.window(Tumble.over(lit(5).seconds()).on($("ts")).as("w"))
          .groupBy($("k"), $("w")).select($("k"), $("w").start().as("ws"), $("v").sum().as("total"), lit(1).count().as("n")),
      });
      checkRestoreAtAnyRecord({
        inputs: { events: Events }, steps,
        program: ({ events }) => events.window(Over.partitionBy($("k")).orderBy($("ts")).preceding(UNBOUNDED_RANGE).as("o"))
          .select($("k"), $("ts"), $("v").sum().over($("o")).as("running")),
      });
      checkRestoreAtAnyRecord({
        inputs: { events: Events }, steps,
        program: ({ events }) => events.partitionBy($("k")).process(Reminder, descriptor("ts").asArgument("on_time")),
      });
    }), { numRuns: 15, seed: 5 });
  });
});

describe("checkRestoreAtAnyRecord finds state that a snapshot misses", () => {
  it("a scalar function that counts in a variable of its own (not in Flink state) is caught at the first cut that matters", () => {
    const check = () => checkRestoreAtAnyRecord({
      inputs: { clicks: Clicks },
      program: ({ clicks }) => {
        let seq = 0; // the bug: a counter outside Flink's state is not in any snapshot
        const Seq = ScalarFunction.define({ name: "seq", args: [DataTypes.STRING().notNull()], result: DataTypes.INT().notNull(), eval: () => ++seq });
        return clicks.select($("user"), call(Seq, $("user")).as("seq"));
      },
      steps: clicks(["Ann", 1], ["Ben", 2], ["Cid", 3]),
    });
    expect(check).toThrow(RestoreMismatchError);
    let error: RestoreMismatchError | undefined;
    try { check(); } catch (e) { error = e as RestoreMismatchError; }
    expect(error!.cut).toBe(1);
    expect(error!.message).toBe([
      "restoring from a snapshot taken after step 1 of 3 changes the changelog; the steps:",
      "  | step | input    | op | row                     |",
      "  | 1    | clicks   | +I | Ann, 1                  |",
      "  | --   | snapshot | -- | restored into a new job |",
      "  | 2    | clicks   | +I | Ben, 2                  |",
      "  | 3    | clicks   | +I | Cid, 3                  |",
      "the changelog (- without a restore, + restored after step 1):",
      "    | op | user | seq |",
      "    | +I | Ann  |   1 |",
      "  + | +I | Ben  |   1 |",
      "  + | +I | Cid  |   2 |",
      "  - | +I | Ben  |   2 |",
      "  - | +I | Cid  |   3 |",
    ].join("\n"));
  });

  it("an operator whose restore forgets its groups fails the oracle; fast-check shrinks the cut when it draws cut points", () => {
    const original = GroupAggregateOperator.prototype.restoreState;
    // planted: restoring ignores the snapshot, so a restored job starts with no groups
    GroupAggregateOperator.prototype.restoreState = function () {};
    try {
      const steps = clicks(["Ann", 1], ["Ann", 2], ["Ann", 3], ["Ann", 4], ["Ann", 5], ["Ann", 6]);
      const check = (runs: number) => checkRestoreAtAnyRecord({
        inputs: { clicks: Clicks }, steps, runs, seed: 3,
        program: ({ clicks }) => clicks.groupBy($("user")).select($("user"), $("n").sum().as("total")),
      });
      let error: RestoreMismatchError | undefined;
      try { check(3); } catch (e) { error = e as RestoreMismatchError; }
      expect(error).toBeInstanceOf(RestoreMismatchError);
      expect(error!.cut).toBe(1);
      expect(error!.message).toContain("restoring from a snapshot taken after step 1 of 6 changes the changelog");
      expect(error!.message).toContain("  + | +I | Ann  |     2 |");
    } finally {
      GroupAggregateOperator.prototype.restoreState = original;
    }
  });
});
