import { TableError, ValidationError } from "../types/errors.js";
import { type ChangelogMode as PlanMode, INSERT_ONLY, isInsertOnly } from "../plan/changelog-mode.js";
import type { Column } from "../types/resolved-schema.js";
import { type ChangelogContext, ChangelogMode, modeInfo, toPlanMode } from "./changelog.js";
import type { ProcessTableFunction } from "./function.js";
import type { ResolvedTableArg } from "./resolved-call.js";
import { describeThrown, thrownIs } from "../types/describe-thrown.js";

const REQUIRED = ChangelogMode.all();

/**
 * The output changelog mode of a call (PTF rule 12): the function's `changelogMode`
 * evaluated for the call's table modes, with Flink's planning checks — `on_time` only without updates
 * (V-37), no pass-through columns with an updating output, upsert output only over set-semantics tables
 * (V-36; retract output is fine for row semantics, V-67) and keyed by the PARTITION BY columns.
 */
export function resolveOutputMode(
  fn: ProcessTableFunction<unknown, unknown, unknown>, functionName: string, tables: readonly ResolvedTableArg[],
  columns: readonly Column[], hasOnTime: boolean, required: ChangelogMode = REQUIRED,
): PlanMode {
  const mode = declaredMode(fn, functionName, tables, required);
  const updatingInput = tables.some((t) => !isInsertOnly(t.changelog));
  if (hasOnTime && (updatingInput || !mode.containsOnlyInserts())) {
    throw new ValidationError("Time operations using the `on_time` argument are currently not supported for PTFs that consume or produce updates.");
  }
  if (mode.containsOnlyInserts()) return INSERT_ONLY;
  if (tables.some((t) => t.passThrough)) {
    throw new ValidationError("Pass-through columns are not supported for PTFs that produce updates.");
  }
  if (mode.contains("UPDATE_BEFORE")) return toPlanMode(mode);
  // upsert (no UPDATE_BEFORE): rows are related by the PARTITION BY key, so every table has set semantics
  const rowTable = tables.find((t) => !t.setSemantics && !t.broadcast);
  if (rowTable !== undefined) {
    throw new ValidationError(
      `PTFs that take table arguments with row semantics don't support upsert output. Table argument '${rowTable.name}' of function '${functionName}' must use set semantics.`,
    );
  }
  const keyCount = tables.length > 0 ? tables[0]!.partitionKeys.length : 0;
  if (keyCount === 0) {
    throw new ValidationError(
      `Function '${functionName}' declares an upsert output (${mode}), whose upsert key is the PARTITION BY columns; `
      + (tables.length === 0 ? "a PTF without table arguments has none. Declare ChangelogMode.all() (retractions) instead." : "call it with PARTITION BY, or declare ChangelogMode.all() (retractions)."),
    );
  }
  // the output starts with the PARTITION BY columns of the first table (output-schema.ts)
  return toPlanMode(mode, columns.slice(0, keyCount).map((c) => c.name));
}

/**
 * What the consumer of a call needs, as `getRequiredChangelogMode()` shows it: all kinds when it needs
 * retractions (the default until the consumer is known: a collect sink), else an upsert mode, with key-only
 * deletes when the consumer deletes by key (docs/semantics.md, "Changelog negotiation").
 */
export function requiredModeFor(consumer: { readonly updateBefore: boolean; readonly keyOnlyDeletes: boolean }): ChangelogMode {
  return consumer.updateBefore ? REQUIRED : ChangelogMode.upsert(consumer.keyOnlyDeletes);
}

function declaredMode(fn: ProcessTableFunction<unknown, unknown, unknown>, functionName: string, tables: readonly ResolvedTableArg[], required: ChangelogMode): ChangelogMode {
  const declared = fn.changelogModeFn;
  if (declared === undefined) return ChangelogMode.insertOnly();
  const ctx: ChangelogContext = {
    getTableChangelogMode(index: number) {
      const t = tables[index];
      if (t === undefined) {
        throw new ValidationError(`changelogMode of function '${functionName}': getTableChangelogMode(${index}) is out of range; the call has ${tables.length} table argument(s)`);
      }
      return modeInfo(t.changelog);
    },
    getRequiredChangelogMode: () => required,
  };
  let m: unknown;
  try {
    m = declared(ctx);
  } catch (e) {
    if (thrownIs(e, TableError)) throw e;
    throw new ValidationError(`changelogMode of function '${functionName}' failed: ${describeThrown(e)}`, { cause: e });
  }
  if (!(m instanceof ChangelogMode)) {
    throw new ValidationError(`changelogMode of function '${functionName}' must return a ChangelogMode (e.g. ChangelogMode.all()), got ${String(m)}`);
  }
  return m;
}
