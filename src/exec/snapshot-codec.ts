import { Decimal } from "decimal.js";
import { ExecutionError } from "../types/errors.js";

/**
 * The value encoding of operator snapshots: what `Operator.snapshotState()` returns, turned into data that
 * survives `structuredClone` and a JSON serializer unchanged, and back. Checkpoints store the encoded
 * form; restoring decodes it and hands the operator the values it snapshotted.
 *
 * Operators snapshot plain data made of: null, booleans, strings, numbers (NaN, ±Infinity and -0
 * included), bigints, undefined, arrays, plain objects, Dates, Decimals (DECIMAL values), Maps and Sets
 * (distinct-aggregate counts, map state), typed arrays, and instances of user classes (structured types,
 * PTF value state declared with a class). JSON has no form for most of these, so non-JSON values become a
 * tagged object `{ "$": tag, "v": ... }`; a plain object that happens to have a `$` key is tagged too, so
 * decoding is unambiguous. A user class instance is encoded as its own enumerable fields (tag "object"):
 * the operator that restores it rebuilds the instance from its declared type (value-state.ts), as
 * Flink's serializers do from the registered type rather than from the data.
 *
 * Anything else (a function, a symbol, a WeakMap, a cyclic structure) fails the snapshot with an
 * ExecutionError naming the path of the value, instead of producing a checkpoint that cannot be restored.
 */

type Tagged = { readonly $: string; readonly v: unknown };

export function encodeSnapshot(value: unknown): unknown {
  return encode(value, "state", new Set());
}

export function decodeSnapshot(data: unknown): unknown {
  return decode(data);
}

function encode(v: unknown, path: string, seen: Set<object>): unknown {
  switch (typeof v) {
    case "string": case "boolean": return v;
    case "number":
      if (Number.isFinite(v) && !Object.is(v, -0)) return v;
      return tag("number", Number.isNaN(v) ? "NaN" : Object.is(v, -0) ? "-0" : v > 0 ? "Infinity" : "-Infinity");
    case "bigint": return tag("bigint", v.toString());
    case "undefined": return tag("undefined", null);
    case "object": break;
    default: throw unsupported(v, path);
  }
  if (v === null) return null;
  if (seen.has(v)) throw new ExecutionError(`snapshot: the value at ${path} refers back to itself; operator state must be a tree of plain data`);
  seen.add(v);
  try {
    if (Array.isArray(v)) return v.map((x, i) => encode(x, `${path}[${i}]`, seen));
    if (v instanceof Date) return tag("date", v.getTime());
    if (Decimal.isDecimal(v)) return tag("decimal", (v as Decimal).toString());
    if (v instanceof Map) return tag("map", [...v].map(([k, x], i) => [encode(k, `${path}.key(${i})`, seen), encode(x, `${path}.get(${i})`, seen)]));
    if (v instanceof Set) return tag("set", [...v].map((x, i) => encode(x, `${path}.item(${i})`, seen)));
    if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
      return tag(`typed:${v.constructor.name}`, Array.from(v as unknown as ArrayLike<number | bigint>, (x) => (typeof x === "bigint" ? x.toString() : encode(x, path, seen))));
    }
    const proto = Object.getPrototypeOf(v) as unknown;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) out[k] = encode((v as Record<string, unknown>)[k], `${path}.${k}`, seen);
    // a class instance keeps its fields; its class comes back from the declared type on restore
    return proto === Object.prototype && !Object.prototype.hasOwnProperty.call(v, "$") ? out : tag("object", out);
  } finally {
    seen.delete(v);
  }
}

function tag($: string, v: unknown): Tagged {
  return { $, v };
}

function unsupported(v: unknown, path: string): ExecutionError {
  return new ExecutionError(`snapshot: the value at ${path} is a ${typeof v}, which operator state cannot hold (plain data only)`);
}

const TYPED: Readonly<Record<string, new (xs: ArrayLike<number>) => ArrayBufferView>> = {
  Float64Array, Float32Array, Int32Array, Uint32Array, Int16Array, Uint16Array, Int8Array, Uint8Array, Uint8ClampedArray,
};

function decode(d: unknown): unknown {
  if (d === null || typeof d !== "object") return d;
  if (Array.isArray(d)) return d.map(decode);
  const o = d as Record<string, unknown>;
  if (!Object.prototype.hasOwnProperty.call(o, "$")) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(o)) out[k] = decode(o[k]);
    return out;
  }
  const { $, v } = o as Tagged;
  switch ($) {
    case "number": return Number(v);
    case "bigint": return BigInt(v as string);
    case "undefined": return undefined;
    case "date": return new Date(v as number);
    case "decimal": return new Decimal(v as string);
    case "map": return new Map((v as [unknown, unknown][]).map(([k, x]) => [decode(k), decode(x)]));
    case "set": return new Set((v as unknown[]).map(decode));
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = decode(x);
      return out;
    }
    default: {
      if ($.startsWith("typed:")) {
        const name = $.slice(6);
        if (name === "BigInt64Array") return BigInt64Array.from((v as string[]).map((x) => BigInt(x)));
        if (name === "BigUint64Array") return BigUint64Array.from((v as string[]).map((x) => BigInt(x)));
        const C = TYPED[name];
        if (C !== undefined) return new C((v as unknown[]).map((x) => decode(x) as number));
      }
      throw new ExecutionError(`snapshot: unknown encoded value tag '${$}'`);
    }
  }
}
