import type { DataType } from "../types/data-type.js";
import { AggExpression, type NodeOf, Expression, toNode } from "./expression.js";
import { callNode, col, literal } from "./node.js";
import type { LitOf, TAgg, TCol, TLit, TOp, TUdf, TUdtagg, TUdtf } from "./type-level.js";

/** A column reference, checked against the schema of the table it is used on: `$("age")`. */
export function $<const N extends string>(name: N): Expression<TCol<N>> {
  if (typeof name !== "string" || name.length === 0) throw new TypeError("$() needs a column name");
  return new Expression(col(name));
}

/** A literal: `lit(18)`, `lit("a")`, or with an explicit type `lit(1, DataTypes.BIGINT())`. */
export function lit<const V>(value: V): Expression<LitOf<V>>;
export function lit<T>(value: unknown, type: DataType<T>): Expression<TLit<T>>;
export function lit(value: unknown, type?: DataType): Expression<unknown> {
  return new Expression(literal(value, type));
}

/** A typed NULL literal: `nullOf(DataTypes.INT())`. */
export function nullOf<T>(type: DataType<T>): Expression<TLit<T | null>> {
  return new Expression(literal(null, type.nullable()));
}

/** `IF(condition, ifTrue, ifFalse)`. */
export function ifThenElse<C, const A, const B>(condition: C, ifTrue: A, ifFalse: B): Expression<TOp<"if", [NodeOf<C>, NodeOf<A>, NodeOf<B>]>> {
  return new Expression(callNode("if", [toNode(condition), toNode(ifTrue), toNode(ifFalse)]));
}

/** First non-null argument. */
export function coalesce<const A extends readonly unknown[]>(...args: A): Expression<TOp<"coalesce", { [I in keyof A]: NodeOf<A[I]> }>> {
  return new Expression(callNode("coalesce", args.map(toNode)));
}

/**
 * Seconds since 1970-01-01 UTC as text in the session time zone (UTC): `yyyy-MM-dd HH:mm:ss`, or the
 * Java datetime pattern `format`; SQL `FROM_UNIXTIME(seconds [, format])`. NULL if an argument is NULL.
 */
export function fromUnixtime<const S, const F = never>(seconds: S, format?: F):
  Expression<TOp<"fromUnixtime", [NodeOf<S>, ...([F] extends [never] ? [] : [NodeOf<F>])]>> {
  return new Expression(callNode("fromUnixtime", format === undefined ? [toNode(seconds)] : [toNode(seconds), toNode(format)]));
}

/**
 * Seconds since 1970-01-01 UTC: `unixTimestamp()` of the job's clock now (BIGINT NOT NULL, per record), or
 * `unixTimestamp(text [, format])` of a date-time text read by a Java datetime pattern (`yyyy-MM-dd HH:mm:ss`
 * by default) in the session time zone (UTC); SQL `UNIX_TIMESTAMP`. NULL if an argument is NULL.
 */
export function unixTimestamp(): Expression<TLit<number>>;
export function unixTimestamp<const S, const F = never>(text: S, format?: F):
  Expression<TOp<"unixTimestamp", [NodeOf<S>, ...([F] extends [never] ? [] : [NodeOf<F>])]>>;
export function unixTimestamp(text?: unknown, format?: unknown): Expression<unknown> {
  const args = text === undefined ? [] : format === undefined ? [toNode(text)] : [toNode(text), toNode(format)];
  return new Expression(callNode("unixTimestamp", args));
}

/** String concatenation; null if any argument is null (SQL `||`). */
export function concat<const A extends readonly unknown[]>(...args: A): Expression<TOp<"concat", { [I in keyof A]: NodeOf<A[I]> }>> {
  return new Expression(callNode("concat", args.map(toNode)));
}

/** Conjunction of several predicates. */
export function and<const A extends readonly unknown[]>(...args: A): Expression<TOp<"logic", { [I in keyof A]: NodeOf<A[I]> }>> {
  return new Expression(callNode("and", args.map(toNode)));
}
export function or<const A extends readonly unknown[]>(...args: A): Expression<TOp<"logic", { [I in keyof A]: NodeOf<A[I]> }>> {
  return new Expression(callNode("or", args.map(toNode)));
}
export function not<A>(arg: A): Expression<TOp<"logic", [NodeOf<A>]>> {
  return new Expression(callNode("not", [toNode(arg)]));
}

/** A column list argument, e.g. `descriptor("ts").asArgument("on_time")`. */
export function descriptor<const N extends readonly string[]>(...names: N): Expression<TLit<import("../types/data-type.js").ColumnList, N>> {
  return new Expression({ kind: "Descriptor", names });
}

/**
 * `PROCTIME()`: a processing-time attribute, for a computed column —
 * `Schema.newBuilder()...columnByExpression("proc", proctime())` (or the SQL text `"PROCTIME()"`).
 * Typed `TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*`; its value is the job's clock when the row is read.
 */
export function proctime(): Expression<TLit<Date>> {
  return new Expression(callNode("proctime", []));
}

/** A named argument explicitly left at its default (`DEFAULT` in SQL). */
export function defaultArg(): Expression<TLit<null>> {
  return new Expression({ kind: "Default" });
}

/** The type-level description a user-defined function object carries (see src/functions). */
export interface UdfTypeInfo {
  readonly kind: "scalar" | "asyncScalar" | "table" | "aggregate" | "tableAggregate";
  readonly params: readonly unknown[];
  readonly result: unknown;
}

/** Anything `call` accepts as a function object: ScalarFunction, TableFunction, AggregateFunction. */
export interface CallableFunction {
  readonly __udf: UdfTypeInfo;
  readonly kind: string;
  readonly name: string;
}

type NodesOf<A extends readonly unknown[]> = { [I in keyof A]: NodeOf<A[I]> };

/** The expression `call(fn, ...args)` makes: typed from the function object, unknown by name. */
export type CallResult<F, A extends readonly unknown[]> =
  F extends string ? Expression<TOp<"call", NodesOf<A>>>
  : F extends { readonly __udf: infer U } ? (
    U extends { kind: "aggregate"; params: infer P extends readonly unknown[]; result: infer R } ? AggExpression<TAgg<"udf", TUdf<P, R, NodesOf<A>>>>
    : U extends { kind: "table"; params: infer P extends readonly unknown[]; result: infer R } ? Expression<TUdtf<P, R, NodesOf<A>>>
    : U extends { kind: "scalar" | "asyncScalar"; params: infer P extends readonly unknown[]; result: infer R } ? Expression<TUdf<P, R, NodesOf<A>>>
    : U extends { kind: "tableAggregate"; params: infer P extends readonly unknown[]; result: infer R } ? Expression<TUdtagg<P, R, NodesOf<A>>>
    : never)
  : never;

/**
 * Calls a registered function by name, or a function object inline:
 * `call("hash", $("name"))`, `call(HashFunction, $("name"))`. With the function object, argument and
 * result types are checked by the compiler; by name they are checked when the expression is planned.
 * An AggregateFunction call is an aggregate (`groupBy(...).select(call(WeightedAvg, $("v"), $("w")))`);
 * a TableFunction call goes to `joinLateral` / `leftOuterJoinLateral`.
 */
export function call<F extends string | CallableFunction, const A extends readonly unknown[]>(fn: F, ...args: A): CallResult<F, A> {
  const argNodes = args.map(toNode);
  if (typeof fn === "string") {
    if (fn.length === 0) throw new TypeError("call() needs a function name or a function object");
    return new Expression(callNode(fn, argNodes)) as CallResult<F, A>;
  }
  const f = fn as CallableFunction;
  if (f === null || typeof f !== "object" || !["scalar", "asyncScalar", "table", "aggregate", "tableAggregate"].includes(f.kind)) {
    throw new TypeError("call() takes a function name or a ScalarFunction / AsyncScalarFunction / TableFunction / AggregateFunction / TableAggregateFunction object");
  }
  if (f.kind === "aggregate") {
    return new AggExpression({ kind: "Agg", fn: f.name, args: argNodes, distinct: false, udf: f }) as CallResult<F, A>;
  }
  return new Expression({ kind: "Call", fn: "$udf", args: argNodes, udf: f }) as CallResult<F, A>;
}
