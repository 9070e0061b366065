import type { PlanNode } from "../../../plan/nodes.js";
import { type Emitter, type GraphContext, connect, registerOperatorFactory, registerProjectionFuser } from "../../job-graph.js";
import type { BaseOperator } from "../../operator.js";
import { IntervalJoinOperator } from "./interval-join.js";
import { LookupJoinOperator } from "./lookup-join.js";
import { RegularJoinOperator } from "./regular-join.js";
import { TemporalJoinOperator } from "./temporal-join.js";

let installed = false;

/** Plugs the join operators into the job graph (an explicit call from index.ts, like the PTF runtime). Idempotent. */
export function installJoinRuntime(): void {
  if (installed) return;
  installed = true;
  registerOperatorFactory("Join", (node, ctx, build) => {
    if (node.kind !== "Join") throw new Error("unreachable");
    return twoInputs(new RegularJoinOperator(node, ctx.settings, ctx.resolveFunction), node.left, node.right, build);
  });
  // `join(...).select(columns)`: the join emits the selected columns directly (one row allocation per output, not two)
  registerProjectionFuser("Join", (node, columns, ctx, build) => {
    if (node.kind !== "Join" || !RegularJoinOperator.canProject(node, ctx.settings)) return undefined;
    return twoInputs(new RegularJoinOperator(node, ctx.settings, ctx.resolveFunction, columns), node.left, node.right, build);
  });
  registerOperatorFactory("IntervalJoin", (node, ctx, build) => {
    if (node.kind !== "IntervalJoin") throw new Error("unreachable");
    return twoInputs(new IntervalJoinOperator(node, ctx.settings, ctx.resolveFunction), node.left, node.right, build);
  });
  registerOperatorFactory("TemporalJoin", (node, ctx, build) => {
    if (node.kind !== "TemporalJoin") throw new Error("unreachable");
    return twoInputs(new TemporalJoinOperator(node, ctx.resolveFunction), node.left, node.right, build);
  });
  registerOperatorFactory("LookupJoin", (node, ctx, build) => {
    if (node.kind !== "LookupJoin") throw new Error("unreachable");
    const op = new LookupJoinOperator(node, ctx.resolveFunction);
    ctx.addAsyncWork(op.asyncWork());
    const em = op as unknown as BaseOperator & Emitter;
    em.outputs = [];
    connect(build(node.input), op, 0);
    return em;
  });
}

/** Wires a two-input operator: input 0 from the left plan, input 1 from the right. */
export function twoInputs(op: BaseOperator, left: PlanNode, right: PlanNode, build: (n: PlanNode) => Emitter): Emitter {
  const em = op as BaseOperator & Emitter;
  em.outputs = [];
  connect(build(left), op, 0);
  connect(build(right), op, 1);
  return em;
}

export type { GraphContext };
