import { type ExprNode, callNode, nodeToString } from "../expressions/node.js";
import { ValidationError } from "../types/errors.js";
import { ResolvedSchema } from "../types/resolved-schema.js";
import { type PlanContext, containsAgg, typeOf } from "./builders.js";
import { conjuncts, sideOf } from "./join-builder.js";
import type { PlanNode } from "./nodes.js";
import { type SemiJoinNode, semiJoinNode } from "./nodes/semi-join.js";

/**
 * Plans a semi join (anti: an anti join) of `left` with `right` on `condition` (over the left columns and the
 * right columns, whose names must differ): the conjuncts `l = r` become equality keys, the rest the residual.
 */
export function planSemiJoin(left: PlanNode, right: PlanNode, anti: boolean, condition: ExprNode | undefined, pc: PlanContext, what: string): SemiJoinNode {
  const typing = new ResolvedSchema([...left.schema.columns, ...right.schema.columns]);
  const leftKeys: ExprNode[] = [];
  const rightKeys: ExprNode[] = [];
  const rest: ExprNode[] = [];
  if (condition !== undefined) {
    if (containsAgg(condition)) throw new ValidationError(`${what}: aggregates are not allowed in the condition ${nodeToString(condition)}`);
    const t = typeOf(condition, typing, pc);
    if (t.root !== "BOOLEAN" && t.root !== "NULL") throw new ValidationError(`${what}: the condition ${nodeToString(condition)} must be BOOLEAN, got ${t}`);
    for (const p of conjuncts(condition)) {
      if (p.kind === "Call" && p.fn === "equals" && p.udf === undefined) {
        const [a, b] = p.args as [ExprNode, ExprNode];
        const sa = sideOf(a, left.schema, right.schema);
        const sb = sideOf(b, left.schema, right.schema);
        if (sa === "L" && sb === "R") { leftKeys.push(a); rightKeys.push(b); continue; }
        if (sa === "R" && sb === "L") { leftKeys.push(b); rightKeys.push(a); continue; }
      }
      rest.push(p);
    }
  }
  const residual = rest.length === 0 ? undefined : rest.length === 1 ? rest[0]! : callNode("and", rest);
  return semiJoinNode({
    left, right, anti, leftKeys, rightKeys, ...(residual === undefined ? {} : { residual }), ...(condition === undefined ? {} : { condition }),
  });
}
