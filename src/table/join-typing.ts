import type { TCol, TableTypeError } from "../expressions/type-level.js";
import type { ChangelogKind } from "./table.js";
import type { Detached, NodeOfExpr } from "./typing.js";

/**
 * Type-level rules of the joins: both schemas must have distinct column names (Flink requires it), the
 * result is both schemas (an outer join's partner columns become nullable), and the predicate is checked
 * against the result schema with the rules of `filter` (PredicateArg).
 */

type Untyped<S> = string extends keyof S ? true : false;
type Shared<S, S2> = Untyped<S> extends true ? never : Untyped<S2> extends true ? never : Extract<keyof S, keyof S2> & string;

/** The right table of a join, or an error naming a column both tables have. */
export type JoinRight<S, S2, T> = [Shared<S, S2>] extends [never] ? T
  : TableTypeError<`column '${Shared<S, S2>}' exists on both sides of the join; rename one of them (renameColumns or as)`>;

type Nullable<S> = { [K in keyof S]: S[K] | null };

/** Columns of both tables; `L`/`R` make the left/right columns nullable (the padded sides of outer joins). */
export type JoinResult<S, S2, L extends boolean, R extends boolean> = Untyped<S> extends true ? S : Untyped<S2> extends true ? S2
  : Detached<(L extends true ? Nullable<S> : S) & (R extends true ? Nullable<S2> : S2)>;

/** An inner join of two insert-only tables is insert-only; anything else retracts what it emitted. */
export type InnerJoinMode<M1 extends ChangelogKind, M2 extends ChangelogKind> =
  [ChangelogKind] extends [M1] ? ChangelogKind : [ChangelogKind] extends [M2] ? ChangelogKind
  : [M1 | M2] extends ["append"] ? "append" : "retract";

/** An argument of createTemporalTableFunction: a column of S. */
export type TemporalColumn<S, E> = Untyped<S> extends true ? E
  : NodeOfExpr<E> extends TCol<infer N> ? (N extends keyof S ? E : TableTypeError<`column '${N & string}' is not in the table`>)
  : TableTypeError<"expected a column reference $(\"...\")">;
