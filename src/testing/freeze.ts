import { Decimal } from "decimal.js";
import { freeze, isDraftable } from "immer";

/**
 * Makes a copied state snapshot read-only all the way down, for the test harness's state inspection.
 * immer's `freeze` handles what immer can draft — plain objects, arrays, and Maps and Sets, whose
 * `set`/`add`/`delete`/`clear` then throw — and `Object.freeze` the rest (row objects and class
 * instances of ROW / structured state). Decimals are immutable already and shared with the live state
 * (copyValue keeps them), so they are left alone. Runs only when a test asks, never per record.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== "object" || Decimal.isDecimal(value)) return value;
  if (isDraftable(value)) freeze(value, false);
  else Object.freeze(value);
  if (value instanceof Map) {
    for (const [k, v] of value) {
      deepFreeze(k);
      deepFreeze(v);
    }
  } else if (value instanceof Set) {
    for (const v of value) deepFreeze(v);
  } else {
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
