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
}

const CHANGELOGS = ["insert-only", "upsert", "all"];

export function sinkNode(f: NodeFields<SinkNode>): SinkNode {
  requireInput("Sink", f.input);
  if (!CHANGELOGS.includes(f.changelog)) throw invalid("Sink", "changelog", `must be one of ${CHANGELOGS.join(", ")}, got ${String(f.changelog)}`);
  if (f.input.schema.size !== f.schema.size) {
    throw invalid("Sink", "input", `has ${f.input.schema.size} columns, the sink table '${f.tableName}' ${f.schema.size}`);
  }
  return makeNode<SinkNode>("Sink", { ...f, options: Object.freeze({ ...f.options }) }, ["primaryKey"]);
}
