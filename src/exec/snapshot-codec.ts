import { Decimal } from "decimal.js";
import { ExecutionError } from "../types/errors.js";
import { setOwn } from "../types/own.js";
import { Variant, variantFromData, variantToData } from "../types/variant.js";

/**
 * The value encoding of operator snapshots: what `Operator.snapshotState()` returns, turned into data that
 * survives `structuredClone` and a JSON serializer unchanged, and back. Checkpoints store the encoded
 * form; restoring decodes it and hands the operator the values it snapshotted.
 *
 * Operators snapshot plain data made of: null, booleans, strings, numbers (NaN, ±Infinity and -0
 * included), bigints, undefined, arrays, plain objects, Dates, Decimals (DECIMAL values), Variants (tag "variant", kinds kept exact), Maps and Sets
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
  try {
    return encode(value, undefined, 0);
  } catch (e) {
    if (e instanceof BadValue) throw new ExecutionError(e.describe("state" + e.path.reverse().join("")));
    if (e !== TOO_DEEP) throw e;
  }
  // deep enough to be a cycle: encode again, tracking the objects on the path to name the one that loops
  try {
    return encode(value, new Set(), 0);
  } catch (e) {
    if (e instanceof BadValue) throw new ExecutionError(e.describe("state" + e.path.reverse().join("")));
    throw e;
  }
}

export function decodeSnapshot(data: unknown): unknown {
  return decode(data);
}

/**
 * decodeSnapshot for data the caller owns and reads once (just parsed from a checkpoint file): arrays and
 * plain objects are decoded in place instead of copied, so a restore does not build a second tree of every
 * key's state. Tagged values are decoded as by decodeSnapshot.
 */
export function decodeSnapshotInPlace(data: unknown): unknown {
  return decodeInPlace(data);
}

function decodeInPlace(d: unknown): unknown {
  if (d === null || typeof d !== "object") return d;
  if (Array.isArray(d)) {
    for (let i = 0; i < d.length; i++) {
      const x: unknown = d[i];
      if (x !== null && typeof x === "object") d[i] = decodeInPlace(x);
    }
    return d;
  }
  const o = d as Record<string, unknown>;
  if (Object.prototype.hasOwnProperty.call(o, "$")) return decode(o);
  const keys = Object.keys(o);
  for (let i = 0; i < keys.length; i++) {
    const x = o[keys[i]!];
    if (x !== null && typeof x === "object") setOwn(o, keys[i]!, decodeInPlace(x));
  }
  return o;
}

/**
 * A value that cannot be encoded, thrown up through the containers holding it: each adds its part of the
 * path on the way (innermost first), so the happy path builds no path strings — a checkpoint of a million
 * keys would otherwise make millions of them.
 */
class BadValue {
  readonly path: string[] = [];
  constructor(readonly describe: (path: string) => string) {}
}

/** Thrown by the untracked pass past MAX_UNTRACKED levels of nesting (see encodeSnapshot). */
const TOO_DEEP = Symbol("too deep");
const MAX_UNTRACKED = 200;

/** `seen` (the objects on the current path) is tracked only in the second pass, for cycles. */
function encode(v: unknown, seen: Set<object> | undefined, depth: number): unknown {
  switch (typeof v) {
    case "string": case "boolean": return v;
    case "number":
      if (Number.isFinite(v) && !Object.is(v, -0)) return v;
      return tag("number", Number.isNaN(v) ? "NaN" : Object.is(v, -0) ? "-0" : v > 0 ? "Infinity" : "-Infinity");
    case "bigint": return tag("bigint", v.toString());
    case "undefined": return tag("undefined", null);
    case "object": break;
    default: {
      const t = typeof v;
      throw new BadValue((path) => `snapshot: the value at ${path} is a ${t}, which operator state cannot hold (plain data only)`);
    }
  }
  if (v === null) return null;
  if (seen !== undefined) {
    if (seen.has(v)) throw new BadValue((path) => `snapshot: the value at ${path} refers back to itself; operator state must be a tree of plain data`);
    seen.add(v);
  } else if (depth > MAX_UNTRACKED) {
    throw TOO_DEEP;
  }
  try {
    return encodeObject(v, seen, depth + 1);
  } finally {
    seen?.delete(v);
  }
}

function encodeObject(v: object, seen: Set<object> | undefined, depth: number): unknown {
  let part = "";
  try {
    if (Array.isArray(v)) {
      const out = new Array<unknown>(v.length);
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (typeof x === "string" || typeof x === "boolean" || x === null) out[i] = x;
        else { part = `[${i}]`; out[i] = encode(x, seen, depth); }
      }
      return out;
    }
    if (v instanceof Date) return tag("date", v.getTime());
    if (Decimal.isDecimal(v)) return tag("decimal", (v as Decimal).toString());
    if (v instanceof Variant) return tag("variant", variantToData(v));
    if (v instanceof Map) {
      const out: unknown[] = [];
      let i = 0;
      for (const [k, x] of v) {
        part = `.key(${i})`;
        const ek = encode(k, seen, depth);
        part = `.get(${i})`;
        out.push([ek, encode(x, seen, depth)]);
        i++;
      }
      return tag("map", out);
    }
    if (v instanceof Set) {
      const out: unknown[] = [];
      let i = 0;
      for (const x of v) { part = `.item(${i++})`; out.push(encode(x, seen, depth)); }
      part = "";
      return tag("set", out);
    }
    if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
      return tag(`typed:${v.constructor.name}`, Array.from(v as unknown as ArrayLike<number | bigint>, (x) => (typeof x === "bigint" ? x.toString() : encode(x, seen, depth))));
    }
    const proto = Object.getPrototypeOf(v) as unknown;
    const out: Record<string, unknown> = {};
    const keys = Object.keys(v);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const x = (v as Record<string, unknown>)[k];
      // own properties whatever the name (a field called __proto__ must stay a field)
      if (typeof x === "string" || typeof x === "boolean" || x === null) setOwn(out, k, x);
      else { part = `.${k}`; setOwn(out, k, encode(x, seen, depth)); }
    }
    // a class instance keeps its fields; its class comes back from the declared type on restore
    return proto === Object.prototype && !Object.prototype.hasOwnProperty.call(v, "$") ? out : tag("object", out);
  } catch (e) {
    if (e instanceof BadValue) e.path.push(part);
    throw e;
  }
}

function tag($: string, v: unknown): Tagged {
  return { $, v };
}

const TYPED: Readonly<Record<string, new (xs: ArrayLike<number>) => ArrayBufferView>> = {
  Float64Array, Float32Array, Int32Array, Uint32Array, Int16Array, Uint16Array, Int8Array, Uint8Array, Uint8ClampedArray,
};

function decode(d: unknown): unknown {
  if (d === null || typeof d !== "object") return d;
  if (Array.isArray(d)) {
    const out = new Array<unknown>(d.length);
    for (let i = 0; i < d.length; i++) {
      const x: unknown = d[i];
      out[i] = x === null || typeof x !== "object" ? x : decode(x);
    }
    return out;
  }
  const o = d as Record<string, unknown>;
  if (!Object.prototype.hasOwnProperty.call(o, "$")) {
    const out: Record<string, unknown> = {};
    const keys = Object.keys(o);
    for (let i = 0; i < keys.length; i++) {
      const x = o[keys[i]!];
      setOwn(out, keys[i]!, x === null || typeof x !== "object" ? x : decode(x));
    }
    return out;
  }
  const { $, v } = o as Tagged;
  switch ($) {
    case "number": return Number(v);
    case "bigint": return BigInt(v as string);
    case "undefined": return undefined;
    case "date": return new Date(v as number);
    case "decimal": return new Decimal(v as string);
    case "variant": return variantFromData(v);
    case "map": return new Map((v as [unknown, unknown][]).map(([k, x]) => [decode(k), decode(x)]));
    case "set": return new Set((v as unknown[]).map(decode));
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) setOwn(out, k, decode(x));
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

/**
 * `JSON.stringify(encodeSnapshot(value))`, written straight from the value: checkpoints write operator state
 * as JSON, and building the encoded tree first (a second copy of every key's state) and then stringifying it
 * costs more than the state itself. Containers (arrays, plain and class objects, Maps, Sets) are written
 * here; the rare leaves with a tagged form (bigint, NaN, undefined, Date, Decimal, typed arrays) go through
 * `encode`, so the encoding has one definition. Anything this pass does not take on — a value that cannot
 * be encoded, or nesting deep enough to be a cycle — is left to encodeSnapshot, which names the problem.
 */
export function encodeSnapshotJson(value: unknown): string {
  try {
    return json(value, 0);
  } catch (e) {
    if (e !== TOO_DEEP && !(e instanceof BadValue)) throw e;
  }
  return JSON.stringify(encodeSnapshot(value));
}

function json(v: unknown, depth: number): string {
  switch (typeof v) {
    case "string": return JSON.stringify(v);
    case "boolean": return v ? "true" : "false";
    case "number": return Number.isFinite(v) && !Object.is(v, -0) ? String(v) : JSON.stringify(encode(v, undefined, depth));
    case "object": break;
    default: return JSON.stringify(encode(v, undefined, depth));
  }
  if (v === null) return "null";
  if (depth > MAX_UNTRACKED) throw TOO_DEEP;
  const d = depth + 1;
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]";
    let s = "[" + json(v[0], d);
    for (let i = 1; i < v.length; i++) s += "," + json(v[i], d);
    return s + "]";
  }
  if (v instanceof Map) {
    let s = "{\"$\":\"map\",\"v\":[";
    let first = true;
    for (const [k, x] of v) {
      s += (first ? "[" : ",[") + json(k, d) + "," + json(x, d) + "]";
      first = false;
    }
    return s + "]}";
  }
  if (v instanceof Set) {
    let s = "{\"$\":\"set\",\"v\":[";
    let first = true;
    for (const x of v) {
      s += (first ? "" : ",") + json(x, d);
      first = false;
    }
    return s + "]}";
  }
  if (v instanceof Date || Decimal.isDecimal(v) || v instanceof Variant || ArrayBuffer.isView(v)) return JSON.stringify(encode(v, undefined, depth));
  const keys = Object.keys(v);
  let s = "{";
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    s += (i === 0 ? "" : ",") + JSON.stringify(k) + ":" + json((v as Record<string, unknown>)[k], d);
  }
  s += "}";
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype && !Object.prototype.hasOwnProperty.call(v, "$") ? s : "{\"$\":\"object\",\"v\":" + s + "}";
}
