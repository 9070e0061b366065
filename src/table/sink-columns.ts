import { ValidationError } from "../types/errors.js";
import type { DataType } from "../types/data-type.js";
import { ResolvedSchema } from "../types/resolved-schema.js";
import type { ResolvedTableSchema } from "./schema-resolve.js";

/**
 * The columns an INSERT writes (Flink's DynamicSinkUtils): the physical columns and the persisted (non-VIRTUAL)
 * metadata columns, in declared order, are what the query fills; a VIRTUAL metadata column is not part of the
 * sink (it is read only). The connector receives the physical values, then the metadata values in declared
 * order (`written`), as Flink's SupportsWritingMetadata.applyWritableMetadata.
 */
export interface SinkColumns {
  /** What the query must produce, in the table's declared order. */
  readonly persisted: ResolvedSchema;
  /** What the sink writer receives: physical columns, then the persisted metadata columns. */
  readonly written: ResolvedSchema;
  /** The persisted metadata columns (column name and key), in `written`'s order. */
  readonly metadata: readonly { readonly name: string; readonly key: string }[];
  /** Positions in `persisted` of each `written` column, when the orders differ. */
  readonly reorder?: readonly number[];
}

const isString = (t: DataType) => t.root === "VARCHAR" || t.root === "CHAR";

export function sinkColumns(name: string, resolved: ResolvedTableSchema, writable: ReadonlyMap<string, DataType> | undefined, connector: string): SinkColumns {
  const persistedMeta = (resolved.metadata ?? []).filter((m) => !m.virtual);
  if (persistedMeta.length === 0) return { persisted: resolved.physical, written: resolved.physical, metadata: [] };
  const table = `default_catalog.default_database.${name}`;
  if (writable === undefined || writable.size === 0) {
    throw new ValidationError(`Table '${table}' declares persistable metadata columns, but the underlying DynamicTableSink (connector '${connector}') doesn't implement the SupportsWritingMetadata interface. If the column should not be persisted, it can be declared with the VIRTUAL keyword.`);
  }
  for (const m of persistedMeta) {
    const type = writable.get(m.key);
    if (type === undefined) {
      throw new ValidationError(`Invalid metadata key '${m.key}' in column '${m.name}' of table '${table}'. The DynamicTableSink of connector '${connector}' supports the following metadata keys for writing:\n${[...writable.keys()].join("\n")}`);
    }
    if (!(type.root === m.type.root || (isString(type) && isString(m.type)))) {
      throw new ValidationError(`Invalid data type for metadata column '${m.name}' of table '${table}'. The column cannot be declared as '${m.type}' because the type must be castable to metadata type '${type}'.`);
    }
  }
  const persisted = persistedColumns(resolved);
  const persistedNames = persisted.names;
  const column = (n: string) => persisted.column(n);
  const writtenNames = [...resolved.physical.names, ...persistedMeta.map((m) => m.name)];
  const written = new ResolvedSchema(writtenNames.map(column));
  const reorder = writtenNames.map((n) => persistedNames.indexOf(n));
  return {
    persisted, written, metadata: persistedMeta.map((m) => ({ name: m.name, key: m.key })),
    ...(reorder.some((p, i) => p !== i) ? { reorder } : {}),
  };
}

/** The columns an INSERT fills, in declared order: the physical ones and the non-VIRTUAL metadata ones. */
export function persistedColumns(resolved: ResolvedTableSchema): ResolvedSchema {
  const meta = (resolved.metadata ?? []).filter((m) => !m.virtual);
  if (meta.length === 0) return resolved.physical;
  const all = resolved.schema.columns;
  return new ResolvedSchema(all.filter((c) => resolved.physical.has(c.name) || meta.some((m) => m.name === c.name))
    .map((c) => (resolved.physical.has(c.name) ? resolved.physical.column(c.name) : { name: c.name, type: c.type })));
}
