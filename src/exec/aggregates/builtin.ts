import { Decimal } from "decimal.js";
import { ExecutionError } from "../../types/errors.js";
import type { DataType } from "../../types/data-type.js";
import { helpers } from "../../expressions/helpers.js";
import { compareDoubles } from "../../expressions/helpers-numeric.js";
import { type Accumulator, type Float64Column, type RowCounter, growFloat64 } from "./accumulator.js";
import { valueKey } from "./value-key.js";
import { CollectAcc } from "./collect.js";

/**
 * The built-in aggregate functions (COUNT, SUM, SUM0, AVG, MIN, MAX, and their DISTINCT forms), each
 * retractable as Flink's *WithRetract functions are. State is column-wise by group id; where an argument
 * is NOT NULL, the number of values equals the group's row count, so no second counter is kept.
 */

/** Exact decimal arithmetic: DECIMAL(38, s) sums need more than decimal.js's default 20 digits. */
const Exact = Decimal.clone({ precision: 100, rounding: Decimal.ROUND_HALF_UP });
const toExact = (v: unknown): Decimal => new Exact(helpers.dec(v));

/** The range of each integer type's values (BIGINT: the exactly representable JS integers). */
export const INT_RANGE: Readonly<Record<string, readonly [number, number]>> = {
  TINYINT: [-128, 127], SMALLINT: [-32768, 32767], INT: [-2147483648, 2147483647],
  BIGINT: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/** Flink wraps integer sums around silently; tablestream fails the job instead (docs/semantics.md). */
export function checkRange(v: number, type: DataType, what: string): number {
  const r = INT_RANGE[type.root];
  if (r && (v < r[0] || v > r[1])) {
    throw new ExecutionError(`${what} overflow: ${v} does not fit ${type.root}${type.root === "BIGINT" ? " (exactly representable range ±(2^53-1))" : ""}`);
  }
  return v;
}

/** COUNT(*), and COUNT(x) for a NOT NULL x: the group's row count, which the operator keeps anyway. */
export class RowCountAcc implements Accumulator {
  constructor(private readonly rows: RowCounter) {}
  grow(): void {}
  reset(): void {}
  accumulate(): void {}
  retract(): void {}
  value(g: number): unknown { return this.rows.counts[g]; }
  snapshot(): unknown { return null; }
  restore(): void {}
}

/** COUNT(x) for a nullable x: counts the non-null values. */
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

/**
 * Number of non-null values per group: its own counter for a nullable argument, the group's row count
 * for a NOT NULL one (saves 8 bytes a group).
 */
class ValueCount {
  private own: Float64Column | undefined;
  constructor(private readonly rows: RowCounter | undefined) {
    if (!rows) this.own = new Float64Array(16);
  }
  grow(c: number): void { if (this.own) this.own = growFloat64(this.own, c); }
  reset(g: number): void { if (this.own) this.own[g] = 0; }
  add(g: number, d: number): void { if (this.own) this.own[g]! += d; }
  get(g: number): number { return this.own ? this.own[g]! : this.rows!.counts[g]!; }
  set(g: number, n: number): void { if (this.own) this.own[g] = n; }
}

/** A sum of JS numbers and its number of values: the state of SUM, SUM0 and AVG; subclasses read it. */
abstract class NumberSumAcc implements Accumulator {
  protected sums = new Float64Array(16);
  protected readonly n: ValueCount;
  constructor(rows?: RowCounter) {
    this.n = new ValueCount(rows);
  }
  grow(c: number): void { this.sums = growFloat64(this.sums, c); this.n.grow(c); }
  reset(g: number): void { this.sums[g] = 0; this.n.reset(g); }
  accumulate(g: number, v: unknown): void { if (v !== null) { this.sums[g]! += v as number; this.n.add(g, 1); } }
  retract(g: number, v: unknown): void { if (v !== null) { this.sums[g]! -= v as number; this.n.add(g, -1); } }
  abstract value(g: number): unknown;
  snapshot(g: number): unknown { return [this.sums[g], this.n.get(g)]; }
  restore(g: number, d: unknown): void { const [s, n] = d as [number, number]; this.sums[g] = s; this.n.set(g, n); }
}

/** SUM / SUM0 over JS numbers; integer results are range-checked when read. */
export class SumNumberAcc extends NumberSumAcc {
  constructor(private readonly type: DataType, private readonly zeroWhenEmpty: boolean, rows?: RowCounter) {
    super(rows);
  }
  value(g: number): unknown {
    if (this.n.get(g) === 0) return this.zeroWhenEmpty ? 0 : null;
    return checkRange(this.sums[g]!, this.type, "SUM");
  }
}

/** SUM / SUM0 / AVG over decimals, exact. */
export class DecimalSumAcc implements Accumulator {
  private sums: Decimal[] = [];
  private readonly n: ValueCount;
  constructor(private readonly type: DataType, private readonly mode: "SUM" | "SUM0" | "AVG", rows?: RowCounter) {
    this.n = new ValueCount(rows);
  }
  grow(c: number): void { this.n.grow(c); }
  reset(g: number): void { this.sums[g] = new Exact(0); this.n.reset(g); }
  accumulate(g: number, v: unknown): void { if (v !== null) { this.sums[g] = this.sums[g]!.plus(toExact(v)); this.n.add(g, 1); } }
  retract(g: number, v: unknown): void { if (v !== null) { this.sums[g] = this.sums[g]!.minus(toExact(v)); this.n.add(g, -1); } }
  value(g: number): unknown {
    const n = this.n.get(g);
    if (n === 0) return this.mode === "SUM0" ? new Decimal(0) : null;
    const s = this.mode === "AVG" ? this.sums[g]!.div(n) : this.sums[g]!;
    return new Decimal(helpers.decFit(s, this.type.precision!, this.type.scale!, this.mode));
  }
  snapshot(g: number): unknown { return [this.sums[g]!.toString(), this.n.get(g)]; }
  restore(g: number, d: unknown): void { const [s, n] = d as [string, number]; this.sums[g] = new Exact(s); this.n.set(g, n); }
}

/** AVG over numbers: integer types truncate toward zero as in Flink (AVG of INT is INT). */
export class AvgNumberAcc extends NumberSumAcc {
  constructor(private readonly integer: boolean, rows?: RowCounter) {
    super(rows);
  }
  value(g: number): unknown {
    const n = this.n.get(g);
    if (n === 0) return null;
    const a = this.sums[g]! / n;
    return this.integer ? Math.trunc(a) : a;
  }
}

/**
 * MIN / MAX. On insert-only input one slot per group holds the extreme. When the input can retract, each
 * group also keeps a multiset of its values (as Flink's MinWithRetract/MaxWithRetract keep a MapView), so
 * retracting the current extreme finds the next one. As in Flink, a retraction of a value the group does
 * not hold is counted (a negative multiplicity) and cancels against a later accumulation of that value;
 * only values of positive multiplicity are the group's.
 */
export class MinMaxAcc implements Accumulator {
  private extremes: unknown[] = [];
  /** value key -> [value, multiplicity] */
  private bags: (Map<unknown, [unknown, number]> | undefined)[] = [];
  constructor(private readonly max: boolean, private readonly retractable: boolean) {}
  grow(): void {}
  reset(g: number): void {
    this.extremes[g] = null;
    if (this.retractable) this.bags[g] = new Map();
  }
  private better(a: unknown, b: unknown): boolean {
    const c = helpers.cmp(a, b); // numbers in compareDoubles order (NaN greatest), as Flink's retracting MIN/MAX
    return this.max ? c > 0 : c < 0;
  }
  accumulate(g: number, v: unknown): void {
    if (v === null) return;
    if (this.retractable) {
      const bag = this.bags[g]!;
      const k = valueKey(v);
      const e = bag.get(k);
      if (e === undefined) bag.set(k, [v, 1]);
      else if (++e[1] === 0) bag.delete(k);
      if (e !== undefined && e[1] !== 1) return; // not a value the group newly holds
    }
    const cur = this.extremes[g];
    if (cur === null || this.better(v, cur)) this.extremes[g] = v;
  }
  retract(g: number, v: unknown): void {
    if (v === null || !this.retractable) return;
    const bag = this.bags[g]!;
    const k = valueKey(v);
    const e = bag.get(k);
    if (e === undefined) { bag.set(k, [v, -1]); return; } // retracted before it came: counted, as Flink does
    if (--e[1] !== 0) return;
    bag.delete(k);
    if (valueKey(this.extremes[g]) !== k) return;
    let best: unknown = null;
    for (const [x, n] of bag.values()) if (n > 0 && (best === null || this.better(x, best))) best = x;
    this.extremes[g] = best;
  }
  value(g: number): unknown { return this.extremes[g]; }
  snapshot(g: number): unknown { return [this.extremes[g], this.bags[g] ? [...this.bags[g]!.values()] : null]; }
  restore(g: number, d: unknown): void {
    const [x, bag] = d as [unknown, [unknown, number][] | null];
    this.extremes[g] = x;
    if (bag) this.bags[g] = new Map(bag.map(([v, n]) => [valueKey(v), [v, n]]));
  }
}

/**
 * MIN / MAX over JS numbers (integer types, FLOAT, DOUBLE): the extreme in a Float64Array instead of an
 * array of boxed values (9 bytes a group, not 8 plus a heap number), with a flag for "has a value" (a group
 * without values is NULL). Under retraction each group keeps a value -> multiplicity map, as MinMaxAcc does,
 * and values are ordered by `compareDoubles` (Java's Double.compare, as Flink's retracting MIN/MAX order
 * them); without retraction by `<` / `>` (Flink's declarative MIN/MAX), so a NaN stays or is skipped
 * depending on where it comes, as in Flink (docs/semantics.md).
 */
export class NumericMinMaxAcc implements Accumulator {
  private extremes = new Float64Array(16);
  private has = new Uint8Array(16);
  private bags: (Map<number, number> | undefined)[] = [];
  constructor(private readonly max: boolean, private readonly retractable: boolean) {}
  grow(c: number): void {
    this.extremes = growFloat64(this.extremes, c);
    if (c > this.has.length) {
      const h = new Uint8Array(this.extremes.length);
      h.set(this.has);
      this.has = h;
    }
  }
  reset(g: number): void {
    this.has[g] = 0;
    if (this.retractable) this.bags[g] = new Map();
  }
  private better(a: number, b: number): boolean {
    const c = compareDoubles(a, b);
    return this.max ? c > 0 : c < 0;
  }
  accumulate(g: number, v: unknown): void {
    if (v === null) return;
    const x = v as number;
    if (!this.retractable) {
      if (this.has[g] === 0 || (this.max ? x > this.extremes[g]! : x < this.extremes[g]!)) {
        this.extremes[g] = x;
        this.has[g] = 1;
      }
      return;
    }
    const bag = this.bags[g]!;
    const c = (bag.get(x) ?? 0) + 1;
    if (c === 0) bag.delete(x);
    else bag.set(x, c);
    if (c === 1 && (this.has[g] === 0 || this.better(x, this.extremes[g]!))) {
      this.extremes[g] = x;
      this.has[g] = 1;
    }
  }
  retract(g: number, v: unknown): void {
    if (v === null || !this.retractable) return;
    const x = v as number;
    const bag = this.bags[g]!;
    const c = (bag.get(x) ?? 0) - 1; // below zero: retracted before it came, counted as Flink does
    if (c !== 0) { bag.set(x, c); return; }
    bag.delete(x);
    // the map's keys are SameValueZero: NaN finds NaN, so the extreme's key test must too
    const e = this.extremes[g]!;
    if (this.has[g] === 0 || !(x === e || (x !== x && e !== e))) return;
    let first = true;
    let best = 0;
    for (const [y, n] of bag) {
      if (n > 0 && (first || this.better(y, best))) {
        best = y;
        first = false;
      }
    }
    this.extremes[g] = best;
    this.has[g] = first ? 0 : 1;
  }
  value(g: number): unknown { return this.has[g] === 0 ? null : this.extremes[g]; }
  snapshot(g: number): unknown { return [this.value(g), this.bags[g] ? [...this.bags[g]!] : null]; }
  restore(g: number, d: unknown): void {
    const [x, bag] = d as [number | null, [number, number][] | null];
    this.extremes[g] = x ?? 0;
    this.has[g] = x === null ? 0 : 1;
    if (bag) this.bags[g] = new Map(bag);
  }
}

/** DISTINCT: a value reaches the inner accumulator on its first occurrence in the group and leaves it with its last. */
export class DistinctAcc implements Accumulator {
  private seen: (Map<unknown, number> | undefined)[] = [];
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
    if (n === 1) {
      m.delete(k);
      this.inner.retract(g, v);
    } else m.set(k, n - 1);
  }
  value(g: number): unknown { return this.inner.value(g); }
  snapshot(g: number): unknown { return [[...this.seen[g]!], this.inner.snapshot(g)]; }
  restore(g: number, d: unknown): void {
    const [seen, inner] = d as [[unknown, number][], unknown];
    this.seen[g] = new Map(seen);
    this.inner.restore(g, inner);
  }
}

export const INTEGER_ROOTS = ["TINYINT", "SMALLINT", "INT", "BIGINT"];
/** Types whose values are plain JS numbers. */
export const NUMBER_ROOTS = [...INTEGER_ROOTS, "FLOAT", "DOUBLE"];

/**
 * Creates the accumulator of a built-in aggregate call. `rows` is the operator's row counter; it stands
 * in for a value count when the argument is NOT NULL. `retractable` is whether the input can retract.
 */
export function createAccumulator(
  fn: string, argType: DataType | undefined, resultType: DataType, distinct: boolean, retractable: boolean, rows?: RowCounter,
): Accumulator {
  const notNullArg = argType === undefined || !argType.isNullable;
  // under DISTINCT a value enters once, so the number of values is not the row count
  const shared = notNullArg && !distinct ? rows : undefined;
  let acc: Accumulator;
  switch (fn) {
    case "COUNT":
      acc = shared ? new RowCountAcc(shared) : new CountAcc();
      break;
    case "SUM":
    case "SUM0":
      acc = resultType.root === "DECIMAL" ? new DecimalSumAcc(resultType, fn, shared) : new SumNumberAcc(resultType, fn === "SUM0", shared);
      break;
    case "AVG":
      acc = resultType.root === "DECIMAL" ? new DecimalSumAcc(resultType, "AVG", shared)
        : new AvgNumberAcc(INTEGER_ROOTS.includes(argType!.root), shared);
      break;
    case "MIN":
    case "MAX":
      // DISTINCT changes nothing for MIN and MAX
      return NUMBER_ROOTS.includes(resultType.root)
        ? new NumericMinMaxAcc(fn === "MAX", retractable)
        : new MinMaxAcc(fn === "MAX", retractable);
    case "COLLECT":
      // DISTINCT makes every count 1
      acc = new CollectAcc();
      break;
    default: throw new ExecutionError(`no accumulator for aggregate function ${fn}`);
  }
  return distinct ? new DistinctAcc(acc) : acc;
}
