/**
 * Compile-time checks of a PTF call (`process`, `fromCall`, `asArgument`), the type-level half of
 * call-arguments.ts and call.ts: argument names and count, scalar argument types, PARTITION BY against the
 * declared semantics, and `on_time`. Each problem is a `TableTypeError` that names the argument; the run time
 * reports the same problems with Flink's wording (docs/ptf.md, docs/typing.md).
 *
 * Object keys have no order at the type level, so a positional call is matched against the declared
 * arguments as a set: its count is checked exactly, and each positional value against the scalar arguments'
 * types (exact when the function has one scalar argument, or all of one type family). Named calls are
 * checked exactly.
 */
import type { Category, ColumnNames, TableTypeError, TLit } from "../expressions/type-level.js";
import type { ColumnList } from "../types/data-type.js";
import type { ScalarArgDecl, TableArgDecl } from "./arguments.js";
import type { ProcessTableFunction } from "./function.js";
import type { TableTrait } from "./traits.js";

/** The table `process` was called on: its schema and PARTITION BY keys (`never`: not partitioned). */
export interface ImplicitTable<S, K extends string> { readonly schema: S; readonly keys: K }

type DeclsOf<F> = F extends ProcessTableFunction<infer D, unknown, unknown> ? D : never;

type TraitsOf<X> = X extends TableArgDecl<unknown, infer T> ? T : never;
type TableNames<D> = { [K in keyof D]: D[K] extends TableArgDecl<unknown, TableTrait> ? K : never }[keyof D] & string;
type ScalarNames<D> = { [K in keyof D]: D[K] extends ScalarArgDecl<unknown, boolean> ? K : never }[keyof D] & string;
type RequiredScalarNames<D> = { [K in keyof D]: D[K] extends ScalarArgDecl<unknown, false> ? K : never }[keyof D] & string;
type ScalarTypeOf<X> = X extends ScalarArgDecl<infer T, boolean> ? T : never;
/** Table arguments that need `on_time` (REQUIRE_ON_TIME). */
type OnTimeTables<D> = { [K in keyof D]: "REQUIRE_ON_TIME" extends TraitsOf<D[K]> ? K : never }[keyof D] & string;
/** Whether a declared table argument must be partitioned (set semantics without OPTIONAL_PARTITION_BY). */
type NeedsPartition<X> = "SET_SEMANTIC_TABLE" extends TraitsOf<X> ? ("OPTIONAL_PARTITION_BY" extends TraitsOf<X> ? false : true) : false;
type IsRowSemantics<X> = "ROW_SEMANTIC_TABLE" extends TraitsOf<X> ? true : false;

/** The declared number of arguments (keys of an object type, counted without an order). */
type CountOf<U, Acc extends readonly 0[] = []> =
  [U] extends [never] ? Acc["length"] : CountOf<Exclude<U, LastOf<U>>, [...Acc, 0]>;
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type LastOf<U> = UnionToIntersection<U extends unknown ? () => U : never> extends () => infer L ? L : never;

// ---- what a call passes ----------------------------------------------------------------------------

/** The name of a named argument (`asArgument("x")`), or never for a positional one. */
type NameOf<X> = X extends { readonly __argName: infer N extends string } ? (string extends N ? never : N) : never;
/** A table argument: schema and PARTITION BY keys; never for a scalar. */
type TableOf<X> =
  X extends { readonly __tableArg: { readonly schema: infer S; readonly keys: infer K } } ? ImplicitTable<S, K & string>
  : X extends { readonly __schema: infer S; readonly __mode: unknown } ? ImplicitTable<S, never>
  : never;
/** The type-level node of a scalar value: an expression's node or a JS value's literal. */
type ValueNode<X> = X extends { readonly __node: infer N } ? N : TLit<X>;
/** The value type of a scalar, when it is a literal (`100`, `lit(100)`, a cast); unknown otherwise. */
type ValueType<X> = ValueNode<X> extends TLit<infer T> ? T : unknown;
type DescriptorNames<X> = ValueNode<X> extends TLit<ColumnList, infer N extends readonly string[]> ? N[number] : never;
type IsDescriptor<X> = ValueNode<X> extends TLit<ColumnList> ? true : false;

/** Columns of every table in the call (for on_time). */
type CallColumns<I, A extends readonly unknown[]> =
  (I extends ImplicitTable<infer S, string> ? keyof S : never) | { [J in keyof A]: TableOf<A[J]> extends ImplicitTable<infer S, string> ? keyof S : never }[number];

// ---- messages ------------------------------------------------------------------------------------

type ScalarMismatch<N extends string, Expected, Got> =
  Category<Got> extends "NULL" ? (null extends Expected ? never : `argument '${N}' is NOT NULL, got NULL`)
  : Category<Got> extends "ANY" ? never
  : Category<Expected> extends "ANY" ? never
  : Category<Got> extends Category<Expected> ? never
  : `argument '${N}' expects a ${Category<Expected>} value, got ${Category<Got>}`;

type PartitionProblem<N extends string, Decl, T> =
  T extends ImplicitTable<unknown, infer K>
    ? ([K] extends [never]
      ? (NeedsPartition<Decl> extends true ? `table argument '${N}' has set semantics: call partitionBy(...) on the table first` : never)
      : IsRowSemantics<Decl> extends true ? `table argument '${N}' has row semantics and cannot be partitioned: remove partitionBy(...)` : never)
    : never;

type OnTimeProblem<X, Cols> =
  IsDescriptor<X> extends true
    ? (Exclude<DescriptorNames<X>, Cols> extends infer U extends string
      ? ([U] extends [never] ? never : `on_time column '${U}' is not in [${ColumnNames<Record<Cols & string, unknown>>}]`)
      : never)
    : `argument 'on_time' expects descriptor(<time column>)`;

// ---- named calls ---------------------------------------------------------------------------------

type NamedProblem<D, X, N extends string, Cols> =
  N extends "on_time" ? OnTimeProblem<X, Cols>
  : N extends "uid" ? (Category<ValueType<X>> extends "STRING" | "ANY" ? never : `argument 'uid' expects a STRING, got ${Category<ValueType<X>>}`)
  : N extends TableNames<D> ? ([TableOf<X>] extends [never] ? `argument '${N}' expects a table: table.asArgument('${N}')` : PartitionProblem<N, D[N], TableOf<X>>)
  : N extends ScalarNames<D> ? ([TableOf<X>] extends [never] ? ScalarMismatch<N, ScalarTypeOf<D[N]>, ValueType<X>> : `argument '${N}' expects a scalar value, got a table`)
  : `unknown argument '${N}'; the arguments are [${ColumnNames<D>}, on_time, uid]`;

type GivenNames<A extends readonly unknown[]> = { [J in keyof A]: NameOf<A[J]> }[number];

// ---- positional calls ----------------------------------------------------------------------------

/** Number of declared argument slots a positional call fills itself (the implicit table takes one). */
type OwnSlots<D, I> = [I] extends [never] ? CountOf<keyof D> : Minus1<CountOf<keyof D>>;
// (`never` and `number` stop at once: the compiler also instantiates these with a signature's constraints)
type Tuple<N extends number, Acc extends readonly 0[] = []> =
  [N] extends [never] ? Acc : number extends N ? Acc : Acc["length"] extends N ? Acc : Acc["length"] extends 40 ? Acc : Tuple<N, [...Acc, 0]>;
type Minus1<N extends number> = Tuple<N> extends readonly [0, ...infer R] ? R["length"] : never;
type LessThan<A extends number, B extends number> = Tuple<B> extends readonly [...Tuple<A>, 0, ...unknown[]] ? true : false;
type IndexOf<J> = J extends `${infer I extends number}` ? I : never;

type PositionalProblem<D, X, J extends number, Own extends number, Cols> =
  LessThan<J, Own> extends true
    ? ([TableOf<X>] extends [never]
      ? (X extends null | undefined ? never
        : IsDescriptor<X> extends true ? (DeclaresDescriptor<D> extends true ? never : `argument ${Plus1<J>} is a descriptor, but the function's arguments come first; on_time is argument ${Plus1<Own>}`)
        : PositionalScalarProblem<D, J, ValueType<X>>)
      : PartitionProblemAny<D, TableOf<X>>)
    : J extends Own ? (X extends null | undefined ? never : OnTimeProblem<X, Cols>)
    : J extends Plus1<Own> ? (Category<ValueType<X>> extends "STRING" | "ANY" | "NULL" ? never : `argument 'uid' expects a STRING, got ${Category<ValueType<X>>}`)
    : `too many arguments: the function takes ${Own} argument(s) [${ColumnNames<D>}], then on_time and uid`;
type Plus1<N extends number> = [...Tuple<N>, 0]["length"] & number;
type DeclaresDescriptor<D> = true extends { [K in keyof D]: D[K] extends ScalarArgDecl<ColumnList | null, boolean> ? true : false }[keyof D] ? true : false;

/** A positional value against the scalar arguments (the one it must match, or all when several might). */
type PositionalScalarProblem<D, J extends number, Got> =
  [ScalarNames<D>] extends [never] ? `argument ${Plus1<J>}: the function has no scalar arguments`
  : true extends { [K in ScalarNames<D>]: [ScalarMismatch<K, ScalarTypeOf<D[K]>, Got>] extends [never] ? true : false }[ScalarNames<D>] ? never
  : CountOf<ScalarNames<D>> extends 1 ? ScalarMismatch<ScalarNames<D>, ScalarTypeOf<D[ScalarNames<D>]>, Got>
  : `argument ${Plus1<J>} matches none of the arguments [${ColumnNames<Pick<D, ScalarNames<D>>>}], got ${Category<Got>}`;

/** A table passed by position: checked against every table argument (there is one, or all have set semantics). */
type PartitionProblemAny<D, T> = { [K in TableNames<D>]: PartitionProblem<K, D[K], T> }[TableNames<D>];

// ---- the checks ----------------------------------------------------------------------------------

/** Per argument: `unknown` when it is right, else a TableTypeError naming the argument. */
export type CheckCall<F, I, A extends readonly unknown[]> =
  [F] extends [never] ? unknown[]
  : F extends string ? unknown[]
  : DeclsOf<F> extends infer D
    ? KnownDecls<D> extends false ? unknown[]
    : ([GivenNames<A>] extends [never]
      ? { [J in keyof A]: PositionalProblem<D, A[J], IndexOf<J>, OwnSlots<D, I>, CallColumns<I, A>> extends infer P
          ? ([P] extends [never] ? unknown : TableTypeError<P & string>) : never }
      : { [J in keyof A]: NameOf<A[J]> extends infer N extends string
          ? ([N] extends [never] ? TableTypeError<"cannot mix positional and named arguments: pass all with asArgument(...)">
            : NamedProblem<D, A[J], N, CallColumns<I, A>> extends infer P ? ([P] extends [never] ? unknown : TableTypeError<P & string>) : never)
          : never })
    : never;

/**
 * The rest parameter of a call: `A` itself when every argument passes, else `A` with a `TableTypeError` in
 * place of each wrong argument. The compiler then reports the wrong argument alone (`Argument of type
 * 'string' is not assignable to parameter of type 'TableTypeError<"argument 'limit' expects a NUMERIC value,
 * got STRING">'`) rather than the whole argument list intersected with the errors.
 */
export type CheckedArgs<F, I, A extends readonly unknown[]> =
  CheckCall<F, I, A> extends infer C extends readonly unknown[]
    ? (true extends { [J in keyof C]: unknown extends C[J] ? false : true }[number]
      ? NoInference<{ [J in keyof A]: unknown extends C[J & keyof C] ? A[J] : C[J & keyof C] }>
      : A)
    : A;
/** Not a place to infer A from (`NoInfer`, which TypeScript 5.0 to 5.3 lack; as in table/typing.ts). */
type NoInference<T> = [T][T extends unknown ? 0 : never];

/** Whether D lists the declared arguments (not a function typed only as "some PTF"). */
type KnownDecls<D> = unknown extends D ? false : string extends keyof D ? false : true;

/** Problems of the call as a whole (a missing argument, the implicit table's PARTITION BY), or never. */
export type CallProblem<F, I, A extends readonly unknown[]> =
  F extends string ? never
  : DeclsOf<F> extends infer D
    ? KnownDecls<D> extends false ? never
      : ImplicitProblem<D, I>
        // (an unknown name is reported on the argument itself: it is likely the "missing" one misspelled)
        | ([Exclude<GivenNames<A>, keyof D | "on_time" | "uid">] extends [never] ? MissingProblem<D, I, A> | OnTimeMissing<D, I, A> : never)
    : never;

/**
 * The type of the function parameter: `F` itself, or the error of a call-level problem. Not `F & error`,
 * so that the message reads `... not assignable to parameter of type 'TableTypeError<"missing required
 * argument(s): [limit]">'` instead of ending a line that spells out the function's whole type. F is still
 * inferred from the argument (the compiler infers from both branches).
 */
export type CheckedFunction<F, I, A extends readonly unknown[]> =
  [CallProblem<F, I, A>] extends [never] ? F : TableTypeError<FirstOf<CallProblem<F, I, A>> & string>;
type FirstOf<U> = LastOf<U>;

/** `process` on a table: it goes to the (first) table argument. */
type ImplicitProblem<D, I> =
  [I] extends [never] ? never
  : [TableNames<D>] extends [never] ? "the function has no table argument: call it with env.fromCall(...)"
  : PartitionProblemAny<D, I>;

type MissingProblem<D, I, A extends readonly unknown[]> =
  [GivenNames<A>] extends [never]
    ? (LessThan<PositionalDeclared<A, OwnSlots<D, I>>, RequiredCount<D, I>> extends true
      ? `missing required argument(s): [${ColumnNames<Pick<D, RequiredScalarNames<D>>>}]` : never)
    : Exclude<RequiredScalarNames<D>, GivenNames<A>> extends infer M extends string
      ? ([M] extends [never]
        ? ([I] extends [never]
          ? (Exclude<TableNames<D>, GivenNames<A>> extends infer T extends string ? ([T] extends [never] ? never : `missing table argument '${T}'`) : never)
          : never)
        : `missing required argument '${M}'`)
      : never;
/** How many values a positional call must give itself: required scalars and the tables not given by `process`. */
type RequiredCount<D, I> = [...Tuple<CountOf<RequiredScalarNames<D>>>, ...Tuple<[I] extends [never] ? CountOf<TableNames<D>> : Minus1<CountOf<TableNames<D>>>>]["length"] & number;
/** How many of a positional call's values fill declared arguments (DEFAULT/null ones do not count). */
type PositionalDeclared<A extends readonly unknown[], Own extends number> =
  CountOf<{ [J in keyof A]: J extends `${infer X extends number}` ? (LessThan<X, Own> extends true ? (A[J] extends null | undefined ? never : J) : never) : never }[number]>;

type OnTimeMissing<D, I, A extends readonly unknown[]> =
  [OnTimeTables<D>] extends [never] ? never
  : "on_time" extends GivenNames<A> ? never
  : [GivenNames<A>] extends [never]
    ? (`${OwnSlots<D, I>}` extends keyof A ? (A[`${OwnSlots<D, I>}` & keyof A] extends undefined | null ? OnTimeMessage<OnTimeTables<D>> : never) : OnTimeMessage<OnTimeTables<D>>)
    : OnTimeMessage<OnTimeTables<D>>;
type OnTimeMessage<T extends string> = `table argument '${T}' requires on_time: pass descriptor(<its time column>) as on_time`;
