import type { ExprNode } from "../../expressions/node.js";
import type { PlanNode } from "../nodes.js";
import { makeNode, type NodeBase, type NodeFields, invalid, requireInput } from "./node-base.js";

export interface FilterNode extends NodeBase {
  readonly kind: "Filter";
  readonly input: PlanNode;
  readonly predicate: ExprNode;
}

export function filterNode(f: NodeFields<FilterNode>): FilterNode {
  requireInput("Filter", f.input);
  if (f.schema !== f.input.schema) throw invalid("Filter", "schema", "must be the input's schema");
  return makeNode<FilterNode>("Filter", f);
}
