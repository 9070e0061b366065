import type { ExprNode } from "../expressions/node.js";
import { ValidationError } from "../types/errors.js";
import { ResolvedSchema } from "../types/resolved-schema.js";
import type { PlanContext } from "./builders.js";
import { planJoin } from "./join-builder.js";
import type { PlanNode } from "./nodes.js";
import type { JoinType } from "./nodes/join.js";
import { type WindowJoinNode, windowJoinNode } from "./nodes/window-join.js";
import { planSemiJoin } from "./semi-join-builder.js";

/**
 * Plans a window join: the keys, residual and output columns as a regular join (or a semi / anti join) on the
 * same condition would have them, the time attributes of the output kept (a window join emits each window at its
 * end), and the window_end columns of both sides for firing. `leftEnd` / `rightEnd` name those columns.
 */
export function planWindowJoin(left: PlanNode, right: PlanNode, joinType: JoinType | "SEMI" | "ANTI", condition: ExprNode,
  leftEnd: string, rightEnd: string, pc: PlanContext, what: string): WindowJoinNode {
  const base = joinType === "SEMI" || joinType === "ANTI"
    ? planSemiJoin(left, right, joinType === "ANTI", condition, pc, what)
    : planJoin(left, right, joinType, condition, pc, what);
  if (base.kind === "IntervalJoin") throw new ValidationError(`${what}: a window join condition may not bound the rowtime attributes of both sides against each other`);
  const schema = base.kind === "SemiJoin" ? base.schema : new ResolvedSchema(base.schema.columns.map((c, i) => {
    const source = i < left.schema.size ? left.schema.columns[i]! : right.schema.columns[i - left.schema.size]!;
    return { name: c.name, type: c.type.withTimeAttribute(source.type.timeAttribute) as typeof c.type };
  }));
  return windowJoinNode({
    schema, left, right, joinType, leftWindowEnd: left.schema.indexOf(leftEnd), rightWindowEnd: right.schema.indexOf(rightEnd),
    leftKeys: base.leftKeys, rightKeys: base.rightKeys,
    ...(base.residual === undefined ? {} : { residual: base.residual }), condition,
  });
}
