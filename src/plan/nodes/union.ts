import type { PlanNode } from "../nodes.js";
import { makeNode, type NodeBase, type NodeFields, invalid, requireInput } from "./node-base.js";

/** UNION ALL of any number of inputs with the same number of columns. */
export interface UnionNode extends NodeBase {
  readonly kind: "Union";
  readonly inputs: readonly PlanNode[];
}

export function unionNode(f: NodeFields<UnionNode>): UnionNode {
  if (f.inputs.length === 0) throw invalid("Union", "inputs", "must not be empty");
  f.inputs.forEach((n, i) => {
    requireInput("Union", n, `inputs[${i}]`);
    if (n.schema.size !== f.schema.size) throw invalid("Union", `inputs[${i}]`, `has ${n.schema.size} columns, the union ${f.schema.size}`);
  });
  return makeNode<UnionNode>("Union", f, ["inputs"]);
}
