import type { PlanNode } from "../nodes.js";
import { makeNode, type NodeBase, type NodeFields, invalid, requireInput } from "./node-base.js";

/**
 * An in-process object a connector table carries (the collection connector's `CollectionSink`, the
 * iterable behind `fromAsyncIterable`). The plan only passes it along; the connector that owns it checks
 * its class.
 */
export interface ConnectorAttachment {
  /** The connector the object belongs to (`"collection"`). */
  readonly attachmentOf: string;
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
  readonly attachment?: ConnectorAttachment;
  /** `INSERT OVERWRITE` (batch): the job's rows replace the table's contents when it commits. */
  readonly overwrite?: boolean;
  /** The table's `PARTITIONED BY` keys (the sink supports partitioning; Flink's SupportsPartitioning). */
  readonly partitionKeys?: readonly string[];
  /** `INSERT ... PARTITION (k = 'v')`: the static partition columns and their values as text. */
  readonly staticPartition?: Readonly<Record<string, string>>;
  /** The table's `DISTRIBUTED BY` (the sink supports bucketing; Flink's SupportsBucketing). */
  readonly distribution?: SinkDistribution;
  /**
   * Writable metadata columns (Flink's SupportsWritingMetadata): the sink's row holds the physical columns, then
   * these keys' values in this order; `name` is the column. The schema's last columns are these.
   */
  readonly metadata?: readonly { readonly name: string; readonly key: string }[];
}

/** A sink's bucketing as the connector receives it. */
export interface SinkDistribution {
  readonly kind: "hash" | "range" | "unknown";
  readonly bucketKeys: readonly string[];
  readonly bucketCount?: number;
}

const CHANGELOGS = ["insert-only", "upsert", "all"];

export function sinkNode(f: NodeFields<SinkNode>): SinkNode {
  requireInput("Sink", f.input);
  if (!CHANGELOGS.includes(f.changelog)) throw invalid("Sink", "changelog", `must be one of ${CHANGELOGS.join(", ")}, got ${String(f.changelog)}`);
  if (f.input.schema.size !== f.schema.size) {
    throw invalid("Sink", "input", `has ${f.input.schema.size} columns, the sink table '${f.tableName}' ${f.schema.size}`);
  }
  return makeNode<SinkNode>("Sink", { ...f, options: Object.freeze({ ...f.options }), ...(f.staticPartition ? { staticPartition: Object.freeze({ ...f.staticPartition }) } : {}) }, ["primaryKey", "partitionKeys", "metadata"]);
}
