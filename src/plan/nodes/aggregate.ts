import type { ExprNode } from "../../expressions/node.js";
import type { PlanNode } from "../nodes.js";
import type { AggCall } from "./agg-call.js";
import { makeNode, type NodeBase, type NodeFields, invalid, requireInput } from "./node-base.js";

/** GROUP BY keys + aggregates; output columns are [keys..., aggregates...]. No keys = global aggregate. */
export interface AggregateNode extends NodeBase {
  readonly kind: "Aggregate";
  readonly input: PlanNode;
  readonly groupKeys: readonly ExprNode[];
  readonly aggCalls: readonly AggCall[];
}

export function aggregateNode(f: NodeFields<AggregateNode>): AggregateNode {
  requireInput("Aggregate", f.input);
  if (f.groupKeys.length + f.aggCalls.length !== f.schema.size) {
    throw invalid("Aggregate", "schema", `has ${f.schema.size} columns for ${f.groupKeys.length} keys and ${f.aggCalls.length} aggregates`);
  }
  return makeNode<AggregateNode>("Aggregate", f, ["groupKeys", "aggCalls"]);
}
