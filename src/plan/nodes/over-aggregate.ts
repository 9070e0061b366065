import type { ExprNode } from "../../expressions/node.js";
import type { PlanNode } from "../nodes.js";
import type { AggCall } from "./agg-call.js";
import { makeNode, type NodeBase, type NodeFields, invalid, requireInput } from "./node-base.js";

/** An over window: PARTITION BY, ORDER BY one column, and the frame (preceding bound up to CURRENT). */
export interface OverWindowSpec {
  readonly alias: string;
  readonly partitionBy: readonly ExprNode[];
  readonly orderBy: string;
  readonly ascending: boolean;
  readonly nullsFirst: boolean;
  readonly frame: "RANGE" | "ROWS";
  /** Preceding bound: undefined = UNBOUNDED; milliseconds (RANGE) or a number of rows (ROWS). */
  readonly preceding?: number;
  /** ORDER BY a time attribute (append-only: rows are released by watermarks, or by processing time) rather than another column (updates). */
  readonly timeBased: boolean;
  /** ORDER BY a processing-time attribute: rows are taken in arrival order (docs/time.md). */
  readonly procTime?: boolean;
}

/** Over aggregation: output columns are [input columns..., aggregates...]. */
export interface OverAggregateNode extends NodeBase {
  readonly kind: "OverAggregate";
  readonly input: PlanNode;
  readonly window: OverWindowSpec;
  readonly aggCalls: readonly AggCall[];
}

export function overAggregateNode(f: NodeFields<OverAggregateNode>): OverAggregateNode {
  requireInput("OverAggregate", f.input);
  if (f.input.schema.size + f.aggCalls.length !== f.schema.size) {
    throw invalid("OverAggregate", "schema", `has ${f.schema.size} columns for ${f.input.schema.size} input columns and ${f.aggCalls.length} aggregates`);
  }
  if (!f.input.schema.has(f.window.orderBy)) throw invalid("OverAggregate", "window.orderBy", `names '${f.window.orderBy}', not an input column`);
  return makeNode<OverAggregateNode>("OverAggregate", { ...f, window: Object.freeze({ ...f.window }) }, ["aggCalls"]);
}
