import { ValidationError } from "../types/errors.js";
import { type ChangelogMode, INSERT_ONLY, isInsertOnly, modeToShortString, requireRetractions } from "../plan/changelog-mode.js";
import { Kind } from "../types/row.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";
import type { TableArgDecl } from "./arguments.js";
import { ArgumentTrait, type TableTrait } from "./traits.js";

/**
 * How the changes of an updating table reach eval (PTF rule 11), decided when the call is
 * planned; the operator's input adapter (src/exec/operators/ptf/changelog-input.ts) applies it.
 */
export interface InputDelivery {
  /** The mode eval sees (`ctx.tableSemanticsFor(arg).changelogMode()`). */
  readonly mode: ChangelogMode;
  /** Upsert delivery of an input that carries UPDATE_BEFORE: those records are dropped. */
  readonly dropUpdateBefore: boolean;
  /**
   * Positions of the upsert key when the adapter keeps the last row per key to turn key-only deletes into
   * full deletes (REQUIRE_FULL_DELETE under upsert delivery). Empty: no state.
   */
  readonly materializeKey: readonly number[];
  /**
   * The argument needs a full retract changelog (UPDATE_BEFORE and full deletes) from its input: the planner
   * then normalizes a keyed source below it (ChangelogNormalize, plan/normalize-upserts.ts) and asks an
   * upstream PTF for retractions (`getRequiredChangelogMode()`).
   */
  readonly needsRetractions: boolean;
}

const NONE: InputDelivery = Object.freeze({ mode: INSERT_ONLY, dropUpdateBefore: false, materializeKey: [], needsRetractions: false });

/**
 * The delivery of one table argument: insert-only tables as they are; an updating table to a
 * SUPPORT_UPDATES argument as **upsert** when its upsert key equals the PARTITION BY columns (as a set),
 * else (or with REQUIRE_UPDATE_BEFORE) as **retract**; REQUIRE_FULL_DELETE turns key-only deletes into
 * deletes of the last full row. Without SUPPORT_UPDATES an updating table is Flink's V-27 error.
 *
 * Retract delivery of an upsert changelog follows Flink's planner: a keyed source (a table with a primary
 * key) is normalized below the call (ChangelogNormalize makes UPDATE_BEFORE and full deletes); any other
 * upsert changelog — a PTF declaring `ChangelogMode.upsert()` — is a changelog mismatch.
 */
export function inputDelivery(
  functionName: string, argName: string, decl: TableArgDecl<unknown, TableTrait>, schema: ResolvedSchema,
  partitionKeys: readonly number[], input: ChangelogMode,
): InputDelivery {
  if (isInsertOnly(input)) return NONE;
  if (!decl.has(ArgumentTrait.SUPPORT_UPDATES)) {
    throw new ValidationError(
      `Table argument '${argName}' of function '${functionName}' receives an updating table (changelog mode ${modeToShortString(input)}) `
      + "but does not declare ArgumentTrait.SUPPORT_UPDATES: StreamPhysicalProcessTableFunction doesn't support consuming update changes",
    );
  }
  const has = (k: Kind) => input.kinds.includes(k);
  const hasDelete = has(Kind.DELETE);
  const upsertKeys = input.upsertKeys ?? [];
  const keyPositions = upsertKeys.map((n) => schema.indexOf(n));
  const partitionNames = partitionKeys.map((k) => schema.names[k]!);
  const keyMatches = upsertKeys.length > 0 && partitionNames.length === upsertKeys.length
    && partitionNames.every((n) => upsertKeys.includes(n));
  const fullDelete = decl.has(ArgumentTrait.REQUIRE_FULL_DELETE);
  const keyOnlyDeletes = input.keyOnlyDeletes === true && hasDelete;

  if (keyMatches && !decl.has(ArgumentTrait.REQUIRE_UPDATE_BEFORE)) {
    // upsert: I, UA, D by the PARTITION BY key; -U of a retract input is dropped
    const kinds = [Kind.INSERT];
    if (has(Kind.UPDATE_AFTER)) kinds.push(Kind.UPDATE_AFTER);
    if (hasDelete) kinds.push(Kind.DELETE);
    const stillKeyOnly = keyOnlyDeletes && !fullDelete;
    return {
      mode: { kinds, upsertKeys, ...(stillKeyOnly ? { keyOnlyDeletes: true } : {}) },
      dropUpdateBefore: has(Kind.UPDATE_BEFORE),
      materializeKey: keyOnlyDeletes && fullDelete ? keyPositions : [],
      needsRetractions: false,
    };
  }
  // retract: every update as -U/+U, deletes with the full row
  const kinds = [Kind.INSERT];
  if (has(Kind.UPDATE_AFTER) || has(Kind.UPDATE_BEFORE)) kinds.push(Kind.UPDATE_BEFORE, Kind.UPDATE_AFTER);
  if (hasDelete) kinds.push(Kind.DELETE);
  const upsert = (has(Kind.UPDATE_AFTER) && !has(Kind.UPDATE_BEFORE)) || keyOnlyDeletes;
  if (upsert && input.normalizable !== true) {
    if (upsertKeys.length === 0) {
      throw new ValidationError(
        `Table argument '${argName}' of function '${functionName}' receives an upsert changelog (${modeToShortString(input)}) without an upsert key, `
        + "so its updates cannot be delivered as retractions (UPDATE_BEFORE needs the previous row of the key). "
        + "Declare a primary key on the input, or PARTITION BY its upsert key without ArgumentTrait.REQUIRE_UPDATE_BEFORE.",
      );
    }
    const why = decl.has(ArgumentTrait.REQUIRE_UPDATE_BEFORE) ? "ArgumentTrait.REQUIRE_UPDATE_BEFORE"
      : partitionNames.length === 0 ? "no PARTITION BY" : `PARTITION BY [${partitionNames.join(", ")}] is not the upsert key`;
    requireRetractions(`table argument '${argName}' of function '${functionName}' (${why})`, input);
  }
  return { mode: { kinds }, dropUpdateBefore: false, materializeKey: [], needsRetractions: true };
}
