import type { DataType } from "../table/types/data-type.js";
import { type NodeOf, Expression, toNode } from "./expression.js";
import { callNode, col, literal } from "./node.js";
import type { TCol, TLit, TOp, Widen } from "./type-level.js";

/** A column reference, checked against the schema of the table it is used on: `$("age")`. */
export function $<const N extends string>(name: N): Expression<TCol<N>> {
  if (typeof name !== "string" || name.length === 0) throw new TypeError("$() needs a column name");
  return new Expression(col(name));
}

/** A literal: `lit(18)`, `lit("a")`, or with an explicit type `lit(1, DataTypes.BIGINT())`. */
export function lit<const V>(value: V): Expression<TLit<Widen<V>>>;
export function lit<T>(value: unknown, type: DataType<T>): Expression<TLit<T>>;
export function lit(value: unknown, type?: DataType): Expression<unknown> {
  return new Expression(literal(value, type));
}

/** A typed NULL literal: `nullOf(DataTypes.INT())`. */
export function nullOf<T>(type: DataType<T>): Expression<TLit<T | null>> {
  return new Expression(literal(null, type.nullable()));
}

/** `IF(condition, ifTrue, ifFalse)`. */
export function ifThenElse<C, A, B>(condition: C, ifTrue: A, ifFalse: B): Expression<TOp<"if", [NodeOf<C>, NodeOf<A>, NodeOf<B>]>> {
  return new Expression(callNode("if", [toNode(condition), toNode(ifTrue), toNode(ifFalse)]));
}

/** First non-null argument. */
export function coalesce<const A extends readonly unknown[]>(...args: A): Expression<TOp<"coalesce", { [I in keyof A]: NodeOf<A[I]> }>> {
  return new Expression(callNode("coalesce", args.map(toNode)));
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
export function descriptor(...names: string[]): Expression<TLit<import("../table/types/data-type.js").ColumnList>> {
  return new Expression({ kind: "Descriptor", names });
}

/** A named argument explicitly left at its default (`DEFAULT` in SQL). */
export function defaultArg(): Expression<TLit<null>> {
  return new Expression({ kind: "Default" });
}

/**
 * Calls a registered function by name, or a function object inline:
 * `call("hash", $("name"))`, `call(HashFunction, $("name"))`. The result type comes from the function's
 * declaration where the function object is given; by name it is checked at planning time.
 */
export function call<R = unknown>(fn: string | { readonly __result?: R }, ...args: unknown[]): Expression<TLit<R>> {
  if (typeof fn === "string") return new Expression(callNode(fn, args.map(toNode)));
  return new Expression({ kind: "Call", fn: "$udf", args: args.map(toNode), udf: fn });
}
