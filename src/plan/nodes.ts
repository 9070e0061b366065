import type { AggregateNode } from "./nodes/aggregate.js";
import type { CorrelateNode } from "./nodes/correlate.js";
import type { DistinctNode } from "./nodes/distinct.js";
import type { FilterNode } from "./nodes/filter.js";
import type { OverAggregateNode } from "./nodes/over-aggregate.js";
import type { ProcessNode } from "./nodes/process.js";
import type { ProjectNode } from "./nodes/project.js";
import type { SinkNode } from "./nodes/sink.js";
import type { SourceScanNode } from "./nodes/source-scan.js";
import type { UnionNode } from "./nodes/union.js";
import type { ValuesNode } from "./nodes/values.js";
import type { WindowAggregateNode } from "./nodes/window-aggregate.js";
import type { StatementSetNode } from "./nodes/statement-set.js";
import type { TableAggregateNode } from "./nodes/table-aggregate.js";
import type { ChangelogNormalizeNode } from "./nodes/changelog-normalize.js";
import type { JoinNode } from "./nodes/join.js";
import type { IntervalJoinNode } from "./nodes/interval-join.js";
import type { TemporalJoinNode } from "./nodes/temporal-join.js";
import type { LookupJoinNode } from "./nodes/lookup-join.js";
import type { SortNode } from "./nodes/sort.js";
import type { RankNode } from "./nodes/rank.js";
import type { DeduplicateNode } from "./nodes/deduplicate.js";
import type { SetOpNode } from "./nodes/set-op.js";
import type { WindowTableFunctionNode } from "./nodes/window-table-function.js";
import type { SemiJoinNode } from "./nodes/semi-join.js";
import type { WindowRankNode } from "./nodes/window-rank.js";
import type { WindowJoinNode } from "./nodes/window-join.js";
import type { AsyncCalcNode } from "./nodes/async-calc.js";
import type { MatchRecognizeNode } from "./nodes/match-recognize.js";

/**
 * The logical plan: immutable nodes, one per relational operation, each with its output schema.
 * One node kind per file in `nodes/`: the interface (`kind` = its name without `Node`) and a factory
 * (`projectNode({...})`) that validates the fields and returns a frozen node. Build nodes only with the
 * factories. Adding a kind: its file, a member of `PlanNode`, a case in `inputsOf` (a missing case is a
 * compile error), then the compiler lists every other switch that must learn it.
 */
export type PlanNode =
  | ValuesNode
  | SourceScanNode
  | ProjectNode
  | FilterNode
  | AggregateNode
  | DistinctNode
  | UnionNode
  | ProcessNode
  | WindowAggregateNode
  | OverAggregateNode
  | CorrelateNode
  | SinkNode
  | StatementSetNode
  | TableAggregateNode
  | ChangelogNormalizeNode
  | JoinNode
  | IntervalJoinNode
  | TemporalJoinNode
  | LookupJoinNode
  | SortNode
  | RankNode
  | DeduplicateNode
  | SetOpNode
  | WindowTableFunctionNode
  | SemiJoinNode
  | WindowRankNode
  | WindowJoinNode
  | AsyncCalcNode
  | MatchRecognizeNode;

import { copyNode } from "./nodes/node-base.js";

export type { NodeBase, NodeFields } from "./nodes/node-base.js";
export { copyNode } from "./nodes/node-base.js";
export type { WatermarkSpec } from "./nodes/watermark-spec.js";
export type { AggCall, PlannedAggregateFunction } from "./nodes/agg-call.js";
export { type ValuesNode, valuesNode } from "./nodes/values.js";
export { type SourceScanNode, sourceScanNode } from "./nodes/source-scan.js";
export { type ProjectNode, projectNode } from "./nodes/project.js";
export { type FilterNode, filterNode } from "./nodes/filter.js";
export { type AggregateNode, aggregateNode } from "./nodes/aggregate.js";
export { type DistinctNode, distinctNode } from "./nodes/distinct.js";
export { type UnionNode, unionNode } from "./nodes/union.js";
export { type PlannedProcessCall, type ProcessCallSqlArg, type ProcessCallSqlForm, type ProcessNode, processNode } from "./nodes/process.js";
export { type GroupWindowSpec, type WindowAggregateNode, type WindowProperty, windowAggregateNode } from "./nodes/window-aggregate.js";
export { type OverAggregateNode, type OverWindowSpec, overAggregateNode } from "./nodes/over-aggregate.js";
export { type CorrelateNode, type PlannedTableFunction, correlateNode } from "./nodes/correlate.js";
export { type ConnectorAttachment, type SinkDistribution, type SinkNode, sinkNode } from "./nodes/sink.js";
export type { StatementSetNode } from "./nodes/statement-set.js";
export type { TableAggregateNode } from "./nodes/table-aggregate.js";
export type { ChangelogNormalizeNode } from "./nodes/changelog-normalize.js";
export type { IntervalJoinNode, JoinNode, LookupJoinNode, TemporalJoinNode };
export type { DeduplicateNode, RankNode, SetOpNode, SortNode };
export type { SemiJoinNode, WindowJoinNode, WindowRankNode, WindowTableFunctionNode };
export { type AsyncCalcNode, type AsyncCall, asyncCalcNode } from "./nodes/async-calc.js";
export { type MatchRecognizeNode, matchRecognizeNode } from "./nodes/match-recognize.js";

/** The inputs of a node, in order (a two-input node: `[left, right]`). */
export function inputsOf(node: PlanNode): readonly PlanNode[] {
  switch (node.kind) {
    case "Values":
    case "SourceScan":
      return [];
    case "Project":
    case "Filter":
    case "Aggregate":
    case "Distinct":
    case "WindowAggregate":
    case "OverAggregate":
    case "Correlate":
    case "Sink":
    case "TableAggregate":
    case "ChangelogNormalize":
    case "LookupJoin":
    case "Sort":
    case "Rank":
    case "Deduplicate":
    case "WindowTableFunction":
    case "WindowRank":
    case "AsyncCalc":
    case "MatchRecognize":
      return [node.input];
    case "Union":
    case "Process":
      return node.inputs;
    case "Join":
    case "IntervalJoin":
    case "TemporalJoin":
    case "SetOp":
    case "SemiJoin":
    case "WindowJoin":
      return [node.left, node.right];
    case "StatementSet":
      return node.sinks;
  }
  return unhandled(node);
}

/**
 * A copy of `node` reading `inputs` (in `inputsOf` order) instead of its own, as a new node; a leaf is
 * returned as it is. Exhaustive like `inputsOf`, so a two-input node never loses its right input.
 */
export function withInputs(node: PlanNode, inputs: readonly PlanNode[]): PlanNode {
  const expected = inputsOf(node).length;
  if (inputs.length !== expected) throw new Error(`withInputs: a ${node.kind} node has ${expected} inputs, got ${inputs.length}`);
  switch (node.kind) {
    case "Values":
    case "SourceScan":
      return node;
    case "Project":
    case "Filter":
    case "Aggregate":
    case "Distinct":
    case "WindowAggregate":
    case "OverAggregate":
    case "Correlate":
    case "Sink":
    case "TableAggregate":
    case "ChangelogNormalize":
    case "LookupJoin":
    case "Sort":
    case "Rank":
    case "Deduplicate":
    case "WindowTableFunction":
    case "WindowRank":
    case "AsyncCalc":
    case "MatchRecognize":
      return copyNode<typeof node>(node, { input: inputs[0]! });
    case "Union":
    case "Process":
      return copyNode<typeof node>(node, { inputs });
    case "Join":
    case "IntervalJoin":
    case "TemporalJoin":
    case "SetOp":
    case "SemiJoin":
    case "WindowJoin":
      return copyNode<typeof node>(node, { left: inputs[0]!, right: inputs[1]! });
    case "StatementSet":
      return copyNode(node, { sinks: inputs as readonly SinkNode[] });
  }
  return unhandled(node);
}

/** The end of an exhaustive switch over `PlanNode`: a kind left out is a compile error here. */
export function unhandled(node: never): never {
  throw new Error(`unhandled plan node kind ${(node as { kind: string }).kind}`);
}

/**
 * How many nodes read each node of the plan (the root counts once): a node read more than once is shared, and
 * rewrites (pushdown) and the job graph (fan-out) must keep it one node.
 */
export function countConsumers(root: PlanNode): Map<PlanNode, number> {
  const consumers = new Map<PlanNode, number>();
  const count = (n: PlanNode) => {
    const c = consumers.get(n) ?? 0;
    consumers.set(n, c + 1);
    if (c === 0) for (const i of inputsOf(n)) count(i);
  };
  count(root);
  return consumers;
}
