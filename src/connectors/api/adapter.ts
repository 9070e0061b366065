import { ValidationError } from "../../types/errors.js";
import type { ConnectorTable } from "../connector-spec.js";
import type { Connector } from "../connector.js";
import { Kind } from "../../types/row.js";
import type { ConnectorDefinition, RowFormat, TableContext } from "./contract.js";
import type { DataType } from "../../types/data-type.js";
import { LOOKUP_FRAMEWORK_OPTIONS, SINK_FRAMEWORK_OPTIONS } from "./framework-options.js";
import type { OptionDecls } from "./options.js";
import { parseOptions } from "./parse-options.js";
import { formatDefinition, formatNames } from "./formats.js";
import { createApiReader } from "./source-adapter.js";
import { createApiWriter } from "./sink-adapter.js";
import { ConnectorLookup } from "./lookup-adapter.js";
import type { PushedFilter } from "../../plan/pushed-filter.js";
import { defaultPartitionName, prunePartitions } from "../filesystem/partitions.js";

type Role = "source" | "sink" | "lookup";

/**
 * The connector behind a public definition: the planner and the interpreter see it as any built-in
 * connector (one mechanism), its options parsed once per table and role into a TableContext.
 */
export function connectorFromDefinition(def: ConnectorDefinition): Connector {
  const context = (table: ConnectorTable, role: Role) => tableContext(def, table, role);
  const connector: Connector = {
    name: def.name,
    canRead: def.source !== undefined,
    canWrite: def.sink !== undefined,
    supportsPartitioning: def.sink?.partitioning === true,
    supportsBucketing: def.sink?.bucketing === true,
    supportsOverwrite: def.sink?.overwrite === true,
    validate(table, role) {
      const ctx = context(table, role);
      def.validate?.(ctx, role);
    },
    isBounded: (table) => def.source?.bounded?.(context(table, "source")) ?? true,
    sinkChangelog: (table) => def.sink?.changelog?.(context(table, "sink")) ?? (table.primaryKey ? "upsert" : "insert-only"),
    sourceKinds: (table) => {
      const c = def.source?.changelog?.(context(table, "source")) ?? "insert-only";
      if (c === "upsert" && !table.primaryKey) throw new ValidationError(`table '${table.tableName}' (connector '${def.name}') produces upserts and needs a primary key`);
      return c === "insert-only" ? [Kind.INSERT] : c === "upsert" ? [Kind.INSERT, Kind.UPDATE_AFTER, Kind.DELETE] : [Kind.INSERT, Kind.UPDATE_BEFORE, Kind.UPDATE_AFTER, Kind.DELETE];
    },
    pushdown: (table) => {
      const p = def.source?.pushdown;
      const listed = def.source?.partitions;
      const keys = table.partitionKeys ?? [];
      if (p === undefined && (listed === undefined || keys.length === 0)) return undefined;
      const accept = p?.acceptFilter;
      // partition pruning takes the filters on partition columns only: the reader reads just the partitions left
      const onKeys = (f: PushedFilter) => listed !== undefined && keys.length > 0 && (f.op === "OR" ? (f.any ?? []) : [f]).every((g) => keys.includes(g.column));
      return {
        projection: p?.projection === true,
        acceptFilter: (f) => onKeys(f) || (accept !== undefined && accept(f, context(table, "source"))),
        ...(listed !== undefined && keys.length > 0 ? {
          partitions: (filters: readonly PushedFilter[]) => prunePartitions(table.tableName, listed.list(context(table, "source")).map((spec) => ({ dir: "", spec })), keys, table.physical, filters, listed.defaultName?.(context(table, "source")) ?? defaultPartitionName(table)).map((x) => x.spec),
        } : {}),
      };
    },
    createReader: (table, settings, pushdown) => {
      const ctx = context(table, "source");
      const projection = pushdown?.projection;
      // with projection pushdown the reader's rows carry the projected columns
      const projected = projection === undefined ? ctx : Object.freeze({ ...ctx, columns: projection.map((i) => ctx.columns[i]!) });
      const declared = def.source?.metadata ?? {};
      const metadata = (table.metadataKeys ?? []).map((k) => ({ name: k, type: declared[k]! }));
      return createApiReader(def, projected, {
        physicalColumns: ctx.columns, filters: pushdown?.filters ?? [], ...(projection ? { projection } : {}), ...(metadata.length > 0 ? { metadata } : {}),
        ...(pushdown?.partitions !== undefined ? { partitions: pushdown.partitions } : {}),
      }, settings.clock);
    },
    ...(def.source?.metadata ? { readableMetadata: () => new Map(Object.entries(def.source!.metadata!)) } : {}),
    ...(def.sink?.metadata !== undefined || def.sink?.metadataOf !== undefined ? { writableMetadata: (table: ConnectorTable) => new Map(Object.entries(sinkMetadataOf(def, context(table, "sink")))) } : {}),
    ...(def.lookup ? { createLookup: (table: ConnectorTable, keys: readonly string[]) => new ConnectorLookup(def, context(table, "lookup"), keys) } : {}),
    createWriter: (table) => {
      const declared = sinkMetadataOf(def, context(table, "sink"));
      return createApiWriter(def, context(table, "sink"), connector.sinkChangelog!(table), {
        staticPartition: Object.freeze({ ...(table.staticPartition ?? {}) }), overwrite: table.overwrite === true,
        metadata: (table.metadataKeys ?? []).map((k) => ({ name: k, type: declared[k]! })),
        ...(table.distribution !== undefined ? { distribution: table.distribution } : {}),
      });
    },
  };
  return connector;
}

/** Parses a table's options for a role: the connector's own, the role's framework options, the format's. */
export function tableContext(def: ConnectorDefinition, table: ConnectorTable, role: Role): TableContext {
  // a table may be read, written and looked up: every role's framework options are accepted in each
  void role;
  const decls: OptionDecls = { ...def.options, ...(def.sink ? SINK_FRAMEWORK_OPTIONS : {}), ...(def.lookup ? LOOKUP_FRAMEWORK_OPTIONS : {}) };
  let format: RowFormat | undefined;
  const formatKeys: string[] = [];
  const validFormatKeys: string[] = [];
  const formatOptions = new Map<string, string>();
  if (def.formats) {
    const allowed = def.formats === true ? formatNames() : def.formats;
    formatKeys.push("format");
    validFormatKeys.push("format");
    const name = table.options.get("format");
    if (name !== undefined) {
      if (!allowed.includes(name)) throw new ValidationError(`table '${table.tableName}' (connector '${def.name}'): unsupported format '${name}'; supported: ${allowed.join(", ")}`);
      const f = formatDefinition(name);
      validFormatKeys.push(...Object.keys(f.options).map((k) => `${name}.${k}`));
      for (const [k, v] of table.options) {
        if (k.startsWith(`${name}.`)) { formatKeys.push(k); formatOptions.set(k.slice(name.length + 1), v); }
      }
      const parsed = parseOptions(`${def.name}' format '${name}`, table.tableName, formatOptions, f.options);
      format = f.create(table.physical.columns, parsed as never, table.tableName);
    }
  }
  const given = new Map([...table.options].filter(([k]) => !formatKeys.includes(k)));
  const options = parseOptions(def.name, table.tableName, given, decls, validFormatKeys, def.optionPatterns);
  return Object.freeze({
    tableName: table.tableName, connector: def.name, options: Object.freeze(options), rawOptions: table.options,
    columns: table.physical.columns.map((c) => ({ name: c.name, type: c.type })),
    ...(table.primaryKey ? { primaryKey: table.primaryKey } : {}),
    ...(format ? { format } : {}),
    partitionKeys: table.partitionKeys ?? [],
    ...(table.attachment !== undefined ? { attachment: table.attachment } : {}),
  }) as TableContext;
}

/** The metadata a sink writes, key to type: its declaration, or the declaration's answer for this table. */
function sinkMetadataOf(def: ConnectorDefinition, table: TableContext): Readonly<Record<string, DataType>> {
  const sink = def.sink;
  return sink?.metadataOf !== undefined ? sink.metadataOf(table) : sink?.metadata ?? {};
}
