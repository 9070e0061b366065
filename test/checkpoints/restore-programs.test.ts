// Flink's PTF restore programs (P-051, P-059, P-085, P-087, P-099) in their two-phase form through the public
// API: stop with a savepoint after the rows "before restore", restore a new job from it, feed the rows "after
// restore"; Flink's exact rows. Watermarks are not part of a savepoint: the restored job's sources are new
// ones (an iterable cannot be replayed), so their event time starts afresh, as in Flink.
import { expect, it } from "vitest";
import { $, DataTypes, Schema, descriptor } from "../../src/index.js";
import { MultiStateFunction, NonNullMapStateFunction } from "../ptf/flink-functions.js";
import { MultiInputOrderByFunction, OrderByFunction, T_LARGE_ROWS, T_LARGE_SCHEMA } from "../ptf/flink-multi-functions.js";
import { TIMED_SOURCE_SCHEMA } from "../ptf/flink-time-functions.js";
import { sorted } from "../ptf/support.js";
import { BroadcastStateFunction, NotifyStatefulSetsFunction, NotifyStatefulSetsRulesFunction, rulesSchema } from "../ptf/flink-broadcast-functions.js";
import { type ProgramSource, twoPhase } from "./two-phase.js";
import { backendSuite } from "../support/state-backends.js";

const T = Schema.newBuilder().column("name", DataTypes.STRING()).column("score", DataTypes.INT()).build();
/** MULTI_VALUES_SOURCE */
const MULTI: ProgramSource = { name: "t", schema: T, before: [["Bob", 12], ["Alice", 42]], after: [["Bob", 99], ["Bob", 100], ["Alice", 400]] };
const LARGE: ProgramSource = { name: "t_large", schema: T_LARGE_SCHEMA, before: T_LARGE_ROWS.slice(0, 7), after: T_LARGE_ROWS.slice(7) };

backendSuite("PTF restore programs, two phases through the public API", () => {
  it("P-051 process-multi-state-restore", async () => {
    const r = await twoPhase([MULTI], (e, { t }) => e.fromCall(MultiStateFunction, t!.partitionBy($("name")).asArgument("r")));
    expect(r.before).toEqual(["+I[Bob, {+I[null], +I[null], +I[Bob, 12]}]", "+I[Alice, {+I[null], +I[null], +I[Alice, 42]}]"]);
    expect(r.after).toEqual([
      "+I[Bob, {+I[1], +I[0], +I[Bob, 99]}]", "+I[Bob, {+I[2], +I[1], +I[Bob, 100]}]", "+I[Alice, {+I[1], +I[0], +I[Alice, 400]}]",
    ]);
  });

  it("P-059 process-map-state-restore", async () => {
    const r = await twoPhase([MULTI], (e, { t }) => e.fromCall(NonNullMapStateFunction, t!.partitionBy($("name")).asArgument("r")));
    expect(r.before).toEqual([
      "+I[Bob, {{}, KeyedStateMapViewWithKeysNotNull, +I[Bob, 12]}]",
      "+I[Alice, {{}, KeyedStateMapViewWithKeysNotNull, +I[Alice, 42]}]",
    ]);
    expect(r.after).toEqual([
      "+I[Bob, {{Bob=2, oldBob=1}, KeyedStateMapViewWithKeysNotNull, +I[Bob, 99]}]",
      "+I[Bob, {{}, KeyedStateMapViewWithKeysNotNull, +I[Bob, 100]}]",
      "+I[Alice, {{Alice=2, oldAlice=1}, KeyedStateMapViewWithKeysNotNull, +I[Alice, 400]}]",
    ]);
  });

  it("P-085 process-order-by-restore: the sort buffer is state, the watermark starts again", async () => {
    const r = await twoPhase([LARGE], (e, { t_large }) => e.fromCall(OrderByFunction,
      t_large!.partitionBy($("name")).orderBy($("ts").asc(), $("score").desc()).asArgument("r"), descriptor("ts").asArgument("on_time")));
    expect(r.before).toEqual([
      "+I[Bob, {1969-12-31T23:59:59.995Z, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00Z, [+I[Bob, 1, 1970-01-01T00:00:00Z]]}, 1970-01-01T00:00:00Z]",
      "+I[Alice, {1969-12-31T23:59:59.995Z, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00.001Z, [+I[Alice, 1, 1970-01-01T00:00:00.001Z]]}, 1970-01-01T00:00:00.001Z]",
      "+I[Bob, {1969-12-31T23:59:59.995Z, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00.003Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z]]}, 1970-01-01T00:00:00.003Z]",
      "+I[Bob, {1969-12-31T23:59:59.995Z, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00.003Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z]]}, 1970-01-01T00:00:00.003Z]",
      "+I[Bob, {1969-12-31T23:59:59.995Z, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00.005Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z], +I[Bob, 4, 1970-01-01T00:00:00.005Z]]}, 1970-01-01T00:00:00.005Z]",
    ]);
    expect(r.after).toEqual([
      "+I[Bob, {1970-01-01T00:00:00.002Z, 1970-01-01T00:00:00.002Z, 1970-01-01T00:00:00.010Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z], +I[Bob, 4, 1970-01-01T00:00:00.005Z], +I[Bob, 5, 1970-01-01T00:00:00.010Z]]}, 1970-01-01T00:00:00.010Z]",
      "+I[Bob, {1970-01-01T00:00:00.002Z, 1970-01-01T00:00:00.002Z, 1970-01-01T00:00:00.012Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z], +I[Bob, 4, 1970-01-01T00:00:00.005Z], +I[Bob, 5, 1970-01-01T00:00:00.010Z], +I[Bob, 6, 1970-01-01T00:00:00.012Z]]}, 1970-01-01T00:00:00.012Z]",
      "+I[Alice, {1970-01-01T00:00:00.012Z, 1970-01-01T00:00:00.012Z, 1970-01-01T00:00:00.019Z, [+I[Alice, 1, 1970-01-01T00:00:00.001Z], +I[Alice, 2, 1970-01-01T00:00:00.019Z]]}, 1970-01-01T00:00:00.019Z]",
      "+I[Bob, {1970-01-01T00:00:00.012Z, 1970-01-01T00:00:00.012Z, 1970-01-01T00:00:00.022Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z], +I[Bob, 4, 1970-01-01T00:00:00.005Z], +I[Bob, 5, 1970-01-01T00:00:00.010Z], +I[Bob, 6, 1970-01-01T00:00:00.012Z], +I[Bob, 7, 1970-01-01T00:00:00.022Z]]}, 1970-01-01T00:00:00.022Z]",
    ]);
  });

  it("P-087 process-multi-input-order-by-restore: a sort buffer per input", async () => {
    const IN1: ProgramSource = { name: "t", schema: TIMED_SOURCE_SCHEMA, before: [["Bob", 1, 0], ["Alice", 1, 1], ["Bob", 2, 99999], ["Bob", 3, 3], ["Bob", 4, 4]], after: [] };
    const r = await twoPhase([IN1, LARGE], (e, { t, t_large }) => e.fromCall(MultiInputOrderByFunction,
      t!.partitionBy($("name")).orderBy($("ts").asc()).asArgument("in1"),
      t_large!.partitionBy($("name")).orderBy($("ts").asc(), $("score").desc()).asArgument("in2"), descriptor("ts").asArgument("on_time")));
    // Flink asserts a multiset and lists one release's rows across keys in another order
    expect(sorted(r.before)).toEqual(sorted([
      "+I[Bob, Bob, {in1, 1969-12-31T23:59:59.999Z, 1970-01-01T00:00:00Z, [+I[Bob, 1, 1970-01-01T00:00:00Z]]}, 1970-01-01T00:00:00Z]",
      "+I[Alice, Alice, {in1, 1970-01-01T00:00:00Z, 1970-01-01T00:00:00.001Z, [+I[Alice, 1, 1970-01-01T00:00:00.001Z]]}, 1970-01-01T00:00:00.001Z]",
      "+I[Bob, Bob, {in2, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00Z, [+I[Bob, 1, 1970-01-01T00:00:00Z]]}, 1970-01-01T00:00:00Z]",
      "+I[Bob, Bob, {in2, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00.003Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z]]}, 1970-01-01T00:00:00.003Z]",
      "+I[Bob, Bob, {in2, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00.003Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z]]}, 1970-01-01T00:00:00.003Z]",
      "+I[Bob, Bob, {in2, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00.005Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z], +I[Bob, 4, 1970-01-01T00:00:00.005Z]]}, 1970-01-01T00:00:00.005Z]",
      "+I[Alice, Alice, {in2, 1969-12-31T23:59:59.995Z, 1970-01-01T00:00:00.001Z, [+I[Alice, 1, 1970-01-01T00:00:00.001Z]]}, 1970-01-01T00:00:00.001Z]",
    ]));
    expect(sorted(r.after)).toEqual(sorted([
      "+I[Bob, Bob, {in1, null, 1970-01-01T00:01:39.999Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 2, 1970-01-01T00:01:39.999Z]]}, 1970-01-01T00:01:39.999Z]",
      "+I[Bob, Bob, {in2, 1970-01-01T00:00:00.002Z, 1970-01-01T00:00:00.010Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z], +I[Bob, 4, 1970-01-01T00:00:00.005Z], +I[Bob, 5, 1970-01-01T00:00:00.010Z]]}, 1970-01-01T00:00:00.010Z]",
      "+I[Bob, Bob, {in2, 1970-01-01T00:00:00.002Z, 1970-01-01T00:00:00.012Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z], +I[Bob, 4, 1970-01-01T00:00:00.005Z], +I[Bob, 5, 1970-01-01T00:00:00.010Z], +I[Bob, 6, 1970-01-01T00:00:00.012Z]]}, 1970-01-01T00:00:00.012Z]",
      "+I[Bob, Bob, {in2, 1970-01-01T00:00:00.012Z, 1970-01-01T00:00:00.022Z, [+I[Bob, 1, 1970-01-01T00:00:00Z], +I[Bob, 3, 1970-01-01T00:00:00.003Z], +I[Bob, 2, 1970-01-01T00:00:00.003Z], +I[Bob, 4, 1970-01-01T00:00:00.005Z], +I[Bob, 5, 1970-01-01T00:00:00.010Z], +I[Bob, 6, 1970-01-01T00:00:00.012Z], +I[Bob, 7, 1970-01-01T00:00:00.022Z]]}, 1970-01-01T00:00:00.022Z]",
      "+I[Alice, Alice, {in2, 1970-01-01T00:00:00.012Z, 1970-01-01T00:00:00.019Z, [+I[Alice, 1, 1970-01-01T00:00:00.001Z], +I[Alice, 2, 1970-01-01T00:00:00.019Z]]}, 1970-01-01T00:00:00.019Z]",
    ]));
  });

  it("P-099 process-notify-stateful-sets-rules-restore: broadcast state and the sets' keys survive", async () => {
    const t: ProgramSource = { name: "t", schema: TIMED_SOURCE_SCHEMA, before: [["Marker", -1, 0], ["Bob", 1, 0], ["Alice", 1, 1]], after: [["Charly", 1, 1001]] };
    const rules: ProgramSource = { name: "rules", schema: rulesSchema("ts - INTERVAL '0.001' SECOND"), before: [["Dave", 3, 2]], after: [["Eve", 4, 1001]] };
    const r = await twoPhase([t, rules], (e, tables) => e.fromCall(NotifyStatefulSetsRulesFunction,
      tables.t!.partitionBy($("name")).asArgument("input"), tables.rules!.asArgument("rule"), descriptor("ts").asArgument("on_time")));
    expect(r.before).toEqual(["+I[Marker, {+I[Marker, -1, 1970-01-01T00:00:00Z]}, 1970-01-01T00:00:00Z]"]);
    expect(r.after).toEqual([
      "+I[Bob, {{Dave=2}}, 1970-01-01T00:00:00.003Z]",
      "+I[Alice, {{Dave=2}}, 1970-01-01T00:00:00.003Z]",
      "+I[Charly, {{Dave=2}}, 1970-01-01T00:00:00.003Z]",
      "+I[Bob, {1, {Dave=2, Eve=1001}}, 1970-01-01T00:00:01Z]",
      "+I[Alice, {1, {Dave=2, Eve=1001}}, 1970-01-01T00:00:01Z]",
      "+I[Charly, {1, {Dave=2, Eve=1001}}, 1970-01-01T00:00:01Z]",
    ]);
  });

  it("process-broadcast-state-restore: broadcast views and eager state survive", async () => {
    const rules: ProgramSource = { name: "rules", schema: rulesSchema("ts"), before: [["Bob", 1, 0], ["Alice", 2, 1], ["Bob", 10, 2]], after: [] };
    const t: ProgramSource = { name: "t", schema: TIMED_SOURCE_SCHEMA, before: [["Bob", -1, 0]], after: [["Bob", 99, 1], ["Alice", 42, 2], ["Charly", 7, 3]] };
    const r = await twoPhase([rules, t], (e, tables) => e.fromCall(BroadcastStateFunction,
      tables.t!.partitionBy($("name")).asArgument("input"), tables.rules!.asArgument("rule")));
    expect(r.before).toEqual(["+I[Bob, {+I[Bob, -1, 1970-01-01T00:00:00Z]}]"]);
    const stats = "RuleStats(rules=3, lastName=Bob)";
    expect(r.after).toEqual([
      `+I[Bob, {+I[Bob, 99, 1970-01-01T00:00:00.001Z], 1, 10, 13, ${stats}}]`,
      `+I[Alice, {+I[Alice, 42, 1970-01-01T00:00:00.002Z], 1, 2, 13, ${stats}}]`,
      `+I[Charly, {+I[Charly, 7, 1970-01-01T00:00:00.003Z], 1, null, 13, ${stats}}]`,
    ]);
  });

  it("process-notify-stateful-sets-restore: the sets that hold state are notified after a restore", async () => {
    const t: ProgramSource = { name: "t", schema: TIMED_SOURCE_SCHEMA, before: [["Bob", 1, 0], ["Alice", 2, 1]], after: [] };
    const resets: ProgramSource = {
      name: "resets", schema: Schema.newBuilder().column("name", DataTypes.STRING()).column("ts", DataTypes.TIMESTAMP_LTZ(3)).watermark("ts", "ts").build(),
      before: [[null, 0]], after: [["Alice", 2], ["Bob", 3]],
    };
    const r = await twoPhase([t, resets], (e, tables) => e.fromCall(NotifyStatefulSetsFunction,
      tables.t!.partitionBy($("name")).asArgument("input"), tables.resets!.asArgument("control")));
    expect(r.before).toEqual(["+I[Bob, {+I[Bob, 1, 1970-01-01T00:00:00Z], 1}]", "+I[Alice, {+I[Alice, 2, 1970-01-01T00:00:00.001Z], 1}]"]);
    expect(r.after).toEqual([
      "+I[Bob, {Alice, SetStats(name=Bob, rows=1), 1}]",
      "+I[Alice, {Alice, SetStats(name=Alice, rows=1), 1}]",
      "+I[Bob, {Bob, SetStats(name=Bob, rows=1), 2}]",
    ]);
  });
});
