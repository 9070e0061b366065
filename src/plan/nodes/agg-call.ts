import type { ExprNode } from "../../expressions/node.js";
import type { DataType } from "../../types/data-type.js";

/**
 * What the plan needs of a user-defined aggregate function (src/functions `AggregateFunction` implements it):
 * the name it is reported by and its result type. The run-time side is found by exec.
 */
export interface PlannedAggregateFunction {
  readonly name: string;
  readonly resultType: DataType;
  /** Whether it defines `merge` (then a mini-batch GROUP BY may run it in two phases, plan/agg-phase.ts). */
  readonly mergeable?: boolean;
}

export interface AggCall {
  readonly fn: string;
  readonly args: readonly ExprNode[];
  readonly distinct: boolean;
  readonly name: string;
  readonly type: DataType;
  readonly argTypes: readonly DataType[];
  /** A user-defined AggregateFunction. */
  readonly udf?: PlannedAggregateFunction;
}
