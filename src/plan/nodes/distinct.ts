import type { PlanNode } from "../nodes.js";
import { makeNode, type NodeBase, type NodeFields, invalid, requireInput } from "./node-base.js";

export interface DistinctNode extends NodeBase {
  readonly kind: "Distinct";
  readonly input: PlanNode;
}

export function distinctNode(f: NodeFields<DistinctNode>): DistinctNode {
  requireInput("Distinct", f.input);
  if (f.schema !== f.input.schema) throw invalid("Distinct", "schema", "must be the input's schema");
  return makeNode<DistinctNode>("Distinct", f);
}
