/**
 * The type-level half of expressions: each Expression carries a small tree of these node types
 * (`TCol<"age">`, `TOp<"cmp", [...]>` ...). A Table resolves that tree against its schema when the
 * expression is passed to one of its methods, which is how `$("agee")` or `$("name").plus(1)`
 * become compile errors that name the column. The runtime half lives in resolve.ts.
 *
 * Kept deliberately shallow: resolution is a single conditional per node, with errors as a TErr
 * value that propagates upward, and readable messages built only on the error path.
 */
import type { Decimal } from "decimal.js";
import type { ColumnList, DayTimeInterval, YearMonthInterval } from "../types/data-type.js";
import type { Variant } from "../types/variant.js";

/** Reference to a column by name. */
export interface TCol<N extends string> { readonly col: N }
/**
 * A value whose type is known without a schema (literals, casts). `V` is the literal's own value when
 * it is a number or string literal type (`lit(2.5)`, the `3` of `substring(1, 3)`), for the rules
 * that depend on it (see LitOf); `unknown` otherwise.
 */
export interface TLit<T, V = unknown> { readonly lit: T; readonly value?: V }
/** An operation; `K` names its typing rule (see ApplyOk), `A` are its operand nodes. */
export interface TOp<K extends string, A extends readonly unknown[]> { readonly op: K; readonly args: A }
/** `expr.as(name)`. */
export interface TAlias<Name extends string, X, E extends readonly string[] = readonly string[]> { readonly alias: Name; readonly of: X; readonly extra?: E }
/** An aggregate call; resolved in "row" context, may only appear where aggregation is allowed. */
export interface TAgg<K extends string, X> { readonly agg: K; readonly of: X }
/** A typing error carried up the tree. */
export interface TErr<M extends string> { readonly error: M }
/** The value type of a group window alias (`$("w")` after `window(... .as("w"))`): only `start()`, `end()`, `rowtime()` apply. */
export interface TWindowAlias { readonly __groupWindowAlias: true }
/** A user-defined scalar function call: declared parameter value types P, result value type R, operands A. */
export interface TUdf<P extends readonly unknown[], R, A extends readonly unknown[]> { readonly udf: P; readonly result: R; readonly args: A }
/** A user-defined table function call: declared parameters P, output row object type R, operands A. */
export interface TUdtf<P extends readonly unknown[], R, A extends readonly unknown[]> { readonly udtf: P; readonly rows: R; readonly args: A }
/** A user-defined table aggregate function call (flatAggregate): declared parameters P, output row object type R, operands A. */
export interface TUdtagg<P extends readonly unknown[], R, A extends readonly unknown[]> { readonly udtagg: P; readonly rows: R; readonly args: A }

declare const tableTypeError: unique symbol;
/**
 * What a method parameter turns into when an argument is wrong, so the compiler's message quotes
 * the problem:
 *
 * ```ts
 * people.select($("agee"));
 * // Argument of type '[Expression<TCol<"agee">>]' is not assignable to parameter of type
 * //   'readonly [TableTypeError<"column 'agee' is not in [age, name]">]'.
 * ```
 * No value has this type; docs/typing.md lists the messages.
 */
export type TableTypeError<Message extends string> = { readonly [M in Message]: typeof tableTypeError };
// (Keyed by the message itself, so that the compiler's elaboration begins with the sentence: "Property
// 'column 'agee' is not in [age, name]' is missing in type ...". Its value type is a unique symbol that
// is not exported, so no value has this type.)

// ---------------------------------------------------------------------------------------------
// Categories of TypeScript value types, as the SQL type families they stand for.

export type Category<T> =
  [NonNullable<T>] extends [never] ? "NULL"
  : NonNullable<T> extends DayTimeInterval ? "INTERVAL"
  : NonNullable<T> extends YearMonthInterval ? "INTERVAL"
  : NonNullable<T> extends number ? "NUMERIC"
  : NonNullable<T> extends Decimal ? "NUMERIC"
  : NonNullable<T> extends string ? "STRING"
  : NonNullable<T> extends boolean ? "BOOLEAN"
  : NonNullable<T> extends Date ? "TIMESTAMP"
  : NonNullable<T> extends Variant ? "VARIANT"
  : unknown extends T ? "ANY"
  : "OTHER";

/** `null` if any operand may be null (SQL null propagation), else never. */
export type NullOf<V extends readonly unknown[]> = null extends V[number] ? null : never;

type FirstError<V extends readonly unknown[]> =
  V extends readonly [infer H, ...infer R] ? (H extends TErr<string> ? H : FirstError<R>) : never;

type IsCat<T, C extends string> = Category<T> extends C | "NULL" | "ANY" ? true : false;

/** Category with the two interval kinds told apart (they neither mix nor compare), for messages. */
export type Family<T> =
  Category<T> extends "INTERVAL"
    ? (NonNullable<T> extends DayTimeInterval ? "INTERVAL DAY TO SECOND" : "INTERVAL YEAR TO MONTH")
    : Category<T>;

/** Both are intervals, of different kinds: no arithmetic, comparison or common type (compile-temporal.ts, compile-logic.ts). */
type MixedIntervals<A, B> = Category<A> | Category<B> extends "INTERVAL" ? (Family<A> extends Family<B> ? false : true) : false;

/** The arithmetic operations; each is its own node kind because intervals and timestamps allow only some. */
export type ArithKind = "plus" | "minus" | "times" | "dividedBy" | "mod";

type NotDefined<K extends string, A, B> = TErr<`${K} is not defined for ${Family<A>} and ${Family<B>}`>;

/**
 * `a <K> b` exactly as compile-numeric.ts and compile-temporal.ts accept it:
 * - numbers: Decimal if an operand is Decimal, else number (see docs/typing.md for DECIMAL with DOUBLE);
 * - TIMESTAMP +/- INTERVAL and INTERVAL + TIMESTAMP: the timestamp (Date);
 * - INTERVAL +/- INTERVAL of the same kind (or NULL), INTERVAL * / NUMERIC, NUMERIC * INTERVAL: the interval;
 * - anything else with a TIMESTAMP or an INTERVAL is an error, as at run time (no MOD, no NUMERIC / INTERVAL).
 */
type ArithResult<K extends string, A, B, V extends readonly unknown[]> =
  "ANY" extends Category<A> | Category<B> ? unknown // a column of an untyped table: checked at run time
  : Category<A> extends "TIMESTAMP"
    ? (K extends "plus" | "minus"
      ? (Category<B> extends "INTERVAL" ? Date | NullOf<V> : TErr<`a TIMESTAMP can only be shifted by an INTERVAL, got ${Category<B>}`>)
      : NotDefined<K, A, B>)
  : Category<A> extends "INTERVAL"
    ? (K extends "plus" | "minus"
      ? (Category<B> extends "NULL" ? IntervalOf<A> | null
        : Category<B> extends "INTERVAL" ? (MixedIntervals<A, B> extends true ? NotDefined<K, A, B> : IntervalOf<A> | NullOf<V>)
        : K extends "plus" ? (Category<B> extends "TIMESTAMP" ? Date | NullOf<V> : NotDefined<K, A, B>)
        : NotDefined<K, A, B>)
      : K extends "times" | "dividedBy" ? (IsCat<B, "NUMERIC"> extends true ? IntervalOf<A> | NullOf<V> : NotDefined<K, A, B>)
      : NotDefined<K, A, B>)
  : Category<B> extends "INTERVAL"
    ? (K extends "times" ? (Category<A> extends "NUMERIC" ? IntervalOf<B> | NullOf<V> : NotDefined<K, A, B>) : NotDefined<K, A, B>)
  : IsCat<A, "NUMERIC"> extends true
    ? (IsCat<B, "NUMERIC"> extends true
      ? (NonNullable<A> | NonNullable<B> extends number ? number : Decimal) | NullOf<V>
      : TErr<`arithmetic needs NUMERIC operands, got ${Category<A>} and ${Category<B>}`>)
    : TErr<`arithmetic needs NUMERIC operands, got ${Category<A>} and ${Category<B>}`>;

/** The interval type of an INTERVAL operand, without its null. */
type IntervalOf<T> = NonNullable<T> extends DayTimeInterval ? DayTimeInterval : YearMonthInterval;

/** The message of MOD over an operand that is DOUBLE whatever the schema (see IsApprox); as compile-numeric.ts. */
type ModApproxError = TErr<"mod needs exact numeric operands (TINYINT, SMALLINT, INT, BIGINT, DECIMAL), got DOUBLE; cast DOUBLE/FLOAT operands first">;

type Comparable<A, B> =
  Category<A> extends "NULL" | "ANY" ? true
  : Category<B> extends "NULL" | "ANY" ? true
  : Category<A> extends Category<B> ? (MixedIntervals<A, B> extends true ? false : true) : false;

type AllCat<V extends readonly unknown[], C extends string> =
  V extends readonly [infer H, ...infer R] ? (IsCat<H, C> extends true ? AllCat<R, C> : false) : true;

/**
 * The common type of values of one family, as far as value types show it (Flink's findCommonType,
 * values.ts commonType): DECIMAL with an integer is DECIMAL, so a Decimal branch makes the result a
 * Decimal; the run time converts the other branches. Nullability is kept.
 */
type Common<U> = unknown extends U ? unknown : [Extract<U, Decimal>] extends [never] ? U : Decimal | Extract<U, null>;

/** `true` when all operands have a common type, else the first pair [earlier, operand] that has none. */
type CommonCheck<V extends readonly unknown[], F = null> =
  V extends readonly [infer H, ...infer R]
    ? (Comparable<F, H> extends true ? CommonCheck<R, Category<H> extends "NULL" | "ANY" ? F : H> : [F, H])
    : true;

/** Result type of `K` applied to resolved operand value types `V`. */
type ApplyOk<K extends string, V extends readonly unknown[]> =
  K extends ArithKind ? ArithResult<K, V[0], V[1], V>
  : K extends "modApprox" ? ([ArithResult<"mod", V[0], V[1], V>] extends [infer R] ? ([R] extends [TErr<string>] ? R : ModApproxError) : never)
  : K extends "numeric" ? (IsCat<V[0], "NUMERIC"> extends true ? V[0]
    : TErr<`function needs a NUMERIC argument, got ${Category<V[0]>}`>)
  : K extends "signed" ? (IsCat<V[0], "NUMERIC" | "INTERVAL"> extends true ? V[0]
    : TErr<`function needs a NUMERIC or INTERVAL argument, got ${Category<V[0]>}`>)
  : K extends "double" ? (AllCat<V, "NUMERIC"> extends true ? number | NullOf<V>
    : TErr<`function needs NUMERIC arguments, got ${Category<V[0]>}`>)
  : K extends "integer" ? (AllCat<V, "NUMERIC"> extends true ? number | NullOf<V>
    : TErr<`function needs NUMERIC arguments, got ${Category<V[0]>}`>)
  : K extends "cmp" ? (Comparable<V[0], V[1]> extends true ? boolean | NullOf<V>
    : TErr<`cannot compare ${Family<V[0]>} with ${Family<V[1]>}`>)
  : K extends "between" ? (Comparable<V[0], V[1]> extends true ? Comparable<V[0], V[2]> extends true ? boolean | NullOf<V>
    : TErr<`cannot compare ${Family<V[0]>} with ${Family<V[2]>}`> : TErr<`cannot compare ${Family<V[0]>} with ${Family<V[1]>}`>)
  : K extends "in" ? (CommonCheck<V> extends true ? boolean | NullOf<V>
    : TErr<`IN list values must have the same type as ${Category<V[0]>}`>)
  : K extends "logic" ? (AllCat<V, "BOOLEAN"> extends true ? boolean | NullOf<V>
    : TErr<`logical operators need BOOLEAN operands, got ${Category<V[0]>}${V extends readonly [unknown, infer B, ...unknown[]] ? ` and ${Category<B>}` : ""}`>)
  : K extends "test" ? boolean
  : K extends "boolTest" ? (IsCat<V[0], "BOOLEAN"> extends true ? boolean : TErr<`IS TRUE/FALSE needs a BOOLEAN, got ${Category<V[0]>}`>)
  : K extends "string" ? (IsCat<V[0], "STRING"> extends true ? string | NullOf<V>
    : TErr<`string function needs a STRING argument, got ${Category<V[0]>}`>)
  // substring / lpad / rpad whose length (or pad) is not a literal that rules out their NULL result
  : K extends "nullableString" ? (IsCat<V[0], "STRING"> extends true ? string | null
    : TErr<`string function needs a STRING argument, got ${Category<V[0]>}`>)
  : K extends "parseJson" ? (IsCat<V[0], "STRING"> extends true ? (V extends readonly [unknown, infer D] ? (IsCat<D, "BOOLEAN"> extends true ? Variant | NullOf<[V[0]]>
    : TErr<`parseJson needs a BOOLEAN allowDuplicateKeys, got ${Category<D>}`>) : Variant | NullOf<V>)
    : TErr<`parseJson needs a STRING argument, got ${Category<V[0]>}`>)
  : K extends "tryParseJson" ? (IsCat<V[0], "STRING"> extends true ? (V extends readonly [unknown, infer D] ? (IsCat<D, "BOOLEAN"> extends true ? Variant | null
    : TErr<`tryParseJson needs a BOOLEAN allowDuplicateKeys, got ${Category<D>}`>) : Variant | null)
    : TErr<`tryParseJson needs a STRING argument, got ${Category<V[0]>}`>)
  : K extends "variantAt" ? (IsCat<V[0], "VARIANT"> extends true ? (Category<V[1]> extends "STRING" | "NUMERIC" | "NULL" | "ANY" ? Variant | null
    : TErr<`at needs a STRING key or an INT index, got ${Category<V[1]>}`>)
    : TErr<`at needs a VARIANT, got ${Category<V[0]>}`>)
  : K extends "stringToInt" ? (IsCat<V[0], "STRING"> extends true ? number | NullOf<V>
    : TErr<`string function needs a STRING argument, got ${Category<V[0]>}`>)
  : K extends "stringToBool" ? (AllCat<V, "STRING"> extends true ? boolean | NullOf<V>
    : TErr<`LIKE needs STRING arguments, got ${Category<V[0]>}`>)
  : K extends "concat" ? (AllCat<V, "STRING"> extends true ? string | NullOf<V>
    : TErr<`concat needs STRING arguments`>)
  : K extends "fromUnixtime" ? (IsCat<V[0], "NUMERIC"> extends true ? (V extends readonly [unknown, infer F] ? (IsCat<F, "STRING"> extends true ? string | NullOf<V>
    : TErr<`fromUnixtime needs a STRING format, got ${Category<F>}`>) : string | NullOf<V>)
    : TErr<`fromUnixtime needs a whole number of seconds, got ${Category<V[0]>}`>)
  : K extends "unixTimestamp" ? (IsCat<V[0], "STRING"> extends true ? (V extends readonly [unknown, infer F] ? (IsCat<F, "STRING"> extends true ? number | NullOf<V>
    : TErr<`unixTimestamp needs a STRING format, got ${Category<F>}`>) : number | NullOf<V>)
    : TErr<`unixTimestamp needs a STRING date-time text, got ${Category<V[0]>}`>)
  : K extends "extract" ? (Category<V[0]> extends "TIMESTAMP" | "STRING" | "NULL" | "ANY" ? number | NullOf<V>
    : TErr<`EXTRACT needs a temporal argument, got ${Category<V[0]>}`>)
  : K extends "timeFloor" ? (Category<V[0]> extends "TIMESTAMP" | "ANY" ? V[0] : TErr<`FLOOR/CEIL to a time unit needs a TIMESTAMP, got ${Category<V[0]>}`>)
  : K extends "dayTime" ? (IsCat<V[0], "NUMERIC"> extends true ? DayTimeInterval | NullOf<V> : TErr<`an interval needs a NUMERIC value, got ${Category<V[0]>}`>)
  : K extends "yearMonth" ? (IsCat<V[0], "NUMERIC"> extends true ? YearMonthInterval | NullOf<V> : TErr<`an interval needs a NUMERIC value, got ${Category<V[0]>}`>)
  : K extends "if" ? (IsCat<V[0], "BOOLEAN"> extends true ? (Comparable<V[1], V[2]> extends true ? Common<V[1] | V[2]>
    : TErr<`ifThenElse branches have no common type: ${Family<V[1]>} and ${Family<V[2]>}`>)
    : TErr<`ifThenElse condition must be BOOLEAN, got ${Category<V[0]>}`>)
  : K extends "coalesce" ? (CommonCheck<V> extends [infer F, infer H]
    ? TErr<`coalesce arguments have no common type: ${Family<F>} and ${Family<H>}`>
    : Common<V[number]> extends infer C ? (unknown extends C ? unknown : CoalesceAllNull<V> extends true ? C : NonNullable<C>) : never)
  // Flink's IfNullTypeStrategy: a NOT NULL input keeps its own type
  : K extends "ifNull" ? (Comparable<V[0], V[1]> extends true ? (null extends V[0] ? Common<NonNullable<V[0]> | V[1]> : V[0])
    : TErr<`ifNull arguments have no common type: ${Family<V[0]>} and ${Family<V[1]>}`>)
  : K extends "cast" ? V[1] | NullOf<[V[0]]>
  : K extends "windowProp" ? (V[0] extends TWindowAlias ? Date : TErr<`start(), end() and rowtime() apply to a group window alias, got ${Category<V[0]>}`>)
  : K extends "any" ? V[0]
  : unknown;

type CoalesceAllNull<V extends readonly unknown[]> =
  V extends readonly [infer H, ...infer R] ? (null extends H ? CoalesceAllNull<R> : false) : true;

/** Applies an operation to resolved operands, propagating the first error. */
export type Apply<K extends string, V extends readonly unknown[]> =
  [FirstError<V>] extends [never] ? ApplyOk<K, V> : FirstError<V>;

// ---------------------------------------------------------------------------------------------
// Resolution against a schema S (an object type: column name -> value type).

/**
 * Comma-separated column names of S, for error messages only (evaluated on the error path). The
 * compiler orders a union of string literals alphabetically, so this reads `age, name`. Past
 * 30 names it is `more than 30 columns` (listing 200 names would cost ~1 s of tsc per error).
 */
export type ColumnNames<S> = NameList<keyof S & string>;

/** `column 'agee' is not in [age, name]`; for wide tables the columns starting with the same letter. */
export type NotInColumns<N extends string, S> =
  TakeNames<keyof S & string, []> extends infer T extends readonly string[]
    ? `column '${N}' is not in [${JoinNames<T>}]`
    : N extends `${infer C}${string}`
      ? `column '${N}' is not among the table's more than ${NameListCap} columns; those starting with '${C}': [${NameList<Extract<keyof S & string, `${C}${string}`>>}]`
      : `column '${N}' is not among the table's columns`;

type NameListCap = 30;
type NameList<U extends string> =
  TakeNames<U, []> extends infer T extends readonly string[] ? JoinNames<T> : `more than ${NameListCap} columns`;

// Hand-written rather than ts-toolbelt's U.ListOf: tail-recursive, so it handles wide unions
// (U.ListOf fails with "excessively deep" at 200 members), and it stops at the cap (docs/typing.md).
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type LastOf<U> = UnionToIntersection<U extends unknown ? () => U : never> extends () => infer L ? L : never;
/** The members of U in the compiler's order, or `false` when there are more than the cap. */
type TakeNames<U extends string, Acc extends readonly string[]> =
  [U] extends [never] ? Acc
  : Acc["length"] extends NameListCap ? false
  : LastOf<U> extends infer L extends string ? TakeNames<Exclude<U, L>, [L, ...Acc]> : Acc;
type JoinNames<T extends readonly string[], Out extends string = ""> =
  T extends readonly [infer H extends string, ...infer R extends readonly string[]]
    ? JoinNames<R, Out extends "" ? H : `${Out}, ${H}`>
    : Out;

/**
 * Resolves a type-level expression node against schema S. `G` is the set of grouping keys that
 * non-aggregated columns may use (`string` = any column: row context).
 */
export type Resolve<S, X, G extends string = string> =
  X extends TCol<infer N> ? (string extends N ? unknown // `$(name)` with a run-time string: checked at run time
    : N extends keyof S ? (N extends G ? S[N] : TErr<`column '${N}' is neither a grouping key nor inside an aggregate`>)
    : TErr<NotInColumns<N, S>>)
  : X extends TLit<infer T> ? T
  : X extends TAlias<string, infer Y> ? Resolve<S, Y, G>
  // a function called by name may be an aggregate: its arguments may use any column (checked when planned)
  : X extends TOp<"call", infer A> ? Apply<"call", ResolveAll<S, A, string>>
  : X extends TOp<infer K, infer A> ? Apply<K, ResolveAll<S, A, G>>
  : X extends TAgg<infer K, infer Y> ? (HasAgg<Y> extends true ? TErr<"aggregate functions cannot be nested"> : AggResult<K, Resolve<S, Y, string>>)
  : X extends TUdf<infer P, infer R, infer A> ? UdfResult<P, R, ResolveAll<S, A, G>>
  : X extends TUdtf<readonly unknown[], unknown, readonly unknown[]> ? TErr<"a table function call can only be used in joinLateral / leftOuterJoinLateral">
  : X extends TUdtagg<readonly unknown[], unknown, readonly unknown[]> ? TErr<"a table aggregate function call can only be used in flatAggregate">
  : unknown;

export type ResolveAll<S, A extends readonly unknown[], G extends string = string> = { [I in keyof A]: Resolve<S, A[I], G> };

type AggResult<K extends string, V> =
  V extends TErr<string> ? V
  : K extends "count" ? number
  : unknown extends V ? unknown // a column of an untyped table: checked at run time
  : K extends "sum" | "avg" ? (IsCat<V, "NUMERIC"> extends true ? NonNullable<V> | null : TErr<`${Uppercase<K>} needs a NUMERIC argument, got ${Category<V>}`>)
  // SUM0 is 0 over no rows: the argument's type, NOT NULL (aggregates.ts)
  : K extends "sum0" ? (IsCat<V, "NUMERIC"> extends true ? NonNullable<V> : TErr<`SUM0 needs a NUMERIC argument, got ${Category<V>}`>)
  : K extends "min" | "max" ? NonNullable<V> | null
  // COLLECT: MULTISET<T> NOT NULL of the argument's type (aggregates.ts)
  : K extends "collect" ? Map<V, number>
  : K extends "udf" ? V
  : unknown;

/**
 * Result of a user-defined function call with declared parameter value types P and result R over
 * resolved operands V: arity and type families are checked; a NOT NULL parameter given a nullable
 * operand makes the result nullable (the function is not called for NULL, its result is NULL).
 */
export type UdfResult<P extends readonly unknown[], R, V extends readonly unknown[]> =
  [FirstError<V>] extends [never]
    ? (V["length"] extends P["length"]
      ? (UdfArgError<P, V, []> extends infer E ? ([E] extends [never] ? R | UdfNullOf<P, V> : E) : never)
      : TErr<`the function expects ${P["length"]} argument(s), got ${V["length"]}`>)
    : FirstError<V>;

type UdfArgError<P extends readonly unknown[], V extends readonly unknown[], I extends unknown[]> =
  P extends readonly [infer PH, ...infer PR] ? (V extends readonly [infer VH, ...infer VR]
    ? (Category<PH> extends "ANY" ? UdfArgError<PR, VR, [...I, 0]>
      : IsCat<VH, Category<PH>> extends true ? UdfArgError<PR, VR, [...I, 0]>
      : TErr<`argument ${[...I, 0]["length"] & number} of the function: expected ${Category<PH>}, got ${Category<VH>}`>)
    : never) : never;

type UdfNullOf<P extends readonly unknown[], V extends readonly unknown[]> =
  true extends { [I in keyof P]: null extends P[I] ? false : null extends V[I & keyof V] ? true : false }[number] ? null : never;

/** Whether a node contains an aggregate anywhere. */
export type HasAgg<X> =
  X extends TAgg<string, unknown> ? true
  : X extends TAlias<string, infer Y> ? HasAgg<Y>
  : X extends TOp<string, infer A> ? (true extends HasAggAll<A> ? true : false)
  : false;
type HasAggAll<A extends readonly unknown[]> = { [I in keyof A]: HasAgg<A[I]> }[number];

/** The output column name of a select item at position I (Flink: alias, column name, or `_c<I>`). */
export type OutputName<X, I> =
  X extends TAlias<infer A, unknown> ? A
  : X extends TCol<infer N> ? N
  : `_c${I & string}`;

/** Widening of JS literal values to their column value types. */
export type Widen<V> =
  V extends string ? string : V extends number ? number : V extends boolean ? boolean : V extends bigint ? number : V;

/**
 * The node of a JS value used as an operand: a literal of its widened type, keeping a number or
 * string literal type's value (`2.5`, `"*"`) for the rules that read it (IsApprox, SubstringKind,
 * PadKind). Only `const` type parameters see literal types; elsewhere the value is just `number`.
 */
export type LitOf<V> =
  [V] extends [number] ? (number extends V ? TLit<number> : TLit<number, V>)
  : [V] extends [string] ? (string extends V ? TLit<string> : TLit<string, V>)
  : TLit<Widen<V>>;

/** A number literal that is a whole number `>= 0` (compile-support.ts literalInt). */
type NonNegativeIntLit<X> =
  X extends TLit<number, infer V extends number>
    ? (number extends V ? false : `${V}` extends `-${string}` ? false : `${V}` extends `${bigint}` ? true : false)
    : false;
/** A string literal other than `""`. */
type NonEmptyStringLit<X> = X extends TLit<string, infer V extends string> ? (string extends V ? false : V extends "" ? false : true) : false;

/**
 * Node kind of `substring(start, length)` with the length's node L (`never`: no length): SUBSTRING is
 * NULL for a negative length, so as compile-string.ts only a literal length `>= 0` keeps the result
 * NOT NULL. A length the compiler cannot see as a literal (a column, `number`) makes it nullable.
 */
export type SubstringKind<L> = [L] extends [never] ? "string" : NonNegativeIntLit<L> extends true ? "string" : "nullableString";
/** Node kind of `lpad`/`rpad`: NULL for a negative length or an empty pad, so NOT NULL only for literals that exclude both. */
export type PadKind<L, P> = NonNegativeIntLit<L> extends true ? (NonEmptyStringLit<P> extends true ? "string" : "nullableString") : "nullableString";

/**
 * Whether a node is DOUBLE whatever the schema: a number literal with a fraction (`2.5`, `lit(0.5)`),
 * power/sqrt/exp/ln/log10, and arithmetic, rounding, conditionals and aggregates over such a node
 * (anything with DOUBLE is DOUBLE). Columns are `number` for INT and DOUBLE alike, so a DOUBLE column
 * is not seen here (docs/typing.md, Limits).
 */
export type IsApprox<X> =
  X extends TLit<number, infer V> ? (V extends number ? (number extends V ? false : `${V}` extends `${bigint}` ? false : true) : false)
  : X extends TAlias<string, infer Y> ? IsApprox<Y>
  : X extends TOp<infer K, infer A> ? (
    K extends "double" ? true
    : K extends "plus" | "minus" | "times" | "dividedBy" | "numeric" | "signed" | "if" | "coalesce" | "any" ? (true extends ApproxAny<A> ? true : false)
    : K extends "ifNull" ? IsApprox<A[0]> // a NOT NULL input keeps its type, so only the input tells
    : false)
  : X extends TAgg<"sum" | "sum0" | "avg" | "min" | "max", infer Y> ? IsApprox<Y>
  : false;
type ApproxAny<A extends readonly unknown[]> = { [I in keyof A]: IsApprox<A[I]> }[number];

/** Node kind of `a.mod(b)`: MOD of a DOUBLE is a ValidationError at run time, so a visibly DOUBLE operand is a compile error. */
export type ModKind<A, B> = true extends IsApprox<A> | IsApprox<B> ? "modApprox" : "mod";

/** Columns of the same name listed twice in a tuple of names. */
export type DuplicateOf<Names extends readonly string[], Seen extends string = never> =
  Names extends readonly [infer H extends string, ...infer R extends string[]]
    ? H extends Seen ? H : DuplicateOf<R, Seen | H>
    : never;

export type { ColumnList };
