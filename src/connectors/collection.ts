import { ValidationError } from "../types/errors.js";
import { ResolvedSchema } from "../types/resolved-schema.js";
import { kindFromShort } from "../types/row.js";
import type { DataType } from "../types/data-type.js";
import { parseDataType } from "../types/parse-type.js";
import type { ConnectorAttachment } from "../plan/nodes.js";
import { defineConnector } from "./api/define.js";
import { option } from "./api/options.js";
import type { TableContext } from "./api/contract.js";

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

/** `'writable-metadata' = 'c:STRING, d:INT'` (Flink's values test sink): metadata key to type. */
function writableMetadata(tableName: string, text: string | undefined): Readonly<Record<string, DataType>> {
  const out: Record<string, DataType> = {};
  if (text === undefined || text.trim() === "") return out;
  for (const part of text.split(",")) {
    const at = part.indexOf(":");
    const key = part.slice(0, at).trim();
    if (at <= 0 || key === "") throw new ValidationError(`option 'writable-metadata' of table '${tableName}' must be 'key:TYPE[, key:TYPE ...]', got '${text}'`);
    try {
      out[key] = parseDataType(part.slice(at + 1).trim());
    } catch (e) {
      throw new ValidationError(`option 'writable-metadata' of table '${tableName}': ${(e as Error).message}`);
    }
  }
  return out;
}

const isStore = (x: unknown): x is CollectionStore => (x as ConnectorAttachment | undefined)?.attachmentOf === "collection";

const options = {
  "sink.changelog-mode": option.enum(["all", "upsert", "insert-only"], { description: "What the sink takes; default `upsert` with a primary key, else `all`." }),
  "sink.supports-delete-by-key": option.boolean({ default: false, description: "An upsert sink whose deletes need only the key." }),
  "writable-metadata": option.string({ description: "The metadata the sink stores after each row, `key:TYPE[, key:TYPE ...]`." }),
} as const;

function storeOf(table: TableContext<typeof options>): CollectionStore {
  const store = table.attachment;
  if (!isStore(store)) throw new ValidationError(`table '${table.tableName}': a 'collection' table is made with new CollectionSink().descriptor(schema)`);
  return store;
}

/**
 * The `collection` connector, defined with the public connector API as a user's connector is: writes into the
 * attached CollectionSink, the rows of every job step as the step ends (`handOver: "step"`), so a test sees them
 * while the job runs. Exactly once across restores: a checkpoint records how many records the sink held
 * (`prepareCommit`); a job restored from it cuts the sink back to that many before its first write, so the
 * records it writes again are not duplicated.
 */
export const collectionConnector = defineConnector({
  name: "collection",
  options,
  validate(table) {
    storeOf(table);
    writableMetadata(table.tableName, table.options["writable-metadata"]);
  },
  sink: {
    changelog: (table) => table.options["sink.changelog-mode"] ?? (table.primaryKey ? "upsert" : "all"),
    handOver: "step",
    // an in-process test sink, as Flink's values sink: it accepts buckets and partitions and keeps every row as written
    partitioning: true,
    bucketing: true,
    // 'writable-metadata' = 'k1:TYPE,k2:TYPE' lists the metadata it stores after the row
    metadataOf: (table) => writableMetadata(table.tableName, table.options["writable-metadata"]),
    createWriter(ctx) {
      const store = storeOf(ctx);
      // written metadata is kept as columns after the physical ones, named by their keys
      store.bind(new ResolvedSchema([...ctx.columns, ...ctx.metadata].map((c) => ({ name: c.name, type: c.type }))), ctx.primaryKey);
      const restored = ctx.pendingCommittables.at(-1) as { size: number } | undefined;
      if (restored !== undefined) store.truncate(restored.size);
      return {
        write({ rows, kinds }) {
          for (let i = 0; i < rows.length; i++) store.add(kindFromShort(kinds[i]!), rows[i]!);
        },
        prepareCommit: () => ({ size: store.size }),
        close() {},
      };
    },
  },
});
