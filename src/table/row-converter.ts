import { untypedJavaString } from "../types/format.js";
import { getOwn, writeOwnSource } from "../types/own.js";
import { KIND_PROTOTYPES, KIND_SHORT } from "../types/row.js";
import { codegenFunction } from "../expressions/codegen.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";

/** Turns a positional record into a keyed row object (kind on its prototype). Generated once per schema. */
export type RowConverter<R> = (kind: number, values: readonly unknown[]) => R;

/**
 * `(k, v) => { name: v[0], age: v[1] }` with the kind's shared prototype, so `Row.kindOf(row)` works and
 * the kind is not an own (enumerable) property. The rows are made by one generated constructor per kind
 * whose `prototype` is the schema's prototype for that kind: V8 sizes such objects from the constructor
 * (fields in the object itself, allocated inline in optimised code), where `Object.create(P[k])` plus
 * assignments made every row an empty object grown field by field. Every column is an own data property:
 * names that `Object.prototype` also has (`__proto__`, `toString`, ...) are defined rather than assigned.
 */
export function rowConverter<R>(schema: ResolvedSchema): RowConverter<R> {
  // one converter per column-name list for the process: a new set of constructors per job would give every
  // job's rows new shapes (cold code, and the consumer's property reads going megamorphic job after job)
  const cacheKey = JSON.stringify(schema.names);
  let c = CONVERTERS.get(cacheKey);
  if (c === undefined) {
    if (CONVERTERS.size >= MAX_CACHED) CONVERTERS.clear();
    CONVERTERS.set(cacheKey, (c = generate(schema.names)));
  }
  return c as RowConverter<R>;
}

/** Converters by column names (JSON); bounded, as a process may see any number of schemas. */
const CONVERTERS = new Map<string, RowConverter<unknown>>();
const MAX_CACHED = 512;

function generate(names: readonly string[]): RowConverter<unknown> {
  const assigns = names.map((n, i) => writeOwnSource("this", n, `v[${i}]`)).join("");
  return codegenFunction("row-converter", "P", `"use strict";
    function R0(v){${assigns}} function R1(v){${assigns}} function R2(v){${assigns}} function R3(v){${assigns}}
    R0.prototype=P[0];R1.prototype=P[1];R2.prototype=P[2];R3.prototype=P[3];
    return function(k,v){return k===0?new R0(v):k===2?new R2(v):k===1?new R1(v):new R3(v);};`)(schemaPrototypes(names)) as RowConverter<unknown>;
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
