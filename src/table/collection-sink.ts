/** The in-process sink behind the `collection` connector (connectors/collection.ts writes into it). */
import { helpers } from "../expressions/helpers.js";
import type { CollectionStore } from "../connectors/collection.js";
import { ExecutionError } from "../types/errors.js";
import { toJavaString } from "../types/format.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";
import { KIND_SHORT, type KeyedRow, Kind } from "../types/row.js";
import { rowConverter } from "./row-converter.js";
import type { Schema } from "./schema.js";
import { TableDescriptor } from "./table-descriptor.js";

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
export class CollectionSink<R extends object = Record<string, unknown>> implements CollectionStore {
  /** @internal the connector this object is attached for */
  readonly attachmentOf = "collection" as const;
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

  /** Forgets everything received. */
  clear(): void {
    this.kinds.length = 0;
    this.values.length = 0;
  }
}
