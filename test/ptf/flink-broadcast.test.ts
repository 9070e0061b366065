// Flink's broadcast and notify programs (P-088 … P-099, and the programs of the
// same functions that §3.14 refers to), and the validation cases V-09 … V-17, with Flink's rows and
// messages, through the Table API and SQL. Flink's assertions are multisets (its inputs race); the
// tests compare sorted rows where the order of rows of different tables is Flink's non-determinism.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { $, ArgumentTrait, DataTypes, ProcessTableFunction, Row, StateKind, TableRuntimeException, descriptor, mapView, tableArg, valueState, valueView } from "../../src/index.js";
import type { TableEnvironment } from "../../src/index.js";
import {
  BroadcastClearStateFunction, BroadcastFilterFunction, BroadcastLookupFunction, BroadcastStateFunction, BroadcastTimersFunction,
  InvalidBroadcastCollectFunction, InvalidBroadcastStateWriteFunction, InvalidBroadcastTimerFunction, MultiBroadcastFunction,
  NotifyStatefulSetsFunction, NotifyStatefulSetsRulesFunction, broadcastRulesValues, rulesSchema, timedBroadcastRulesSource,
} from "./flink-broadcast-functions.js";
import { cityValues } from "./flink-multi-functions.js";
import { TIMED_SOURCE_SCHEMA, timedSource } from "./flink-time-functions.js";
import { updatingValues } from "./flink-changelog-functions.js";
import { RestoreRun } from "./restore-run.js";
import { basicValues, multiValues, sorted, streamingEnv } from "./support.js";
import { Schema } from "../../src/index.js";

const { SET_SEMANTIC_TABLE: SET, ROW_SEMANTIC_TABLE: ROW, BROADCAST_SEMANTIC_TABLE: BCAST, NOTIFY_STATEFUL_SETS: NOTIFY } = ArgumentTrait;

/** P-088 / P-089: the 5 input rows (no rule name matches a person) and one timer row per key at the end. */
const LOOKUP_ROWS = [
  "+I[Bob, {+I[Bob, 12], 1, null, KeyedStateMapViewWithKeysNotNull}]",
  "+I[Alice, {+I[Alice, 42], 1, null, KeyedStateMapViewWithKeysNotNull}]",
  "+I[Bob, {+I[Bob, 99], 2, null, KeyedStateMapViewWithKeysNotNull}]",
  "+I[Bob, {+I[Bob, 100], 3, null, KeyedStateMapViewWithKeysNotNull}]",
  "+I[Alice, {+I[Alice, 400], 2, null, KeyedStateMapViewWithKeysNotNull}]",
  "+I[Bob, {3, {Dave=3, Eve=4}}]",
  "+I[Alice, {2, {Dave=3, Eve=4}}]",
];

function setup(env: TableEnvironment, f: ProcessTableFunction<never, never, never, never> | object, basic = false): void {
  if (basic) basicValues(env);
  else multiValues(env);
  broadcastRulesValues(env);
  env.createTemporaryFunction("f", f as never);
}

describe("§3.14 broadcast tables", () => {
  it("P-088 process-broadcast-state (SQL): broadcast state is shared by all keys, keyed state per key", async () => {
    const env = streamingEnv();
    setup(env, BroadcastLookupFunction);
    const result = env.executeSql("SELECT * FROM f(input => TABLE t PARTITION BY name, rules => TABLE rules)");
    expect(result.getResolvedSchema().names).toEqual(["name", "out"]);
    expect(sorted(await result.toChangelog())).toEqual(sorted(LOOKUP_ROWS));
  });

  it("P-089 process-broadcast-state-table-api: the same call with the function by its registered name", async () => {
    const env = streamingEnv();
    setup(env, BroadcastLookupFunction);
    const result = env.fromCall("f", env.from("t").partitionBy($("name")).asArgument("input"), env.from("rules").asArgument("rules"));
    expect(result.getResolvedSchema().names).toEqual(["name", "out"]);
    expect(sorted(await result.execute().toChangelog())).toEqual(sorted(LOOKUP_ROWS));
  });

  it("P-091 process-broadcast-row-semantic: a row-semantics table beside a broadcast block list", async () => {
    const env = streamingEnv();
    setup(env, BroadcastFilterFunction);
    const sql = env.executeSql("SELECT * FROM f(input => TABLE t, rule => TABLE rules)");
    expect(sql.getResolvedSchema().names).toEqual(["EXPR$0"]);
    expect(await sql.toChangelog()).toEqual(Array(5).fill("+I[not blocked]"));
    const api = env.fromCall("f", env.from("t").asArgument("input"), env.from("rules").asArgument("rule"));
    expect(await api.execute().toChangelog()).toEqual(Array(5).fill("+I[not blocked]"));
  });

  it("a broadcast block list filters the rows it names (the rows of the broadcast table come first here)", async () => {
    const env = streamingEnv();
    const rules = broadcastRulesValues(env);
    // the rules are consumed before the people: a source that feeds them first
    const slow = env.fromValues(Row.of("x", 0), Row.of("x", 0), Row.of("x", 0), Row.of("Dave", 1), Row.of("Bob", 2), Row.of("Eve", 3)).as("name", "score")
      .filter($("name").isNotEqual("x"));
    expect(await env.fromCall(BroadcastFilterFunction, slow.asArgument("input"), rules.asArgument("rule")).execute().toChangelog()).toEqual(["+I[not blocked]"]);
  });

  it("P-093 process-broadcast-clear-state: clearAllState() of a broadcast row clears broadcast state only", async () => {
    const env = streamingEnv();
    setup(env, BroadcastClearStateFunction);
    const expected = ["+I[Bob, {3, {Eve=4}}]", "+I[Alice, {2, {Eve=4}}]"];
    expect(sorted(await env.executeSql("SELECT * FROM f(input => TABLE t PARTITION BY name, rule => TABLE rules)").toChangelog())).toEqual(sorted(expected));
    const api = env.from("t").partitionBy($("name")).process("f", env.from("rules").asArgument("rule"));
    expect(sorted(await api.execute().toChangelog())).toEqual(sorted(expected));
  });

  it("P-095 process-invalid-broadcast-collect: collect() for a broadcast row fails", async () => {
    const env = streamingEnv();
    setup(env, InvalidBroadcastCollectFunction, true);
    const run = env.executeSql("SELECT * FROM f(input => TABLE t PARTITION BY name, rule => TABLE rules)").toChangelog();
    await expect(run).rejects.toThrow(TableRuntimeException);
    await expect(env.executeSql("SELECT * FROM f(input => TABLE t PARTITION BY name, rule => TABLE rules)").toChangelog()).rejects
      .toThrow("Emitting results via collect() is not supported while processing a table with broadcast semantics.");
  });

  it("process-invalid-broadcast-timer: registering a timer for a broadcast row fails", async () => {
    const env = streamingEnv();
    setup(env, InvalidBroadcastTimerFunction, true);
    await expect(env.executeSql("SELECT * FROM f(input => TABLE t PARTITION BY name, rule => TABLE rules)").toChangelog()).rejects
      .toThrow("Timers are not supported while processing a table with broadcast semantics.");
  });

  it("P-097 process-invalid-broadcast-state-write: broadcast state is read-only for rows of the main table", async () => {
    const env = streamingEnv();
    setup(env, InvalidBroadcastStateWriteFunction, true);
    const run = env.fromCall("f", env.from("t").partitionBy($("name")).asArgument("input"), env.from("rules").asArgument("rule")).execute().toChangelog();
    await expect(run).rejects.toThrow(
      "Broadcast state entry 'weights' is read-only while processing a table with row or set semantics or while notifying stateful sets.",
    );
    await expect(env.executeSql("SELECT * FROM f(input => TABLE t PARTITION BY name, rule => TABLE rules)").toChangelog()).rejects.toThrow(TableRuntimeException);
  });

  it("process-multi-broadcast: two broadcast tables beside two co-partitioned tables; eager broadcast changes of main rows are discarded", async () => {
    const env = streamingEnv();
    multiValues(env);
    cityValues(env);
    broadcastRulesValues(env);
    env.createTemporaryFunction("f", MultiBroadcastFunction);
    const result = env.executeSql("SELECT * FROM f(in1 => TABLE t PARTITION BY name, rules1 => TABLE rules, in2 => TABLE city PARTITION BY name, rules2 => TABLE rules)");
    expect(result.getResolvedSchema().names).toEqual(["name", "name0", "out"]);
    // a person's weight is null (no rule names a person); the timers fire when every table, broadcast
    // ones too, has ended: all rules are in, and "discarded" never reached the eager broadcast state
    expect(sorted(await result.toChangelog())).toEqual(sorted([
      "+I[Bob, Bob, {+I[Bob, 12], null, null}]", "+I[Alice, Alice, {+I[Alice, 42], null, null}]", "+I[Bob, Bob, {+I[Bob, 99], null, null}]",
      "+I[Bob, Bob, {+I[Bob, 100], null, null}]", "+I[Alice, Alice, {+I[Alice, 400], null, null}]",
      "+I[Bob, Bob, {null, +I[Bob, London], null}]", "+I[Alice, Alice, {null, +I[Alice, Berlin], null}]", "+I[Charly, Charly, {null, +I[Charly, Paris], null}]",
      "+I[Bob, Bob, {{Dave=3, Eve=4}, RuleStats(rules=2, lastName=Eve)}]",
      "+I[Alice, Alice, {{Dave=3, Eve=4}, RuleStats(rules=2, lastName=Eve)}]",
      "+I[Charly, Charly, {{Dave=3, Eve=4}, RuleStats(rules=2, lastName=Eve)}]",
    ]));
  });

  it("process-broadcast-timers: time() is available for broadcast rows; broadcast tables hold back the combined watermark", async () => {
    const env = streamingEnv();
    timedSource(env);
    timedBroadcastRulesSource(env);
    env.createTemporaryFunction("f", BroadcastTimersFunction);
    const result = env.executeSql("SELECT * FROM f(input => TABLE t PARTITION BY name, rule => TABLE rules, on_time => DESCRIPTOR(ts))");
    expect(result.getResolvedSchema().names).toEqual(["name", "out", "rowtime"]);
    const at = (n: string, s: number, ts: number, iso: string) => `+I[${n}, {Processing input row +I[${n}, ${s}, ${iso}] at time ${ts}}, ${iso}]`;
    expect(sorted(await result.toChangelog())).toEqual(sorted([
      at("Bob", 1, 0, "1970-01-01T00:00:00Z"), at("Alice", 1, 1, "1970-01-01T00:00:00.001Z"), at("Bob", 2, 2, "1970-01-01T00:00:00.002Z"),
      at("Bob", 3, 3, "1970-01-01T00:00:00.003Z"), at("Bob", 4, 4, "1970-01-01T00:00:00.004Z"), at("Bob", 5, 5, "1970-01-01T00:00:00.005Z"),
      at("Bob", 6, 6, "1970-01-01T00:00:00.006Z"),
      "+I[Bob, {{Dave=2, Eve=5}}, 1970-01-01T00:00:01Z]",
      "+I[Alice, {{Dave=2, Eve=5}}, 1970-01-01T00:00:01Z]",
    ]));
  });

  it("process-broadcast-state-restore: broadcast value view, map view and eager state survive a snapshot", () => {
    const env = streamingEnv();
    const t = env.fromValues(TIMED_SOURCE_SCHEMA);
    const rules = env.fromValues(rulesSchema("ts"));
    const call = env.fromCall(BroadcastStateFunction, t.partitionBy($("name")).asArgument("input"), rules.asArgument("rule"));
    // BROADCAST_RULES_SOURCE before the restore, then the marker row of BROADCAST_RESTORE_SOURCE
    const before = new RestoreRun(env, call, [1, 0]).rows(1, [["Bob", 1, 0], ["Alice", 2, 1], ["Bob", 10, 2]]).rows(0, [["Bob", -1, 0]]);
    expect(before.out).toEqual(["+I[Bob, {+I[Bob, -1, 1970-01-01T00:00:00Z]}]"]);
    const state = before.op.snapshotState();
    const after = new RestoreRun(env, call, [1, 0], state).rows(0, [["Bob", 99, 1], ["Alice", 42, 2], ["Charly", 7, 3]]).end(0).end(1);
    const stats = "RuleStats(rules=3, lastName=Bob)";
    expect(after.out).toEqual([
      `+I[Bob, {+I[Bob, 99, 1970-01-01T00:00:00.001Z], 1, 10, 13, ${stats}}]`,
      `+I[Alice, {+I[Alice, 42, 1970-01-01T00:00:00.002Z], 1, 2, 13, ${stats}}]`,
      `+I[Charly, {+I[Charly, 7, 1970-01-01T00:00:00.003Z], 1, null, 13, ${stats}}]`,
    ]);
  });
});

describe("§3.15 broadcast tables that notify stateful sets", () => {
  it("P-099 process-notify-stateful-sets-rules-restore: each rule reaches every set once, also after a restore", () => {
    const env = streamingEnv();
    const t = env.fromValues(TIMED_SOURCE_SCHEMA);
    const rules = env.fromValues(rulesSchema("ts - INTERVAL '0.001' SECOND"));
    const call = env.fromCall(NotifyStatefulSetsRulesFunction, t.partitionBy($("name")).asArgument("input"), rules.asArgument("rule"), descriptor("ts").asArgument("on_time"));
    expect(call.getResolvedSchema().names).toEqual(["name", "out", "rowtime"]);
    const before = new RestoreRun(env, call, [1, 1]).rows(0, [["Marker", -1, 0], ["Bob", 1, 0], ["Alice", 1, 1]]).rows(1, [["Dave", 3, 2]]);
    expect(before.out).toEqual(["+I[Marker, {+I[Marker, -1, 1970-01-01T00:00:00Z]}, 1970-01-01T00:00:00Z]"]);
    const state = before.op.snapshotState();
    const after = new RestoreRun(env, call, [1, 1], state).rows(0, [["Charly", 1, 1001]]).rows(1, [["Eve", 4, 1001]]).end(0).end(1);
    expect(after.out).toEqual([
      "+I[Bob, {{Dave=2}}, 1970-01-01T00:00:00.003Z]",
      "+I[Alice, {{Dave=2}}, 1970-01-01T00:00:00.003Z]",
      "+I[Charly, {{Dave=2}}, 1970-01-01T00:00:00.003Z]",
      "+I[Bob, {1, {Dave=2, Eve=1001}}, 1970-01-01T00:00:01Z]",
      "+I[Alice, {1, {Dave=2, Eve=1001}}, 1970-01-01T00:00:01Z]",
      "+I[Charly, {1, {Dave=2, Eve=1001}}, 1970-01-01T00:00:01Z]",
    ]);
  });

  it("process-notify-stateful-sets-restore: a control row is delivered once per set with state; clearAllState resets that set", () => {
    const env = streamingEnv();
    const t = env.fromValues(TIMED_SOURCE_SCHEMA);
    const resets = env.fromValues(Schema.newBuilder().column("name", DataTypes.STRING()).column("ts", DataTypes.TIMESTAMP_LTZ(3)).watermark("ts", "ts").build());
    const call = env.fromCall(NotifyStatefulSetsFunction, t.partitionBy($("name")).asArgument("input"), resets.asArgument("control"));
    const before = new RestoreRun(env, call, [1, 0]).rows(0, [["Bob", 1, 0], ["Alice", 2, 1]]).rows(1, [[null, 0]]);
    expect(before.out).toEqual([
      "+I[Bob, {+I[Bob, 1, 1970-01-01T00:00:00Z], 1}]",
      "+I[Alice, {+I[Alice, 2, 1970-01-01T00:00:00.001Z], 1}]",
    ]);
    const after = new RestoreRun(env, call, [1, 0], before.op.snapshotState()).rows(1, [["Alice", 2], ["Bob", 3]]).end(0).end(1);
    expect(after.out).toEqual([
      "+I[Bob, {Alice, SetStats(name=Bob, rows=1), 1}]",
      "+I[Alice, {Alice, SetStats(name=Alice, rows=1), 1}]",
      "+I[Bob, {Bob, SetStats(name=Bob, rows=1), 2}]",
    ]);
  });

  it("notified calls may collect; output rows carry the notified key", async () => {
    const env = streamingEnv();
    const people = env.fromValues(Row.of("Bob", 1), Row.of("Alice", 2), Row.of("Bob", 3)).as("name", "score");
    // the control table starts after the people: its source first emits rows that are filtered out
    const control = env.fromValues(Row.of(null), Row.of(null), Row.of(null), Row.of(null), Row.of("Alice")).as("name").filter($("name").isNotNull());
    const rows = await env.fromCall(NotifyStatefulSetsFunction, people.partitionBy($("name")).asArgument("input"), control.asArgument("control")).execute().toChangelog();
    expect(rows).toEqual([
      "+I[Bob, {+I[Bob, 1], 1}]",
      "+I[Alice, {+I[Alice, 2], 1}]",
      "+I[Bob, {+I[Bob, 3], 2}]",
      "+I[Bob, {Alice, SetStats(name=Bob, rows=2), 1}]",
      "+I[Alice, {Alice, SetStats(name=Alice, rows=1), 1}]",
    ]);
  });
});

describe("broadcast validation (V-09 … V-17)", () => {
  const state = { s: mapView(DataTypes.STRING(), DataTypes.INT(), { kind: StateKind.BROADCAST }) };
  const OUT = DataTypes.STRING();

  it("V-09 only broadcast table arguments", () => {
    expect(() => ProcessTableFunction.define({ args: { rule: tableArg(BCAST) }, output: OUT, eval() {} }))
      .toThrow("Table arguments with broadcast semantics require at least one table argument with row or set semantics.");
  });

  it("V-11 broadcast state without a broadcast table", () => {
    expect(() => ProcessTableFunction.define({ args: { input: tableArg(SET) }, state, output: OUT, eval() {} }))
      .toThrow("Broadcast state entry 's' requires at least one table argument with broadcast semantics.");
  });

  it("V-13 notifying stateful sets needs state scoped to a set (beside a row-semantics table, or with broadcast state only)", () => {
    expect(() => ProcessTableFunction.define({ args: { input: tableArg(ROW), rule: tableArg(BCAST, NOTIFY) }, state, output: OUT, eval() {} }))
      .toThrow("Table argument 'rule' notifies stateful sets which requires at least one state entry that is scoped to a set.");
    expect(() => ProcessTableFunction.define({ args: { input: tableArg(SET), rule: tableArg(BCAST, NOTIFY) }, state, output: OUT, eval() {} }))
      .toThrow("Table argument 'rule' notifies stateful sets which requires at least one state entry that is scoped to a set.");
  });

  it("V-15 PARTITION BY / ORDER BY on a broadcast table (SQL and Table API)", () => {
    const env = streamingEnv();
    env.createTemporaryView("t_watermarked", env.fromValues(TIMED_SOURCE_SCHEMA) as never);
    env.createTemporaryView("t_watermarked_rules", env.fromValues(rulesSchema("ts")) as never);
    env.createTemporaryFunction("f", BroadcastTimersFunction);
    const msg = "PARTITION BY or ORDER BY are not supported for table arguments with broadcast semantics.";
    expect(() => env.executeSql("SELECT * FROM f(input => TABLE t_watermarked PARTITION BY name, rule => TABLE t_watermarked_rules ORDER BY ts, on_time => DESCRIPTOR(ts))")).toThrow(msg);
    expect(() => env.fromCall("f", env.from("t_watermarked").partitionBy($("name")).asArgument("input"), env.from("t_watermarked_rules").partitionBy($("name")).asArgument("rule"))).toThrow(msg);
  });

  it("V-17 updates into an insert-only broadcast table argument", () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryView("t_updating", updatingValues(env) as never);
    env.createTemporaryFunction("f", BroadcastLookupFunction);
    expect(() => env.executeSql("SELECT * FROM f(input => TABLE t PARTITION BY name, rules => TABLE t_updating)"))
      .toThrow("StreamPhysicalProcessTableFunction doesn't support consuming update changes");
  });

  it("missing on_time for the broadcast table: every table names its time column or none (SQL and Table API)", () => {
    const env = streamingEnv();
    env.createTemporaryView("t_watermarked", env.fromValues(TIMED_SOURCE_SCHEMA) as never);
    env.createTemporaryView("t_rules", env.fromValues(Row.of("Bob", 1)).as("name", "weight") as never);
    env.createTemporaryFunction("f", BroadcastTimersFunction);
    const msg = "Invalid time attribute declaration. If multiple tables are declared, the `on_time` argument must reference a time column for each table argument or none. Missing time attributes for: [rule]";
    expect(() => env.sqlQuery("SELECT * FROM f(input => TABLE t_watermarked PARTITION BY name, rule => TABLE t_rules, on_time => DESCRIPTOR(ts))")).toThrow(msg);
    expect(() => env.fromCall("f", env.from("t_watermarked").partitionBy($("name")).asArgument("input"), env.from("t_rules").asArgument("rule"), descriptor("ts").asArgument("on_time")))
      .toThrow(msg);
  });

  it("pass-through columns next to a broadcast table", () => {
    expect(() => ProcessTableFunction.define({ args: { input: tableArg(ROW, ArgumentTrait.PASS_COLUMNS_THROUGH), rule: tableArg(BCAST) }, output: OUT, eval() {} }))
      .toThrow("Pass-through columns are not supported if multiple table arguments are declared.");
  });

  it("declaration rules of broadcast arguments and state", () => {
    expect(() => tableArg(NOTIFY)).toThrow("needs exactly one of");
    expect(() => tableArg(SET, NOTIFY)).toThrow("NOTIFY_STATEFUL_SETS is only valid for a table argument with BROADCAST_SEMANTIC_TABLE");
    expect(() => valueView(DataTypes.INT(), { kind: StateKind.BROADCAST, ttl: "1 h" })).toThrow("broadcast state has no TTL");
    // keyed state beside a row-semantics table is still rejected; broadcast state is what such a function can keep
    expect(() => ProcessTableFunction.define({
      args: { input: tableArg(ROW), rule: tableArg(BCAST) }, state: { c: valueState({ n: 0 }) }, output: OUT, eval() {},
    })).toThrow("declare it with { kind: StateKind.BROADCAST } to share it across keys");
  });
});

describe("broadcast and notify state survive snapshot/restore (property)", () => {
  it("a run cut at any point and restored gives the rows of the uninterrupted run", () => {
    const row = fc.tuple(fc.constantFrom(0, 1), fc.constantFrom("Bob", "Alice", "Charly"), fc.integer({ min: 0, max: 20 }));
    fc.assert(fc.property(fc.array(row, { maxLength: 25 }), fc.nat(), (events, cutAt) => {
      const env = streamingEnv();
      const t = env.fromValues(TIMED_SOURCE_SCHEMA);
      const resets = env.fromValues(Schema.newBuilder().column("name", DataTypes.STRING()).column("ts", DataTypes.TIMESTAMP_LTZ(3)).watermark("ts", "ts").build());
      const call = env.fromCall(NotifyStatefulSetsFunction, t.partitionBy($("name")).asArgument("input"), resets.asArgument("control"));
      const feed = (run: RestoreRun, part: typeof events) => {
        for (const [input, name, ts] of part) {
          if (input === 0) run.rows(0, [[name, ts, ts]]);
          else run.rows(1, [[name, ts]]);
        }
        return run;
      };
      const cut = events.length === 0 ? 0 : cutAt % (events.length + 1);
      const whole = feed(new RestoreRun(env, call, [1, 0]), events).end(0).end(1).out;
      const first = feed(new RestoreRun(env, call, [1, 0]), events.slice(0, cut));
      const snapshot = first.op.snapshotState();
      const second = feed(new RestoreRun(env, call, [1, 0], snapshot), events.slice(cut)).end(0).end(1);
      expect([...first.out, ...second.out]).toEqual(whole);
    }), { numRuns: 60 });
  });
});
