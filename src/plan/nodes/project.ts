import type { ExprNode } from "../../expressions/node.js";
import type { PlanNode } from "../nodes.js";
import { makeNode, type NodeBase, type NodeFields, invalid, requireInput } from "./node-base.js";

export interface ProjectNode extends NodeBase {
  readonly kind: "Project";
  readonly input: PlanNode;
  /** One expression per output column, aliases stripped (the names are the schema's). */
  readonly exprs: readonly ExprNode[];
}

export function projectNode(f: NodeFields<ProjectNode>): ProjectNode {
  requireInput("Project", f.input);
  if (f.exprs.length !== f.schema.size) throw invalid("Project", "exprs", `has ${f.exprs.length} expressions for ${f.schema.size} output columns`);
  return makeNode<ProjectNode>("Project", f, ["exprs"]);
}
