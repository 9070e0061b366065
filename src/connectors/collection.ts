import type { SinkWriter } from "../exec/source.js";
import { helpers } from "../expressions/helpers.js";
import { ExecutionError, ValidationError } from "../types/errors.js";
import { KIND_SHORT, type KeyedRow, Kind } from "../types/row.js";
import { rowConverter } from "../table/row-converter.js";
import type { Schema } from "../table/schema.js";
import { checkOptionKeys, type ConnectorTable, type SinkChangelog, TableDescriptor } from "../table/table-descriptor.js";
import { toJavaString } from "../types/format.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";
import type { Connector } from "./connector.js";

/**
 * An in-memory sink for tests and notebooks: keeps the raw changelog it received, and can show it in
 * Flink's notation or materialized.
 *
 * ```ts
 * const sink = new CollectionSink<{ name: string; n: number }>();
 * env.createTemporaryTable("out", sink.descriptor(schema));
 * await counts.executeInsert("out").await();
 * sink.changelog();     // ["+I[Bob, 1]", "-U[Bob, 1]", "+U[Bob, 2]"]
 * sink.materialized();  // [{ name: "Bob", n: 2 }]
 * ```
 * Option `sink.changelog-mode`: `all` (default; `upsert` when the schema has a primary key), `upsert`
 * (no UPDATE_BEFORE; needs a primary key) or `insert-only` (an updating table is rejected when planned).
 * Option `sink.supports-delete-by-key = true`: an upsert sink that deletes by key, so its input may carry
 * key-only deletes (a PTF asking `getRequiredChangelogMode()` is told so).
 */
export class CollectionSink<R extends object = Record<string, unknown>> {
  private readonly kinds: number[] = [];
  private readonly values: (readonly unknown[])[] = [];
  private schema: ResolvedSchema | undefined;
  private key: readonly string[] | undefined;

  /** A descriptor of a table written into this sink. */
  descriptor(schema: Schema<object>, options: Readonly<Record<string, string>> = {}): TableDescriptor<object> {
    let b = TableDescriptor.forConnector("collection").schema(schema);
    for (const [k, v] of Object.entries(options)) b = b.option(k, v);
    return b.attach(this).build();
  }

  /** @internal called by the writer */
  bind(schema: ResolvedSchema, key: readonly string[] | undefined): void {
    if (this.schema && this.schema.toString() !== schema.toString()) {
      throw new ExecutionError(`this CollectionSink already holds rows of ${this.schema.toShortString()}; it cannot also take ${schema.toShortString()}`);
    }
    this.schema = schema;
    this.key = key;
  }

  /** @internal */
  add(kind: number, row: readonly unknown[]): void {
    this.kinds.push(kind);
    this.values.push(row);
  }

  /** Number of records received. */
  get size(): number {
    return this.values.length;
  }

  /** The raw changelog in Flink's notation, `+I[Bob, 1]`, in arrival order. */
  changelog(): string[] {
    const types = this.schema?.types ?? [];
    return this.values.map((v, i) => `${KIND_SHORT[this.kinds[i]!]}[${v.map((x, j) => toJavaString(types[j], x)).join(", ")}]`);
  }

  /** The received rows as objects with their kinds (`Row.kindOf`). */
  rows(): KeyedRow<R>[] {
    if (!this.schema) return [];
    const convert = rowConverter<KeyedRow<R>>(this.schema);
    return this.values.map((v, i) => convert(this.kinds[i]!, v));
  }

  /**
   * The table the changelog describes: by primary key when the schema has one (last +I/+U wins, -D
   * removes), otherwise as a multiset (-U/-D remove one equal row, which must exist).
   */
  materialized(): R[] {
    if (!this.schema) return [];
    const schema = this.schema;
    const convert = rowConverter<R>(schema);
    if (this.key) {
      const idx = this.key.map((k) => schema.indexOf(k));
      const byKey = new Map<string, readonly unknown[]>();
      this.values.forEach((v, i) => {
        const k = JSON.stringify(idx.map((j) => v[j]));
        const kind = this.kinds[i]!;
        if (kind === Kind.INSERT || kind === Kind.UPDATE_AFTER) byKey.set(k, v);
        else if (kind === Kind.DELETE) byKey.delete(k);
      });
      return [...byKey.values()].map((v) => convert(Kind.INSERT, v));
    }
    const rows: (readonly unknown[])[] = [];
    this.values.forEach((v, i) => {
      const kind = this.kinds[i]!;
      if (kind === Kind.INSERT || kind === Kind.UPDATE_AFTER) { rows.push(v); return; }
      const at = rows.findIndex((r) => r.every((x, j) => x === v[j] || (x !== null && v[j] !== null && typeof x === "object" && helpers.eq(x, v[j]))));
      if (at < 0) throw new ExecutionError(`materialized(): ${KIND_SHORT[kind]} retracts a row that is not in the table: ${this.changelog()[i]}`);
      rows.splice(at, 1);
    });
    return rows.map((v) => convert(Kind.INSERT, v));
  }

  /** @internal Keeps the first `size` records (a restored job continues after its checkpoint). */
  truncate(size: number): void {
    this.kinds.length = Math.min(this.kinds.length, size);
    this.values.length = Math.min(this.values.length, size);
  }

  /** Forgets everything received. */
  clear(): void {
    this.kinds.length = 0;
    this.values.length = 0;
  }
}

function changelogOf(table: ConnectorTable): SinkChangelog {
  const m = table.options.get("sink.changelog-mode");
  if (m === undefined) return table.primaryKey ? "upsert" : "all";
  if (m !== "all" && m !== "upsert" && m !== "insert-only") {
    throw new ValidationError(`option 'sink.changelog-mode' of table '${table.tableName}' must be 'all', 'upsert' or 'insert-only', got '${m}'`);
  }
  return m;
}

export const collectionConnector: Connector = {
  name: "collection",
  canRead: false,
  canWrite: true,
  validate(table) {
    checkOptionKeys(table, ["sink.changelog-mode", "sink.supports-delete-by-key"]);
    const byKey = table.options.get("sink.supports-delete-by-key");
    if (byKey !== undefined && byKey !== "true" && byKey !== "false") {
      throw new ValidationError(`option 'sink.supports-delete-by-key' of table '${table.tableName}' must be 'true' or 'false', got '${byKey}'`);
    }
    changelogOf(table);
    if (!(table.attachment instanceof CollectionSink)) {
      throw new ValidationError(`table '${table.tableName}': a 'collection' table is made with new CollectionSink().descriptor(schema)`);
    }
  },
  sinkChangelog: changelogOf,
  createWriter(table): SinkWriter {
    const sink = table.attachment as CollectionSink;
    let count = 0;
    // exactly once across restores: a checkpoint records how many records the sink held; a job restored
    // from it cuts the sink back to that many, so the records it writes again are not duplicated
    return {
      open() { sink.bind(table.physical, table.primaryKey); },
      write(kind, row) { sink.add(kind, row); count++; },
      close() {},
      written: () => count,
      prepareCommit: () => ({ size: sink.size }),
      restore(committable) { sink.truncate((committable as { size: number }).size); },
    };
  },
};

