/**
 * Type-level helpers of the Table API: how a method's arguments are checked against the schema `S`
 * and how its result schema is computed. ts-toolbelt stays inside (never in a public signature).
 */
import type { Expression } from "../expressions/expression.js";
import type {
  DuplicateOf, HasAgg, OutputName, Resolve, TAlias, TCol, TErr, TableTypeError, ColumnNames,
} from "../expressions/type-level.js";

/** Flattens an intersection into one object type where a user sees it (hover, row types). */
export type Flatten<T> = { [K in keyof T]: T[K] } & {};

export type NodeOfExpr<E> = E extends Expression<infer N> ? N : never;

/** Names of a list of select items, in order. */
export type NamesOf<A extends readonly unknown[]> = { [I in keyof A]: OutputName<NodeOfExpr<A[I]>, I> };

/** `unknown` when item E is valid on S (grouping keys G), else a TableTypeError naming the problem. */
export type CheckItem<S, E, G extends string, Dup extends string, I> =
  Resolve<S, NodeOfExpr<E>, G> extends infer R
    ? R extends TErr<infer M> ? TableTypeError<M>
      : OutputName<NodeOfExpr<E>, I> extends Dup ? TableTypeError<`output column '${Dup}' appears more than once`>
      : unknown
    : never;

export type CheckItems<S, A extends readonly unknown[], G extends string = string> =
  { [I in keyof A]: CheckItem<S, A[I], G, DuplicateOf<NamesOf<A> & readonly string[]>, I> };

/** The schema produced by a list of select items. */
export type SelectSchema<S, A extends readonly unknown[], G extends string = string> = {
  [I in keyof A & `${number}` as OutputName<NodeOfExpr<A[I]>, I>]: Resolve<S, NodeOfExpr<A[I]>, G>;
};

export type AnyAgg<A extends readonly unknown[]> = true extends { [I in keyof A]: HasAgg<NodeOfExpr<A[I]>> }[number] ? true : false;

/** A predicate must resolve to BOOLEAN. */
export type CheckPredicate<S, E> =
  Resolve<S, NodeOfExpr<E>> extends infer R
    ? R extends TErr<infer M> ? TableTypeError<M>
      : [R] extends [boolean | null] ? unknown
      : TableTypeError<"the filter condition must be BOOLEAN">
    : never;

/** New columns must not exist yet (addColumns). */
export type CheckNew<S, A extends readonly unknown[]> =
  { [I in keyof A]: OutputName<NodeOfExpr<A[I]>, I> extends keyof S
    ? TableTypeError<`column '${OutputName<NodeOfExpr<A[I]>, I> & string}' already exists; use addOrReplaceColumns`> : unknown };

/** renameColumns items: `$("old").as("new")` over an existing column. */
export type CheckRenames<S, A extends readonly unknown[]> = {
  [I in keyof A]: NodeOfExpr<A[I]> extends TAlias<infer New, TCol<infer Old>>
    ? Old extends keyof S ? (New extends keyof S ? (New extends Old ? unknown : TableTypeError<`column '${New}' already exists`>) : unknown)
      : TableTypeError<`column '${Old}' is not in [${ColumnNames<S>}]`>
    : TableTypeError<"renameColumns takes $(\"old\").as(\"new\") items">;
};

export type RenamePairs<A extends readonly unknown[]> = {
  [I in keyof A]: NodeOfExpr<A[I]> extends TAlias<infer New, TCol<infer Old>> ? [Old, New] : never;
}[number];

export type Renamed<S, P> = {
  [K in keyof S as K extends (P extends [infer O, unknown] ? O : never) ? (P extends [K, infer N extends string] ? N : never) : K]: S[K];
};

/** dropColumns items must be existing columns. */
export type CheckDrops<S, A extends readonly unknown[]> = {
  [I in keyof A]: NodeOfExpr<A[I]> extends TCol<infer N> ? (N extends keyof S ? unknown : TableTypeError<`column '${N}' is not in [${ColumnNames<S>}]`>)
    : TableTypeError<"dropColumns takes column references $(\"name\")">;
};
export type DropNames<A extends readonly unknown[]> = { [I in keyof A]: NodeOfExpr<A[I]> extends TCol<infer N> ? N : never }[number];

/** Grouping key names (non-column keys allow any column: checked at run time). */
export type KeyNames<K extends readonly unknown[]> =
  { [I in keyof K]: NodeOfExpr<K[I]> extends TCol<infer N> ? N : NodeOfExpr<K[I]> extends TAlias<string, TCol<infer N>> ? N : string }[number];

/** Positional column names f0..fn of tables made from scalars or Row.of(...). */
type PositionalKey = `f${number}`;
export type IsPositional<S> = [keyof S] extends [PositionalKey] ? true : false;

/** `table.as("a", "b")` on a positional schema {f0, f1}: {a: S["f0"], b: S["f1"]}. */
export type AsSchema<S, N extends readonly string[]> =
  IsPositional<S> extends true ? { [I in keyof N & `${number}` as N[I] & string]: S[`f${I}` & keyof S] } : never;
export type CheckAs<S, N extends readonly string[]> =
  IsPositional<S> extends true
    ? (`f${N["length"]}` extends keyof S ? TableTypeError<"as(): fewer names than columns">
      : N["length"] extends 0 ? TableTypeError<"as(): give one name per column">
      : `f${Minus1<N["length"]>}` extends keyof S ? unknown : TableTypeError<"as(): more names than columns">)
    : TableTypeError<"as() renames columns by position and is typed only for tables built from values (f0, f1, ...); use renameColumns($(\"old\").as(\"new\"))">;
type Minus1<N extends number> = [never, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19][N];
