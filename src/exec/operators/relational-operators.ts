import type { FunctionResolver } from "../../expressions/compile.js";
import { type ChangelogMode, isInsertOnly } from "../../plan/changelog-mode.js";
import type { DeduplicateNode, PlanNode, RankNode, SetOpNode, SortNode } from "../../plan/nodes.js";
import { relationalMode } from "../../plan/relational-mode.js";
import { ValidationError } from "../../types/errors.js";
import type { JobSettings } from "../job-contract.js";
import type { BaseOperator } from "../operator.js";
import { DeduplicateOperator } from "./deduplicate/deduplicate-operator.js";
import { RankOperator } from "./rank/rank-operator.js";
import { SetOpOperator } from "./set-op.js";
import { LimitOperator } from "./sort/limit-operator.js";
import { SortOperator } from "./sort/sort-operator.js";
import { TemporalSortOperator } from "./sort/temporal-sort-operator.js";

/** Flink's switch for a streaming ORDER BY on a column that is not a time attribute (bounded inputs). */
export const NON_TEMPORAL_SORT = "table.exec.non-temporal-sort.enabled";

export type RelationalNode = SortNode | RankNode | DeduplicateNode | SetOpNode;

/**
 * Chooses the operator of a Sort / Rank / Deduplicate / SetOp node, as Flink's physical rules do:
 * - Sort, batch: a sort at end of input, or a plain limit without keys over an insert-only input;
 * - Sort, streaming: without keys a limit (insert-only input) or a top-N in arrival order; with FETCH a
 *   top-N without row number; an ascending event-time first key a temporal sort; otherwise a sort at end
 *   of input only when `table.exec.non-temporal-sort.enabled` is true (Flink refuses it otherwise);
 * - Rank: a top-N that keeps only N rows per partition over an insert-only input, all rows otherwise.
 * `materialize` is set in batch mode when the operator emits retractions (its rows go out at end of input).
 */
export function relationalOperator(node: RelationalNode, settings: JobSettings, modeOf: (n: PlanNode) => ChangelogMode,
  resolveFunction?: FunctionResolver): { op: BaseOperator; materialize?: ChangelogMode } {
  const op = operatorFor(node, settings, modeOf, resolveFunction);
  if (!settings.batch || node.kind === "Sort") return { op };
  const emitted = relationalMode(node, false, modeOf);
  return isInsertOnly(emitted) ? { op } : { op, materialize: emitted };
}

function operatorFor(node: RelationalNode, settings: JobSettings, modeOf: (n: PlanNode) => ChangelogMode,
  resolveFunction?: FunctionResolver): BaseOperator {
  switch (node.kind) {
    case "Rank":
      return new RankOperator({
        input: node.input.schema, partitionKeys: node.partitionKeys, orderKeys: node.orderKeys, rankStart: node.rankStart,
        rankEnd: node.rankEnd, rankNumber: node.rankNumber !== undefined, appendOnly: isInsertOnly(modeOf(node.input)),
      }, resolveFunction, settings.batch ? undefined : settings.stateBackend);
    case "Deduplicate":
      return new DeduplicateOperator(node, resolveFunction, settings.batch ? undefined : settings.stateBackend);
    case "SetOp":
      return new SetOpOperator(node);
    case "Sort": {
      const appendOnly = isInsertOnly(modeOf(node.input));
      if (node.keys.length === 0 && node.fetch !== undefined && appendOnly) return new LimitOperator(node.offset, node.fetch);
      if (settings.batch) return new SortOperator(node.keys, node.offset, node.fetch);
      if (node.fetch !== undefined) {
        return new RankOperator({
          input: node.input.schema, partitionKeys: [], orderKeys: node.keys, rankStart: node.offset + 1,
          rankEnd: node.offset + node.fetch, rankNumber: false, appendOnly,
        }, resolveFunction);
      }
      const first = node.keys[0];
      const type = first === undefined ? undefined : node.input.schema.types[first.column];
      if (node.offset > 0) throw new ValidationError("offset: a streaming OFFSET needs a FETCH (offset(n).fetch(m) or limit(n, m))");
      if (first && first.ascending && type?.timeAttribute === "ROWTIME") return new TemporalSortOperator(node.keys, false, settings.stateBackend);
      if (first && first.ascending && type?.timeAttribute === "PROCTIME" && appendOnly) return new TemporalSortOperator(node.keys, true, settings.stateBackend);
      if (settings.config.get(NON_TEMPORAL_SORT) === "true") return new SortOperator(node.keys, 0, undefined);
      const name = first === undefined ? "" : node.input.schema.names[first.column];
      throw new ValidationError(
        `Sort on a non-time-attribute field is not supported: orderBy(${name}${first && !first.ascending ? " DESC" : ""}) in streaming mode `
        + "needs an ascending time attribute (event or processing time) as its first key, or a fetch/limit after it (a top-N)");
    }
  }
}
