import { ValidationError } from "../types/errors.js";
import { Kind } from "../types/row.js";
import { type ChangelogMode, INSERT_ONLY, isInsertOnly, modeToShortString, requireRetractions } from "./changelog-mode.js";
import type { DeduplicateNode, PlanNode, RankNode, SetOpNode, SortNode } from "./nodes.js";

const INSERT_DELETE: ChangelogMode = Object.freeze({ kinds: [Kind.INSERT, Kind.DELETE] });
const UPDATES: ChangelogMode = Object.freeze({ kinds: [Kind.INSERT, Kind.UPDATE_BEFORE, Kind.UPDATE_AFTER] });

/**
 * Changelog modes of ordering, top-N, deduplication and set operations (streaming; batch results are
 * insert-only, emitted at end of input):
 * - a top-N without a row number replaces rows with `-D` / `+I`; with a row number over an insert-only
 *   input, a rank that changes row is `-U` / `+U` (Flink's AppendOnlyTopNFunction), over an updating input
 *   `-D` / `+I` (RetractableTopNFunction, as Flink's retract strategy emits);
 * - a LIMIT without ORDER BY over an insert-only input and a sort on an ascending time attribute are insert-only;
 * - keep-first deduplication by processing time is insert-only; the other three emit `-U` / `+U` by key;
 * - INTERSECT [ALL] of insert-only inputs is insert-only; otherwise set operations retract with `-D`.
 */
export function relationalMode(node: SortNode | RankNode | DeduplicateNode | SetOpNode, batch: boolean, modeOf: (n: PlanNode) => ChangelogMode): ChangelogMode {
  switch (node.kind) {
    case "Sort": {
      const input = modeOf(node.input);
      requireRetractions("ORDER BY / LIMIT", input);
      if (batch) return INSERT_ONLY;
      if (node.fetch === undefined) {
        if (!isInsertOnly(input)) throw new ValidationError(`orderBy: a streaming sort without fetch/limit needs an insert-only input, got ${modeToShortString(input)}`);
        return INSERT_ONLY;
      }
      return node.keys.length === 0 && isInsertOnly(input) ? INSERT_ONLY : INSERT_DELETE;
    }
    case "Rank": {
      const input = modeOf(node.input);
      requireRetractions("a top-N (Rank)", input);
      if (batch) return INSERT_ONLY;
      return node.rankNumber !== undefined && isInsertOnly(input) ? UPDATES : INSERT_DELETE;
    }
    case "Deduplicate": {
      const input = modeOf(node.input);
      if (!isInsertOnly(input)) {
        throw new ValidationError(`deduplicate doesn't support consuming update and delete changes; its input is ${modeToShortString(input)}`);
      }
      if (batch || (!node.keepLast && node.rowtime === undefined)) return INSERT_ONLY;
      return { kinds: UPDATES.kinds, upsertKeys: node.keys.map((k) => node.schema.names[k]!) };
    }
    case "SetOp": {
      const left = modeOf(node.left);
      const right = modeOf(node.right);
      const what = `${node.op}${node.all ? " ALL" : ""}`;
      requireRetractions(what, left);
      requireRetractions(what, right);
      if (batch) return INSERT_ONLY;
      return node.op === "INTERSECT" && isInsertOnly(left) && isInsertOnly(right) ? INSERT_ONLY : INSERT_DELETE;
    }
  }
}
