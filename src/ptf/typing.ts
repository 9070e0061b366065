/**
 * Type-level half of PTF calls: the output schema of `process(...)` / `fromCall(...)` and the checks of
 * named arguments. The runtime half (the same rules on real schemas) is output-schema.ts.
 */
import type { ArgumentExpression, Expression } from "../expressions/expression.js";
import type { TLit, TableTypeError } from "../expressions/type-level.js";
import type { ColumnList } from "../types/data-type.js";
import type { Flatten } from "../types/flatten.js";
import type { ScalarArgDecl, TableArgDecl } from "./arguments.js";
import type { IsScalarOutput } from "./context.js";
import type { ProcessTableFunction } from "./function.js";
import type { TableTrait } from "./traits.js";
import type { ChangelogKind } from "../plan/planning-context.js";

/** Any declared PTF. */
export type AnyProcessTableFunction = ProcessTableFunction<unknown, unknown, unknown, ChangelogKind>;

/**
 * The changelog kind of a call's result: what the function's `changelogMode` declares (`"append"` by
 * default); a function called by its registered name is not known statically.
 */
export type ProcessMode<F> = F extends { readonly __changelog: infer M extends ChangelogKind } ? M : ChangelogKind;

/** Union of the traits of all table arguments of a declaration. */
type TableTraitsOf<A> = { [K in keyof A]: A[K] extends TableArgDecl<unknown, infer T> ? T : never }[keyof A];

/** Names a call may use: declared arguments plus the implicit `on_time` and `uid`. */
export type ArgNamesOf<F> = F extends ProcessTableFunction<infer A, unknown, unknown> ? (keyof A & string) | "on_time" | "uid" : string;

/** Columns the function itself produces: `EXPR$0` for a scalar output, else the fields of the row. */
export type FunctionColumns<O> =
  IsScalarOutput<O> extends true ? { EXPR$0: O }
  : { [P in keyof NonNullable<O> as NonNullable<O>[P] extends (...args: never[]) => unknown ? never : P]: NonNullable<O>[P] };

/** Columns put in front of the function's output: all (pass-through), the PARTITION BY keys (set semantics) or none. */
type PrefixColumns<T, S, K extends string> =
  [T] extends [never] ? {}
  : "PASS_COLUMNS_THROUGH" extends T ? S
  : "SET_SEMANTIC_TABLE" extends T ? Pick<S, K & keyof S>
  : {};

/** Flink makes duplicate names unique with a counter (`name`, `name0`); the common case of one duplicate. */
type Merge<P, O> = P & { [F in keyof O as F extends keyof P ? `${F & string}0` : F]: O[F] };

/** Whether a call's arguments pass `on_time` by name. */
type HasNamedOnTime<C extends readonly unknown[]> =
  true extends { [I in keyof C]: C[I] extends ArgumentExpression<"on_time", TLit<ColumnList>> ? true : false }[number] ? true : false;
/** Whether a positional call passes a descriptor (which is `on_time` unless the function declares DESCRIPTOR arguments). */
type HasPositionalDescriptor<C extends readonly unknown[]> =
  true extends { [I in keyof C]: C[I] extends ArgumentExpression<string, unknown> ? false : C[I] extends Expression<TLit<ColumnList>> ? true : false }[number]
    ? true : false;
type DeclaresDescriptor<A> = true extends { [K in keyof A]: A[K] extends ScalarArgDecl<ColumnList | null, boolean> ? true : false }[keyof A] ? true : false;

/**
 * The `rowtime` column a call with `on_time` adds (PTF rule 3): a `Date`. A positional
 * descriptor may also be a DESCRIPTOR argument of the function; then the column is optional in the type.
 */
export type RowtimeColumn<A, C extends readonly unknown[]> =
  HasNamedOnTime<C> extends true ? { rowtime: Date }
  : HasPositionalDescriptor<C> extends true ? (DeclaresDescriptor<A> extends true ? { rowtime?: Date } : { rowtime: Date })
  : {};

/** The schema of a PTF call's result over a table with schema S partitioned by K; C are the call's other arguments. */
export type ProcessOutput<F, S, K extends string, C extends readonly unknown[] = []> = OutputOf<F, S, K, C, TablesIn<C>>;

/**
 * The output over a first table (S, K) and further tables X (several table arguments, all set
 * semantics): the PARTITION BY columns of every table in argument order, a repeated name with a `0`
 * suffix (Flink's makeFieldNamesUnique; co-partitioned keys have equal types, so only names matter).
 */
type OutputOf<F, S, K extends string, C extends readonly unknown[], X extends readonly unknown[]> =
  F extends ProcessTableFunction<infer A, unknown, infer O>
    ? Flatten<Merge<ExtraKeys<PrefixColumns<TableTraitsOf<A>, S, K>, X>, FunctionColumns<O>> & RowtimeColumn<A, C>>
    : Record<string, unknown>;

/** The tables among a call's arguments, in order, as [schema, PARTITION BY keys]. */
type TablesIn<A extends readonly unknown[]> =
  A extends readonly [infer H, ...infer R]
    ? H extends TableArgType<infer S, infer K> ? [[S, K], ...TablesIn<R>]
      : H extends { readonly __schema: infer S; readonly __mode: unknown } ? [[S, never], ...TablesIn<R>]
      : TablesIn<R>
    : [];

/** Adds the key columns of further tables to a prefix. */
type ExtraKeys<P, X extends readonly unknown[]> =
  X extends readonly [[infer S, infer K extends string], ...infer R] ? ExtraKeys<Merge<P, Pick<S, K & keyof S>>, R> : P;

/** A table passed to a call: positional (`Table`, `PartitionedTable`) or named (`asArgument`). Carries S and K. */
export interface TableArgType<S, K extends string> {
  readonly __tableArg: { readonly schema: S; readonly keys: K };
}

/** Output schema of `env.fromCall(F, ...args)`: the first table among the arguments and the others, if any. */
export type FromCallOutput<F, A extends readonly unknown[]> =
  TablesIn<A> extends readonly [[infer S, infer K extends string], ...infer R] ? OutputOf<F, S, K, A, R>
  : ProcessOutput<F, {}, never>;

/**
 * An updating table (`"retract"` / `"upsert"`) passed to a table argument without SUPPORT_UPDATES is a
 * compile error (Flink fails at planning: V-27). A table whose mode is not known statically is checked
 * when the call is planned.
 */
export type CheckUpdatingInput<M, F> =
  [M] extends ["append"] ? unknown
  : "append" extends M ? unknown
  : F extends ProcessTableFunction<infer A, unknown, unknown>
    ? ("SUPPORT_UPDATES" extends TableTraitsOf<A> ? unknown
      : TableTypeError<"an updating table needs a table argument declared with ArgumentTrait.SUPPORT_UPDATES">)
    : unknown;

export type { TableTrait };
