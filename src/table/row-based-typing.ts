/**
 * Type-level rules of the row-based operations (map, flatMap, aggregate, flatAggregate): which columns
 * a function's result becomes, and the checks that name a wrong call. A ROW result is flattened into its
 * fields; another result is one column (`_c0` for map / aggregate, `f0` for table functions, as Flink).
 * Several aliases of a ROW with several fields are typed `unknown`: the order of an object type's keys is
 * not visible to the compiler (the run time names and types them).
 */
import type { Decimal } from "decimal.js";
import type { HasAgg, Resolve, ResolveAll, TAgg, TAlias, TErr, TOp, TUdtagg, TUdtf, TableTypeError, UdfResult } from "../expressions/type-level.js";
import type { Detached, NodeOfExpr } from "./typing.js";

type CallOf<X> = X extends TAlias<string, infer Y> ? Y : X;
type AliasNames<X> = X extends TAlias<infer A, unknown, infer E> ? [A, ...E] : never;
type ErrorOf<R> = R extends TErr<infer M> ? M : never;

type IsRowValue<T> =
  unknown extends T ? false
  : [NonNullable<T>] extends [Date | Decimal | string | number | boolean | readonly unknown[] | Map<unknown, unknown>] ? false
  : NonNullable<T> extends object ? true : false;

/** A row object's fields; nullable when the row itself may be NULL (flattening a NULL row gives NULLs). */
type RowFields<R> = { [K in keyof NonNullable<R>]: NonNullable<R>[K] | (null extends R ? null : never) };

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type IsSingle<K> = [K] extends [never] ? false : [K] extends [UnionToIntersection<K>] ? true : false;

/** Row fields renamed by aliases: exact for one field, `unknown` for several (order unknown). */
type Renamed<N extends readonly string[], F> =
  N["length"] extends 1 ? (IsSingle<keyof F> extends true ? { [K in N[0]]: F[keyof F] } : { [K in N[number]]: unknown })
  : { [K in N[number]]: unknown };

/** Columns of a flattened result R with optional aliases N; `Single` names a non-ROW result. */
type Flattened<R, N, Single extends string> =
  unknown extends R ? ([N] extends [never] ? Record<string, unknown> : { [K in (N & readonly string[])[number]]: unknown })
  : IsRowValue<R> extends true ? ([N] extends [never] ? RowFields<R> : Renamed<N & readonly string[], RowFields<R>>)
  : [N] extends [never] ? { [K in Single]: R }
  : N extends readonly [infer A extends string] ? { [K in A]: R }
  : { [K in (N & readonly string[])[number]]: unknown };

// ---- map -------------------------------------------------------------------------------------------

type MapError<S, X> =
  HasAgg<X> extends true ? "map takes a scalar function call, not an aggregate; use aggregate(...)"
  : CallOf<X> extends TUdtf<readonly unknown[], unknown, readonly unknown[]> ? "map takes a scalar function call; use flatMap(...) for a table function"
  : CallOf<X> extends TUdtagg<readonly unknown[], unknown, readonly unknown[]> ? "map takes a scalar function call; use flatAggregate(...) for a table aggregate function"
  : ErrorOf<Resolve<S, CallOf<X>>>;

/** The argument of `map`: E when it is a well-typed scalar expression over S, else the TableTypeError. */
export type MapArg<S, E> = MapError<S, NodeOfExpr<E>> extends infer M ? ([M] extends [never] ? E : TableTypeError<M & string>) : never;
/** Columns after `map(E)`: the result's fields (ROW) or one column `_c0`, renamed by `.as(...)`. */
export type MapResult<S, E> = Detached<Flattened<Resolve<S, CallOf<NodeOfExpr<E>>>, AliasNames<NodeOfExpr<E>>, "_c0">>;

// ---- flatMap ---------------------------------------------------------------------------------------

type FlatMapError<S, X> =
  CallOf<X> extends TUdtf<infer P, infer R, infer A> ? ErrorOf<UdfResult<P, R, ResolveAll<S, A>>>
  : CallOf<X> extends TOp<"call", infer A> ? { [I in keyof ResolveAll<S, A>]: ErrorOf<ResolveAll<S, A>[I]> }[number]
  : "flatMap takes a table function call: call(fn, ...) or call(\"name\", ...)";

/** The argument of `flatMap`: a table function call with well-typed arguments over S. */
export type FlatMapArg<S, E> = FlatMapError<S, NodeOfExpr<E>> extends infer M ? ([M] extends [never] ? E : TableTypeError<M & string>) : never;
/** Columns after `flatMap(E)`: the table function's columns (renamed by `.as(...)`); untyped when called by name. */
export type FlatMapResult<E> =
  CallOf<NodeOfExpr<E>> extends TUdtf<readonly unknown[], infer R, readonly unknown[]>
    ? Detached<[AliasNames<NodeOfExpr<E>>] extends [never] ? R : Renamed<AliasNames<NodeOfExpr<E>>, R>>
    : Detached<Flattened<unknown, AliasNames<NodeOfExpr<E>>, "f0">>;

// ---- aggregate / flatAggregate ----------------------------------------------------------------------

/** The grouping key columns of S (all of S's columns' names are unknown when a key is an expression). */
type KeyColumns<S, G extends string> = string extends G ? Record<string, unknown> : { [K in G & keyof S]: S[K] };

type AggregateError<S, X> =
  CallOf<X> extends TAgg<string, unknown> ? ErrorOf<Resolve<S, CallOf<X>>>
  : CallOf<X> extends TOp<"call", infer A> ? { [I in keyof ResolveAll<S, A>]: ErrorOf<ResolveAll<S, A>[I]> }[number]
  : "aggregate takes an aggregate function call such as call(MyAggregate, $(\"a\")).as(\"x\", \"y\")";

/** The argument of `aggregate`: an aggregate function call over S. */
export type AggregateArg<S, E> = AggregateError<S, NodeOfExpr<E>> extends infer M ? ([M] extends [never] ? E : TableTypeError<M & string>) : never;
/** Columns after `groupBy(G).aggregate(E)`: the keys, then the aggregate's result flattened. */
export type AggregateColumns<S, G extends string, E> =
  Detached<KeyColumns<S, G> & Flattened<Resolve<S, CallOf<NodeOfExpr<E>>>, AliasNames<NodeOfExpr<E>>, "_c0">>;

type FlatAggregateError<S, X> =
  CallOf<X> extends TUdtagg<infer P, infer R, infer A> ? ErrorOf<UdfResult<P, R, ResolveAll<S, A>>>
  : CallOf<X> extends TOp<"call", infer A> ? { [I in keyof ResolveAll<S, A>]: ErrorOf<ResolveAll<S, A>[I]> }[number]
  : "flatAggregate takes a table aggregate function call: call(TableAggregateFn, ...) or call(\"name\", ...)";

/** The argument of `flatAggregate`: a table aggregate function call over S. */
export type FlatAggregateArg<S, E> = FlatAggregateError<S, NodeOfExpr<E>> extends infer M ? ([M] extends [never] ? E : TableTypeError<M & string>) : never;
/** Columns after `groupBy(G).flatAggregate(E)`: the keys, then the function's columns. */
export type FlatAggregateColumns<S, G extends string, E> =
  CallOf<NodeOfExpr<E>> extends TUdtagg<readonly unknown[], infer R, readonly unknown[]>
    ? Detached<KeyColumns<S, G> & ([AliasNames<NodeOfExpr<E>>] extends [never] ? R : Renamed<AliasNames<NodeOfExpr<E>>, R>)>
    : Detached<KeyColumns<S, G> & Flattened<unknown, AliasNames<NodeOfExpr<E>>, "f0">>;
