import { encodeKeyPart } from "../exec/aggregates/value-key.js";
import type { LookupReader } from "../exec/lookup.js";
import { LookupFunction } from "../functions/temporal-table-function.js";
import type { DataType } from "../types/data-type.js";
import { ValidationError } from "../types/errors.js";
import { ResolvedSchema } from "../types/resolved-schema.js";
import { PositionalRow } from "../types/row.js";

/**
 * An in-memory lookup-capable source (the dimension table of a lookup join, Flink's LookupTableSource): rows of
 * a ROW type that a job looks up by key at processing time. Its content may change while jobs run
 * (`replaceAll`); every lookup sees the rows as they are at that moment.
 *
 * ```ts
 * const customers = new CollectionSource("customers", CUSTOMER_TYPE, [Row.of(1, "Bob", 28)]);
 * orders.joinLateral(call(customers.lookupFunction("id"), $("customer_id")));
 * ```
 */
export class CollectionSource<T extends object = Record<string, unknown>> {
  readonly schema: ResolvedSchema;
  private rows: (readonly unknown[])[] = [];
  /** Lookup indexes by key columns ("0,2"), rebuilt after the content changes. */
  private readonly indexes = new Map<string, Map<string, (readonly unknown[])[]>>();

  constructor(readonly name: string, rowType: DataType<T | null>, rows: readonly (PositionalRow | readonly unknown[])[] = []) {
    if (rowType.root !== "ROW") throw new ValidationError(`CollectionSource '${name}': expected a ROW type, got ${rowType}`);
    this.schema = new ResolvedSchema(rowType.fields.map((f) => ({ name: f.name, type: f.type })));
    this.replaceAll(rows);
  }

  /** Replaces the whole content (later lookups see the new rows). */
  replaceAll(rows: readonly (PositionalRow | readonly unknown[])[]): void {
    this.rows = rows.map((r, i) => {
      const values = r instanceof PositionalRow ? r.values : r;
      if (values.length !== this.schema.size) {
        throw new ValidationError(`CollectionSource '${this.name}': row ${i + 1} has ${values.length} values, the schema ${this.schema.toShortString()} has ${this.schema.size} columns`);
      }
      return values;
    });
    this.indexes.clear();
  }

  /**
   * A lookup function keyed by the given columns: `call(customers.lookupFunction("id"), $("customer_id"))`
   * inside `joinLateral` / `leftOuterJoinLateral` is a lookup join.
   */
  lookupFunction<const K extends readonly [keyof T & string, ...(keyof T & string)[]]>(...keys: K): LookupFunction<T, { -readonly [I in keyof K]: T[K[I] & keyof T] }> {
    const idx = keys.map((k) => this.schema.indexOf(k, `lookupFunction of '${this.name}': key column`));
    const reader: LookupReader = { lookup: (key) => this.lookup(idx, key) };
    return new LookupFunction(this.name, this.schema, idx, reader);
  }

  private lookup(keyColumns: readonly number[], key: readonly unknown[]): readonly (readonly unknown[])[] {
    const id = keyColumns.join(",");
    let index = this.indexes.get(id);
    if (index === undefined) {
      index = new Map();
      for (const r of this.rows) {
        if (keyColumns.some((c) => r[c] === null)) continue;
        const k = keyColumns.map((c) => encodeKeyPart(r[c])).join("");
        const list = index.get(k);
        if (list === undefined) index.set(k, [r]);
        else list.push(r);
      }
      this.indexes.set(id, index);
    }
    return index.get(key.map(encodeKeyPart).join("")) ?? [];
  }
}
