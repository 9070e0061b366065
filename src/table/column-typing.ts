/**
 * Type-level rules of column functions in select / groupBy: `$("*")` stands for all columns,
 * `withColumns($("a"), $("b"))` for the named ones and `withoutColumns($("a"))` for the others, typed
 * exactly. A selector by position or `range(...)` depends on the order of the columns, which a schema
 * type does not have: such a select is typed as `Record<string, unknown>` (the run time expands and types it).
 */
import type { TColumns, TIndex, TRange } from "../expressions/column-functions.js";
import type { NotInColumns, TCol, TableTypeError } from "../expressions/type-level.js";

/** Whether a select item is a column function. */
export type IsColumnSet<X> = X extends TCol<"*"> ? true : X extends TColumns<"with" | "without", readonly unknown[]> ? true : false;

/** The names a selector list names, or `false` when a selector is a position or a range. */
type NamedSelectors<Sel extends readonly unknown[]> =
  [Sel[number]] extends [never] ? never
  : Sel[number] extends TCol<infer N> ? (string extends N ? false : N)
  : false;

/** The columns a column function stands for (`false`: known only at run time). */
export type ColumnSetColumns<S, X> =
  X extends TCol<"*"> ? S
  : X extends TColumns<infer K, infer Sel> ? (NamedSelectors<Sel> extends infer N
    ? ([N] extends [false] ? false : K extends "with" ? { [C in N & keyof S]: S[C] } : { [C in Exclude<keyof S, N>]: S[C] })
    : never)
  : never;

/** `unknown` when every named selector is a column of S, else the TableTypeError for the first missing one. */
export type ColumnSetCheck<S, X> =
  X extends TColumns<"with" | "without", infer Sel>
    ? { [I in keyof Sel]: Sel[I] extends TCol<infer N> ? (N extends keyof S | "*" ? never : string extends N ? never : NotInColumns<N, S>) : Sel[I] extends TIndex<number> | TRange<unknown, unknown> ? never : "withColumns / withoutColumns take $(\"column\"), a 1-based position or range(a, b)" }[number] extends infer M
      ? ([M] extends [never] ? unknown : TableTypeError<M & string>)
      : never
    : unknown;
