import { untypedJavaString } from "./format.js";
import { assignOwn } from "./own.js";

/**
 * Row kinds of a changelog, with Flink's names and short strings.
 * Internally a kind is a small integer (0..3) that travels beside a positional record.
 */
export const RowKind = {
  INSERT: "+I",
  UPDATE_BEFORE: "-U",
  UPDATE_AFTER: "+U",
  DELETE: "-D",
} as const;
export type RowKind = (typeof RowKind)[keyof typeof RowKind];

/** Internal numeric row kinds: the interpreter passes these beside each record. */
export const enum Kind {
  INSERT = 0,
  UPDATE_BEFORE = 1,
  UPDATE_AFTER = 2,
  DELETE = 3,
}

export const KIND_SHORT: readonly RowKind[] = ["+I", "-U", "+U", "-D"];
export const KIND_NAME: readonly string[] = ["INSERT", "UPDATE_BEFORE", "UPDATE_AFTER", "DELETE"];

export function kindFromShort(k: RowKind | string): Kind {
  const i = KIND_SHORT.indexOf(k as RowKind);
  if (i >= 0) return i;
  const j = KIND_NAME.indexOf(k);
  if (j >= 0) return j;
  throw new TypeError(`unknown row kind '${k}'; expected one of ${KIND_SHORT.join(", ")}`);
}

/** Symbol under which a keyed row object carries its kind (found on the row's prototype, so it is not enumerable). */
export const ROW_KIND: unique symbol = Symbol.for("tablestream.rowKind");

/** One shared prototype per kind: a row object is created with `Object.create(KIND_PROTOTYPES[kind])`. */
export const KIND_PROTOTYPES: readonly object[] = KIND_SHORT.map((k) => Object.freeze(Object.create(Object.prototype, {
  [ROW_KIND]: { value: k, enumerable: false },
  // `${row}` prints like Flink's Row.toString(): `+I[Bob, 12]` (values in column order)
  toString: { value: function rowToString(this: object) { return `${k}[${Object.values(this).map(untypedJavaString).join(", ")}]`; }, enumerable: false },
})));

/**
 * A positional row, as Flink's `Row.of(...)`: values by position plus a kind.
 * Used for `fromValues` with an explicit ROW type and for PTF `collect(Row.ofKind(...))`.
 */
export class PositionalRow<V extends readonly unknown[] = readonly unknown[]> {
  constructor(readonly kind: RowKind, readonly values: V) {
    Object.freeze(this);
  }
  get arity(): number { return this.values.length; }
  getField(i: number): unknown { return this.values[i]; }
  toString(): string { return `${this.kind}[${this.values.map((v) => String(v)).join(", ")}]`; }
}

/** A keyed row object with its kind attached (non-enumerable). */
export type KeyedRow<T> = T & { readonly [ROW_KIND]?: RowKind };

export const Row = {
  /** Positional row of kind INSERT: `Row.of("Alice", 35)`. */
  of<const V extends readonly unknown[]>(...values: V): PositionalRow<V> {
    return new PositionalRow("+I", values);
  },
  /** Positional row of a given kind: `Row.ofKind(RowKind.DELETE, 23)`. */
  ofKind<const V extends readonly unknown[]>(kind: RowKind, ...values: V): PositionalRow<V> {
    kindFromShort(kind);
    return new PositionalRow(kind, values);
  },
  /** A keyed row object of a given kind: `Row.withKind(RowKind.DELETE, { sum: 23 })`. */
  withKind<T extends object>(kind: RowKind, row: T): KeyedRow<T> {
    const out = Object.create(KIND_PROTOTYPES[kindFromShort(kind)]!) as KeyedRow<T>;
    return assignOwn(out, row);
  },
  /** The kind of a row produced by tablestream (`+I` for plain objects). */
  kindOf(row: object): RowKind {
    // the symbol first: a result row (the common case, once per row in a consumer's loop) finds it on its
    // prototype in one load, without the prototype-chain walk of `instanceof`, which only rows without it need
    const k = (row as { [ROW_KIND]?: RowKind })[ROW_KIND];
    if (k !== undefined && k !== null) return k;
    return row instanceof PositionalRow ? row.kind : "+I";
  },
};
