import { ValidationError } from "../types/errors.js";
import { Kind } from "../types/row.js";
import { type ChangelogMode, INSERT_ONLY, isInsertOnly, modeToShortString, requireRetractions } from "./changelog-mode.js";
import type { JoinType } from "./nodes/join.js";

/**
 * The row kinds a regular join emits (Flink's StreamingJoinOperator):
 * - inner join of two insert-only inputs: inserts only; of updating inputs: the inputs' kinds (a -U/+U of an
 *   input becomes -U/+U of each joined row);
 * - outer joins: +I and -D (a padded row is deleted when its first partner arrives, and inserted again when the
 *   last one retracts); an update from the inner side of a LEFT/RIGHT join keeps its -U;
 * - batch: one final insert per result row.
 */
export function regularJoinMode(joinType: JoinType, left: ChangelogMode, right: ChangelogMode, batch: boolean): ChangelogMode {
  requireRetractions("a regular join", left);
  requireRetractions("a regular join", right);
  if (batch) return INSERT_ONLY;
  const kinds = new Set<Kind>([Kind.INSERT]);
  if (joinType === "INNER") {
    if (isInsertOnly(left) && isInsertOnly(right)) return INSERT_ONLY;
    for (const k of [...left.kinds, ...right.kinds]) kinds.add(k);
  } else {
    kinds.add(Kind.DELETE);
    const inner = joinType === "LEFT" ? right : joinType === "RIGHT" ? left : undefined;
    if (inner?.kinds.includes(Kind.UPDATE_BEFORE)) kinds.add(Kind.UPDATE_BEFORE);
  }
  return { kinds: [...kinds].sort() };
}

/**
 * Interval, temporal and lookup joins emit each result row once: insert-only. Their streamed inputs must be
 * insert-only too (Flink: "... doesn't support consuming update and delete changes"); `updatable` marks inputs
 * that may change (the versioned side of a temporal join).
 */
export function appendOnlyJoinMode(what: string, inputs: readonly ChangelogMode[], updatable: readonly boolean[] = []): ChangelogMode {
  inputs.forEach((m, i) => {
    if (updatable[i] === true || isInsertOnly(m)) return;
    throw new ValidationError(`${what} doesn't support consuming update and delete changes: its ${i === 0 ? "left" : "right"} input produces ${modeToShortString(m)}; `
      + "join an insert-only table, or use a regular join");
  });
  return INSERT_ONLY;
}
