import { ValidationError } from "../types/errors.js";
import type { PlanContext } from "../plan/builders.js";
import { deriveChangelogMode, isInsertOnly, modeToShortString, requireRetractionsAtSink } from "../plan/changelog-mode.js";
import { describeNode } from "../plan/explain.js";
import { type PlanNode, type SinkDistribution, type SinkNode, type SourceScanNode, inputsOf, projectNode, sinkNode, sourceScanNode } from "../plan/nodes.js";
import type { ExprNode } from "../expressions/node.js";
import { sinkColumns } from "./sink-columns.js";
import { Schema } from "./schema.js";
import { type ResolvedMetadataColumn, type ResolvedTableSchema, type WatermarkEmission, resolveSchema, watermarkEmission } from "./schema-resolve.js";
import { connectorByName, isBuiltInConnector } from "../connectors/built-in.js";
import type { Connector } from "../connectors/connector.js";
import { LookupFunction } from "../functions/temporal-table-function.js";
import type { ConnectorTable, TableDescriptor } from "./table-descriptor.js";
import { DataType } from "../types/data-type.js";
import { ResolvedSchema } from "../types/resolved-schema.js";
import { isImplicitlyAssignable } from "../types/values.js";

/**
 * Connector tables of an environment (`createTable` / `createTemporaryTable`), and the plan nodes that
 * read them (`from(name)` -> SourceScan) and write them (`executeInsert` -> Sink).
 */
export interface RegisteredTable {
  readonly name: string;
  readonly descriptor: TableDescriptor<object>;
  readonly temporary: boolean;
}

export class TableRegistry {
  private readonly temporary = new Map<string, RegisteredTable>();
  private readonly permanent = new Map<string, RegisteredTable>();
  /** Connectors registered with `env.registerConnector`, in addition to the built-in ones (connectors/built-in.ts). */
  private readonly userConnectors = new Map<string, Connector>();

  /** Adds a user connector; a name taken by a built-in or an earlier registration is an error. */
  registerConnector(connector: Connector): void {
    if (this.userConnectors.has(connector.name) || isBuiltInConnector(connector.name)) {
      throw new ValidationError(`a connector named '${connector.name}' is already registered`);
    }
    this.userConnectors.set(connector.name, connector);
  }

  /** The connector named `name` (user connectors first, then built-ins); unknown names list the available ones. */
  readonly connector = (name: string): Connector => this.userConnectors.get(name) ?? connectorByName(name, [...this.userConnectors.keys()]);

  /** Registers a table; `taken(name)` reports names used by views. Flink's messages for duplicates. */
  register(name: string, descriptor: TableDescriptor<object>, temporary: boolean, ignoreIfExists: boolean, viewExists: boolean): void {
    if (typeof name !== "string" || name.length === 0) throw new ValidationError(`${temporary ? "createTemporaryTable" : "createTable"} needs a table name`);
    this.connector(descriptor.connector);
    if (!descriptor.schemaSpec) {
      throw new ValidationError(`table '${name}' (connector '${descriptor.connector}') needs a schema: TableDescriptor.forConnector(...).schema(Schema.newBuilder()...build())`);
    }
    if (temporary) {
      if (this.temporary.has(name) || viewExists) throw new ValidationError(`Temporary table '${name}' already exists`);
      this.temporary.set(name, { name, descriptor, temporary });
    } else {
      if (this.permanent.has(name)) {
        if (ignoreIfExists) return;
        throw new ValidationError(`Could not execute CreateTable in path \`${name}\`: table '${name}' already exists`);
      }
      this.permanent.set(name, { name, descriptor, temporary });
    }
  }

  /** A temporary table shadows a permanent one of the same name. */
  get(name: string): RegisteredTable | undefined {
    return this.temporary.get(name) ?? this.permanent.get(name);
  }

  drop(name: string, temporary: boolean): boolean {
    return (temporary ? this.temporary : this.permanent).delete(name);
  }

  names(): string[] {
    return [...new Set([...this.temporary.keys(), ...this.permanent.keys()])].sort();
  }
}

/** `env.lookupFunction(name, ...keys)`: the connector's lookup side of a registered table, as a lookup function. */
export function lookupFunctionOf(registry: TableRegistry, name: string, keys: readonly string[], pc: PlanContext): LookupFunction {
  const t = registry.get(name);
  if (!t) throw new ValidationError(`lookupFunction: no table '${name}'; registered tables: [${registry.names().join(", ")}]`);
  const d = t.descriptor;
  const spec = registry.connector(d.connector);
  if (!spec.createLookup) throw new ValidationError(`lookupFunction: connector '${d.connector}' of table '${name}' cannot be looked up (it has no lookup side)`);
  const resolved = resolveSchema(d.schemaSpec!, pc);
  const idx = keys.map((k) => resolved.physical.indexOf(k, `lookupFunction of '${name}': key column`));
  return new LookupFunction(name, resolved.physical, idx, spec.createLookup(connectorTable(name, d, resolved), keys));
}

/** The table a scan reads, as its connector sees it (the declared physical columns, before any projection pushdown). */
export function scanTable(scan: SourceScanNode): ConnectorTable {
  return {
    tableName: scan.tableName, connector: scan.connector, options: new Map(Object.entries(scan.options)), physical: scan.pushdown?.declared ?? scan.physical,
    ...(scan.primaryKey ? { primaryKey: scan.primaryKey } : {}),
    ...(scan.attachment !== undefined ? { attachment: scan.attachment } : {}),
    ...(scan.partitionKeys !== undefined ? { partitionKeys: scan.partitionKeys } : {}),
  };
}

/** The options and physical columns a connector sees. */
function connectorTable(name: string, d: TableDescriptor<object>, resolved: ResolvedTableSchema): ConnectorTable {
  return {
    tableName: name, connector: d.connector, options: d.options, physical: resolved.physical,
    ...(resolved.primaryKey ? { primaryKey: resolved.primaryKey } : {}),
    ...(d.attachment !== undefined ? { attachment: d.attachment } : {}),
  };
}

function emissionOf(d: TableDescriptor<object>, config: (k: string) => string | undefined): WatermarkEmission {
  return watermarkEmission((k) => d.options.get(k) ?? config(k));
}

/** Options the scan wrapper handles for every source (not passed on to the connector's validation). */
const SCAN_OPTIONS = ["scan.watermark.emit.strategy", "scan.watermark.emit.interval-records"];

/** `env.from(name)` of a connector table: validates the options for reading and builds the scan. */
export function scanNode(t: RegisteredTable, pc: PlanContext, batch: boolean, config: (k: string) => string | undefined, connectors: (name: string) => Connector = connectorByName): SourceScanNode {
  const d = t.descriptor;
  const spec = connectors(d.connector);
  if (!spec.canRead) {
    throw new ValidationError(`Connector '${d.connector}' can only be used as a sink. It cannot be used as a source (table '${t.name}').`);
  }
  if (!d.schemaSpec) {
    throw new ValidationError(`table '${t.name}' (connector '${d.connector}') needs a schema: TableDescriptor.forConnector(...).schema(Schema.newBuilder()...build())`);
  }
  const resolved = resolveSchema(d.schemaSpec, pc, emissionOf(d, config));
  const options = new Map([...d.options].filter(([k]) => !SCAN_OPTIONS.includes(k)));
  const table = { ...connectorTable(t.name, d, resolved), options, ...(d.partitionKeys.length > 0 ? { partitionKeys: d.partitionKeys } : {}) };
  spec.validate(table, "source");
  if (batch && spec.isBounded && !spec.isBounded(table)) {
    throw new ValidationError(`Querying an unbounded table '${t.name}' in batch mode is not allowed. The table source is unbounded.`);
  }
  if (resolved.metadata !== undefined) checkReadableMetadata(t.name, resolved.metadata, spec.readableMetadata?.(table), d.connector);
  return sourceScanNode({
    schema: resolved.schema, tableName: t.name, connector: d.connector,
    options: Object.fromEntries(options), physical: resolved.physical,
    computed: resolved.computed.map((c) => ({ name: c.name, expr: c.expr })),
    ...(resolved.metadata ? { metadata: resolved.metadata.map((m) => ({ name: m.name, key: m.key })) } : {}),
    ...(resolved.watermark ? { watermark: resolved.watermark } : {}),
    ...(resolved.primaryKey ? { primaryKey: resolved.primaryKey } : {}),
    ...(d.attachment !== undefined ? { attachment: d.attachment } : {}),
    ...(spec.sourceKinds ? { kinds: spec.sourceKinds(table) } : {}),
    ...(d.partitionKeys.length > 0 ? { partitionKeys: d.partitionKeys } : {}),
  });
}

/**
 * Flink's checks of a source's metadata columns (DynamicSourceUtils): the connector must read metadata, each key
 * must be one it lists, and the declared type must be the metadata's type (nullability and string lengths aside).
 */
function checkReadableMetadata(name: string, columns: readonly ResolvedMetadataColumn[], readable: ReadonlyMap<string, DataType> | undefined, connector: string): void {
  const table = `default_catalog.default_database.${name}`;
  if (readable === undefined || readable.size === 0) {
    throw new ValidationError(`Table '${table}' declares metadata columns, but the underlying DynamicTableSource doesn't implement the SupportsReadingMetadata interface. Therefore, metadata cannot be read from the given source (connector '${connector}').`);
  }
  for (const c of columns) {
    const type = readable.get(c.key);
    if (type === undefined) {
      throw new ValidationError(`Invalid metadata key '${c.key}' in column '${c.name}' of table '${table}'. The DynamicTableSource of connector '${connector}' supports the following metadata keys for reading:\n${[...readable.keys()].join("\n")}`);
    }
    const same = type.root === c.type.root || (isString(type) && isString(c.type));
    if (!same || (type.precision !== undefined && c.type.precision !== undefined && type.precision !== c.type.precision)) {
      throw new ValidationError(`Invalid data type for metadata column '${c.name}' of table '${table}'. The column cannot be declared as '${c.type}' because the type must be castable from metadata type '${type}'.`);
    }
  }
}

const isString = (t: DataType) => t.root === "VARCHAR" || t.root === "CHAR";

/**
 * Anonymous sinks are numbered per environment, not per process: the same program built in a new
 * environment (a job restarted from a savepoint) names them alike, so their state keeps its identity.
 */
const anonymousSinks = new WeakMap<TableRegistry, number>();

/**
 * A Sink node writing `input` into a registered table or a descriptor (an anonymous table; without a
 * schema it takes the input's). Checks, as Flink's planner does: the connector can write, the columns
 * match by position (count and implicitly assignable types), and the sink accepts the input's changelog
 * — an append-only sink given an updating table is an error naming the sink and the node producing
 * the updates; an upsert sink needs a primary key.
 */
export function planSink(input: PlanNode, target: string | TableDescriptor<object>, registry: TableRegistry, pc: PlanContext, batch: boolean): SinkNode {
  let name: string;
  let d: TableDescriptor<object>;
  if (typeof target === "string") {
    const t = registry.get(target);
    if (!t) throw new ValidationError(`Cannot find table '${target}' to insert into; registered tables: [${registry.names().join(", ")}]`);
    name = t.name;
    d = t.descriptor;
  } else {
    d = target;
    const n = (anonymousSinks.get(registry) ?? 0) + 1;
    anonymousSinks.set(registry, n);
    name = `*anonymous_${d.connector}$${n}*`;
    if (!d.schemaSpec) {
      d = d.toBuilder().schema(Schema.newBuilder().fromRowDataType(rowTypeOf(input.schema)).build()).build();
    }
  }
  const spec = registry.connector(d.connector);
  if (!spec.canWrite) {
    throw new ValidationError(`Connector '${d.connector}' can only be used as a source. It cannot be used as a sink (table '${name}').`);
  }
  const resolved = resolveSchema(d.schemaSpec!, pc);
  const table = connectorTable(name, d, resolved);
  checkSinkLayout(name, d, spec);
  const layout = sinkLayout(d);
  spec.validate({ ...table, ...layout }, "sink");
  const columns = sinkColumns(name, resolved, spec.writableMetadata?.(table), d.connector);
  checkColumns(name, input.schema, columns.persisted);
  // the writer receives the physical columns, then the written metadata (declared order may interleave them)
  const reorder = columns.reorder;
  const source = reorder === undefined ? input : projectNode({
    input, schema: new ResolvedSchema(reorder.map((i) => input.schema.columns[i]!)),
    exprs: reorder.map((i): ExprNode => ({ kind: "Column", name: input.schema.names[i]! })),
  });

  const changelog = spec.sinkChangelog ? spec.sinkChangelog(table) : "all";
  const mode = deriveChangelogMode(input, batch);
  if (changelog === "insert-only" && !isInsertOnly(mode)) {
    const producer = updateProducer(input, batch);
    throw new ValidationError(`Table sink '${name}' (connector '${d.connector}') is append-only and doesn't support consuming update and delete changes ${modeToShortString(mode)} which are produced by node ${describeNode(producer)}`);
  }
  if (changelog === "all") requireRetractionsAtSink(`Table sink '${name}' (connector '${d.connector}')`, input, mode);
  if (changelog === "upsert" && !resolved.primaryKey) {
    throw new ValidationError(`Table sink '${name}' (connector '${d.connector}') writes upserts and needs a primary key: declare one with Schema.newBuilder()...primaryKey("id")`);
  }
  return sinkNode({
    schema: columns.written, input: source, tableName: name, connector: d.connector,
    options: Object.fromEntries(d.options), changelog, ...layout,
    ...(columns.metadata.length > 0 ? { metadata: columns.metadata } : {}),
    ...(resolved.primaryKey ? { primaryKey: resolved.primaryKey } : {}),
    ...(d.attachment !== undefined ? { attachment: d.attachment } : {}),
  });
}

/** Flink's DynamicSinkUtils checks: a bucketed or partitioned table needs a sink that supports it. */
function checkSinkLayout(name: string, d: TableDescriptor<object>, spec: Connector): void {
  const debugName = `default_catalog.default_database.${name}`;
  if (d.distribution && !spec.supportsBucketing) {
    throw new ValidationError(`Table '${debugName}' is a bucketed table, but the underlying DynamicTableSink (connector '${d.connector}') doesn't implement the SupportsBucketing interface.`);
  }
  if (d.partitionKeys.length > 0 && !spec.supportsPartitioning) {
    throw new ValidationError(`Table '${debugName}' is a partitioned table, but the underlying DynamicTableSink (connector '${d.connector}') doesn't implement the SupportsPartitioning interface.`);
  }
}

/** What a sink that supports partitioning / bucketing receives of the table's layout. */
function sinkLayout(d: TableDescriptor<object>): { partitionKeys?: readonly string[]; distribution?: SinkDistribution } {
  const dist = d.distribution;
  return {
    ...(d.partitionKeys.length > 0 ? { partitionKeys: d.partitionKeys } : {}),
    ...(dist ? { distribution: { kind: dist.kind, bucketKeys: dist.bucketKeys, ...(dist.bucketCount !== undefined ? { bucketCount: dist.bucketCount } : {}) } } : {}),
  };
}

function rowTypeOf(schema: ResolvedSchema): DataType<object | null> {
  // a ROW type over the input's columns (time attributes dropped: a sink stores plain timestamps)
  const fields = schema.columns.map((c) => ({ name: c.name, type: c.type.withTimeAttribute(undefined) }));
  return new DataType("ROW", true, { fields }) as DataType<object | null>;
}

/** Flink's check of an INSERT: same number of columns, each query type assignable to the sink column. */
function checkColumns(name: string, query: ResolvedSchema, sink: ResolvedSchema): void {
  const show = (s: ResolvedSchema) => `[${s.columns.map((c) => `${c.name}: ${c.type}`).join(", ")}]`;
  const fail = (cause: string) => new ValidationError(
    `Column types of query result and sink for '${name}' do not match.\nCause: ${cause}\n\nQuery schema: ${show(query)}\nSink schema:  ${show(sink)}`);
  if (query.size !== sink.size) throw fail(`Different number of columns.`);
  query.columns.forEach((q, i) => {
    const s = sink.columns[i]!;
    if (!assignableToSink(q.type, s.type)) throw fail(`Incompatible types for sink column '${s.name}' at position ${i}.`);
  });
}

const TIMESTAMPS = ["TIMESTAMP", "TIMESTAMP_LTZ"];

/**
 * A TIMESTAMP written into a TIMESTAMP_LTZ column or the reverse: Flink casts implicitly, in the session time
 * zone. tablestream's session time zone is UTC (both are held as the same instant), so the value is kept.
 */
function crossesTimeZone(from: DataType, to: DataType): boolean {
  return TIMESTAMPS.includes(from.root) && TIMESTAMPS.includes(to.root) && from.root !== to.root;
}

function assignableToSink(from: DataType, to: DataType): boolean {
  if (from.root === "NULL") return true;
  if (crossesTimeZone(from, to)) return true;
  if (["ARRAY", "MAP", "ROW"].includes(from.root) || ["ARRAY", "MAP", "ROW"].includes(to.root)) {
    return from.withNullability(true).withTimeAttribute(undefined).toString() === to.withNullability(true).withTimeAttribute(undefined).toString();
  }
  // nullability is enforced per record (table.exec.sink.not-null-enforcer), as in Flink
  return isImplicitlyAssignable(from.withNullability(false), to.withNullability(false));
}

/** The deepest node on the way down from `n` whose output is updating: where the updates come from. */
function updateProducer(n: PlanNode, batch: boolean): PlanNode {
  let cur = n;
  for (;;) {
    const next = inputsOf(cur).find((i) => !isInsertOnly(deriveChangelogMode(i, batch)));
    if (!next) return cur;
    cur = next;
  }
}

/** Reads `key` of the environment configuration; used for watermark emission defaults. */
export type ConfigReader = (key: string) => string | undefined;
