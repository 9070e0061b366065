import { codegenFunction } from "../../../expressions/codegen.js";
import type { Decimal } from "decimal.js";
import { classOf } from "../../../ptf/structured.js";
import { KIND_PROTOTYPES, ROW_KIND } from "../../../types/row.js";
import type { DataType } from "../../../types/data-type.js";
import { toJavaString } from "../../../types/format.js";
import type { ResolvedSchema } from "../../../types/resolved-schema.js";
import { getOwn, setOwn, writeOwnSource } from "../../../types/own.js";
import { coerceValue } from "../../../types/values.js";

/**
 * The row objects a PTF's `eval` receives. A row is a plain object keyed by column name that carries
 * its kind on its prototype (`Row.kindOf(row)`) and prints like Flink's `Row.toString()`
 * (`+I[Bob, 12]`). One class per (schema, kind) is generated, so making a row is one monomorphic
 * constructor call. Structured types (`structuredType(User, ...)`) are made with `new User()` instead.
 */
export type RowMaker = (kind: number, record: readonly unknown[]) => object;

interface Field {
  readonly name: string;
  readonly type: DataType;
}

/** Prototype methods shared by the rows of one field list: `toString()` in Flink's Row notation. */
function rowToString(fields: readonly Field[]): () => string {
  return function (this: Record<string | symbol, unknown>) {
    const parts = new Array<string>(fields.length);
    for (let i = 0; i < fields.length; i++) parts[i] = toJavaString(fields[i]!.type, getOwn(this, fields[i]!.name));
    return `${(this[ROW_KIND] as string | undefined) ?? "+I"}[${parts.join(", ")}]`;
  };
}

/**
 * Generates row classes for `fields`; `convert[i]` (if any) converts the i-th positional value.
 *
 * Without conversions the classes are made once per field list for the process (cached by names and
 * types): a new set per job would give every job's rows new shapes, so the property reads of a long-lived
 * `eval` would see one more shape per job and go megamorphic. Each class's first row has every field
 * null, so that number columns get tagged fields rather than a number box per row (as the result rows,
 * table/row-converter.ts); those rows stay in the cache and keep the shapes alive across jobs.
 */
function keyedRowMaker(fields: readonly Field[], convert: readonly (((v: unknown) => unknown) | undefined)[]): RowMaker {
  const plain = convert.every((c) => c === undefined);
  const key = plain ? JSON.stringify(fields.map((f) => [f.name, String(f.type)])) : undefined;
  const cached = key === undefined ? undefined : PLAIN_MAKERS.get(key);
  if (cached !== undefined) return cached.make;
  const assigns = fields.map((f, i) => writeOwnSource("this", f.name, convert[i] ? `cv[${i}](r[${i}])` : `r[${i}]`)).join("");
  const toString = rowToString(fields);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const made = codegenFunction("ptf-rows", "P", "cv", "ts", "N", `"use strict";
    function mk(p){function R(r){${assigns}} R.prototype=Object.create(p,{toString:{value:ts,writable:true,configurable:true}}); return R;}
    const R0=mk(P[0]),R1=mk(P[1]),R2=mk(P[2]),R3=mk(P[3]);
    return {make:function(k,r){return k===0?new R0(r):k===2?new R2(r):k===1?new R1(r):new R3(r);},
      anchors:N===null?[]:[new R0(N),new R1(N),new R2(N),new R3(N)]};`)(KIND_PROTOTYPES, convert, toString, plain ? fields.map(() => null) : null) as CachedMaker;
  if (key !== undefined) {
    if (PLAIN_MAKERS.size >= MAX_CACHED) PLAIN_MAKERS.clear();
    PLAIN_MAKERS.set(key, made);
  }
  return made.make;
}

interface CachedMaker {
  readonly make: RowMaker;
  /** One all-null row per kind (the shapes' anchors); empty for makers with conversions. */
  readonly anchors: readonly object[];
}

/** Row makers without conversions by field names and types (JSON); bounded, as a process may see any number. */
const PLAIN_MAKERS = new Map<string, CachedMaker>();
const MAX_CACHED = 512;

/** Rows of a table as they are (polymorphic table arguments). */
export function rowMakerFor(schema: ResolvedSchema): RowMaker {
  return keyedRowMaker(schema.columns, schema.columns.map(() => undefined));
}

/**
 * Rows of a table passed to a typed table argument: columns matched by position to the declared
 * fields, values converted where the implicit cast changes their representation (e.g. INT -> DECIMAL).
 */
export function typedRowMaker(declared: DataType, sourceTypes: readonly DataType[]): RowMaker {
  const fields = declared.fields;
  const convert = fields.map((f, i) => converter(sourceTypes[i]!, f.type));
  const cls = classOf(declared);
  if (cls === undefined) return keyedRowMaker(fields, convert);
  const names = fields.map((f) => f.name);
  return (_kind, r) => {
    const o = new cls() as Record<string, unknown>;
    for (let i = 0; i < names.length; i++) {
      const c = convert[i];
      setOwn(o, names[i]!, c ? c(r[i]) : r[i]);
    }
    return o;
  };
}

/** Fresh ROW state: a row whose fields are all null (PTF rule 13). */
export function nullRowMaker(type: DataType): () => object {
  const fields = type.fields;
  const make = keyedRowMaker(fields, fields.map(() => undefined));
  const nulls = fields.map(() => null);
  return () => make(0, nulls);
}

const NUMERIC = ["TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE"];

/**
 * Converts a value of type `from` to the representation of type `to` under an implicit cast, or
 * returns undefined when the representation does not change (most casts: INT -> BIGINT, CHAR -> STRING,
 * TIMESTAMP(0) -> TIMESTAMP(6)). Nested rows are rebuilt with the target's field names.
 */
export function converter(from: DataType, to: DataType): ((v: unknown) => unknown) | undefined {
  if (to.root === "DECIMAL" && from.root !== "DECIMAL") {
    return (v) => (v === null ? null : coerceValue(to.withNullability(true), v, () => `implicit cast to ${to}`));
  }
  if (to.root === "DECIMAL" && (from.precision !== to.precision || from.scale !== to.scale)) {
    return (v) => (v === null ? null : coerceValue(to.withNullability(true), v, () => `implicit cast to ${to}`));
  }
  if (NUMERIC.includes(to.root) && from.root === "DECIMAL") return (v) => (v === null ? null : (v as Decimal).toNumber());
  if (to.root === "ROW" && from.root === "ROW") {
    const sourceNames = from.fields.map((f) => f.name);
    const make = typedRowMaker(to, from.fields.map((f) => f.type));
    return (v) => (v === null ? null : make(0, sourceNames.map((n) => getOwn(v as object, n))));
  }
  if (to.root === "ARRAY" && from.root === "ARRAY") {
    const el = converter(from.elementType!, to.elementType!);
    return el ? (v) => (v === null ? null : (v as unknown[]).map(el)) : undefined;
  }
  if (to.root === "MAP" && from.root === "MAP") {
    const k = converter(from.keyType!, to.keyType!);
    const val = converter(from.valueType!, to.valueType!);
    if (!k && !val) return undefined;
    return (v) => {
      if (v === null) return null;
      const out = new Map();
      for (const [a, b] of v as Map<unknown, unknown>) out.set(k ? k(a) : a, val ? val(b) : b);
      return out;
    };
  }
  return undefined;
}
