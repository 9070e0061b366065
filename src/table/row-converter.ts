import { KIND_PROTOTYPES } from "../types/row.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";

/** Turns a positional record into a keyed row object (kind on its prototype). Generated once per schema. */
export type RowConverter<R> = (kind: number, values: readonly unknown[]) => R;

/**
 * `(k, v) => { name: v[0], age: v[1] }` with the kind's shared prototype, so `Row.kindOf(row)` works and
 * the kind is not an own (enumerable) property. The rows are made by one generated constructor per kind
 * whose `prototype` is the kind's prototype: V8 sizes such objects from the constructor (fields in the
 * object itself, allocated inline in optimised code), where `Object.create(P[k])` plus assignments made
 * every row an empty object grown field by field. A column named `__proto__` is defined as an own
 * property rather than assigned, which would replace the prototype; so is `toString`, read-only on the
 * (frozen) kind prototypes, where an assignment would fail.
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
  const assigns = names.map((n, i) => (n === "__proto__" || n === "toString"
    ? `Object.defineProperty(this,${JSON.stringify(n)},{value:v[${i}],enumerable:true,writable:true,configurable:true});`
    : `this[${JSON.stringify(n)}]=v[${i}];`)).join("");
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function("P", `"use strict";
    function R0(v){${assigns}} function R1(v){${assigns}} function R2(v){${assigns}} function R3(v){${assigns}}
    R0.prototype=P[0];R1.prototype=P[1];R2.prototype=P[2];R3.prototype=P[3];
    return function(k,v){return k===0?new R0(v):k===2?new R2(v):k===1?new R1(v):new R3(v);};`)(KIND_PROTOTYPES) as RowConverter<unknown>;
}
