import { ValidationError } from "../types/errors.js";
import type { AggregateNode } from "./nodes.js";

/** The options a plan decision reads (a TableConfig or a job's settings map). */
export interface ConfigReader {
  get(key: string): string | undefined;
}

export const AGG_PHASE_STRATEGY = "table.optimizer.agg-phase-strategy";
const STRATEGIES = ["AUTO", "ONE_PHASE", "TWO_PHASE"] as const;

/** Built-in aggregates the group aggregate runs: all of them can merge two accumulators (Flink's mergeExpressions). */
const MERGEABLE_BUILT_INS = new Set(["COUNT", "SUM", "SUM0", "AVG", "MIN", "MAX"]);

/**
 * Whether a streaming GROUP BY runs in two phases (Flink's TwoStageOptimizedAggregateRule): a local aggregate
 * that folds each mini-batch bundle into one accumulator per key, without state, and a global aggregate that
 * merges those into its keyed state and emits. Flink plans it when
 * - mini-batch is on (`table.exec.mini-batch.enabled = true`): the local phase needs bundles;
 * - `table.optimizer.agg-phase-strategy` is not `ONE_PHASE` (default `AUTO`; `TWO_PHASE` forces nothing
 *   more in streaming, since there is no cost model to override);
 * - every aggregate can merge accumulators: the built-ins can, DISTINCT ones included; a user-defined
 *   AggregateFunction only when it defines `merge`.
 * Batch mode emits once at the end, so the phases could not be told apart: always one phase.
 */
export function aggregatePhases(node: AggregateNode, config: ConfigReader, batch: boolean): 1 | 2 {
  const strategy = aggPhaseStrategy(config);
  if (batch || strategy === "ONE_PHASE" || config.get("table.exec.mini-batch.enabled") !== "true") return 1;
  return node.aggCalls.every((c) => (c.udf !== undefined ? c.udf.mergeable === true : MERGEABLE_BUILT_INS.has(c.fn))) ? 2 : 1;
}

/** `table.optimizer.agg-phase-strategy`, checked (case-insensitive, as Flink's enum options). */
export function aggPhaseStrategy(config: ConfigReader): (typeof STRATEGIES)[number] {
  const text = config.get(AGG_PHASE_STRATEGY);
  if (text === undefined) return "AUTO";
  const s = STRATEGIES.find((x) => x === text.toUpperCase());
  if (s === undefined) throw new ValidationError(`${AGG_PHASE_STRATEGY}: expected one of ${STRATEGIES.join(", ")}, got '${text}'`);
  return s;
}
