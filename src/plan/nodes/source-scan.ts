import type { ExprNode } from "../../expressions/node.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import { makeNode, type NodeBase, type NodeFields, invalid } from "./node-base.js";
import type { WatermarkSpec } from "./watermark-spec.js";
import type { ConnectorAttachment } from "./sink.js";
import type { ScanPushdown } from "../pushed-filter.js";

/** A scan of a connector table (datagen, filesystem ...); the connector is resolved by exec. */
export interface SourceScanNode extends NodeBase {
  readonly kind: "SourceScan";
  readonly tableName: string;
  readonly connector: string;
  readonly options: Readonly<Record<string, string>>;
  /** Physical columns read from the connector; computed columns follow as expressions. */
  readonly physical: ResolvedSchema;
  readonly computed: readonly { readonly name: string; readonly expr: ExprNode }[];
  /**
   * Metadata columns (Flink's SupportsReadingMetadata): the connector's reader appends the values of these keys,
   * in this order, after the physical values of each row; the scan puts them in their declared places.
   */
  readonly metadata?: readonly { readonly name: string; readonly key: string }[];
  readonly watermark?: WatermarkSpec;
  readonly primaryKey?: readonly string[];
  /** An in-process object the connector reads (the iterable of fromAsyncIterable); never an option. */
  readonly attachment?: ConnectorAttachment;
  /** Row kinds the source produces when it is not insert-only (a changelog source). */
  readonly kinds?: readonly number[];
  /** Pushed into the source by the planner (plan/pushdown.ts): filters it applies, and the declared physical columns it reads. */
  readonly pushdown?: ScanPushdown;
  /** The table's `PARTITIONED BY` keys (a partitioned source, e.g. the filesystem's `k=v/` directories). */
  readonly partitionKeys?: readonly string[];
}

export function sourceScanNode(f: NodeFields<SourceScanNode>): SourceScanNode {
  if (typeof f.connector !== "string" || f.connector === "") throw invalid("SourceScan", "connector", "must name a connector");
  const meta = f.metadata?.length ?? 0;
  if (f.physical.size + f.computed.length + meta !== f.schema.size) {
    throw invalid("SourceScan", "schema", `has ${f.schema.size} columns, expected ${f.physical.size} physical + ${f.computed.length} computed + ${meta} metadata`);
  }
  return makeNode<SourceScanNode>("SourceScan", { ...f, options: Object.freeze({ ...f.options }) }, ["computed", "primaryKey", "kinds", "metadata", "partitionKeys"]);
}
