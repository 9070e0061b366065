/**
 * Accumulators of the group aggregate, stored column-wise by group id (gid) so that a group costs a
 * few typed-array slots, not an object. Every accumulator supports retraction (Flink's retract()), so
 * results stay exact on updating input. The same contract serves user-defined AggregateFunctions.
 */
export interface Accumulator {
  /** Ensures slots exist for gids below `capacity`. */
  grow(capacity: number): void;
  /** Prepares the slots of a new (or reused) group. */
  reset(gid: number): void;
  accumulate(gid: number, value: unknown): void;
  retract(gid: number, value: unknown): void;
  value(gid: number): unknown;
  /** Plain-data snapshot of one group's slots (checkpoints). */
  snapshot(gid: number): unknown;
  restore(gid: number, data: unknown): void;
}

/**
 * The operator's number of rows per group (accumulated minus retracted), shared with accumulators that use
 * it as their count of values (NOT NULL arguments). Operators may update it before or after calling
 * accumulate/retract, so an accumulator reads it only in `value()`, which is called after both.
 */
/**
 * A Float64Array over a plain ArrayBuffer: `Float64Column` from TypeScript 5.7 on, where typed
 * arrays became generic, and `Float64Array` before (the type tests also compile under 5.0).
 */
export type Float64Column = ReturnType<typeof Float64Array.of>;
/** A Uint8Array over a plain ArrayBuffer (as Float64Column). */
export type Uint8Column = ReturnType<typeof Uint8Array.of>;

export interface RowCounter {
  counts: Float64Column;
}

/** Grows a typed column to hold `capacity` slots (doubling, at least 16). */
export function growFloat64(a: Float64Column, capacity: number): Float64Column {
  if (capacity <= a.length) return a;
  let n = Math.max(16, a.length);
  while (n < capacity) n *= 2;
  const b = new Float64Array(n);
  b.set(a);
  return b;
}

export { valueKey } from "./value-key.js";
