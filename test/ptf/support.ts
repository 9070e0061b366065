// Helpers of the PTF tests: Flink's AppendProcessTableFunctionBase (output `ROW<out STRING>` and
// emitObjects rendering `{o1, o2}` the way Java's Row.toString renders its fields) and Flink's shared
// test tables (Flink's test catalogue §1).
import { untypedJavaString } from "../../src/types/format.js";
import { DataTypes, EnvironmentSettings, Row, TableEnvironment } from "../../src/index.js";
import type { Context } from "../../src/index.js";
import { activeBackendOptions } from "../support/state-backends.js";

/** Flink's AppendBase output type. */
export const OUT = DataTypes.ROW(DataTypes.FIELD("out", DataTypes.STRING()));
export type Out = { out: string | null };

/** Renders one object like Java's `String.valueOf` inside Row.toString: rows `+I[Bob, 12]`, lists `[0]`, null `null`. */
export function javaString(o: unknown): string {
  return untypedJavaString(o);
}

/** Emits one row whose `out` is `{o1, o2, ...}` (Flink's collectObjects). */
export function emitObjects(ctx: Context<string, string, Out>, ...objects: unknown[]): void {
  ctx.collect({ out: `{${objects.map(javaString).join(", ")}}` });
}

/** A streaming environment on the state backend of the suite that runs (test/support/state-backends.ts). */
export function streamingEnv(): TableEnvironment {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  for (const [k, v] of Object.entries(activeBackendOptions())) env.getConfig().set(k, v);
  return env;
}

/** BASIC_VALUES: view t (name, score) = (Bob, 12), (Alice, 42). */
export function basicValues(env: TableEnvironment) {
  const t = env.fromValues(Row.of("Bob", 12), Row.of("Alice", 42)).as("name", "score");
  env.createTemporaryView("t", t as never);
  return t;
}

/** MULTI_VALUES: view t (name, score) = Bob 12, Alice 42, Bob 99, Bob 100, Alice 400. */
export function multiValues(env: TableEnvironment) {
  const t = env.fromValues(Row.of("Bob", 12), Row.of("Alice", 42), Row.of("Bob", 99), Row.of("Bob", 100), Row.of("Alice", 400)).as("name", "score");
  env.createTemporaryView("t", t as never);
  return t;
}

/** The multiset of a changelog, for Flink's `containsExactlyInAnyOrder` assertions. */
export function sorted(rows: readonly string[]): string[] {
  return [...rows].sort();
}
