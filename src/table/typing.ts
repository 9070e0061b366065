/**
 * Type-level rules of the Table API: how each method's arguments are checked against the table's
 * schema `S` (an object type, column name -> TypeScript value type) and how its result schema and
 * changelog kind are computed. The expression side (resolving `$("age").plus(1)` against `S`) lives
 * in ../expressions/type-level.ts. docs/typing.md explains the design; in short:
 *
 * - A method takes its items as a `const` tuple `A` and its parameter type is `Validated<A, C>`:
 *   `A` itself when every item checks, else the tuple with a `TableTypeError<"...">` in place of each
 *   bad item, so the compiler's message quotes the problem at the call.
 * - Result schemas are `Detached`: rebuilt from their column types, so a schema never refers to the
 *   schema it came from and a chain of hundreds of calls stays shallow for the compiler (naive
 *   flattening at every step hits TypeScript's "excessively deep" error after ~50 calls).
 * - The helpers are plain conditional and mapped types; ts-toolbelt is not used (its union-to-list
 *   fails on wide schemas; docs/typing.md).
 */
import type { Expression } from "../expressions/expression.js";
import type {
  Category, ColumnNames, HasAgg, NotInColumns, OutputName, Resolve, TAlias, TCol, TErr, TableTypeError,
} from "../expressions/type-level.js";
import type { ChangelogKind } from "../plan/planning-context.js";
import type { ColumnSetCheck, ColumnSetColumns, IsColumnSet } from "./column-typing.js";

// ---- schemas --------------------------------------------------------------------------------------

export type { Flatten } from "../types/flatten.js";
import type { Flatten } from "../types/flatten.js";

/**
 * A result schema rebuilt from its columns, `{ a: A } & { b: B }` flattened, so that it keeps no
 * reference to the schema it was computed from. This is what lets a chain of hundreds of calls
 * type-check: for every generic method call the compiler re-instantiates the receiver's schema type
 * argument, walking everything that type was built from. A schema computed as a mapped type over
 * the previous schema nests one level per call, and past ~50 calls the walk exceeds the compiler's
 * instantiation depth (TS2589, "excessively deep"). Built from `Column<name, value>` pieces whose
 * arguments are the (already computed) column types, the walk stays shallow (docs/typing.md).
 */
export type Detached<T> = Flatten<UnionToIntersection<{ [K in keyof T]-?: Column<K, T[K]> }[keyof T]>>;
type Column<K extends PropertyKey, V> = { [P in K]: V };
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

// ---- items ----------------------------------------------------------------------------------------

export type { NodeOfExpr } from "../expressions/expression.js";
import type { NodeOfExpr } from "../expressions/expression.js";

/** The message of a `TErr` anywhere in a resolved type, or never. */
type ErrorOf<R> = R extends TErr<infer M> ? M : never;

/**
 * `A` when the checked tuple `C` equals it (every item passed), else `C`, which holds a
 * `TableTypeError` for each bad item. A parameter of this type keeps `A` inferable (the true
 * branch is `A` itself) and makes a bad call read
 * `... not assignable to parameter of type 'readonly [TableTypeError<"column 'agee' is not in [age, name]">]'`.
 */
export type Validated<A extends readonly unknown[], C extends readonly unknown[]> = [C] extends [A] ? A : NoInference<C>;
/**
 * The checked tuple is never a place to infer A from. TypeScript 5.4's `NoInfer<T>` says that, but
 * 5.0 to 5.3 do not have it; indexing with a deferred conditional blocks inference the same way on
 * every version from 5.0 on.
 */
type NoInference<T> = [T][T extends unknown ? 0 : never];

/**
 * Items given as a spread array (`select(...cols)`) rather than a list: their count and names are only
 * known at run time, so the result is an untyped schema (checked when the plan is built).
 */
type IsDynamic<A extends readonly unknown[]> = number extends A["length"] ? true : false;

/** The first element of a tuple that appears twice, or never. A name known only at run time (`string`) is checked there. */
type DuplicateOf<T extends readonly unknown[], Seen = never> =
  T extends readonly [infer H, ...infer R] ? (H extends Seen ? H : DuplicateOf<R, string extends H ? Seen : Seen | H>) : never;

/** Output column names of select items, in order (alias, column name, or `_c<i>`). */
export type NamesOf<A extends readonly unknown[]> = { [I in keyof A]: OutputName<NodeOfExpr<A[I]>, I> };

/** Whether any item contains an aggregate call. */
export type AnyAgg<A extends readonly unknown[]> =
  true extends { [I in keyof A]: HasAgg<NodeOfExpr<A[I]>> }[number] ? true : false;

/** Columns a non-aggregated reference may use: all of them, or none once an item aggregates (global aggregate). */
type RowContext<A extends readonly unknown[]> = AnyAgg<A> extends true ? never : string;

/** Item E at position I, or the TableTypeError that replaces it. */
type ItemCheck<S, E, G extends string, Name, Dup> =
  IsColumnSet<NodeOfExpr<E>> extends true ? (ColumnSetCheck<S, NodeOfExpr<E>> extends infer C ? (unknown extends C ? E : C) : never)
  : ErrorOf<Resolve<S, NodeOfExpr<E>, G>> extends infer M extends string
    ? [M] extends [never]
      ? ([Dup] extends [never] ? E : [Name] extends [Dup] ? TableTypeError<`output column '${Name & string}' appears more than once`> : E)
      : TableTypeError<M>
    : never;

type CheckItems<S, A extends readonly unknown[], G extends string, Names extends readonly unknown[]> =
  { [I in keyof A]: ItemCheck<S, A[I], G, Names[I & keyof Names], DuplicateOf<Names>> };

/** Schema of select items over S; `G` as in Resolve. */
export type SelectSchema<S, A extends readonly unknown[], G extends string = string> = IsDynamic<A> extends true ? Record<string, unknown>
  : true extends { [I in keyof A]: IsColumnSet<NodeOfExpr<A[I]>> }[number] ? ColumnSetSchema<S, A, G>
  : Detached<{ [I in keyof A & `${number}` as OutputName<NodeOfExpr<A[I]>, I>]: Resolve<S, NodeOfExpr<A[I]>, G> }>;

/** A select with column functions (column-typing.ts): their columns plus the other items'. */
type ColumnSetSchema<S, A extends readonly unknown[], G extends string> =
  { [I in keyof A]: IsColumnSet<NodeOfExpr<A[I]>> extends true ? ColumnSetColumns<S, NodeOfExpr<A[I]>> : never }[number] extends infer Sets
    ? (false extends Sets ? Record<string, unknown>
      : Detached<{ [I in keyof A & `${number}` as IsColumnSet<NodeOfExpr<A[I]>> extends true ? never : OutputName<NodeOfExpr<A[I]>, I>]: Resolve<S, NodeOfExpr<A[I]>, G> }
        & UnionToIntersection<Sets>>)
    : never;

// ---- select / groupBy ----------------------------------------------------------------------------

/** Arguments of `select`: known columns, well-typed expressions, unique output names. */
export type SelectArgs<S, A extends readonly unknown[]> = Validated<A, CheckItems<S, A, RowContext<A>, NamesOf<A>>>;
/** Result schema of `select`. */
export type SelectResult<S, A extends readonly unknown[]> = SelectSchema<S, A, RowContext<A>>;
/** An aggregate without groupBy makes an updating (retracting) table. */
export type SelectMode<A extends readonly unknown[], M extends ChangelogKind> = AnyAgg<A> extends true ? "retract" : M;

/** Arguments of `groupBy`: valid expressions, no aggregates. */
export type GroupKeyArgs<S, K extends readonly unknown[]> = Validated<K, {
  [I in keyof K]: HasAgg<NodeOfExpr<K[I]>> extends true ? TableTypeError<"aggregate functions are not allowed as grouping keys">
    : ItemCheck<S, K[I], string, NamesOf<K>[I & keyof NamesOf<K>], DuplicateOf<NamesOf<K>>>;
}>;

/** Grouping key names (a key that is an expression allows any column: checked at run time). */
export type KeyNames<K extends readonly unknown[]> = {
  [I in keyof K]: NodeOfExpr<K[I]> extends TCol<infer N> ? N : NodeOfExpr<K[I]> extends TAlias<string, TCol<infer N>> ? N : string;
}[number];

/** Arguments of `groupBy(...).select`: outside aggregates only grouping keys `G`. */
export type GroupSelectArgs<S, A extends readonly unknown[], G extends string> = Validated<A, CheckItems<S, A, G, NamesOf<A>>>;

// ---- filter ---------------------------------------------------------------------------------------

/** The argument of `filter`/`where`: a BOOLEAN expression over S without aggregates. */
export type PredicateArg<S, E> =
  HasAgg<NodeOfExpr<E>> extends true ? TableTypeError<"aggregate functions are not allowed in a filter condition">
  : Resolve<S, NodeOfExpr<E>> extends infer R
    ? [ErrorOf<R>] extends [never]
      ? (Category<R> extends "BOOLEAN" | "NULL" | "ANY" ? E : TableTypeError<`the filter condition must be BOOLEAN, got ${Category<R>}`>)
      : TableTypeError<ErrorOf<R>>
    : never;

// ---- addColumns / addOrReplaceColumns -----------------------------------------------------------------

/**
 * Name of an added column: its alias or column name. An unnamed expression would be called
 * `_c<n>` after its position in the output (Flink); the types require a name instead (see AddCheck),
 * because computing n means counting S's columns on every call.
 */
type AddedName<X> = X extends TAlias<infer A, unknown> ? A : X extends TCol<infer N> ? N : never;
type AddedNames<A extends readonly unknown[]> = { [I in keyof A]: AddedName<NodeOfExpr<A[I]>> };

type AddCheck<S, A extends readonly unknown[], Replace extends boolean> = {
  [I in keyof A]: AddItemCheck<S, A[I], AddedNames<A>[I & keyof AddedNames<A>], DuplicateOf<AddedNames<A>>, Replace,
    Replace extends true ? "addOrReplaceColumns" : "addColumns">;
};
type AddItemCheck<S, E, Name, Dup, Replace extends boolean, What extends string> =
  [Name] extends [never] ? TableTypeError<`${What}: name the new column with .as("name")`>
  : HasAgg<NodeOfExpr<E>> extends true ? TableTypeError<`aggregate functions are not allowed in ${What}`>
  : ItemCheck<S, E, string, Name, Dup> extends infer C
    ? C extends TableTypeError<string> ? C
      : Replace extends false
        ? (Name extends keyof S ? TableTypeError<`column '${Name & string}' already exists; use addOrReplaceColumns`> : C)
        : C
    : never;

type AddedSchema<S, A extends readonly unknown[]> = {
  [I in keyof A & `${number}` as AddedName<NodeOfExpr<A[I]>>]: Resolve<S, NodeOfExpr<A[I]>>;
};

/** Arguments of `addColumns`: valid, new and distinct names, no aggregates. */
export type AddArgs<S, A extends readonly unknown[]> = Validated<A, AddCheck<S, A, false>>;
/** Schema after `addColumns`. */
export type AddResult<S, A extends readonly unknown[]> = IsDynamic<A> extends true ? Record<string, unknown> : Detached<S & AddedSchema<S, A>>;
/** Arguments of `addOrReplaceColumns`: valid, distinct names, no aggregates. */
export type AddOrReplaceArgs<S, A extends readonly unknown[]> = Validated<A, AddCheck<S, A, true>>;
/** Schema after `addOrReplaceColumns`: replaced columns take the new type. */
export type AddOrReplaceResult<S, A extends readonly unknown[]> = IsDynamic<A> extends true ? Record<string, unknown>
  : Detached<Omit<S, keyof AddedSchema<S, A>> & AddedSchema<S, A>>;

// ---- renameColumns ----------------------------------------------------------------------------------

type OldOf<X> = X extends TAlias<string, TCol<infer O>> ? O : never;
type NewOf<X> = X extends TAlias<infer N, TCol<string>> ? N : never;
type Olds<A extends readonly unknown[]> = { [I in keyof A]: OldOf<NodeOfExpr<A[I]>> };
type News<A extends readonly unknown[]> = { [I in keyof A]: NewOf<NodeOfExpr<A[I]>> };

type RenameCheck<S, E, Old extends readonly unknown[], New extends readonly unknown[]> =
  NodeOfExpr<E> extends TAlias<infer N extends string, TCol<infer O extends string>>
    ? string extends O | N ? E // names known only at run time
    : O extends keyof S
      ? [O] extends [DuplicateOf<Old>] ? TableTypeError<`column '${O}' is renamed twice`>
        : [N] extends [DuplicateOf<New>] ? TableTypeError<`two columns are renamed to '${N}'`>
        : N extends Exclude<keyof S, Old[number]> ? TableTypeError<`column '${N}' already exists`>
        : E
      : TableTypeError<NotInColumns<O, S>>
    : TableTypeError<`renameColumns takes items of the form $("old").as("new")`>;

/** Arguments of `renameColumns`: `$("old").as("new")` over existing columns, names unique afterwards. */
export type RenameArgs<S, A extends readonly unknown[]> =
  Validated<A, { [I in keyof A]: RenameCheck<S, A[I], Olds<A>, News<A>> }>;

/** Schema after `renameColumns`. */
export type RenameResult<S, A extends readonly unknown[]> = IsDynamic<A> extends true ? Record<string, unknown> : RenamePairs<A> extends infer P
  ? Detached<{ [K in keyof S as K extends (P extends readonly [infer O, unknown] ? O : never) ? (P extends readonly [K, infer N extends string] ? N : never) : K]: S[K] }>
  : never;
type RenamePairs<A extends readonly unknown[]> = {
  [I in keyof A]: NodeOfExpr<A[I]> extends TAlias<infer N, TCol<infer O>> ? readonly [O, N] : never;
}[number];

// ---- dropColumns -------------------------------------------------------------------------------------

type DropName<X> = X extends TCol<infer N> ? N : never;
/** Names removed by `dropColumns`. */
export type DropNames<A extends readonly unknown[]> = { [I in keyof A]: DropName<NodeOfExpr<A[I]>> }[number];

/** Arguments of `dropColumns`: existing columns, and not all of them. */
export type DropArgs<S, A extends readonly unknown[]> = Validated<A, {
  [I in keyof A]: NodeOfExpr<A[I]> extends TCol<infer N>
    ? string extends N ? A[I] // a name known only at run time
    : N extends keyof S
      ? ([Exclude<keyof S, DropNames<A>>] extends [never] ? TableTypeError<"dropColumns cannot drop every column"> : A[I])
      : TableTypeError<NotInColumns<N, S>>
    : TableTypeError<`dropColumns takes column references $("name")`>;
}>;

/** Schema after `dropColumns`. */
export type DropResult<S, A extends readonly unknown[]> = IsDynamic<A> extends true ? Record<string, unknown> : Detached<Omit<S, DropNames<A>>>;

// ---- as ------------------------------------------------------------------------------------------------

/** Positional column names f0..fn of tables made from scalars or Row.of(...). */
type PositionalKey = `f${number}`;
/** Whether S's columns are the positional f0..fn (so `as()` knows their order). */
export type IsPositional<S> = [keyof S] extends [PositionalKey] ? true : false;
/** A table whose schema is not known to the compiler (`Record<string, unknown>`). */
type IsUntyped<S> = string extends keyof S ? true : false;

/** Arguments of `as(...)`: one new name per positional column, all distinct. */
export type AsArgs<S, N extends readonly string[]> =
  IsUntyped<S> extends true ? N
  : Validated<N, IsPositional<S> extends true
    ? (`f${N["length"]}` extends keyof S ? AsCountError<S, N>
      : `f${Minus1<N["length"]>}` extends keyof S
        ? (DuplicateOf<N> extends infer D extends string ? ([D] extends [never] ? N : AsError<N, `as(): name '${D}' is given twice`>) : never)
        : AsCountError<S, N>)
    : AsError<N, "as() renames columns by position and is typed only for tables built from values (f0, f1, ...); use renameColumns($(\"old\").as(\"new\"))">>;
type AsError<N extends readonly unknown[], M extends string> = { [I in keyof N]: TableTypeError<M> };
type AsCountError<S, N extends readonly unknown[]> =
  AsError<N, `as() needs one name per column [${ColumnNames<S>}], got ${N["length"]}`>;

/** `table.as("a", "b")` on a positional schema {f0, f1}: {a: S["f0"], b: S["f1"]}. */
export type AsResult<S, N extends readonly string[]> =
  IsUntyped<S> extends true ? S
  : Detached<{ [I in keyof N & `${number}` as N[I] & string]: S[`f${I}` & keyof S] }>;

// ---- union / distinct --------------------------------------------------------------------------------

/** Why two schemas cannot be unioned, or never. Columns match by name and type family. */
type UnionError<S, S2> =
  IsUntyped<S> extends true ? never
  : IsUntyped<S2> extends true ? never
  : [Exclude<keyof S, keyof S2>] extends [never]
    ? ([Exclude<keyof S2, keyof S>] extends [never]
      ? { [K in keyof S]: CompatibleFamilies<S[K], S2[K & keyof S2]> extends true ? never
          : `union: column '${K & string}' is ${Category<S[K]>} in this table but ${Category<S2[K & keyof S2]>} in the other` }[keyof S]
      : `union: the other table has columns this one lacks: [${ColumnNames<Pick<S2, Exclude<keyof S2, keyof S>>>}]`)
    : `union: the other table lacks columns [${ColumnNames<Pick<S, Exclude<keyof S, keyof S2>>>}]`;
type CompatibleFamilies<A, B> =
  Category<A> extends "NULL" | "ANY" ? true : Category<B> extends "NULL" | "ANY" ? true : Category<A> extends Category<B> ? true : false;

/** The argument of `union`/`unionAll`: a table with the same columns (by name and type family). */
export type UnionArg<S, S2, T> = [UnionError<S, S2>] extends [never] ? T : TableTypeError<UnionError<S, S2> & string>;
/** Union schema: a column is nullable if it is nullable in either table. */
export type UnionResult<S, S2> = IsUntyped<S> extends true ? S : Detached<{ [K in keyof S]: S[K] | S2[K & keyof S2] }>;

// ---- changelog kinds -------------------------------------------------------------------------------

/** UNION ALL of two changelogs: insert-only if both are; retracting if either retracts. */
export type UnionMode<M1 extends ChangelogKind, M2 extends ChangelogKind> =
  [ChangelogKind] extends [M1] ? ChangelogKind
  : [ChangelogKind] extends [M2] ? ChangelogKind
  : "retract" extends M1 | M2 ? "retract"
  : "upsert" extends M1 | M2 ? "upsert"
  : "append";
/** DISTINCT keeps an insert-only table insert-only; otherwise it retracts what it emitted. */
export type DistinctMode<M extends ChangelogKind> =
  [ChangelogKind] extends [M] ? ChangelogKind : [M] extends ["append"] ? "append" : "retract";

// ---- small arithmetic --------------------------------------------------------------------------------

type Tuple<N extends number, Acc extends readonly 0[] = []> = Acc["length"] extends N ? Acc : Tuple<N, [...Acc, 0]>;
type Minus1<N extends number> = Tuple<N> extends readonly [0, ...infer R] ? R["length"] : never;
