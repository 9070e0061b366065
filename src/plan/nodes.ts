import type { ExprNode } from "../expressions/node.js";
import type { DataType } from "../types/data-type.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";
import type { IntervalJoinNode } from "./nodes/interval-join.js";
import type { JoinNode } from "./nodes/join.js";
import type { LookupJoinNode } from "./nodes/lookup-join.js";
import type { TemporalJoinNode } from "./nodes/temporal-join.js";

export type { IntervalJoinNode, JoinNode, LookupJoinNode, TemporalJoinNode };
import type { DeduplicateNode } from "./nodes/deduplicate.js";
import type { RankNode } from "./nodes/rank.js";
import type { SetOpNode } from "./nodes/set-op.js";
import type { SortNode } from "./nodes/sort.js";

export type { DeduplicateNode, RankNode, SetOpNode, SortNode };
import type { StatementSetNode } from "./nodes/statement-set.js";
import type { TableAggregateNode } from "./nodes/table-aggregate.js";
import type { ChangelogNormalizeNode } from "./nodes/changelog-normalize.js";
export type { StatementSetNode } from "./nodes/statement-set.js";
export type { TableAggregateNode } from "./nodes/table-aggregate.js";
export type { ChangelogNormalizeNode } from "./nodes/changelog-normalize.js";
import type { AsyncCalcNode } from "./nodes/async-calc.js";
import type { ScanPushdown } from "./pushed-filter.js";
export type { AsyncCalcNode } from "./nodes/async-calc.js";

/**
 * The logical plan: immutable nodes, one per relational operation, each with its output schema.
 * `kind` equals the interface name without the `Node` suffix. The fluent Table API builds these;
 * exec/ turns them into operators.
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
  | AsyncCalcNode;

interface NodeBase {
  /** Unique per plan node instance; used to share one operator between several consumers. */
  readonly id: number;
  readonly schema: ResolvedSchema;
}

let nextId = 1;
export const newNodeId = (): number => nextId++;

/** Event-time declaration of a source: rowtime column index and the watermark strategy. */
export interface WatermarkSpec {
  readonly rowtimeColumn: string;
  /** Watermark = max(rowtime) - delayMillis. */
  readonly delayMillis: number;
  /** Emitted after each record (Flink's `on-event`), or every `intervalRecords` records. */
  readonly emit: "on-event" | "periodic";
  /** Records between two watermarks when `emit` is "periodic". */
  readonly intervalRecords?: number;
}

export interface ValuesNode extends NodeBase {
  readonly kind: "Values";
  /** Positional records, already checked against the schema. */
  readonly rows: readonly (readonly unknown[])[];
  /** Row kinds (Kind numbers) when not all INSERT. */
  readonly kinds?: readonly number[];
  readonly watermark?: WatermarkSpec;
  /** Declared by a schema with a primary key: updating rows then form an upsert (or keyed retract) changelog. */
  readonly primaryKey?: readonly string[];
}

/** A scan of a connector table (datagen, filesystem ...); the connector is resolved by exec. */
export interface SourceScanNode extends NodeBase {
  readonly kind: "SourceScan";
  readonly tableName: string;
  readonly connector: string;
  readonly options: Readonly<Record<string, string>>;
  /** Physical columns read from the connector; computed columns follow as expressions. */
  readonly physical: ResolvedSchema;
  readonly computed: readonly { readonly name: string; readonly expr: ExprNode }[];
  readonly watermark?: WatermarkSpec;
  readonly primaryKey?: readonly string[];
  /** An in-process object the connector reads (the iterable of fromAsyncIterable); never an option. */
  readonly attachment?: unknown;
  /** Row kinds the source produces when it is not insert-only (a changelog source). */
  readonly kinds?: readonly number[];
  /** Pushed into the source by the planner (plan/pushdown.ts): filters it applies, and the declared physical columns it reads. */
  readonly pushdown?: ScanPushdown;
}

export interface ProjectNode extends NodeBase {
  readonly kind: "Project";
  readonly input: PlanNode;
  readonly exprs: readonly ExprNode[];
}

export interface FilterNode extends NodeBase {
  readonly kind: "Filter";
  readonly input: PlanNode;
  readonly predicate: ExprNode;
}

export interface AggCall {
  readonly fn: string;
  readonly args: readonly ExprNode[];
  readonly distinct: boolean;
  readonly name: string;
  readonly type: DataType;
  readonly argTypes: readonly DataType[];
  /** A user-defined AggregateFunction (issue: UDFs). */
  readonly udf?: unknown;
}

/** GROUP BY keys + aggregates; output columns are [keys..., aggregates...]. No keys = global aggregate. */
export interface AggregateNode extends NodeBase {
  readonly kind: "Aggregate";
  readonly input: PlanNode;
  readonly groupKeys: readonly ExprNode[];
  readonly aggCalls: readonly AggCall[];
}

export interface DistinctNode extends NodeBase {
  readonly kind: "Distinct";
  readonly input: PlanNode;
}

export interface UnionNode extends NodeBase {
  readonly kind: "Union";
  readonly inputs: readonly PlanNode[];
}

/** A Process Table Function call; details live in ptf/ (the node only carries the resolved call). */
export interface ProcessNode extends NodeBase {
  readonly kind: "Process";
  readonly inputs: readonly PlanNode[];
  readonly call: unknown;
}

/** A group window over an event-time attribute (built by table/windows); times in milliseconds. */
export interface GroupWindowSpec {
  readonly type: "TUMBLE" | "SLIDE" | "SESSION" | "CUMULATE";
  readonly alias: string;
  /** The rowtime attribute the window is on. */
  readonly timeColumn: string;
  /** Size (TUMBLE, SLIDE), maximum size (CUMULATE) or gap (SESSION). */
  readonly size: number;
  /** Slide (SLIDE) or step (CUMULATE). */
  readonly step?: number;
}

/** Window properties a window aggregate appends after its aggregates (`$("w").start()` ...). */
export type WindowProperty = "start" | "end" | "rowtime";

/** Group-window aggregation: output columns are [keys..., aggregates..., properties...]; append-only. */
export interface WindowAggregateNode extends NodeBase {
  readonly kind: "WindowAggregate";
  readonly input: PlanNode;
  readonly window: GroupWindowSpec;
  readonly groupKeys: readonly ExprNode[];
  readonly aggCalls: readonly AggCall[];
  readonly properties: readonly WindowProperty[];
}

/** An over window: PARTITION BY, ORDER BY one column, and the frame (preceding bound up to CURRENT). */
export interface OverWindowSpec {
  readonly alias: string;
  readonly partitionBy: readonly ExprNode[];
  readonly orderBy: string;
  readonly ascending: boolean;
  readonly nullsFirst: boolean;
  readonly frame: "RANGE" | "ROWS";
  /** Preceding bound: undefined = UNBOUNDED; milliseconds (RANGE) or a number of rows (ROWS). */
  readonly preceding?: number;
  /** ORDER BY a rowtime attribute (rows are released by watermarks) rather than another column (updates). */
  readonly timeBased: boolean;
}

/** Over aggregation: output columns are [input columns..., aggregates...]. */
export interface OverAggregateNode extends NodeBase {
  readonly kind: "OverAggregate";
  readonly input: PlanNode;
  readonly window: OverWindowSpec;
  readonly aggCalls: readonly AggCall[];
}

/**
 * A lateral join with a table function (`joinLateral` / `leftOuterJoinLateral`): each input row is
 * followed by the rows the function produces for it; output = input columns + function columns.
 * Row kinds pass through (a retracted input row retracts what it produced).
 */
export interface CorrelateNode extends NodeBase {
  readonly kind: "Correlate";
  readonly input: PlanNode;
  readonly joinType: "INNER" | "LEFT";
  /** The TableFunction object (src/functions) and the name it is reported by. */
  readonly udf: unknown;
  readonly functionName: string;
  readonly args: readonly ExprNode[];
  /** Join condition over the output columns; rows for which it is not TRUE are dropped (LEFT: padded). */
  readonly condition?: ExprNode;
}

/**
 * Writes its input into a connector table (`executeInsert` / `insertInto`). Its schema is the sink's
 * physical columns; input columns are matched by position. Nothing flows out of it.
 */
export interface SinkNode extends NodeBase {
  readonly kind: "Sink";
  readonly input: PlanNode;
  readonly tableName: string;
  readonly connector: string;
  readonly options: Readonly<Record<string, string>>;
  readonly primaryKey?: readonly string[];
  /** How the sink consumes the input's changelog (checked against the input's mode when planned). */
  readonly changelog: "insert-only" | "upsert" | "all";
  /** An in-process object of the connector (the collection sink's store). */
  readonly attachment?: unknown;
}

export function inputsOf(node: PlanNode): readonly PlanNode[] {
  switch (node.kind) {
    case "Values":
    case "SourceScan":
      return [];
    case "Union":
    case "Process":
      return node.inputs;
    case "Join":
    case "IntervalJoin":
    case "TemporalJoin":
    case "SetOp":
      return [node.left, node.right];
    case "StatementSet":
      return node.sinks;
    default:
      return [node.input];
  }
}
