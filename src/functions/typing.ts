/**
 * Type-level rules of lateral joins with table functions: which columns `joinLateral(call(...).as(...))`
 * adds to a table, and the checks that name a wrong argument or a clashing column.
 */
import type { ColumnNames, ResolveAll, TAlias, TErr, TOp, TUdtf, TableTypeError, UdfResult } from "../expressions/type-level.js";
import type { NodeOfExpr } from "../expressions/expression.js";

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type IsSingle<K> = [K] extends [never] ? false : [K] extends [UnionToIntersection<K>] ? true : false;

/** The call under an optional alias, and the alias names. */
type CallOf<X> = X extends TAlias<string, infer Y> ? Y : X;
type AliasNames<X> = X extends TAlias<infer A, unknown, infer E> ? [A, ...E] : never;

type Nullable<R, L extends boolean> = L extends true ? { [K in keyof R]: unknown extends R[K] ? unknown : R[K] | null } : R;

/**
 * Renamed output columns: a single field renamed is typed exactly. The order of a ROW's fields is not
 * visible to the compiler, so several renamed fields are `unknown` (typed at run time).
 */
type Aliased<N extends readonly string[], R> =
  N["length"] extends 1 ? (IsSingle<keyof R> extends true ? { [K in N[0]]: R[keyof R] } : { [K in N[number]]: unknown })
  : { [K in N[number]]: unknown };

/** Columns a lateral join adds: the function's output row, renamed by `.as(...)`; NULL-able for LEFT. */
export type LateralColumns<E, L extends boolean> =
  NodeOfExpr<E> extends infer X
    ? CallOf<X> extends TUdtf<readonly unknown[], infer R, readonly unknown[]>
      ? Nullable<[AliasNames<X>] extends [never] ? R : Aliased<AliasNames<X> & readonly string[], R>, L>
      : [AliasNames<X>] extends [never] ? {} : { [K in AliasNames<X>[number]]: unknown }
    : never;

type Clash<S, C> = keyof C & keyof S;

/** `unknown` when E is a valid table function call on S, else a TableTypeError naming the problem. */
export type CheckLateral<S, E> =
  NodeOfExpr<E> extends infer X
    ? CallOf<X> extends TUdtf<infer P, infer R, infer A>
      ? (UdfResult<P, R, ResolveAll<S, A>> extends infer Res
        ? ([Res] extends [TErr<infer M>] ? TableTypeError<M> : CheckNames<S, E>)
        : never)
      : CallOf<X> extends TOp<"call", infer A>
        ? (FirstErr<ResolveAll<S, A>> extends infer Err
          ? ([Err] extends [never]
            ? ([AliasNames<X>] extends [never]
              ? TableTypeError<`name the columns of a table function called by name: call("name", ...).as("column")`>
              : CheckNames<S, E>)
            : Err extends TErr<infer M> ? TableTypeError<M> : never)
          : never)
        : TableTypeError<"a lateral join takes a table function call: call(fn, ...) or call(\"name\", ...)">
    : never;

/** The added columns must not clash with the table's. */
type CheckNames<S, E> =
  [Clash<S, LateralColumns<E, false>>] extends [never] ? unknown
  : TableTypeError<`column '${Clash<S, LateralColumns<E, false>> & string}' already exists in [${ColumnNames<S>}]; rename it with .as(...)`>;

type FirstErr<V> =
  V extends readonly [infer H, ...infer R] ? (H extends TErr<string> ? H : FirstErr<R>) : never;

/** The argument of `joinLateral`: E itself when valid, else the TableTypeError. */
export type LateralArg<S, E> = CheckLateral<S, E> extends infer C ? (unknown extends C ? E : C) : never;
