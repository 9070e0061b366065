import { Decimal } from "decimal.js";
import { setOwn } from "../../../types/own.js";

/**
 * Copies of state values for checkpoints: a snapshot must not change when eval later mutates the live
 * objects. Objects keep their prototype (class state, row state with its kind and toString); nested
 * values are cloned.
 */
export function copyValue<T>(v: T): T {
  if (v === null || typeof v !== "object") return v;
  if (v instanceof Date) return new Date(v.getTime()) as T;
  if (Array.isArray(v)) return v.map(copyValue) as T;
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [copyValue(k), copyValue(x)])) as T;
  if (Decimal.isDecimal(v)) return v; // immutable
  const proto = Object.getPrototypeOf(v) as object | null;
  // a literal for plain objects: Object.create(Object.prototype) is several times slower per object, and
  // checkpoints copy every key's state
  const out = (proto === Object.prototype ? {} : Object.create(proto)) as Record<string, unknown>;
  const keys = Object.keys(v);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const x = (v as Record<string, unknown>)[k];
    setOwn(out, k, x === null || typeof x !== "object" ? x : copyValue(x));
  }
  return out as T;
}
