import type { Accumulator } from "./accumulator.js";
import { valueKey } from "./value-key.js";

/**
 * COLLECT(x) (Flink's CollectAggFunction): the group's non-NULL values as a MULTISET — a Map of element to count,
 * in first-seen order. Retraction lowers a count and drops the element at 0 (as Flink's MapView of counts); a
 * value never accumulated is ignored. Elements are told apart by SQL equality (value-key.ts), so two equal
 * DECIMALs or timestamps are one element. A group of only NULLs is the empty multiset (the result is NOT NULL).
 */
export class CollectAcc implements Accumulator {
  /** Per group: value key -> [value, count]. */
  private bags: (Map<unknown, [unknown, number]> | undefined)[] = [];
  grow(): void {}
  reset(g: number): void {
    this.bags[g] = new Map();
  }
  accumulate(g: number, v: unknown): void {
    if (v === null) return;
    const bag = this.bags[g]!;
    const k = valueKey(v);
    const e = bag.get(k);
    if (e) e[1]++;
    else bag.set(k, [v, 1]);
  }
  retract(g: number, v: unknown): void {
    if (v === null) return;
    const bag = this.bags[g]!;
    const k = valueKey(v);
    const e = bag.get(k);
    if (e === undefined) return;
    if (--e[1] === 0) bag.delete(k);
  }
  value(g: number): unknown {
    // a new Map per result: emitted rows must not change when the group does
    const out = new Map<unknown, number>();
    for (const [v, n] of this.bags[g]!.values()) out.set(v, n);
    return out;
  }
  snapshot(g: number): unknown {
    return [...this.bags[g]!.values()].map(([v, n]) => [v, n]);
  }
  restore(g: number, d: unknown): void {
    this.bags[g] = new Map((d as [unknown, number][]).map(([v, n]) => [valueKey(v), [v, n]]));
  }
}
