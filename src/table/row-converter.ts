import { untypedJavaString } from "../types/format.js";
import { getOwn, writeOwnSource } from "../types/own.js";
import { KIND_PROTOTYPES, KIND_SHORT } from "../types/row.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";

/** Turns a positional record into a keyed row object (kind on its prototype). Generated once per schema. */
export type RowConverter<R> = (kind: number, values: readonly unknown[]) => R;

/**
 * `(k, v) => { name: v[0], age: v[1] }` with the kind's shared prototype, so `Row.kindOf(row)` works and
 * the kind is not an own (enumerable) property. Every column is an own data property: names that
 * `Object.prototype` also has (`__proto__`, `toString`, ...) are defined rather than assigned.
 */
export function rowConverter<R>(schema: ResolvedSchema): RowConverter<R> {
  const assigns = schema.names.map((n, i) => writeOwnSource("o", n, `v[${i}]`)).join("");
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function("P", `"use strict";return function(k,v){const o=Object.create(P[k]);${assigns}return o;}`)(schemaPrototypes(schema.names)) as RowConverter<R>;
}

/**
 * One prototype per kind for the rows of one schema, below the shared kind prototypes (so `Row.kindOf`
 * works): its `toString` prints the columns in schema order — `Object.values` would put integer-like
 * column names (`"0"`) first, as JavaScript enumerates them.
 */
function schemaPrototypes(names: readonly string[]): readonly object[] {
  return KIND_PROTOTYPES.map((p, k) => Object.freeze(Object.create(p, {
    toString: {
      value: function rowToString(this: object) { return `${KIND_SHORT[k]}[${names.map((n) => untypedJavaString(getOwn(this, n))).join(", ")}]`; },
      enumerable: false,
    },
  })));
}
