import type { ExprNode } from "../../expressions/node.js";
import type { DataType } from "../types/data-type.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";

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
  | ProcessNode;

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
}

export interface ValuesNode extends NodeBase {
  readonly kind: "Values";
  /** Positional records, already checked against the schema. */
  readonly rows: readonly (readonly unknown[])[];
  /** Row kinds (Kind numbers) when not all INSERT. */
  readonly kinds?: readonly number[];
  readonly watermark?: WatermarkSpec;
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

export function inputsOf(node: PlanNode): readonly PlanNode[] {
  switch (node.kind) {
    case "Values":
    case "SourceScan":
      return [];
    case "Union":
    case "Process":
      return node.inputs;
    default:
      return [node.input];
  }
}
