import type { IntervalJoinNode, JoinNode, LookupJoinNode, PlanNode, TemporalJoinNode } from "../../../plan/nodes.js";
import { isInsertOnly } from "../../../plan/changelog-mode.js";
import { type Emitter, type GraphContext, type OperatorFactory, type ProjectionFuser, connect } from "../../operator-table.js";
import type { BaseOperator } from "../../operator.js";
import { IntervalJoinOperator } from "./interval-join.js";
import { LookupJoinOperator } from "./lookup-join.js";
import { ProcTimeIntervalJoinOperator } from "./proctime-interval-join.js";
import { RegularJoinOperator } from "./regular-join.js";
import { TemporalJoinOperator } from "./temporal-join.js";

/** The operator factories of the join node kinds (entries of exec/core-operators.ts). */
export const joinOperator: OperatorFactory<JoinNode> = (node, ctx, build) =>
  twoInputs(new RegularJoinOperator(node, ctx.settings, ctx.resolveFunction, undefined, insertOnlyInputs(node, ctx)), node.left, node.right, build);

/** `join(...).select(columns)`: the join emits the selected columns directly (one row allocation per output, not two). */
export const joinProjectionFuser: ProjectionFuser<JoinNode> = (node, columns, ctx, build) => {
  if (!RegularJoinOperator.canProject(node, ctx.settings)) return undefined;
  return twoInputs(new RegularJoinOperator(node, ctx.settings, ctx.resolveFunction, columns, insertOnlyInputs(node, ctx)), node.left, node.right, build);
};

/** Both inputs of a regular join emit inserts only (the operator then may keep rows only, rows-only-state.ts). */
const insertOnlyInputs = (node: JoinNode, ctx: GraphContext): boolean => isInsertOnly(ctx.modeOf(node.left)) && isInsertOnly(ctx.modeOf(node.right));

export const intervalJoinOperator: OperatorFactory<IntervalJoinNode> = (node, ctx, build) =>
  twoInputs(node.procTime === true ? new ProcTimeIntervalJoinOperator(node, ctx.resolveFunction) : new IntervalJoinOperator(node, ctx.settings, ctx.resolveFunction),
    node.left, node.right, build);

export const temporalJoinOperator: OperatorFactory<TemporalJoinNode> = (node, ctx, build) =>
  twoInputs(new TemporalJoinOperator(node, ctx.resolveFunction, ctx.settings.batch ? undefined : ctx.settings.stateBackend), node.left, node.right, build);

export const lookupJoinOperator: OperatorFactory<LookupJoinNode> = (node, ctx, build) => {
  const op = new LookupJoinOperator(node, ctx.resolveFunction);
  ctx.addAsyncWork(op.asyncWork());
  const em = op as unknown as BaseOperator & Emitter;
  em.outputs = [];
  connect(build(node.input), op, 0);
  return em;
};

/** Wires a two-input operator: input 0 from the left plan, input 1 from the right. */
export function twoInputs(op: BaseOperator, left: PlanNode, right: PlanNode, build: (n: PlanNode) => Emitter): Emitter {
  const em = op as BaseOperator & Emitter;
  em.outputs = [];
  connect(build(left), op, 0);
  connect(build(right), op, 1);
  return em;
}
