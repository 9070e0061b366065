import { Expression } from "../expressions/expression.js";
import { type ExprNode, callNode, literal } from "../expressions/node.js";
import type { SubqueryCall } from "../expressions/sql-expression.js";
import { AggregateFunction } from "../functions/aggregate-function.js";
import type { DataType } from "../types/data-type.js";
import { ExecutionError, ValidationError } from "../types/errors.js";
import type { FromItem, Query, SelectQuery } from "../sql/ast.js";
import { containsAgg } from "../plan/builders.js";
import type { Table } from "./table.js";

type AnyTable = Table<object>;
type Untyped = {
  select(...fields: Expression<unknown>[]): AnyTable;
  filter(predicate: Expression<unknown>): AnyTable;
  groupBy(...keys: Expression<unknown>[]): { select(...fields: Expression<unknown>[]): AnyTable };
  distinct(): AnyTable;
  leftOuterJoin(right: AnyTable, predicate?: Expression<unknown>): AnyTable;
};
const untyped = (t: AnyTable): Untyped => t as unknown as Untyped;

/** A FROM item's columns as the binder names them (sql-binder.ts's Source). */
export interface SubquerySource {
  readonly qualifier: string | undefined;
  readonly columns: ReadonlyMap<string, string>;
}

/** What the rewriter needs of the statement binder. */
export interface SubqueryHost {
  query(q: Query): AnyTable;
  from(f: FromItem): { readonly table: AnyTable; readonly sources: readonly SubquerySource[] };
  resolve(e: ExprNode, sources: readonly SubquerySource[], pos: number): ExprNode;
  at<T>(pos: number, f: () => T): T;
  fail(pos: number, message: string): never;
  typeOf(e: ExprNode, t: AnyTable): DataType;
}

/** Flink's SingleValueAggFunction message, raised when a scalar subquery gives a second row. */
export const SINGLE_VALUE_ERROR = "SingleValueAggFunction received more than one element.";

const sameValue = (a: unknown, b: unknown): boolean =>
  a === b || (a instanceof Date && b instanceof Date && a.getTime() === b.getTime())
  || (typeof a === "object" && a !== null && typeof b === "object" && b !== null && JSON.stringify(a) === JSON.stringify(b));

/** SINGLE_VALUE(x): the one value of its group, NULL without rows, Flink's error on a second row (retractable). */
function singleValue(type: DataType): AggregateFunction {
  return AggregateFunction.define({
    name: "SINGLE_VALUE",
    args: [type.nullable()],
    result: type.nullable(),
    createAccumulator: () => ({ values: [] as unknown[] }),
    accumulate(acc, v) { acc.values.push(v); },
    retract(acc, v) {
      const i = acc.values.findIndex((x) => sameValue(x, v));
      if (i >= 0) acc.values.splice(i, 1);
    },
    getValue(acc) {
      if (acc.values.length > 1) throw new ExecutionError(`${SINGLE_VALUE_ERROR} A scalar subquery returned more than one row`);
      return (acc.values.length === 0 ? null : acc.values[0]) as never;
    },
  }) as unknown as AggregateFunction;
}

const col = (name: string): ExprNode => ({ kind: "Column", name });
const as = (e: ExprNode, name: string): Expression<unknown> => new Expression({ kind: "Alias", name, extraNames: [], expr: e });
const and = (xs: readonly ExprNode[]): ExprNode => (xs.length === 1 ? xs[0]! : { kind: "Call", fn: "and", args: [...xs] });

/** The parts of a subquery's WHERE: conditions on its own columns, and equalities with the outer row. */
interface Correlation {
  readonly local: ExprNode[];
  readonly inner: ExprNode[];
  readonly outer: ExprNode[];
}

/**
 * Subqueries that are not an AND-ed IN / EXISTS of WHERE (those are semi / anti joins, sql-binder.ts): scalar
 * subqueries `(SELECT ...)` in SELECT and WHERE, and IN / EXISTS under OR, NOT or CASE. As Flink's planner
 * decorrelates them, each becomes a LEFT JOIN of the outer rows with the subquery's result, adding hidden
 * columns (`$sq0`, ...) that the expression reads instead of the subquery:
 *
 * - `(SELECT agg FROM t2 WHERE t2.k = t1.k [AND ...])` (correlated by equalities): t2 grouped by k, joined on k;
 * - an uncorrelated `(SELECT ...)`: its rows through SINGLE_VALUE (one row, or Flink's run-time error) joined to
 *   every row;
 * - `x IN (SELECT y ...)`: the distinct y with a TRUE marker, joined on x = y, plus the subquery's row and non-NULL
 *   counts so that the result is SQL's three-valued one (NULL when x is NULL or y has a NULL and nothing matched);
 * - `EXISTS (SELECT ... WHERE inner = outer ...)`: the distinct correlation keys with a marker.
 *
 * `table` is the outer table with the joined columns; `source` names them for the binder's resolve.
 */
export class SubqueryRewriter {
  private n = 0;
  private readonly hidden = new Map<string, string>();

  constructor(private readonly host: SubqueryHost, public table: AnyTable, private readonly outer: readonly SubquerySource[]) {}

  /** Whether any subquery was joined in. */
  get used(): boolean {
    return this.n > 0;
  }

  /** The hidden columns, as one more FROM source (never expanded by `*`). */
  get source(): SubquerySource {
    return { qualifier: undefined, columns: this.hidden };
  }

  /** `e` with every subquery replaced by the expression over the columns joined in for it. */
  rewrite(e: ExprNode): ExprNode {
    switch (e.kind) {
      case "Call":
        if (e.fn === "$subquery") return this.subquery(e as unknown as SubqueryCall);
        return { ...e, args: e.args.map((a) => this.rewrite(a)) };
      case "Alias": return { ...e, expr: this.rewrite(e.expr) };
      default: return e;
    }
  }

  private fresh(): string {
    const name = `$sq${this.n++}`;
    this.hidden.set(name, name);
    return name;
  }

  private join(right: AnyTable, on: ExprNode | undefined, pos: number): void {
    const left = this.table;
    this.table = this.host.at(pos, () => untyped(left).leftOuterJoin(right, on === undefined ? undefined : new Expression(on)));
  }

  private subquery(s: SubqueryCall): ExprNode {
    const q = s.query as Query;
    switch (s.mode) {
      case "SCALAR": return this.scalar(q, s.pos);
      case "EXISTS": return this.exists(q, s.pos);
      case "IN": return this.in(s.args[0]!, q, s.pos);
    }
  }

  /** A simple `SELECT ... FROM ... WHERE ...` (no GROUP BY, HAVING, DISTINCT) whose WHERE reads the outer row. */
  private correlation(q: Query): { q: SelectQuery; bound: ReturnType<SubqueryHost["from"]>; c: Correlation } | undefined {
    if (q.kind !== "Select" || q.where === undefined || q.groupBy !== undefined || q.having !== undefined || q.distinct) return undefined;
    const bound = this.host.from(q.from);
    const c: Correlation = { local: [], inner: [], outer: [] };
    const pos = q.where.pos;
    const conjuncts = splitAnd(q.where.expr);
    for (const x of conjuncts) {
      try {
        c.local.push(this.host.resolve(x, bound.sources, pos));
        continue;
      } catch (e) {
        if (!(e instanceof ValidationError)) throw e;
      }
      const [a, b] = x.kind === "Call" && x.fn === "equals" ? x.args : [];
      const side = (y: ExprNode | undefined, sources: readonly SubquerySource[]): ExprNode | undefined => {
        if (y === undefined) return undefined;
        try { return this.host.resolve(y, sources, pos); } catch (e) { if (e instanceof ValidationError) return undefined; throw e; }
      };
      const ai = side(a, bound.sources), bo = side(b, this.outer), bi = side(b, bound.sources), ao = side(a, this.outer);
      if (ai !== undefined && bo !== undefined) { c.inner.push(ai); c.outer.push(bo); continue; }
      if (bi !== undefined && ao !== undefined) { c.inner.push(bi); c.outer.push(ao); continue; }
      // neither side alone: the condition is wrong (an unknown column) or not an equality with the outer row
      this.host.resolve(x, [...bound.sources, ...this.outer], pos);
      this.host.fail(pos, "a correlated subquery's WHERE may compare the outer row by equalities (inner = outer) joined by AND only");
    }
    return c.inner.length === 0 ? undefined : { q, bound, c };
  }

  private filtered(table: AnyTable, local: readonly ExprNode[], pos: number): AnyTable {
    return local.length === 0 ? table : this.host.at(pos, () => untyped(table).filter(new Expression(and(local))));
  }

  private scalar(q: Query, pos: number): ExprNode {
    const corr = this.correlation(q);
    const value = this.fresh();
    if (corr !== undefined) {
      // decorrelated: one row per correlation key, the select item computed per key, joined on the key
      const { q: sq, bound, c } = corr;
      const items = sq.items ?? [];
      if (items.length !== 1 || items[0]!.star !== undefined) this.host.fail(pos, "a scalar subquery must select exactly one column");
      const keys = c.inner.map(() => this.fresh());
      const input = this.filtered(bound.table, c.local, pos);
      const resolved = this.host.resolve(items[0]!.expr, bound.sources, items[0]!.pos);
      // a plain column per key is that key's one value (Flink: SINGLE_VALUE, an error on a second row)
      const item: ExprNode = containsAgg(resolved) ? resolved
        : { kind: "Agg", fn: "SINGLE_VALUE", args: [resolved], distinct: false, udf: singleValue(this.host.typeOf(resolved, input)) } as ExprNode;
      const grouped = this.host.at(pos, () => untyped(input).groupBy(...c.inner.map((k) => new Expression(k)))
        .select(...c.inner.map((k, i) => as(k, keys[i]!)), as(item, value)));
      this.join(grouped, and(c.outer.map((o, i) => callNode("equals", [o, col(keys[i]!)]))), pos);
      return col(value);
    }
    const right = this.host.query(q);
    const names = right.getResolvedSchema().names;
    if (names.length !== 1) this.host.fail(pos, `a scalar subquery must return one column, it returns ${names.length} [${names.join(", ")}]`);
    const type = right.getResolvedSchema().columns[0]!.type;
    const one = this.host.at(pos, () => untyped(right).groupBy()
      .select(as({ kind: "Agg", fn: "SINGLE_VALUE", args: [col(names[0]!)], distinct: false, udf: singleValue(type) } as ExprNode, value)));
    this.join(one, undefined, pos);
    return col(value);
  }

  private exists(q: Query, pos: number): ExprNode {
    const corr = this.correlation(q);
    const marker = this.fresh();
    if (corr === undefined) {
      // uncorrelated: whether the subquery has a row at all
      const right = this.host.query(q);
      const count = this.host.at(pos, () => untyped(right).groupBy().select(as({ kind: "Agg", fn: "COUNT", args: [], distinct: false }, marker)));
      this.join(count, undefined, pos);
      return callNode("and", [callNode("isNotNull", [col(marker)]), callNode("greaterThan", [col(marker), literal(0)])]);
    }
    const { bound, c } = corr;
    const keys = c.inner.map(() => this.fresh());
    const input = this.filtered(bound.table, c.local, pos);
    const distinct = this.host.at(pos, () => untyped(untyped(input).select(...c.inner.map((k, i) => as(k, keys[i]!)), as(literal(true), marker))).distinct());
    this.join(distinct, and(c.outer.map((o, i) => callNode("equals", [o, col(keys[i]!)]))), pos);
    return callNode("isNotNull", [col(marker)]);
  }

  private in(x: ExprNode, q: Query, pos: number): ExprNode {
    const right = this.host.query(q);
    const names = right.getResolvedSchema().names;
    if (names.length !== 1) this.host.fail(pos, `the subquery of IN (SELECT ...) must return one column, it returns ${names.length} [${names.join(", ")}]`);
    const y = col(names[0]!);
    const outerX = this.host.resolve(x, this.outer, pos);
    const marker = this.fresh();
    const value = this.fresh();
    const distinct = this.host.at(pos, () => untyped(untyped(right).select(as(y, value), as(literal(true), marker))).distinct());
    this.join(distinct, callNode("equals", [outerX, col(value)]), pos);
    const matched = callNode("isNotNull", [col(marker)]);
    const nullable = this.host.typeOf(outerX, this.table).isNullable || right.getResolvedSchema().columns[0]!.type.isNullable;
    if (!nullable) return matched;
    // SQL's three-valued IN: no match is NULL when x is NULL (and the subquery has rows) or a y is NULL
    const rows = this.fresh();
    const nonNull = this.fresh();
    const counts = this.host.at(pos, () => untyped(right).groupBy().select(
      as({ kind: "Agg", fn: "COUNT", args: [], distinct: false }, rows), as({ kind: "Agg", fn: "COUNT", args: [y], distinct: false }, nonNull)));
    this.join(counts, undefined, pos);
    const empty = callNode("or", [callNode("isNull", [col(rows)]), callNode("equals", [col(rows), literal(0)])]);
    const unknown = callNode("or", [callNode("isNull", [x]), callNode("greaterThan", [col(rows), col(nonNull)])]);
    return callNode("if", [matched, literal(true), callNode("if", [empty, literal(false), callNode("if", [unknown, literal(null), literal(false)])])]);
  }
}

function splitAnd(e: ExprNode): ExprNode[] {
  return e.kind === "Call" && e.fn === "and" ? e.args.flatMap(splitAnd) : [e];
}
