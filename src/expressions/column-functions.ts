import { ValidationError } from "../types/errors.js";
import { Expression } from "./expression.js";
import { type ExprNode, callNode, literal } from "./node.js";
import type { TCol } from "./type-level.js";

/**
 * Column functions (Flink's `withColumns`, `withoutColumns`, `range`, `$("*")`): select many columns at
 * once. They build marker calls (`$withColumns`, `$withoutColumns`, `$range`) that the Table API expands
 * into column references against the input schema before planning (src/table/column-functions.ts).
 */

/** `range(a, b)`: the columns from a to b inclusive, by name or by 1-based position. */
export interface TRange<A, B> { readonly range: [A, B] }
/** A column by its 1-based position. */
export interface TIndex<I extends number> { readonly index: I }
/** `withColumns(...)` / `withoutColumns(...)` over selectors `Sel`. */
export interface TColumns<K extends "with" | "without", Sel extends readonly unknown[]> { readonly columns: K; readonly of: Sel }

/** A column range, for `withColumns(range(2, 4))` / `withoutColumns(range("b", "c"))`. */
export class ColumnRange<A extends string | number = string | number, B extends string | number = string | number> {
  declare readonly __range: TRange<A, B>;
  /** @internal */
  readonly node: ExprNode;
  constructor(readonly from: A, readonly to: B) {
    if (typeof from !== typeof to || (typeof from !== "string" && typeof from !== "number")) {
      throw new ValidationError(`range(${String(from)}, ${String(to)}): give two column names or two 1-based column positions`);
    }
    this.node = callNode("$range", [literal(from), literal(to)]);
  }
}

/** A selector of withColumns / withoutColumns: `$("a")`, a 1-based position, or `range(a, b)`. */
export type ColumnSelector = Expression<TCol<string>> | number | ColumnRange;

type SelectorNode<X> =
  X extends ColumnRange<infer A, infer B> ? TRange<A, B>
  : X extends number ? TIndex<X>
  : X extends Expression<infer N> ? N
  : never;
type SelectorNodes<A extends readonly unknown[]> = { [I in keyof A]: SelectorNode<A[I]> };

/** `range(2, 4)` (positions, 1-based, inclusive) or `range("b", "d")` (names, inclusive, in schema order). */
export function range<const A extends string | number, const B extends A extends string ? string : number>(from: A, to: B): ColumnRange<A, B> {
  return new ColumnRange(from, to);
}

/** The selected columns, in the order selected: `select(withColumns($("a"), range(3, 4)))`. */
export function withColumns<const A extends readonly ColumnSelector[]>(...selectors: A): Expression<TColumns<"with", SelectorNodes<A>>> {
  return new Expression(callNode("$withColumns", selectors.map(selectorNode)));
}

/** All columns except the selected ones, in schema order: `select(withoutColumns(range("b", "c")))`. */
export function withoutColumns<const A extends readonly ColumnSelector[]>(...selectors: A): Expression<TColumns<"without", SelectorNodes<A>>> {
  return new Expression(callNode("$withoutColumns", selectors.map(selectorNode)));
}

function selectorNode(s: unknown, i: number): ExprNode {
  if (s instanceof ColumnRange) return s.node;
  if (typeof s === "number") return literal(s);
  if (s instanceof Expression && s.node.kind === "Column") return s.node;
  throw new ValidationError(`column function selector ${i + 1}: expected $("column"), a 1-based column position or range(a, b)`);
}
