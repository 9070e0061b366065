import type { ConnectorAttachment, SinkDistribution } from "../plan/nodes.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";
import type { PushdownSupport } from "../plan/pushed-filter.js";
import type { DataType } from "../types/data-type.js";

/**
 * The planning-time side of the connector contract: a table as a connector sees it, and the spec a
 * connector gives the planner. Declared here (below the facade) so that connectors never import table/.
 */

/** A registered table as a connector sees it when validating: its name, options and physical columns. */
export interface ConnectorTable {
  readonly tableName: string;
  readonly connector: string;
  readonly options: ReadonlyMap<string, string>;
  readonly physical: ResolvedSchema;
  readonly primaryKey?: readonly string[];
  readonly attachment?: ConnectorAttachment;
  /** A sink written by `INSERT OVERWRITE`: its previous contents are replaced (connectors with supportsOverwrite). */
  readonly overwrite?: boolean;
  /**
   * A source's metadata columns (Flink's SupportsReadingMetadata.applyReadableMetadata): the keys, among those of
   * `readableMetadata`, whose values the reader appends to every row after the physical values, in this order.
   */
  readonly metadataKeys?: readonly string[];
  /** The table's `PARTITIONED BY` keys (only for connectors with supportsPartitioning). */
  readonly partitionKeys?: readonly string[];
  /** A sink written by `INSERT ... PARTITION (k = 'v')`: the static partition values as text. */
  readonly staticPartition?: Readonly<Record<string, string>>;
  /** The table's `DISTRIBUTED BY` (only for connectors with supportsBucketing). */
  readonly distribution?: SinkDistribution;
}

/** Which row kinds a sink takes: only inserts, inserts/updates/deletes by primary key, or everything. */
export type SinkChangelog = "insert-only" | "upsert" | "all";

/**
 * The planning-time side of a connector (every connector implements it, connector.ts): option validation and
 * capabilities. The run-time side (readers and writers) is in `Connector`.
 */
export interface ConnectorSpec {
  readonly name: string;
  /** Throws a ValidationError naming the option when the table's options are wrong for `role`. */
  validate(table: ConnectorTable, role: "source" | "sink"): void;
  /** Whether the connector can be read from / written to. */
  readonly canRead: boolean;
  readonly canWrite: boolean;
  /** Whether a scan of the table ends (batch mode accepts only bounded sources). */
  isBounded?(table: ConnectorTable): boolean;
  /** What the sink of the table accepts. */
  sinkChangelog?(table: ConnectorTable): SinkChangelog;
  /** Whether `INSERT OVERWRITE` may write the table (Flink's SupportsOverwrite). */
  readonly supportsOverwrite?: boolean;
  /** Whether the sink takes a `DISTRIBUTED BY` table (Flink's SupportsBucketing); otherwise such a sink is an error. */
  readonly supportsBucketing?: boolean;
  /** Whether the sink takes a `PARTITIONED BY` table (Flink's SupportsPartitioning); otherwise such a sink is an error. */
  readonly supportsPartitioning?: boolean;
  /** Row kinds (0..3 = +I -U +U -D) a source of the table produces; insert-only when absent. */
  sourceKinds?(table: ConnectorTable): readonly number[];
  /**
   * The lookup side, for `env.lookupFunction(table, ...keys)`: a per-job lookup reader factory
   * (exec/lookup.ts LookupReaderFactory) keyed by `keys`; absent when the connector cannot be looked up.
   */
  createLookup?(table: ConnectorTable, keys: readonly string[]): object;
  /**
   * The metadata a source of the table can deliver per row (Flink's SupportsReadingMetadata.listReadableMetadata):
   * key to type, in the order Flink lists them; absent when it has none.
   */
  readableMetadata?(table: ConnectorTable): ReadonlyMap<string, DataType>;
  /**
   * The metadata a sink of the table can write per row (Flink's SupportsWritingMetadata.listWritableMetadata):
   * key to type. A table's non-VIRTUAL metadata columns are written: the writer's rows carry their values after
   * the physical ones, in the order of `ConnectorTable.metadataKeys`. Absent: the sink writes none.
   */
  writableMetadata?(table: ConnectorTable): ReadonlyMap<string, DataType>;
  /** What the planner may push into a scan of the table (projection, filters); nothing when absent. */
  pushdown?(table: ConnectorTable): PushdownSupport | undefined;
}
