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
  return rowMakers(schema).convert as RowConverter<R>;
}

/**
 * A constructor of the schema's insert rows taking the column values as arguments (`new C(v0, v1, ...)`):
 * what the columnar path calls from its own loop for `batches()` (exec/columnar/), so that a row of a
 * projection is one object with no positional record before it. Its rows have the converter's prototype
 * for `+I` (`Row.kindOf`, `toString` alike).
 */
export function insertRowConstructor(schema: ResolvedSchema): new (...values: unknown[]) => object {
  return rowMakers(schema).insert;
}

type RowConstructor = new (...values: unknown[]) => object;

/**
 * The schema's row constructors by kind (`new C[k](v0, v1, ...)` is `convert(k, [v0, v1, ...])`): what an
 * operator in front of the result sink calls from its generated output code, so that an output row is one
 * object (exec/operators/collect-sink.ts). `[0]` is `insertRowConstructor`.
 */
export function rowConstructors(schema: ResolvedSchema): readonly [RowConstructor, RowConstructor, RowConstructor, RowConstructor] {
  return rowMakers(schema).kinds;
}

interface RowMakers {
  readonly convert: RowConverter<unknown>;
  readonly insert: RowConstructor;
  readonly kinds: readonly [RowConstructor, RowConstructor, RowConstructor, RowConstructor];
  /**
   * One all-null row per kind, made with the constructors when they are generated, kept as long as they are
   * cached. They fix the fields' representation (below) and keep the rows' shapes alive: a row's hidden class
   * is held only weakly by V8's transition tree, so when every row of a job is garbage at a full GC the shape
   * would die with them and V8 would throw away the code specialised to it (`bench:deopts --gc`).
   */
  readonly anchors: readonly object[];
}

function rowMakers(schema: ResolvedSchema): RowMakers {
  // one set per column-name list for the process: a new set of constructors per job would give every
  // job's rows new shapes (cold code, and the consumer's property reads going megamorphic job after job)
  const cacheKey = JSON.stringify(schema.names);
  let c = MAKERS.get(cacheKey);
  if (c === undefined) {
    if (MAKERS.size >= MAX_CACHED) MAKERS.clear();
    MAKERS.set(cacheKey, (c = generate(schema.names)));
  }
  return c;
}

/** Row makers by column names (JSON); bounded, as a process may see any number of schemas. */
const MAKERS = new Map<string, RowMakers>();
const MAX_CACHED = 512;

function generate(names: readonly string[]): RowMakers {
  const params = names.map((_, i) => `a${i}`).join(",");
  const assigns = names.map((n, i) => writeOwnSource("this", n, `a${i}`)).join("");
  const fromRecord = names.map((_, i) => `v[${i}]`).join(",");
  const nulls = names.map(() => "null").join(",");
  // one constructor per kind, used by the converter and by operators alike: a consumer's loop sees one
  // shape per kind, however a row was made. The first row of each kind has every field null, so that V8
  // gives each field the tagged representation from the start: a column whose first value is a fractional
  // number would otherwise get V8's double representation (a number box owned by each object), and every
  // later row would allocate a box and copy the number into it instead of storing the value it was given
  // (a probe making W8's six-column rows: 37 -> 27 ms per million; W0 and W8 through `batches()` about an
  // eighth faster a pass, docs/benchmarks.md). These rows are the schema's shape anchors.
  return codegenFunction("row-converter", "P", `"use strict";
    function I0(${params}){${assigns}} function I1(${params}){${assigns}}
    function I2(${params}){${assigns}} function I3(${params}){${assigns}}
    I0.prototype=P[0];I1.prototype=P[1];I2.prototype=P[2];I3.prototype=P[3];
    return {convert:function(k,v){return k===0?new I0(${fromRecord}):k===2?new I2(${fromRecord}):k===1?new I1(${fromRecord}):new I3(${fromRecord});},
      insert:I0,kinds:Object.freeze([I0,I1,I2,I3]),anchors:[new I0(${nulls}),new I1(${nulls}),new I2(${nulls}),new I3(${nulls})]};`)(schemaPrototypes(names)) as RowMakers;
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
