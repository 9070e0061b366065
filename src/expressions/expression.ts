import type { DataType } from "../types/data-type.js";
import { type AggNode, type ExprNode, callNode, literal } from "./node.js";
import type { LitOf, ModKind, PadKind, SubstringKind, TAgg, TAlias, TLit, TOp } from "./type-level.js";

/**
 * Units for `extract`, `floor` and `ceil` on temporal values (Flink's TimeIntervalUnit). Which units
 * apply to which type is listed in docs/expressions.md (e.g. HOUR is not defined for a DATE).
 */
export const TimeIntervalUnit = {
  MILLENNIUM: "MILLENNIUM", CENTURY: "CENTURY", DECADE: "DECADE",
  YEAR: "YEAR", QUARTER: "QUARTER", MONTH: "MONTH", WEEK: "WEEK", DAY: "DAY",
  HOUR: "HOUR", MINUTE: "MINUTE", SECOND: "SECOND", MILLISECOND: "MILLISECOND",
  MICROSECOND: "MICROSECOND", NANOSECOND: "NANOSECOND",
} as const;
export type TimeIntervalUnit = (typeof TimeIntervalUnit)[keyof typeof TimeIntervalUnit];

/** The type-level node of an operand: an Expression's own node, or a literal of the widened JS value type (LitOf). */
export type NodeOf<O> = O extends Expression<infer N> ? N : LitOf<O>;

/** Anything an operator accepts: an expression or a plain JS value (turned into a literal). */
export type Operand = Expression<unknown> | string | number | boolean | bigint | Date | null | object;

export function toNode(o: unknown): ExprNode {
  return o instanceof Expression ? o.node : literal(o);
}

const op = (fn: string, ...args: unknown[]): ExprNode => callNode(fn, args.map(toNode));

/**
 * A typed, immutable expression: `$("age").isGreaterOrEqual(18)`. `N` is its type-level tree,
 * checked against a table's schema when the expression is used on that table.
 * Method names follow Flink's Java Table API.
 */
export class Expression<N = unknown> {
  /** Phantom type-level node; never set at run time. */
  declare readonly __node: N;

  constructor(readonly node: ExprNode) {}

  // -- naming ------------------------------------------------------------------------------------
  /** Names the result: `$("price").times(2).as("double_price")`. */
  as<const A extends string, const E extends readonly string[] = []>(name: A, ...extraNames: E): Expression<TAlias<A, N, E>> {
    return new Expression({ kind: "Alias", name, extraNames, expr: this.node });
  }

  // -- arithmetic ----------------------------------------------------------------------------------
  /** Numbers, or TIMESTAMP + INTERVAL, INTERVAL + TIMESTAMP, INTERVAL + INTERVAL (same kind). */
  plus<const O>(other: O): Expression<TOp<"plus", [N, NodeOf<O>]>> { return new Expression(op("plus", this, other)); }
  /** Numbers, or TIMESTAMP - INTERVAL, INTERVAL - INTERVAL (same kind). */
  minus<const O>(other: O): Expression<TOp<"minus", [N, NodeOf<O>]>> { return new Expression(op("minus", this, other)); }
  /** Numbers, or INTERVAL * NUMERIC and NUMERIC * INTERVAL. */
  times<const O>(other: O): Expression<TOp<"times", [N, NodeOf<O>]>> { return new Expression(op("times", this, other)); }
  /** Integer division truncates for integer operands; division by zero fails the job (as Flink). Also INTERVAL / NUMERIC. */
  dividedBy<const O>(other: O): Expression<TOp<"dividedBy", [N, NodeOf<O>]>> { return new Expression(op("dividedBy", this, other)); }
  /**
   * Remainder with the sign of the dividend, for exact numbers only (TINYINT..BIGINT, DECIMAL): an operand
   * that is visibly DOUBLE (`mod(2.5)`, `sqrt().mod(2)`) is a compile error, a DOUBLE column a ValidationError.
   */
  mod<const O>(other: O): Expression<TOp<ModKind<N, NodeOf<O>>, [N, NodeOf<O>]>> { return new Expression(op("mod", this, other)); }
  /** Unary minus (numbers and intervals). */
  negate(): Expression<TOp<"signed", [N]>> { return new Expression(op("negate", this)); }
  power<O>(exponent: O): Expression<TOp<"double", [N, NodeOf<O>]>> { return new Expression(op("power", this, exponent)); }
  sqrt(): Expression<TOp<"double", [N]>> { return new Expression(op("sqrt", this)); }
  exp(): Expression<TOp<"double", [N]>> { return new Expression(op("exp", this)); }
  ln(): Expression<TOp<"double", [N]>> { return new Expression(op("ln", this)); }
  log10(): Expression<TOp<"double", [N]>> { return new Expression(op("log10", this)); }
  abs(): Expression<TOp<"signed", [N]>> { return new Expression(op("abs", this)); }
  /** `floor()` on a number, or `floor(TimeIntervalUnit.HOUR)` on a timestamp. */
  floor<U extends TimeIntervalUnit | undefined = undefined>(unit?: U):
    Expression<U extends TimeIntervalUnit ? TOp<"timeFloor", [N]> : TOp<"numeric", [N]>> {
    return new Expression(unit === undefined ? op("floor", this) : op("floorTime", this, unit));
  }
  ceil<U extends TimeIntervalUnit | undefined = undefined>(unit?: U):
    Expression<U extends TimeIntervalUnit ? TOp<"timeFloor", [N]> : TOp<"numeric", [N]>> {
    return new Expression(unit === undefined ? op("ceil", this) : op("ceilTime", this, unit));
  }
  /** Rounds half-up to `places` decimal places (default 0). */
  round(places: number = 0): Expression<TOp<"numeric", [N]>> { return new Expression(op("round", this, places)); }

  // -- comparison -----------------------------------------------------------------------------------
  isEqual<O>(other: O): Expression<TOp<"cmp", [N, NodeOf<O>]>> { return new Expression(op("equals", this, other)); }
  isNotEqual<O>(other: O): Expression<TOp<"cmp", [N, NodeOf<O>]>> { return new Expression(op("notEquals", this, other)); }
  isGreater<O>(other: O): Expression<TOp<"cmp", [N, NodeOf<O>]>> { return new Expression(op("greaterThan", this, other)); }
  isGreaterOrEqual<O>(other: O): Expression<TOp<"cmp", [N, NodeOf<O>]>> { return new Expression(op("greaterThanOrEqual", this, other)); }
  isLess<O>(other: O): Expression<TOp<"cmp", [N, NodeOf<O>]>> { return new Expression(op("lessThan", this, other)); }
  isLessOrEqual<O>(other: O): Expression<TOp<"cmp", [N, NodeOf<O>]>> { return new Expression(op("lessThanOrEqual", this, other)); }
  between<L, H>(low: L, high: H): Expression<TOp<"between", [N, NodeOf<L>, NodeOf<H>]>> { return new Expression(op("between", this, low, high)); }
  notBetween<L, H>(low: L, high: H): Expression<TOp<"between", [N, NodeOf<L>, NodeOf<H>]>> { return new Expression(op("notBetween", this, low, high)); }
  /** `$("flag").in("INSERT", "UPDATE_AFTER")`. */
  in<const O extends readonly unknown[]>(...values: O): Expression<TOp<"in", [N, ...{ [I in keyof O]: NodeOf<O[I]> }]>> {
    return new Expression(op("in", this, ...values));
  }
  isNull(): Expression<TOp<"test", [N]>> { return new Expression(op("isNull", this)); }
  isNotNull(): Expression<TOp<"test", [N]>> { return new Expression(op("isNotNull", this)); }
  isTrue(): Expression<TOp<"boolTest", [N]>> { return new Expression(op("isTrue", this)); }
  isFalse(): Expression<TOp<"boolTest", [N]>> { return new Expression(op("isFalse", this)); }
  isNotTrue(): Expression<TOp<"boolTest", [N]>> { return new Expression(op("isNotTrue", this)); }
  isNotFalse(): Expression<TOp<"boolTest", [N]>> { return new Expression(op("isNotFalse", this)); }

  // -- logic (SQL three-valued) ------------------------------------------------------------------
  and<const O extends readonly unknown[]>(...others: O): Expression<TOp<"logic", [N, ...{ [I in keyof O]: NodeOf<O[I]> }]>> {
    return new Expression(op("and", this, ...others));
  }
  or<const O extends readonly unknown[]>(...others: O): Expression<TOp<"logic", [N, ...{ [I in keyof O]: NodeOf<O[I]> }]>> {
    return new Expression(op("or", this, ...others));
  }
  not(): Expression<TOp<"logic", [N]>> { return new Expression(op("not", this)); }

  // -- VARIANT ----------------------------------------------------------------------------------------
  /** SQL `PARSE_JSON(s [, allowDuplicateKeys])`: the JSON text as a VARIANT; bad JSON fails the job naming the position. */
  parseJson<const D extends readonly unknown[] = []>(...allowDuplicateKeys: D & ([] | [unknown])): Expression<TOp<"parseJson", [N, ...{ [I in keyof D]: NodeOf<D[I]> }]>> {
    return new Expression(op("parseJson", this, ...allowDuplicateKeys));
  }
  /** SQL `TRY_PARSE_JSON(s [, allowDuplicateKeys])`: as parseJson, NULL for bad JSON. */
  tryParseJson<const D extends readonly unknown[] = []>(...allowDuplicateKeys: D & ([] | [unknown])): Expression<TOp<"tryParseJson", [N, ...{ [I in keyof D]: NodeOf<D[I]> }]>> {
    return new Expression(op("tryParseJson", this, ...allowDuplicateKeys));
  }
  /** SQL `v['key']` / `v[i]` on a VARIANT: an object's field or an array's element (1-based), a VARIANT; NULL when absent. */
  at<K>(keyOrIndex: K): Expression<TOp<"variantAt", [N, NodeOf<K>]>> { return new Expression(op("at", this, keyOrIndex)); }

  // -- strings ----------------------------------------------------------------------------------------
  upperCase(): Expression<TOp<"string", [N]>> { return new Expression(op("upper", this)); }
  lowerCase(): Expression<TOp<"string", [N]>> { return new Expression(op("lower", this)); }
  initCap(): Expression<TOp<"string", [N]>> { return new Expression(op("initCap", this)); }
  charLength(): Expression<TOp<"stringToInt", [N]>> { return new Expression(op("charLength", this)); }
  /** The characters (code points) in reverse order; SQL `REVERSE(s)`. */
  reverse(): Expression<TOp<"string", [N]>> { return new Expression(op("reverse", this)); }
  /**
   * SQL SUBSTRING: 1-based `start`, optional `length`. A negative length gives NULL, so the result is
   * nullable unless the length is a literal `>= 0` (`substring(1, 3)`).
   */
  substring<S, const L = never>(start: S, length?: L):
    Expression<TOp<SubstringKind<NodeOf<L>>, [N, NodeOf<S>, ...([L] extends [never] ? [] : [NodeOf<L>])]>> {
    return new Expression(length === undefined ? op("substring", this, start) : op("substring", this, start, length));
  }
  substr<S, const L = never>(start: S, length?: L):
    Expression<TOp<SubstringKind<NodeOf<L>>, [N, NodeOf<S>, ...([L] extends [never] ? [] : [NodeOf<L>])]>> {
    return this.substring(start, length as L) as never;
  }
  /** Removes leading and trailing spaces (or `character`). */
  trim(character: string = " "): Expression<TOp<"string", [N]>> { return new Expression(op("trim", this, character)); }
  trimLeading(character: string = " "): Expression<TOp<"string", [N]>> { return new Expression(op("trimLeading", this, character)); }
  trimTrailing(character: string = " "): Expression<TOp<"string", [N]>> { return new Expression(op("trimTrailing", this, character)); }
  /**
   * SQL LIKE: `%` matches any sequence, `_` one character. `escape` (one character) makes the next
   * `%`, `_` or escape character literal: `$("code").like("100!%", "!")`. Without an escape character,
   * `\` is an ordinary character (as Flink's LIKE without ESCAPE).
   */
  like<P>(pattern: P, escape?: string): Expression<TOp<"stringToBool", [N, NodeOf<P>]>> {
    return new Expression(escape === undefined ? op("like", this, pattern) : op("like", this, pattern, escape));
  }
  replace<A, B>(search: A, replacement: B): Expression<TOp<"string", [N, NodeOf<A>, NodeOf<B>]>> {
    return new Expression(op("replace", this, search, replacement));
  }
  repeat<C>(count: C): Expression<TOp<"string", [N, NodeOf<C>]>> { return new Expression(op("repeat", this, count)); }
  /**
   * Pads on the left (or cuts) to `length` characters. NULL for a negative length or an empty pad, so
   * the result is nullable unless both are literals that rule that out (`lpad(5, "*")`).
   */
  lpad<const L, const P>(length: L, pad: P): Expression<TOp<PadKind<NodeOf<L>, NodeOf<P>>, [N, NodeOf<L>, NodeOf<P>]>> {
    return new Expression(op("lpad", this, length, pad));
  }
  /** As lpad, on the right. */
  rpad<const L, const P>(length: L, pad: P): Expression<TOp<PadKind<NodeOf<L>, NodeOf<P>>, [N, NodeOf<L>, NodeOf<P>]>> {
    return new Expression(op("rpad", this, length, pad));
  }
  /** 1-based position of `this` in `haystack`, 0 if absent (Flink's `position`). */
  position<H>(haystack: H): Expression<TOp<"stringToInt", [N, NodeOf<H>]>> { return new Expression(op("position", this, haystack)); }

  // -- temporal --------------------------------------------------------------------------------------
  /** `$("created_at").extract(TimeIntervalUnit.HOUR)`. */
  extract(unit: TimeIntervalUnit): Expression<TOp<"extract", [N]>> { return new Expression(op("extract", this, unit)); }
  /** Interval literals: `lit(1).hours()` is INTERVAL '1' HOUR. */
  years(): Expression<TOp<"yearMonth", [N]>> { return new Expression(op("intervalYears", this)); }
  year(): Expression<TOp<"yearMonth", [N]>> { return this.years(); }
  quarters(): Expression<TOp<"yearMonth", [N]>> { return new Expression(op("intervalQuarters", this)); }
  months(): Expression<TOp<"yearMonth", [N]>> { return new Expression(op("intervalMonths", this)); }
  month(): Expression<TOp<"yearMonth", [N]>> { return this.months(); }
  weeks(): Expression<TOp<"dayTime", [N]>> { return new Expression(op("intervalWeeks", this)); }
  days(): Expression<TOp<"dayTime", [N]>> { return new Expression(op("intervalDays", this)); }
  day(): Expression<TOp<"dayTime", [N]>> { return this.days(); }
  hours(): Expression<TOp<"dayTime", [N]>> { return new Expression(op("intervalHours", this)); }
  hour(): Expression<TOp<"dayTime", [N]>> { return this.hours(); }
  minutes(): Expression<TOp<"dayTime", [N]>> { return new Expression(op("intervalMinutes", this)); }
  minute(): Expression<TOp<"dayTime", [N]>> { return this.minutes(); }
  seconds(): Expression<TOp<"dayTime", [N]>> { return new Expression(op("intervalSeconds", this)); }
  second(): Expression<TOp<"dayTime", [N]>> { return this.seconds(); }
  millis(): Expression<TOp<"dayTime", [N]>> { return new Expression(op("intervalMillis", this)); }
  milli(): Expression<TOp<"dayTime", [N]>> { return this.millis(); }

  // -- conversion and null handling -------------------------------------------------------------------
  /** CAST; a value that cannot be converted fails the job with a message naming the value. */
  cast<T>(type: DataType<T>): Expression<TOp<"cast", [N, TLit<NonNullable<T>>]>> {
    return new Expression(callNode("cast", [this.node, literal(null, type)]));
  }
  /** TRY_CAST: null instead of an error when the value cannot be converted. */
  tryCast<T>(type: DataType<T>): Expression<TLit<NonNullable<T> | null>> {
    return new Expression(callNode("tryCast", [this.node, literal(null, type)]));
  }
  /** `IFNULL(this, default)`. */
  ifNull<D>(defaultValue: D): Expression<TOp<"ifNull", [N, NodeOf<D>]>> { return new Expression(op("ifNull", this, defaultValue)); }

  // -- aggregates ---------------------------------------------------------------------------------------
  count(): AggExpression<TAgg<"count", N>> { return agg("COUNT", this); }
  sum(): AggExpression<TAgg<"sum", N>> { return agg("SUM", this); }
  /** SUM that is 0 instead of NULL over no rows: the argument's type, NOT NULL. */
  sum0(): AggExpression<TAgg<"sum0", N>> { return agg("SUM0", this); }
  avg(): AggExpression<TAgg<"avg", N>> { return agg("AVG", this); }
  min(): AggExpression<TAgg<"min", N>> { return agg("MIN", this); }
  max(): AggExpression<TAgg<"max", N>> { return agg("MAX", this); }
  /** COLLECT(this): the group's values as a MULTISET (a `Map` of value to count, NOT NULL); NULLs are not collected. */
  collect(): AggExpression<TAgg<"collect", N>> { return agg("COLLECT", this); }
  /** COUNT(DISTINCT this). */
  countDistinct(): AggExpression<TAgg<"count", N>> { return agg<TAgg<"count", N>>("COUNT", this).distinct(); }

  // -- group window properties (table.window(Tumble...as("w")).groupBy($("w"), ...)) ---------------------
  /** Start of the group window `$("w")` (inclusive), a TIMESTAMP(3). */
  start(): Expression<TOp<"windowProp", [N]>> { return new Expression(op("windowStart", this)); }
  /** End of the group window `$("w")` (exclusive), a TIMESTAMP(3). */
  end(): Expression<TOp<"windowProp", [N]>> { return new Expression(op("windowEnd", this)); }
  /** Time attribute of the group window `$("w")`: end - 1 ms, usable as the rowtime of a following window. */
  rowtime(): Expression<TOp<"windowProp", [N]>> { return new Expression(op("windowRowtime", this)); }

  // -- ordering -------------------------------------------------------------------------------------------
  asc(): Expression<N> { return new Expression({ kind: "Sort", ascending: true, nullsFirst: undefined, expr: this.node }); }
  desc(): Expression<N> { return new Expression({ kind: "Sort", ascending: false, nullsFirst: undefined, expr: this.node }); }
  nullsFirst(): Expression<N> { return this.withNulls(true); }
  nullsLast(): Expression<N> { return this.withNulls(false); }
  private withNulls(first: boolean): Expression<N> {
    const n = this.node;
    const sort = n.kind === "Sort" ? n : { kind: "Sort" as const, ascending: true, nullsFirst: undefined, expr: n };
    return new Expression({ ...sort, nullsFirst: first });
  }

  // -- function arguments -----------------------------------------------------------------------------------
  /** A named argument of a function call: `lit(100).asArgument("threshold")`. */
  asArgument<const A extends string>(name: A): ArgumentExpression<A, N> {
    return new ArgumentExpression(name, { kind: "Argument", name, expr: this.node });
  }

  toString(): string {
    return JSON.stringify(this.node);
  }
}

/** An aggregate call; `.distinct()` turns it into its DISTINCT form. */
export class AggExpression<N> extends Expression<N> {
  distinct(): AggExpression<N> {
    return new AggExpression({ ...(this.node as AggNode), distinct: true });
  }

  /** This aggregate over the over window `$("w")` of `table.window(Over...as("w"))`: one value per input row. */
  over(window: Expression<unknown>): Expression<TOp<"any", [N]>> {
    return new Expression(callNode("over", [this.node, window.node]));
  }
}

function agg<N>(fn: string, of: Expression<unknown>): AggExpression<N> {
  return new AggExpression({ kind: "Agg", fn, args: [of.node], distinct: false });
}

/** A named argument of a function call (`asArgument`). */
export class ArgumentExpression<A extends string, N> extends Expression<N> {
  declare readonly __argName: A;
  constructor(readonly argName: A, node: ExprNode) {
    super(node);
  }
}

/** The type-level node of an expression (`TCol<"age">`, `TOp<...>`, ...). */
export type NodeOfExpr<E> = E extends { readonly __node: infer N } ? N : never;
