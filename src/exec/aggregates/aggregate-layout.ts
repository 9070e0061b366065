import type { CodegenContext } from "../../expressions/compile.js";
import { helpers } from "../../expressions/helpers.js";
import { ValidationError } from "../../types/errors.js";
import type { AggCall } from "../../plan/nodes.js";
import type { DataType } from "../../types/data-type.js";
import type { Accumulator, RowCounter } from "./accumulator.js";
import { INTEGER_ROOTS, INT_RANGE, NUMBER_ROOTS, checkRange, createAccumulator } from "./builtin.js";
import { GroupColumns } from "./group-columns.js";
import { UdfAccumulator } from "../udf/aggregate-accumulator.js";

/** The accumulator of a user-defined aggregate call (the AggregateFunction adapter of exec/udf). */
export function udfAccumulator(a: AggCall): Accumulator {
  return new UdfAccumulator(a);
}

/** Equality of two aggregate results as Flink's record equaliser sees it (NaN equals NaN; decimals, dates by value). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  if (typeof a === "number") return a !== a && b !== b;
  return typeof a === "object" && helpers.eq(a, b);
}

/** Options of the keyed aggregate operators. */
export interface AggregateOptions {
  /**
   * Built-in accumulators as typed-array updates in the generated code (default). `false` runs every
   * call through an accumulator object (builtin.ts): the reference the generated code is tested against.
   */
  readonly inlineAccumulators?: boolean;
  /**
   * Two phases (local-bundle.ts): a user function's accumulator is built by the local phase and merged into
   * the group's with the function's `merge`, so records do not reach it here (`merged` lists those calls).
   * DISTINCT calls keep folding their values: Flink's global phase merges their distinct-value maps and
   * accumulates the values new to the group, which is that fold.
   */
  readonly mergeUserAccumulators?: boolean;
}

/** A call whose accumulator the two-phase global aggregate merges: its index in the calls and among the accumulator objects. */
export interface MergedCall {
  readonly call: number;
  readonly accumulator: number;
}

/**
 * How one aggregate call lives in GroupColumns and what the generated code does for it. The code runs
 * after the layout's `prelude`, with the group id in `g`; `x` is the variable holding the call's argument.
 */
interface Slot {
  /** Whether the call's argument must be evaluated (COUNT(*) reads only the row count). */
  readonly needsArg: boolean;
  /** The value is a number or null, so equality is inline. */
  readonly numeric: boolean;
  /**
   * Whether the value reads the row count N only to tell an empty group (SUM of a NOT NULL argument),
   * not as a number; see `AggregateLayout.presence`.
   */
  readonly rowsAsPresence: boolean;
  accumulate(x: string): string;
  retract(x: string): string;
  /** Expression: the call's current value. */
  value(ctx: CodegenContext): string;
  snapshot(s: GroupColumns, g: number): unknown;
  restore(s: GroupColumns, g: number, d: unknown): void;
}

/**
 * Expression: a count read from its Float64 column as a small integer (an int32, which V8 keeps as a Smi)
 * rather than a double. A double stored into an output row object is a heap number of its own (one
 * allocation per output row); a Smi is not. A count is always an integer; one outside int32 (2^31 rows in
 * a group) keeps the double, so the value is the same either way.
 */
function smallCount(c: string): string {
  return `((${c}|0)===${c}?${c}|0:${c})`;
}

/** COUNT(*), and COUNT(x) for a NOT NULL x: the group's row count. */
const rowCount: Slot = {
  needsArg: false,
  numeric: true,
  rowsAsPresence: false,
  accumulate: () => "",
  retract: () => "",
  value: () => smallCount("N[g]"),
  snapshot: () => null,
  restore: () => {},
};

/** COUNT(x) for a nullable x: the number of non-null values, in number column `c`. */
function count(c: number): Slot {
  return {
    needsArg: true,
    numeric: true,
    rowsAsPresence: true,
    accumulate: (x) => `if(${x}!==null)F${c}[g]++;`,
    retract: (x) => `if(${x}!==null)F${c}[g]--;`,
    value: () => smallCount(`F${c}[g]`),
    snapshot: (s, g) => s.f[c]![g],
    restore: (s, g, d) => { s.f[c]![g] = d as number; },
  };
}

/**
 * SUM, SUM0 and AVG over JS numbers: the sum in number column `sum`, the number of values in column `n`
 * — or, for a NOT NULL argument (`n` undefined), the row count. An integer SUM is range-checked when read
 * (Flink wraps around; tablestream fails the job, docs/semantics.md).
 */
function sum(fn: "SUM" | "SUM0" | "AVG", sumCol: number, n: number | undefined, resultType: DataType, integerArg: boolean): Slot {
  const s = `F${sumCol}[g]`;
  const cnt = n === undefined ? "N[g]" : `F${n}[g]`;
  const range = fn === "AVG" ? undefined : INT_RANGE[resultType.root];
  return {
    needsArg: true,
    numeric: true,
    // AVG divides by the count
    rowsAsPresence: n !== undefined || fn !== "AVG",
    accumulate: (x) => (n === undefined ? `if(${x}!==null)${s}+=${x};` : `if(${x}!==null){${s}+=${x};${cnt}++;}`),
    retract: (x) => (n === undefined ? `if(${x}!==null)${s}-=${x};` : `if(${x}!==null){${s}-=${x};${cnt}--;}`),
    value(ctx) {
      if (fn === "AVG") return `(${cnt}===0?null:${integerArg ? `Math.trunc(${s}/${cnt})` : `${s}/${cnt}`})`;
      const empty = fn === "SUM0" ? "0" : "null";
      if (!range) return `(${cnt}===0?${empty}:${s})`;
      const overflow = ctx.constant((v: number) => checkRange(v, resultType, "SUM"));
      return `(${cnt}===0?${empty}:${s}>=${range[0]}&&${s}<=${range[1]}?${s}:${overflow}(${s}))`;
    },
    snapshot: (st, g) => [st.f[sumCol]![g], n === undefined ? st.counts[g] : st.f[n]![g]],
    restore(st, g, d) {
      const [v, c] = d as [number, number];
      st.f[sumCol]![g] = v;
      if (n !== undefined) st.f[n]![g] = c;
    },
  };
}

/** MIN / MAX over JS numbers on an insert-only input: the extreme in number column `m`, "has a value" in flag column `h`. */
function minMax(max: boolean, m: number, h: number): Slot {
  return {
    needsArg: true,
    numeric: true,
    rowsAsPresence: true,
    accumulate: (x) => `if(${x}!==null&&(U${h}[g]===0||${x}${max ? ">" : "<"}F${m}[g])){F${m}[g]=${x};U${h}[g]=1;}`,
    retract: () => "", // insert-only input: nothing to retract (as NumericMinMaxAcc without retraction)
    value: () => `(U${h}[g]===0?null:F${m}[g])`,
    snapshot: (s, g) => [s.u[h]![g] === 0 ? null : s.f[m]![g], null],
    restore(s, g, d) {
      const [x] = d as [number | null];
      s.f[m]![g] = x ?? 0;
      s.u[h]![g] = x === null ? 0 : 1;
    },
  };
}

/**
 * Any other call (DISTINCT, MIN/MAX under retraction, DECIMAL, strings, user functions): accumulator object `a`;
 * `merged`: the accumulator gets no records, the two-phase global aggregate merges the local ones into it.
 */
function generic(a: number, needsArg: boolean, merged = false): Slot {
  return {
    needsArg: needsArg && !merged,
    numeric: false,
    rowsAsPresence: false, // an accumulator object may read the row count (createAccumulator shares it)
    accumulate: (x) => (merged ? "" : `A${a}.accumulate(g,${x});`),
    retract: (x) => (merged ? "" : `A${a}.retract(g,${x});`),
    value: () => `A${a}.value(g)`,
    snapshot: (s, g) => s.accs[a]!.snapshot(g),
    restore: (s, g, d) => s.accs[a]!.restore(g, d),
  };
}

/**
 * The aggregate calls of a keyed operator laid out over GroupColumns, and the JS source that updates and
 * reads them, for operators that generate their per-record function (group aggregate, fixed windows) or
 * compile helpers from it (AggregateSet).
 *
 * Built-in calls over JS numbers are inlined as typed-array updates — COUNT, SUM, SUM0, AVG, and MIN/MAX
 * when the input cannot retract; the rest keep their accumulator objects (builtin.ts, user functions),
 * called from the generated code. Memory per group is the same either way: one Float64 a number, one
 * byte a flag, the row count shared by calls whose argument is NOT NULL.
 *
 * Generated code uses the variables `S` (the GroupColumns), `g` (the group id), and the ones `prelude`
 * declares: `N` (row counts), `F<i>`, `U<i>` (columns), `A<i>` (accumulator objects).
 */
export class AggregateLayout {
  private readonly slots: readonly Slot[];
  private readonly numbers: number;
  private readonly flags: number;
  private readonly factories: readonly ((rows: RowCounter) => Accumulator)[];
  /**
   * N holds 1 for a group with rows rather than the number of rows: when the input cannot retract (a group
   * never empties) and no call needs the number (COUNT(*), AVG, accumulator objects), so that the
   * per-record code does not update it — one load and store less per record for SUM / MIN / MAX queries.
   */
  readonly presence: boolean;
  /** The calls whose accumulators are merged rather than fed records (`mergeUserAccumulators`). */
  readonly merged: readonly MergedCall[];

  /**
   * @param retractable whether the input can retract rows
   * @param rowsOnCreate whether the owner runs `created` for each new group (else N always counts rows)
   */
  constructor(readonly calls: readonly AggCall[], retractable: boolean, options: AggregateOptions = {}, rowsOnCreate = true) {
    const inline = options.inlineAccumulators ?? true;
    let numbers = 0;
    let flags = 0;
    const factories: ((rows: RowCounter) => Accumulator)[] = [];
    const merged: MergedCall[] = [];
    this.slots = calls.map((a, call) => {
      const argType = a.argTypes[0];
      const notNullArg = argType === undefined || !argType.isNullable;
      const root = a.type.root;
      if (inline && a.udf === undefined) {
        if (a.fn === "COUNT" && !a.distinct) return notNullArg ? rowCount : count(numbers++);
        if ((a.fn === "SUM" || a.fn === "SUM0" || a.fn === "AVG") && !a.distinct && NUMBER_ROOTS.includes(root)) {
          return sum(a.fn, numbers++, notNullArg ? undefined : numbers++, a.type, argType !== undefined && INTEGER_ROOTS.includes(argType.root));
        }
        // DISTINCT changes nothing for MIN and MAX
        if ((a.fn === "MIN" || a.fn === "MAX") && !retractable && NUMBER_ROOTS.includes(root)) return minMax(a.fn === "MAX", numbers++, flags++);
      }
      const i = factories.length;
      factories.push(a.udf !== undefined
        ? () => udfAccumulator(a)
        : (rows) => createAccumulator(a.fn, argType, a.type, a.distinct, retractable, rows));
      const merge = options.mergeUserAccumulators === true && a.udf !== undefined && !a.distinct;
      if (merge) merged.push({ call, accumulator: i });
      // createAccumulator gives COUNT of a NOT NULL argument the row count (RowCountAcc), which takes no values
      return generic(i, !(a.udf === undefined && a.fn === "COUNT" && !a.distinct && notNullArg), merge);
    });
    this.merged = merged;
    this.numbers = numbers;
    this.flags = flags;
    this.factories = factories;
    this.presence = rowsOnCreate && !retractable && this.slots.every((s) => s.rowsAsPresence);
  }

  get size(): number {
    return this.slots.length;
  }

  /** The state of a new set of groups. */
  newColumns(): GroupColumns {
    return new GroupColumns(this.numbers, this.flags, (rows) => this.factories.map((f) => f(rows)));
  }

  /** Whether call `i`'s argument must be evaluated. */
  needsArg(i: number): boolean {
    return this.slots[i]!.needsArg;
  }

  /** Declares the column variables from the GroupColumns in variable `s`; repeat after `alloc` (growing replaces arrays). */
  prelude(s: string): string {
    const d = [`N=${s}.counts`];
    for (let i = 0; i < this.numbers; i++) d.push(`F${i}=${s}.f[${i}]`);
    for (let i = 0; i < this.flags; i++) d.push(`U${i}=${s}.u[${i}]`);
    for (let i = 0; i < this.factories.length; i++) d.push(`A${i}=${s}.accs[${i}]`);
    return `const ${d.join(",")};`;
  }

  /** Statements run once when group `g` of the GroupColumns in variable `s` is created for a row (after `alloc`). */
  created(s: string): string {
    return this.presence ? `${s}.counts[g]=1;` : "";
  }

  /** Statements adding one row whose arguments are in the variables `xs` to group `g`. */
  accumulate(xs: readonly string[]): string {
    return `${this.presence ? "" : "N[g]++;"}${this.slots.map((s, i) => s.accumulate(xs[i]!)).join("")}`;
  }

  /** Statements removing one row whose arguments are in the variables `xs` from group `g`. */
  retract(xs: readonly string[]): string {
    return `N[g]--;${this.slots.map((s, i) => s.retract(xs[i]!)).join("")}`;
  }

  /** Expressions: the values of the calls for group `g`. */
  values(ctx: CodegenContext): string[] {
    return this.slots.map((s) => s.value(ctx));
  }

  /** Expression: whether the values in variables `a` equal those in `b` (Flink's record equaliser). */
  same(ctx: CodegenContext, a: readonly string[], b: readonly string[]): string {
    if (this.slots.length === 0) return "true";
    let eq: string | undefined;
    return this.slots.map((s, i) => {
      const x = a[i]!;
      const y = b[i]!;
      if (s.numeric) return `(${x}===${y}||(${x}!==${x}&&${y}!==${y}))`;
      eq ??= ctx.constant(sameValue);
      return `${eq}(${x},${y})`;
    }).join("&&");
  }

  /** Plain-data snapshot of one group: its row count and each call's state (as the accumulator classes give it). */
  snapshot(s: GroupColumns, g: number): { rows: number; accs: unknown[] } {
    return { rows: s.counts[g]!, accs: this.slots.map((slot) => slot.snapshot(s, g)) };
  }

  restore(s: GroupColumns, g: number, d: { rows: number; accs: readonly unknown[] }): void {
    s.counts[g] = d.rows;
    this.slots.forEach((slot, i) => slot.restore(s, g, d.accs[i]));
  }
}
