// Flink's restore programs (P-051, P-059) with a real restore: a job runs over the rows "before restore",
// its PTF operator's state is snapshotted, and a new job restored from that snapshot runs over the rows
// "after restore". This exercises the operator's snapshot/restore; test/checkpoints runs the programs as whole jobs.
import { describe, expect, it } from "vitest";
import { $, DataTypes, lit, type PositionalRow, Row } from "../../src/index.js";
import { ptfInspection } from "../../src/exec/operators/ptf/inspect.js";
import type { PtfOperator } from "../../src/exec/operators/ptf/ptf-operator.js";
import { getExecutor } from "../../src/table/executor.js";
import { KIND_SHORT } from "../../src/types/row.js";
import { toJavaString } from "../../src/types/format.js";
import type { Table, TableEnvironment } from "../../src/index.js";
import { MultiStateFunction, NonNullMapStateFunction, RowSemanticTableFunction } from "./flink-functions.js";
import { streamingEnv } from "./support.js";

/** MULTI_VALUES_SOURCE: before restore Bob 12, Alice 42; after restore Bob 99, Bob 100, Alice 400. */
const BEFORE = [Row.of("Bob", 12), Row.of("Alice", 42)];
const AFTER = [Row.of("Bob", 99), Row.of("Bob", 100), Row.of("Alice", 400)];

type Source = Table<{ name: string | null; score: number | null }>;

/** Runs `f(r => TABLE t PARTITION BY name)` (or `call(t)`) over `rows`, optionally restoring the PTF state first. */
function runJob(
  env: TableEnvironment, rows: PositionalRow<readonly [string, number]>[], restore?: unknown,
  call: (t: Source) => Table<object> = (t) => t.partitionBy($("name")).process("f"),
): { out: string[]; state: unknown } {
  const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("score", DataTypes.INT())), ...rows);
  const table = call(t);
  const out: string[] = [];
  const types = table.getResolvedSchema().types;
  ptfInspection.track = true;
  ptfInspection.operators.length = 0;
  const job = getExecutor().createJob(table.node, { batch: false, config: env.getConfig().options, clock: Date.now }, {
    record: (k, v) => out.push(`${KIND_SHORT[k]}[${v.map((x, i) => toJavaString(types[i], x)).join(", ")}]`),
  });
  ptfInspection.track = false;
  const op = ptfInspection.operators[0] as PtfOperator;
  if (restore !== undefined) op.restoreState(restore);
  while (job.step(1000) !== "done");
  return { out, state: op.snapshotState() };
}

describe("restore programs", () => {
  it("process-row-semantic-table-restore: a row-semantics call has no state and runs on after a restore", () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", RowSemanticTableFunction);
    const call = (t: Source) => env.fromCall("f", t.asArgument("r"), lit(1).asArgument("i"));
    const before = runJob(env, [Row.of("Bob", 12)], undefined, call);
    expect(before.out).toEqual(["+I[{+I[Bob, 12], 1}]"]);
    const after = runJob(env, [Row.of("Alice", 42)], before.state, call);
    expect(after.out).toEqual(["+I[{+I[Alice, 42], 1}]"]);
  });

  it("P-051 process-multi-state-restore", () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", MultiStateFunction);
    const before = runJob(env, BEFORE);
    expect(before.out).toEqual(["+I[Bob, {+I[null], +I[null], +I[Bob, 12]}]", "+I[Alice, {+I[null], +I[null], +I[Alice, 42]}]"]);
    const after = runJob(env, AFTER, before.state);
    expect(after.out).toEqual([
      "+I[Bob, {+I[1], +I[0], +I[Bob, 99]}]", "+I[Bob, {+I[2], +I[1], +I[Bob, 100]}]", "+I[Alice, {+I[1], +I[0], +I[Alice, 400]}]",
    ]);
  });

  it("P-059 process-map-state-restore", () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", NonNullMapStateFunction);
    const before = runJob(env, BEFORE);
    expect(before.out).toEqual([
      "+I[Bob, {{}, KeyedStateMapViewWithKeysNotNull, +I[Bob, 12]}]",
      "+I[Alice, {{}, KeyedStateMapViewWithKeysNotNull, +I[Alice, 42]}]",
    ]);
    const after = runJob(env, AFTER, before.state);
    expect(after.out).toEqual([
      "+I[Bob, {{Bob=2, oldBob=1}, KeyedStateMapViewWithKeysNotNull, +I[Bob, 99]}]",
      "+I[Bob, {{}, KeyedStateMapViewWithKeysNotNull, +I[Bob, 100]}]",
      "+I[Alice, {{Alice=2, oldAlice=1}, KeyedStateMapViewWithKeysNotNull, +I[Alice, 400]}]",
    ]);
  });

  it("a snapshot is a copy: later calls do not change it", () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", MultiStateFunction);
    const before = runJob(env, BEFORE);
    const frozen = JSON.stringify(before.state);
    runJob(env, AFTER, before.state);
    expect(JSON.stringify(before.state)).toBe(frozen);
  });
});
