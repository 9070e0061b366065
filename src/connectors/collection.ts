import type { SinkWriter } from "../exec/source.js";
import { ValidationError } from "../types/errors.js";
import { checkOptionKeys, type ConnectorTable, type SinkChangelog } from "./connector-spec.js";
import { ResolvedSchema } from "../types/resolved-schema.js";
import type { DataType } from "../types/data-type.js";
import { parseDataType } from "../types/parse-type.js";
import type { Connector } from "./connector.js";
import type { ConnectorAttachment } from "../plan/nodes.js";

function changelogOf(table: ConnectorTable): SinkChangelog {
  const m = table.options.get("sink.changelog-mode");
  if (m === undefined) return table.primaryKey ? "upsert" : "all";
  if (m !== "all" && m !== "upsert" && m !== "insert-only") {
    throw new ValidationError(`option 'sink.changelog-mode' of table '${table.tableName}' must be 'all', 'upsert' or 'insert-only', got '${m}'`);
  }
  return m;
}

/**
 * What the collection connector writes into: the table's attached in-process store (the facade's
 * `CollectionSink`, made with `new CollectionSink().descriptor(schema)`).
 */
export interface CollectionStore extends ConnectorAttachment {
  readonly attachmentOf: "collection";
  /** Called when the writer opens: the sink's physical columns and primary key. */
  bind(schema: ResolvedSchema, key: readonly string[] | undefined): void;
  add(kind: number, row: readonly unknown[]): void;
  /** Number of records held. */
  readonly size: number;
  /** Keeps the first `size` records (a job restored from a checkpoint continues after it). */
  truncate(size: number): void;
}

/** `'writable-metadata' = 'c:STRING, d:INT'`: key to type. */
function writableMetadata(table: ConnectorTable): ReadonlyMap<string, DataType> {
  const text = table.options.get("writable-metadata");
  const out = new Map<string, DataType>();
  if (text === undefined || text.trim() === "") return out;
  for (const part of text.split(",")) {
    const at = part.indexOf(":");
    const key = part.slice(0, at).trim();
    if (at <= 0 || key === "") throw new ValidationError(`option 'writable-metadata' of table '${table.tableName}' must be 'key:TYPE[, key:TYPE ...]', got '${text}'`);
    try {
      out.set(key, parseDataType(part.slice(at + 1).trim()));
    } catch (e) {
      throw new ValidationError(`option 'writable-metadata' of table '${table.tableName}': ${(e as Error).message}`);
    }
  }
  return out;
}

function withMetadata(table: ConnectorTable): ResolvedSchema {
  const keys = table.metadataKeys ?? [];
  if (keys.length === 0) return table.physical;
  const types = writableMetadata(table);
  return new ResolvedSchema([...table.physical.columns, ...keys.map((k) => ({ name: k, type: types.get(k)! }))]);
}

const isStore = (x: ConnectorAttachment | undefined): x is CollectionStore => x?.attachmentOf === "collection";

export const collectionConnector: Connector = {
  name: "collection",
  canRead: false,
  canWrite: true,
  // an in-process test sink, as Flink's values sink: it accepts buckets and partitions and keeps every row as written
  supportsBucketing: true,
  supportsPartitioning: true,
  validate(table) {
    checkOptionKeys(table, ["sink.changelog-mode", "sink.supports-delete-by-key", "writable-metadata"]);
    writableMetadata(table);
    const byKey = table.options.get("sink.supports-delete-by-key");
    if (byKey !== undefined && byKey !== "true" && byKey !== "false") {
      throw new ValidationError(`option 'sink.supports-delete-by-key' of table '${table.tableName}' must be 'true' or 'false', got '${byKey}'`);
    }
    changelogOf(table);
    if (!isStore(table.attachment)) {
      throw new ValidationError(`table '${table.tableName}': a 'collection' table is made with new CollectionSink().descriptor(schema)`);
    }
  },
  sinkChangelog: changelogOf,
  // Flink's values test sink: 'writable-metadata' = 'k1:TYPE,k2:TYPE' lists the metadata it stores after the row
  writableMetadata,
  createWriter(table): SinkWriter {
    const sink = table.attachment;
    if (!isStore(sink)) throw new ValidationError(`table '${table.tableName}': not attached to a CollectionSink`);
    let count = 0;
    // exactly once across restores: a checkpoint records how many records the sink held; a job restored
    // from it cuts the sink back to that many, so the records it writes again are not duplicated
    return {
      // written metadata is kept as columns after the physical ones, named by their keys
      open() { sink.bind(withMetadata(table), table.primaryKey); },
      write(kind, row) { sink.add(kind, row); count++; },
      close() {},
      written: () => count,
      prepareCommit: () => ({ size: sink.size }),
      restore(committable) { sink.truncate((committable as { size: number }).size); },
    };
  },
};

