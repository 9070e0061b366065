import { codegenFunction } from "../../../expressions/codegen.js";
import type { DataType } from "../../../types/data-type.js";

const PRIMITIVE = new Set(["CHAR", "VARCHAR", "BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DATE", "TIME"]);

/** A value as a Map key: primitives as they are, objects (dates, decimals, rows) by a stable string. */
function keyOfValue(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  if (v instanceof Date) return `\u0000d${v.getTime()}`;
  return `\u0000j${JSON.stringify(v, (_k, x) => (x instanceof Map ? [...x] : x))}`;
}

/**
 * The virtual-processor key of a record: the PARTITION BY value itself for one primitive column (no
 * string is built for numeric keys), a tagged string for several columns, and one constant key when
 * there is no PARTITION BY (a single processor sees the whole table).
 */
export function keyExtractor(keys: readonly number[], types: readonly DataType[]): (r: readonly unknown[]) => unknown {
  if (keys.length === 0) return () => 0;
  if (keys.length === 1) {
    const i = keys[0]!;
    if (PRIMITIVE.has(types[i]!.root)) {
      // eslint-disable-next-line @typescript-eslint/no-implied-eval
      return codegenFunction("ptf-keys", `"use strict";return function(r){return r[${i}];};`)() as (r: readonly unknown[]) => unknown;
    }
    return (r) => keyOfValue(r[i]);
  }
  // typeof tags keep null, 1 and "1" apart
  return (r) => {
    let s = "";
    for (let j = 0; j < keys.length; j++) {
      const v = keyOfValue(r[keys[j]!]);
      s += `${j === 0 ? "" : "\u0001"}${v === null ? "n" : typeof v}:${String(v)}`;
    }
    return s;
  };
}

/** The key column when the key is one primitive column (a generated path reads `r[i]` inline), else -1. */
export function primitiveKeyColumn(keys: readonly number[], types: readonly DataType[]): number {
  return keys.length === 1 && PRIMITIVE.has(types[keys[0]!]!.root) ? keys[0]! : -1;
}
