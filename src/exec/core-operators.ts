import { hasRetractions, isInsertOnly } from "../plan/changelog-mode.js";
import type { FilterNode, PlanNode, ProjectNode, WindowAggregateNode } from "../plan/nodes.js";
import { type Emitter, type GraphContext, type OperatorTable, type ProjectionFuser, type ProjectionFusers, connect, sourceEmitter } from "./operator-table.js";
import { CalcOperator } from "./operators/calc.js";
import { AsyncCalcOperator, asyncCalcOptions } from "./operators/async-calc.js";
import { ChangelogNormalizeOperator } from "./operators/changelog-normalize.js";
import { DistinctOperator } from "./operators/distinct.js";
import { GroupAggregateOperator } from "./operators/group-aggregate.js";
import { intervalJoinOperator, joinOperator, joinProjectionFuser, lookupJoinOperator, temporalJoinOperator } from "./operators/join/register.js";
import { MaterializeOperator } from "./operators/materialize.js";
import { processOperator } from "./operators/ptf/register.js";
import { relationalOperator } from "./operators/relational-operators.js";
import { UnionOperator } from "./operators/union.js";
import { windowOperator } from "./operators/window-operators.js";
import { WindowAggregateOperator } from "./operators/window-aggregate.js";
import { WindowTableFunctionOperator } from "./operators/window-table-function.js";
import { WindowRankOperator } from "./operators/window-rank.js";
import { MatchRecognizeOperator } from "./operators/match/match-recognize-operator.js";
import { SemiJoinOperator } from "./operators/join/semi-join.js";
import { WindowJoinOperator } from "./operators/join/window-join.js";
import { ValuesReader } from "./sources/values-reader.js";
import { keyedStateTtl } from "./state-ttl.js";
import { miniBatchOf } from "./aggregates/mini-batch.js";
import { aggregatePhases } from "../plan/agg-phase.js";
import { correlateOperator } from "./udf/correlate-operator.js";
import { tableAggregateOperator } from "./udf/table-aggregate-operator.js";

/**
 * The operator factories of every node kind exec implements itself. Scans and sinks of connector
 * tables come from connectors/ (connectors/operators.ts); table/wiring.ts joins the two tables. The
 * `OperatorTable` type makes a node kind without a factory a compile error there.
 */
export const EXEC_OPERATORS: Omit<OperatorTable, "SourceScan" | "Sink"> = {
  Values: (node, ctx) => {
    const em = sourceEmitter();
    ctx.addSource(new ValuesReader(node), em);
    return em;
  },
  Filter: calc,
  Project: calc,
  Aggregate: (node, ctx, build) => {
    const miniBatch = miniBatchOf(ctx.settings);
    const op = ctx.register(new GroupAggregateOperator(node, ctx.settings.batch, hasRetractions(ctx.modeOf(node.input)), ctx.resolveFunction, {},
      { ttl: keyedStateTtl(ctx.settings), clock: ctx.settings.clock },
      miniBatch && aggregatePhases(node, ctx.settings.config, ctx.settings.batch) === 2 ? { ...miniBatch, twoPhase: true } : miniBatch,
      ctx.settings.stateBackend));
    connect(build(node.input), op, 0);
    return op;
  },
  Distinct: (node, ctx, build) => {
    // batch over an updating input: emit at end of input so the result stays insert-only
    const op = ctx.register(new DistinctOperator(node.schema, ctx.settings.batch && hasRetractions(ctx.modeOf(node.input)),
      { ttl: keyedStateTtl(ctx.settings), clock: ctx.settings.clock }, ctx.settings.batch ? undefined : ctx.settings.stateBackend));
    connect(build(node.input), op, 0);
    return op;
  },
  WindowAggregate: (node, ctx, build) => {
    const op = ctx.register(windowOperator(node, ctx.resolveFunction, { ttl: keyedStateTtl(ctx.settings), clock: ctx.settings.clock }, ctx.settings.stateBackend));
    connect(build(node.input), op, 0);
    return op;
  },
  OverAggregate: (node, ctx, build) => {
    const op = ctx.register(windowOperator(node, ctx.resolveFunction, { ttl: keyedStateTtl(ctx.settings), clock: ctx.settings.clock },
      ctx.settings.batch ? undefined : ctx.settings.stateBackend));
    connect(build(node.input), op, 0);
    return op;
  },
  AsyncCalc: (node, ctx, build) => {
    const calc = new AsyncCalcOperator(node, asyncCalcOptions(ctx.settings.config, isInsertOnly(ctx.modeOf(node.input))), ctx.resolveFunction);
    ctx.addAsyncWork(calc.asyncWork());
    const op = ctx.register(calc);
    connect(build(node.input), op, 0);
    return op;
  },
  ChangelogNormalize: (node, ctx, build) => {
    const op = ctx.register(new ChangelogNormalizeOperator(node, ctx.settings.batch ? undefined : ctx.settings.stateBackend));
    connect(build(node.input), op, 0);
    return op;
  },
  StatementSet: (node, ctx, build) => {
    // every sink ends here: nothing flows through, end of input arrives once all sinks have ended
    const op = ctx.register(new UnionOperator(node.sinks.length));
    node.sinks.forEach((s, idx) => connect(build(s), op, idx));
    return op;
  },
  Union: (node, ctx, build) => {
    const op = ctx.register(new UnionOperator(node.inputs.length));
    node.inputs.forEach((i, idx) => connect(build(i), op, idx));
    return op;
  },
  Sort: relational,
  Rank: relational,
  Deduplicate: relational,
  SetOp: relational,
  Join: joinOperator,
  IntervalJoin: intervalJoinOperator,
  TemporalJoin: temporalJoinOperator,
  LookupJoin: lookupJoinOperator,
  Process: processOperator,
  Correlate: correlateOperator,
  TableAggregate: tableAggregateOperator,
  WindowTableFunction: (node, ctx, build) => {
    const op = ctx.register(new WindowTableFunctionOperator(node));
    connect(build(node.input), op, 0);
    return op;
  },
  WindowRank: (node, ctx, build) => {
    const op = ctx.register(new WindowRankOperator(node, ctx.settings.stateBackend));
    connect(build(node.input), op, 0);
    return op;
  },
  MatchRecognize: (node, ctx, build) => {
    const op = ctx.register(new MatchRecognizeOperator(node, ctx.resolveFunction, ctx.settings.batch ? undefined : ctx.settings.stateBackend));
    connect(build(node.input), op, 0);
    return op;
  },
  SemiJoin: (node, ctx, build) => {
    const op = ctx.register(new SemiJoinOperator(node, ctx.settings.batch, ctx.resolveFunction, ctx.settings.stateBackend));
    connect(build(node.left), op, 0);
    connect(build(node.right), op, 1);
    return op;
  },
  WindowJoin: (node, ctx, build) => {
    const op = ctx.register(new WindowJoinOperator(node, ctx.resolveFunction, ctx.settings.stateBackend));
    connect(build(node.left), op, 0);
    connect(build(node.right), op, 1);
    return op;
  },
};

/**
 * A TUMBLE / SLIDE / CUMULATE window aggregate emits the kept columns of its row in the projection's order
 * (the usual `select(keys, w.start(), w.end(), aggregates)` reorders its row): one row per group, not two.
 */
const windowProjectionFuser: ProjectionFuser<WindowAggregateNode> = (node, columns, ctx, build) => {
  if (node.window.type === "SESSION") return undefined;
  const op = new WindowAggregateOperator(node, ctx.resolveFunction, {}, ctx.settings.stateBackend, columns);
  const em = op as unknown as WindowAggregateOperator & Emitter;
  em.outputs = [];
  connect(build(node.input), op, 0);
  return em;
};

/** Operators that emit a projection of their output themselves (see `ProjectionFuser`). */
export const PROJECTION_FUSERS: ProjectionFusers = { Join: joinProjectionFuser, WindowAggregate: windowProjectionFuser };

/**
 * A chain of Filter/Project nodes (each consumed once) becomes one generated Calc function; a projection
 * of plain columns right above an operator that can emit it (a join) is fused into that operator.
 */
function calc(node: FilterNode | ProjectNode, ctx: GraphContext, build: (n: PlanNode) => Emitter): Emitter {
  const stages: (FilterNode | ProjectNode)[] = [node];
  let bottom: PlanNode = node.input;
  while ((bottom.kind === "Filter" || bottom.kind === "Project") && ctx.consumers(bottom) === 1) {
    stages.unshift(bottom);
    bottom = bottom.input;
  }
  const first = stages[0]!;
  const fuser = PROJECTION_FUSERS[bottom.kind] as ((n: PlanNode, c: readonly number[], x: GraphContext, b: typeof build) => Emitter | undefined) | undefined;
  const fused = fuser !== undefined && first.kind === "Project" && ctx.consumers(bottom) === 1 && first.exprs.every((e) => e.kind === "Column")
    ? fuser(bottom, first.exprs.map((e) => bottom.schema.indexOf((e as { name: string }).name)), ctx, build)
    : undefined;
  if (fused !== undefined) {
    ctx.adopt(fused, bottom);
    if (stages.length === 1) return fused;
    const rest = ctx.register(new CalcOperator(stages.slice(1), first.schema, ctx.resolveFunction, ctx.settings.clock));
    connect(fused, rest, 0);
    return rest;
  }
  const op = ctx.register(new CalcOperator(stages, bottom.schema, ctx.resolveFunction, ctx.settings.clock));
  connect(build(bottom), op, 0);
  return op;
}

/** Sort, top-N, deduplication and set operations: the operator Flink's physical rules would choose. */
function relational(node: PlanNode & { kind: "Sort" | "Rank" | "Deduplicate" | "SetOp" }, ctx: GraphContext, build: (n: PlanNode) => Emitter): Emitter {
  const { op, materialize } = relationalOperator(node, ctx.settings, ctx.modeOf, ctx.resolveFunction);
  const e = ctx.register(op);
  if (node.kind === "SetOp") {
    connect(build(node.left), e, 0);
    connect(build(node.right), e, 1);
  } else connect(build(node.input), e, 0);
  if (!materialize) return e;
  const m = ctx.register(new MaterializeOperator(node.schema, materialize));
  connect(e, m, 0);
  return m;
}
