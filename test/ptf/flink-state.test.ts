// Flink's PTF programs of Flink's test catalogue §3.7 (state) and §3.8 (data views) with Flink's exact rows.
// Restore programs (P-051, P-059) run their "before" and "after" rows in one job: state kept across
// the two parts gives exactly Flink's rows before and after the restore (checkpoints come later).
import { beforeEach, describe, expect, it } from "vitest";
import {
  $, ArgumentTrait, DataTypes, ProcessTableFunction, Row, tableArg, valueState,
} from "../../src/index.js";
import {
  ClearStateFunction, ListStateFunction, MapStateFunction, MultiStateFunction, NonNullMapStateFunction, PojoStateFunction,
  PojoWithDefaultStateFunction, Score, ValueViewFunction, nullErrors,
} from "./flink-functions.js";
import { multiValues, streamingEnv } from "./support.js";
import { backendSuite } from "../support/state-backends.js";

async function run(fn: Parameters<ReturnType<typeof streamingEnv>["createTemporaryFunction"]>[1]): Promise<string[]> {
  const env = streamingEnv();
  multiValues(env);
  env.createTemporaryFunction("f", fn);
  return env.from("t").partitionBy($("name")).process("f").execute().toChangelog();
}

backendSuite("§3.7 state", () => {
  it("P-049 process-default-pojo-state: fresh state is a new instance with field initialisers (i = 99)", async () => {
    expect(await run(PojoWithDefaultStateFunction)).toEqual([
      "+I[Bob, {ScoreWithDefaults(s='null', i=99), +I[Bob, 12]}]",
      "+I[Alice, {ScoreWithDefaults(s='null', i=99), +I[Alice, 42]}]",
      "+I[Bob, {ScoreWithDefaults(s='Bob', i=0), +I[Bob, 99]}]",
      "+I[Bob, {ScoreWithDefaults(s='Bob', i=1), +I[Bob, 100]}]",
      "+I[Alice, {ScoreWithDefaults(s='null', i=0), +I[Alice, 400]}]",
    ]);
  });

  it("P-051 process-multi-state-restore: ROW states start as rows of nulls, several entries per function", async () => {
    const rows = await run(MultiStateFunction);
    // before restore
    expect(rows.slice(0, 2)).toEqual(["+I[Bob, {+I[null], +I[null], +I[Bob, 12]}]", "+I[Alice, {+I[null], +I[null], +I[Alice, 42]}]"]);
    // after restore
    expect(rows.slice(2)).toEqual([
      "+I[Bob, {+I[1], +I[0], +I[Bob, 99]}]", "+I[Bob, {+I[2], +I[1], +I[Bob, 100]}]", "+I[Alice, {+I[1], +I[0], +I[Alice, 400]}]",
    ]);
  });

  it("POJO state without defaults: all-null fields on a fresh key; changes persist after eval", async () => {
    expect(await run(PojoStateFunction)).toEqual([
      "+I[Bob, {Score(s='null', i=null), +I[Bob, 12]}]",
      "+I[Alice, {Score(s='null', i=null), +I[Alice, 42]}]",
      "+I[Bob, {Score(s='Bob', i=0), +I[Bob, 99]}]",
      "+I[Bob, {Score(s='Bob', i=1), +I[Bob, 100]}]",
      "+I[Alice, {Score(s='null', i=0), +I[Alice, 400]}]",
    ]);
  });

  it("clearState(name): the next call of that key sees a fresh default", async () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", ClearStateFunction);
    const t = env.fromValues(Row.of("Bob", 1), Row.of("Bob", 2), Row.of("Alice", 3), Row.of("Bob", 4), Row.of("Bob", 5)).as("name", "score");
    expect(await t.partitionBy($("name")).process("f").execute().toChangelog()).toEqual([
      "+I[Bob, {ScoreWithDefaults(s='null', i=99), +I[Bob, 1]}]",
      "+I[Bob, {ScoreWithDefaults(s='null', i=100), +I[Bob, 2]}]",
      "+I[Alice, {ScoreWithDefaults(s='null', i=99), +I[Alice, 3]}]",
      // cleared after the i=100 call: fresh default again
      "+I[Bob, {ScoreWithDefaults(s='null', i=99), +I[Bob, 4]}]",
      "+I[Bob, {ScoreWithDefaults(s='null', i=100), +I[Bob, 5]}]",
    ]);
  });

  it("P-053 process-state-ttl: own ttl wins, '0' disables, no ttl uses table.exec.state.ttl; one global partition emits once", async () => {
    const env = streamingEnv();
    multiValues(env);
    env.getConfig().set("table.exec.state.ttl", "5 h");
    const TimeToLiveStateFunction = ProcessTableFunction.define({
      name: "TimeToLiveStateFunction",
      args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.OPTIONAL_PARTITION_BY) },
      state: {
        s0: valueState(DataTypes.ROW(DataTypes.FIELD("emitted", DataTypes.BOOLEAN()))),
        s1: valueState(Score, { ttl: "5 days" }),
        s2: valueState(Score, { ttl: "0" }),
        s3: valueState(Score),
      },
      output: DataTypes.STRING(),
      eval(ctx, { s0 }) {
        if (s0.emitted === null) {
          ctx.collect("emitted once");
          s0.emitted = true;
        }
      },
    });
    const result = env.fromCall(TimeToLiveStateFunction, env.from("t").asArgument("r"));
    // the effective TTLs (Flink's StateTtlConfig: s1 = PT120H, s2 disabled, s3 = PT5H); TTL is on processing time
    expect(result.explain()).toContain("state=[s0 ttl=PT5H, s1 ttl=PT120H, s2, s3 ttl=PT5H]");
    expect(await result.execute().toChangelog()).toEqual(["+I[emitted once]"]);
  });
});

backendSuite("§3.8 data views", () => {
  beforeEach(() => { nullErrors.length = 0; });

  it("P-055 process-value-state: a ValueView per key; clearState empties it after the call", async () => {
    expect(await run(ValueViewFunction)).toEqual([
      "+I[Bob, {null, KeyedStateValueView, +I[Bob, 12]}]",
      "+I[Alice, {null, KeyedStateValueView, +I[Alice, 42]}]",
      "+I[Bob, {1, KeyedStateValueView, +I[Bob, 99]}]",
      "+I[Bob, {2, KeyedStateValueView, +I[Bob, 100]}]",
      "+I[Alice, {1, KeyedStateValueView, +I[Alice, 400]}]",
    ]);
  });

  it("P-057 process-list-state: a ListView per key; null elements are rejected with Flink's message", async () => {
    expect(await run(ListStateFunction)).toEqual([
      "+I[Bob, {[], KeyedStateListView, +I[Bob, 12]}]",
      "+I[Alice, {[], KeyedStateListView, +I[Alice, 42]}]",
      "+I[Bob, {[0], KeyedStateListView, +I[Bob, 99]}]",
      "+I[Bob, {[0, 1], KeyedStateListView, +I[Bob, 100]}]",
      "+I[Alice, {[0], KeyedStateListView, +I[Alice, 400]}]",
    ]);
    expect(new Set(nullErrors)).toEqual(new Set(["TableRuntimeException: List views don't support null values."]));
    expect(nullErrors).toHaveLength(10);
  });

  it("P-059 process-map-state-restore: a MapView per key, before and after the restore point", async () => {
    const rows = await run(NonNullMapStateFunction);
    expect(rows.slice(0, 2)).toEqual([
      "+I[Bob, {{}, KeyedStateMapViewWithKeysNotNull, +I[Bob, 12]}]",
      "+I[Alice, {{}, KeyedStateMapViewWithKeysNotNull, +I[Alice, 42]}]",
    ]);
    expect(rows.slice(2)).toEqual([
      "+I[Bob, {{Bob=2, oldBob=1}, KeyedStateMapViewWithKeysNotNull, +I[Bob, 99]}]",
      "+I[Bob, {{}, KeyedStateMapViewWithKeysNotNull, +I[Bob, 100]}]",
      "+I[Alice, {{Alice=2, oldAlice=1}, KeyedStateMapViewWithKeysNotNull, +I[Alice, 400]}]",
    ]);
  });

  it("MapView: null keys are rejected with Flink's message, null values are kept", async () => {
    const rows = await run(MapStateFunction);
    expect(rows[2]).toBe("+I[Bob, {{Bob=2, nullValue=null, oldBob=1}, KeyedStateMapViewWithKeysNotNull, +I[Bob, 99]}]");
    expect(new Set(nullErrors)).toEqual(new Set(["TableRuntimeException: Map views don't support null keys."]));
    expect(nullErrors).toHaveLength(10);
  });
});
