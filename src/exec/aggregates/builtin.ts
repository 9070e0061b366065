import { Decimal } from "decimal.js";
import { ExecutionError } from "../../table/errors.js";
import type { DataType } from "../../table/types/data-type.js";
import { helpers } from "../../expressions/helpers.js";
import { type Accumulator, growFloat64, valueKey } from "./accumulator.js";

const INT_RANGE: Record<string, [number, number]> = {
  TINYINT: [-128, 127], SMALLINT: [-32768, 32767], INT: [-2147483648, 2147483647],
  BIGINT: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

function checkRange(v: number, type: DataType, what: string): number {
  const r = INT_RANGE[type.root];
  if (r && (v < r[0] || v > r[1])) {
    throw new ExecutionError(`${what} overflow: ${v} does not fit ${type.root}${type.root === "BIGINT" ? " (exactly representable range ±(2^53-1))" : ""}`);
  }
  return v;
}

/** COUNT(x): non-null values; COUNT(*) when x is NOT NULL. */
export class CountAcc implements Accumulator {
  private counts = new Float64Array(16);
  grow(c: number): void { this.counts = growFloat64(this.counts, c); }
  reset(g: number): void { this.counts[g] = 0; }
  accumulate(g: number, v: unknown): void { if (v !== null) this.counts[g]!++; }
  retract(g: number, v: unknown): void { if (v !== null) this.counts[g]!--; }
  value(g: number): unknown { return this.counts[g]; }
  snapshot(g: number): unknown { return this.counts[g]; }
  restore(g: number, d: unknown): void { this.counts[g] = d as number; }
}

/** SUM / SUM0 over JS numbers (integer types are range-checked on read). */
export class SumNumberAcc implements Accumulator {
  private sums = new Float64Array(16);
  private counts = new Float64Array(16);
  constructor(private readonly type: DataType, private readonly zeroWhenEmpty: boolean) {}
  grow(c: number): void { this.sums = growFloat64(this.sums, c); this.counts = growFloat64(this.counts, c); }
  reset(g: number): void { this.sums[g] = 0; this.counts[g] = 0; }
  accumulate(g: number, v: unknown): void { if (v !== null) { this.sums[g]! += v as number; this.counts[g]!++; } }
  retract(g: number, v: unknown): void { if (v !== null) { this.sums[g]! -= v as number; this.counts[g]!--; } }
  value(g: number): unknown {
    if (this.counts[g] === 0) return this.zeroWhenEmpty ? 0 : null;
    return checkRange(this.sums[g]!, this.type, "SUM");
  }
  snapshot(g: number): unknown { return [this.sums[g], this.counts[g]]; }
  restore(g: number, d: unknown): void { [this.sums[g], this.counts[g]] = d as [number, number]; }
}

/** SUM / SUM0 / AVG over decimals, exact. */
export class DecimalSumAcc implements Accumulator {
  private sums: Decimal[] = [];
  private counts = new Float64Array(16);
  constructor(private readonly type: DataType, private readonly mode: "SUM" | "SUM0" | "AVG") {}
  grow(c: number): void { this.counts = growFloat64(this.counts, c); }
  reset(g: number): void { this.sums[g] = new Decimal(0); this.counts[g] = 0; }
  accumulate(g: number, v: unknown): void { if (v !== null) { this.sums[g] = this.sums[g]!.plus(helpers.dec(v)); this.counts[g]!++; } }
  retract(g: number, v: unknown): void { if (v !== null) { this.sums[g] = this.sums[g]!.minus(helpers.dec(v)); this.counts[g]!--; } }
  value(g: number): unknown {
    const n = this.counts[g]!;
    if (n === 0) return this.mode === "SUM0" ? new Decimal(0) : null;
    const s = this.mode === "AVG" ? this.sums[g]!.div(n) : this.sums[g]!;
    return helpers.decFit(s, this.type.precision!, this.type.scale!, this.mode);
  }
  snapshot(g: number): unknown { return [this.sums[g]!.toString(), this.counts[g]]; }
  restore(g: number, d: unknown): void { const [s, n] = d as [string, number]; this.sums[g] = new Decimal(s); this.counts[g] = n; }
}

/** AVG over numbers: integer types truncate as in Flink (AVG of INT is INT). */
export class AvgNumberAcc implements Accumulator {
  private sums = new Float64Array(16);
  private counts = new Float64Array(16);
  constructor(private readonly integer: boolean) {}
  grow(c: number): void { this.sums = growFloat64(this.sums, c); this.counts = growFloat64(this.counts, c); }
  reset(g: number): void { this.sums[g] = 0; this.counts[g] = 0; }
  accumulate(g: number, v: unknown): void { if (v !== null) { this.sums[g]! += v as number; this.counts[g]!++; } }
  retract(g: number, v: unknown): void { if (v !== null) { this.sums[g]! -= v as number; this.counts[g]!--; } }
  value(g: number): unknown {
    const n = this.counts[g]!;
    if (n === 0) return null;
    const a = this.sums[g]! / n;
    return this.integer ? Math.trunc(a) : a;
  }
  snapshot(g: number): unknown { return [this.sums[g], this.counts[g]]; }
  restore(g: number, d: unknown): void { [this.sums[g], this.counts[g]] = d as [number, number]; }
}

/**
 * MIN / MAX. On insert-only input one slot per group holds the extreme; when the input can retract,
 * each group keeps a multiset of its values so that retracting the current extreme finds the next one.
 */
export class MinMaxAcc implements Accumulator {
  private extremes: unknown[] = [];
  private bags: (Map<unknown, [unknown, number]> | undefined)[] = [];
  constructor(private readonly max: boolean, private readonly retractable: boolean) {}
  grow(): void {}
  reset(g: number): void { this.extremes[g] = null; if (this.retractable) this.bags[g] = new Map(); }
  private better(a: unknown, b: unknown): boolean {
    const c = typeof a === "number" && typeof b === "number" ? a - b : helpers.cmp(a, b);
    return this.max ? c > 0 : c < 0;
  }
  accumulate(g: number, v: unknown): void {
    if (v === null) return;
    const cur = this.extremes[g];
    if (cur === null || this.better(v, cur)) this.extremes[g] = v;
    if (this.retractable) {
      const bag = this.bags[g]!;
      const k = valueKey(v);
      const e = bag.get(k);
      if (e) e[1]++;
      else bag.set(k, [v, 1]);
    }
  }
  retract(g: number, v: unknown): void {
    if (v === null || !this.retractable) return;
    const bag = this.bags[g]!;
    const k = valueKey(v);
    const e = bag.get(k);
    if (!e) return;
    if (--e[1] === 0) {
      bag.delete(k);
      if (valueKey(this.extremes[g]) === k) {
        let best: unknown = null;
        for (const [, [x]] of bag) if (best === null || this.better(x, best)) best = x;
        this.extremes[g] = best;
      }
    }
  }
  value(g: number): unknown { return this.extremes[g]; }
  snapshot(g: number): unknown { return [this.extremes[g], this.bags[g] ? [...this.bags[g]!.values()] : null]; }
  restore(g: number, d: unknown): void {
    const [x, bag] = d as [unknown, [unknown, number][] | null];
    this.extremes[g] = x;
    if (bag) this.bags[g] = new Map(bag.map(([v, n]) => [valueKey(v), [v, n]]));
  }
}

/** DISTINCT wrapper: a value reaches the inner accumulator only on its first occurrence in the group. */
export class DistinctAcc implements Accumulator {
  private seen: Map<unknown, number>[] = [];
  constructor(private readonly inner: Accumulator) {}
  grow(c: number): void { this.inner.grow(c); }
  reset(g: number): void { this.seen[g] = new Map(); this.inner.reset(g); }
  accumulate(g: number, v: unknown): void {
    if (v === null) return;
    const k = valueKey(v);
    const m = this.seen[g]!;
    const n = m.get(k) ?? 0;
    m.set(k, n + 1);
    if (n === 0) this.inner.accumulate(g, v);
  }
  retract(g: number, v: unknown): void {
    if (v === null) return;
    const k = valueKey(v);
    const m = this.seen[g]!;
    const n = m.get(k);
    if (n === undefined) return;
    if (n === 1) { m.delete(k); this.inner.retract(g, v); } else m.set(k, n - 1);
  }
  value(g: number): unknown { return this.inner.value(g); }
  snapshot(g: number): unknown { return [[...this.seen[g]!], this.inner.snapshot(g)]; }
  restore(g: number, d: unknown): void {
    const [seen, inner] = d as [[unknown, number][], unknown];
    this.seen[g] = new Map(seen);
    this.inner.restore(g, inner);
  }
}

/** Creates the accumulator of a built-in aggregate call. */
export function createAccumulator(fn: string, argType: DataType | undefined, resultType: DataType, distinct: boolean, retractable: boolean): Accumulator {
  let acc: Accumulator;
  switch (fn) {
    case "COUNT": acc = new CountAcc(); break;
    case "SUM":
    case "SUM0":
      acc = resultType.root === "DECIMAL" ? new DecimalSumAcc(resultType, fn) : new SumNumberAcc(resultType, fn === "SUM0");
      break;
    case "AVG":
      acc = resultType.root === "DECIMAL" ? new DecimalSumAcc(resultType, "AVG")
        : new AvgNumberAcc(["TINYINT", "SMALLINT", "INT", "BIGINT"].includes(argType!.root));
      break;
    case "MIN": acc = new MinMaxAcc(false, retractable || distinct); break;
    case "MAX": acc = new MinMaxAcc(true, retractable || distinct); break;
    default: throw new ExecutionError(`no accumulator for aggregate function ${fn}`);
  }
  return distinct ? new DistinctAcc(acc) : acc;
}
