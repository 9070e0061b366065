import { Expression } from "../expressions/expression.js";
import type { ExprNode } from "../expressions/node.js";
import { sqlParseError } from "../types/sql-parse-error.js";
import { evaluateConstant } from "../ptf/constant.js";
import { TableArgument } from "../ptf/table-arguments.js";
import { SqlParseError, TableError, ValidationError } from "../types/errors.js";
import { Row } from "../types/row.js";
import { Schema } from "./schema.js";
import type { Table } from "./table.js";
import { TableDescriptor } from "./table-descriptor.js";
import { type PlanNode, type SinkNode, sinkNode } from "../plan/nodes.js";
import type { TableEnvironment } from "./table-environment.js";
import type { DataType } from "../types/data-type.js";
import { DataTypes } from "../types/data-types.js";
import { commonType } from "../types/values.js";
import type { InsertTableResult } from "./insert.js";
import type { CallArg, CreateTableStatement, InsertStatement, StaticPartitionValue, CreateViewStatement, FromItem, OrderedQuery, Query, QueryHint, SelectItem, SelectQuery, SetOpQuery, ValuesQuery, WithQuery } from "../sql/ast.js";
import { didYouMean } from "../sql/closest-name.js";
import { SQL_FUNCTION_NAMES, type SubqueryCall } from "../expressions/sql-expression.js";
import { planSemiJoin } from "../plan/semi-join-builder.js";
import { typeOf } from "../plan/builders.js";
import { ResolvedSchema } from "../types/resolved-schema.js";
import { Table as TableClass } from "./table.js";
import { TemporalTableFunction } from "../functions/temporal-table-function.js";
import { GroupWindow, type GroupWindowDefinition } from "./windows/group-windows.js";
import { OverWindow } from "./windows/over-windows.js";
import { containsOver, overWindowOf } from "./sql-over.js";
import { legacyGroupWindowOf, legacyWindowPropertiesOf } from "./sql-legacy-windows.js";
import { windowTableFunctionNode } from "../plan/nodes/window-table-function.js";
import { windowRankNode } from "../plan/nodes/window-rank.js";
import { planWindowJoin } from "../plan/window-join-builder.js";
import { unnestFunction } from "../sql/unnest.js";
import { type WindowTvfCall, isWindowTvf, mentionsWindowColumn, readWindowTvf, windowPropertiesOf } from "../sql/window-tvf.js";
import { likeSourceError, mergeLike } from "./sql-table-like.js";
import { SubqueryRewriter } from "./sql-subqueries.js";
import { bindLookupJoin } from "./sql-lookup-join.js";
import { bindMatchRecognize } from "./sql-match-recognize.js";
import { insertProjection } from "./sql-insert-columns.js";
import { persistedColumns } from "./sink-columns.js";
import { resolveSchema } from "./schema-resolve.js";

type AnyTable = Table<object>;
/** The fluent API's runtime surface, without its compile-time schema checks (SQL is checked when bound). */
type Untyped = {
  select(...fields: Expression<unknown>[]): AnyTable;
  filter(predicate: Expression<unknown>): AnyTable;
  as(...names: string[]): AnyTable;
  groupBy(...keys: Expression<unknown>[]): { select(...fields: Expression<unknown>[]): AnyTable };
  distinct(): AnyTable;
  join(right: AnyTable, predicate?: Expression<unknown>): AnyTable;
  leftOuterJoin(right: AnyTable, predicate?: Expression<unknown>): AnyTable;
  rightOuterJoin(right: AnyTable, predicate: Expression<unknown>): AnyTable;
  fullOuterJoin(right: AnyTable, predicate: Expression<unknown>): AnyTable;
  orderBy(...fields: Expression<unknown>[]): AnyTable;
  offset(n: number): AnyTable;
  fetch(n: number): AnyTable;
  topN(n: number, spec: { partitionBy: Expression<unknown>[]; orderBy: Expression<unknown>[]; rowNumber?: string; offset: number }): AnyTable;
  deduplicate(spec: { keys: Expression<unknown>[]; keep: "first" | "last"; orderBy?: Expression<unknown> }): AnyTable;
  joinLateral(call: Expression<unknown>, condition?: Expression<unknown>): AnyTable;
  leftOuterJoinLateral(call: Expression<unknown>, condition?: Expression<unknown>): AnyTable;
  unionAll(other: AnyTable): AnyTable;
  union(other: AnyTable): AnyTable;
  intersect(other: AnyTable): AnyTable;
  intersectAll(other: AnyTable): AnyTable;
  minus(other: AnyTable): AnyTable;
  minusAll(other: AnyTable): AnyTable;
  window(w: GroupWindow | OverWindow): { groupBy(...keys: Expression<unknown>[]): { select(...fields: Expression<unknown>[]): AnyTable }; select(...fields: Expression<unknown>[]): AnyTable };
};

/** A window aggregate's FROM: the TVF's input table, its window as a group window named WINDOW_ALIAS, and SESSION's partition. */
interface WindowSource {
  readonly bound: Bound;
  readonly window: GroupWindowDefinition;
  readonly call: WindowTvfCall;
}
const WINDOW_ALIAS = "$window";

/**
 * A FROM item's columns as a query names them: `qualifier` is its alias (or table name), `columns` maps
 * each column name it had to its name in the bound table (a join renames a right column that the left
 * side has too: `id` becomes `id0`, as Flink names it).
 */
interface Source {
  readonly qualifier: string | undefined;
  readonly columns: ReadonlyMap<string, string>;
}
interface Bound {
  readonly table: AnyTable;
  readonly sources: readonly Source[];
}
/** A select item after `*` expansion: star columns are already the bound table's names. */
type StarredItem = { readonly expr: ExprNode; readonly alias: string | undefined; readonly pos: number; readonly resolved?: boolean };
/** A column node as the statement parser leaves it: `t.col` keeps `t` as its qualifier. */
type QualifiedColumn = { kind: "Column"; name: string; qualifier?: string; pos?: number };
const untyped = (t: AnyTable): Untyped => t as unknown as Untyped;

/**
 * Binds parsed statements onto the Table API: a SELECT becomes `from(...)`/`fromCall(...)` +
 * `filter` + `select`, VALUES becomes `fromValues`, CREATE TABLE a TableDescriptor. SQL therefore
 * shares every check, plan node and operator with the fluent API; there is no second execution path.
 * A validation error is re-raised with the line and column of the construct it concerns.
 */
export class Binder {
  constructor(private readonly env: TableEnvironment, private readonly src: string) {}

  /** Runs `f`; a TableError it raises gets the statement position (Flink: "SQL validation failed. From line 1, column 15 ..."). */
  private at<T>(pos: number, f: () => T): T {
    try {
      return f();
    } catch (e) {
      if (e instanceof SqlParseError || !(e instanceof TableError)) throw e;
      throw new ValidationError(`SQL validation failed. ${location(this.src, pos)}: ${e.message}${this.functionHint(e.message)}`, { cause: e });
    }
  }

  /** Raises a ValidationError at a statement position, with Flink's prefix. */
  fail(pos: number, message: string): never {
    throw new ValidationError(`SQL validation failed. ${location(this.src, pos)}: ${message}`);
  }

  /** WITH names in scope (innermost last): looked up before the environment's tables and views. */
  private readonly ctes = new Map<string, AnyTable>();

  /** `; did you mean 'UPPER'?` for an "unknown function 'UPPR'" message: the closest built-in or registered name. */
  private functionHint(message: string): string {
    const m = /unknown function '([^']+)'/.exec(message);
    if (m === null || message.includes("did you mean")) return "";
    return didYouMean(m[1]!, [...SQL_FUNCTION_NAMES, ...this.env.listUserDefinedFunctions()]);
  }

  query(q: Query): AnyTable {
    switch (q.kind) {
      case "Values": return this.values(q, undefined);
      case "Select": return this.select(q);
      case "With": return this.withQuery(q);
      case "SetOp": return this.setOp(q);
      case "Ordered": return this.ordered(q);
    }
  }

  private withQuery(q: WithQuery): AnyTable {
    const saved = new Map(this.ctes);
    try {
      for (const c of q.ctes) {
        const t = this.named(c.query, c.columns, c.pos);
        this.ctes.set(c.name, t);
      }
      return this.query(q.body);
    } finally {
      this.ctes.clear();
      for (const [k, v] of saved) this.ctes.set(k, v);
    }
  }

  /** A query whose columns a list renames (`WITH v (a, b) AS (...)`, `(VALUES ...) AS t (a, b)`). */
  private named(q: Query, columns: readonly string[] | undefined, pos: number): AnyTable {
    if (q.kind === "Values") return this.values(q, columns);
    const t = this.query(q);
    if (columns === undefined) return t;
    const n = t.getResolvedSchema().size;
    if (columns.length !== n) {
      throw new ValidationError(`SQL validation failed. ${location(this.src, pos)}: ${columns.length} column names [${columns.join(", ")}] are given but the query has ${n} columns`);
    }
    return this.at(pos, () => untyped(t).as(...columns));
  }

  private setOp(q: SetOpQuery): AnyTable {
    const left = untyped(this.query(q.left));
    const right = this.query(q.right);
    return this.at(q.pos, () => {
      switch (q.op) {
        case "UNION": return q.all ? left.unionAll(right) : left.union(right);
        case "INTERSECT": return q.all ? left.intersectAll(right) : left.intersect(right);
        case "EXCEPT": return q.all ? left.minusAll(right) : left.minus(right);
      }
    });
  }

  /** ORDER BY / OFFSET / FETCH (LIMIT) over the query's output columns: Table.orderBy / offset / fetch. */
  private ordered(q: OrderedQuery): AnyTable {
    const hidden = this.hiddenOrderKeys(q);
    let t = hidden === undefined ? this.query(q.query) : this.select(hidden.query);
    const source = sourceOf(t, undefined);
    if (q.orderBy.length > 0) {
      const keys = q.orderBy.map((o, i) => new Expression({
        kind: "Sort", ascending: o.ascending, nullsFirst: o.nullsFirst,
        expr: hidden?.names[i] !== undefined ? { kind: "Column", name: hidden.names[i]! } : this.resolve(o.expr, [source], o.pos),
      }));
      const input = t;
      t = this.at(q.orderBy[0]!.pos, () => untyped(input).orderBy(...keys));
      if (hidden !== undefined) {
        // the keys that are not selected are carried to the sort and dropped after it
        const sorted = t;
        const shown = sorted.getResolvedSchema().names.slice(0, hidden.width).map((n) => new Expression({ kind: "Column", name: n }));
        t = this.at(q.pos, () => untyped(sorted).select(...shown));
      }
    }
    const { offset, fetch } = q;
    if (offset !== undefined) { const input = t; t = this.at(q.pos, () => untyped(input).offset(offset)); }
    if (fetch !== undefined) { const input = t; t = this.at(q.pos, () => untyped(input).fetch(fetch)); }
    return t;
  }

  /**
   * `SELECT a FROM t ORDER BY b` with b a column of t that is not selected (Flink sorts by it all the same):
   * the plain SELECT extended by the missing key columns, with the names the sort uses for them; undefined
   * when every key is an output column or the SELECT aggregates or is DISTINCT.
   */
  private hiddenOrderKeys(q: OrderedQuery): { query: SelectQuery; names: (string | undefined)[]; width: number } | undefined {
    const inner = q.query;
    if (inner.kind !== "Select" || inner.items === undefined || inner.distinct || inner.groupBy !== undefined || inner.having !== undefined) return undefined;
    if (inner.items.some((it) => it.star !== undefined)) return undefined;
    const outNames = inner.items.map((it, i) => it.alias ?? (it.expr.kind === "Column" ? it.expr.name : `EXPR$${i}`));
    const names = q.orderBy.map((o, i) => (o.expr.kind === "Column" && (o.expr as QualifiedColumn).qualifier === undefined && !outNames.includes(o.expr.name)
      ? `$order${i}` : undefined));
    if (names.every((n) => n === undefined)) return undefined;
    const extra: SelectItem[] = q.orderBy.flatMap((o, i) => (names[i] === undefined ? [] : [{ expr: o.expr, alias: names[i], pos: o.pos }]));
    return { query: { ...inner, items: [...inner.items, ...extra] }, names, width: inner.items.length };
  }

  private select(given: SelectQuery, preBound?: Bound): AnyTable {
    let q = given;
    if (preBound === undefined) {
      const ranked = this.rankPattern(q);
      if (ranked !== undefined) return ranked;
    }
    // `FROM a, LATERAL TABLE(f(a.x)) r WHERE cond`: the condition is the lateral join's (a temporal join needs its key there)
    if (q.from.kind === "Join" && q.from.joinType === "CROSS" && q.from.right.kind === "Lateral" && q.where !== undefined) {
      q = { ...q, from: { ...q.from, joinType: "INNER", on: q.where.expr }, where: undefined };
    }
    const windowed = preBound === undefined ? this.windowAggregateSource(q) : undefined;
    const from = preBound ?? windowed?.bound ?? this.withHints(q.hints, () => this.from(q.from));
    let sources = from.sources;
    let t = from.table;
    // IN (SELECT ...) / EXISTS (...) conjuncts of WHERE are semi / anti joins after the plain conditions
    const parts = q.where === undefined ? [] : splitAnd(q.where.expr);
    const subqueries = parts.filter(isSubqueryConjunct);
    let plain = parts.filter((p) => !isSubqueryConjunct(p));
    // any other subquery (scalar, or IN / EXISTS under OR, NOT, CASE, in SELECT) is a left join (sql-subqueries.ts)
    const starSources = sources;
    const rewriter = new SubqueryRewriter(this.subqueryHost(), t, sources);
    plain = plain.map((p) => rewriter.rewrite(p));
    if (q.items !== undefined) q = { ...q, items: q.items.map((it) => (it.star === undefined ? { ...it, expr: rewriter.rewrite(it.expr) } : it)) };
    if (rewriter.used) {
      if (windowed !== undefined) throw new ValidationError(`SQL validation failed. ${location(this.src, q.pos)}: a subquery is not supported in a window aggregate's SELECT or WHERE`);
      const aggregating = q.groupBy !== undefined || q.having !== undefined || (q.items ?? []).some((it) => it.star === undefined && containsAgg(it.expr));
      if (aggregating && (q.items ?? []).some((it) => it.star === undefined && mentionsHidden(it.expr))) {
        throw new ValidationError(`SQL validation failed. ${location(this.src, q.pos)}: a subquery in the SELECT list of an aggregate query is not supported; compute it in an outer query`);
      }
      t = rewriter.table;
      sources = [...sources, rewriter.source];
    }
    const where = q.where === undefined || plain.length === 0 ? undefined
      : { pos: q.where.pos, expr: plain.length === 1 ? plain[0]! : { kind: "Call", fn: "and", args: plain } as ExprNode };
    if (where !== undefined) {
      const resolved = this.resolve(where.expr, sources, where.pos);
      if (windowed !== undefined && mentionsWindowColumn(resolved)) {
        throw new ValidationError(`SQL validation failed. ${location(this.src, where.pos)}: a WHERE condition on window_start, window_end or window_time is not supported before a window aggregate; filter its result in an outer query`);
      }
      const cond = new Expression(resolved);
      const input = t;
      t = this.at(where.pos, () => untyped(input).filter(cond));
    }
    for (const s of subqueries) t = this.subqueryJoin(t, sources, s);
    const items = this.expandStars(q, starSources);
    const grouped = q.groupBy !== undefined || q.having !== undefined || items.some((it) => containsAgg(it.expr));
    const exprs = items.map((it, i) => new Expression(selectExpr(it.resolved ? it.expr : this.resolve(it.expr, sources, it.pos), it.alias, i)));
    if (exprs.some((e) => containsOver(e.node))) {
      if (q.groupBy !== undefined || q.having !== undefined) {
        throw new ValidationError(`SQL validation failed. ${location(this.src, (q.groupBy ?? q.having)!.pos)}: OVER aggregates cannot be combined with GROUP BY or HAVING in one SELECT; aggregate in a subquery first`);
      }
      const input = t;
      const { window, items: overItems } = this.at(q.pos, () => overWindowOf(exprs.map((e) => e.node)));
      t = this.at(q.pos, () => untyped(input).window(new OverWindow(window)).select(...overItems.map((e) => new Expression(e))));
    } else if (grouped && q.groupBy?.sets !== undefined) {
      if (windowed !== undefined) throw new ValidationError(`SQL validation failed. ${location(this.src, q.groupBy.pos)}: GROUPING SETS, ROLLUP and CUBE are not supported in a window aggregate`);
      t = this.groupingSets(q, t, sources, items, exprs);
    } else if (grouped) {
      t = this.grouped(q, t, sources, items, exprs, windowed);
    } else if (q.items !== undefined || rewriter.used) {
      // with subqueries joined in, SELECT * drops their hidden columns
      t = this.project(t, items, exprs, q.pos);
    }
    if (q.distinct) { const input = t; t = this.at(q.pos, () => untyped(input).distinct()); }
    return t;
  }

  /**
   * `SELECT ... FROM (SELECT ..., ROW_NUMBER() OVER (PARTITION BY k ORDER BY o) AS rn FROM t) WHERE rn <= N`
   * (also `rn < N`, `rn = N`, `rn BETWEEN a AND b`) as Table.topN; with `rn = 1`, one order key that is a time
   * attribute and rn not selected, as Table.deduplicate (ASC keeps the first row, DESC the last; a proctime
   * key deduplicates in arrival order). Undefined when the query is not of this shape.
   */
  private rankPattern(q: SelectQuery): AnyTable | undefined {
    const f = q.from;
    if (f.kind !== "Subquery" || f.columns !== undefined || f.query.kind !== "Select" || q.where === undefined) return undefined;
    const inner = f.query;
    if (inner.items === undefined || inner.groupBy !== undefined || inner.having !== undefined || inner.distinct) return undefined;
    const at = inner.items.findIndex((it) => it.star === undefined && it.expr.kind === "Call" && it.expr.fn === "$ROW_NUMBER");
    if (at < 0) return undefined;
    const rn = inner.items[at]!.alias ?? `EXPR$${at}`;
    const isRn = (e: ExprNode) => e.kind === "Column" && e.name === rn && ((e as QualifiedColumn).qualifier === undefined || (e as QualifiedColumn).qualifier === f.alias);
    const conjuncts = splitAnd(q.where.expr);
    let range: [number, number] | undefined;
    const bound = conjuncts.findIndex((c) => (range = rankRange(c, isRn)) !== undefined);
    if (bound < 0 || range === undefined) return undefined;
    const [start, end] = range as [number, number];
    if (start > end) throw new ValidationError(`SQL validation failed. ${location(this.src, q.where.pos)}: the condition on '${rn}' selects no row`);
    const rest = conjuncts.filter((_, i) => i !== bound);
    const over = inner.items[at]!.expr as Extract<ExprNode, { kind: "Call" }>;

    // the inner FROM and WHERE, then the Rank / Deduplicate node over it
    const from = this.from(inner.from);
    let t = from.table;
    const where = inner.where;
    if (where !== undefined) {
      const cond = new Expression(this.resolve(where.expr, from.sources, where.pos));
      const input = t;
      t = this.at(where.pos, () => untyped(input).filter(cond));
    }
    const pos = inner.items[at]!.pos;
    const partition = (over.args[0] as Extract<ExprNode, { kind: "Call" }>).args.map((e) => this.resolve(e, from.sources, pos));
    const order = (over.args[1] as Extract<ExprNode, { kind: "Call" }>).args.map((e) => this.resolve(e, from.sources, pos) as Extract<ExprNode, { kind: "Sort" }>);
    const mentionsRn = (e: ExprNode): boolean => isRn(e) || (e.kind === "Call" ? e.args.some(mentionsRn) : e.kind === "Alias" ? mentionsRn(e.expr) : false);
    const outerUsesRn = q.items === undefined || q.items.some((it) => it.star !== undefined || mentionsRn(it.expr)) || rest.some(mentionsRn);
    const schema = t.getResolvedSchema();
    const timeOf = (e: ExprNode) => (e.kind === "Column" && schema.has(e.name) ? schema.column(e.name).type.timeAttribute : undefined);
    const key = order.length === 1 ? order[0]! : undefined;
    const input = t;
    let ranked: AnyTable;
    const windowRank = this.windowRank(input, partition, order, start, end, outerUsesRn, pos);
    if (windowRank !== undefined) {
      ranked = windowRank;
    } else if (start === 1 && end === 1 && !outerUsesRn && key !== undefined && timeOf(key.expr) !== undefined) {
      const keep = key.ascending ? "first" : "last";
      const rowtime = timeOf(key.expr) === "ROWTIME" ? new Expression(key.expr) : undefined;
      ranked = this.at(pos, () => untyped(input).deduplicate({
        keys: partition.map((k) => new Expression(k)), keep, ...(rowtime === undefined ? {} : { orderBy: rowtime }),
      }));
    } else {
      // processing-time order is arrival order: a proctime ASC key orders nothing (Flink's append-fast top-N)
      const keys = order.filter((o) => {
        if (timeOf(o.expr) !== "PROCTIME") return true;
        if (!o.ascending) throw new ValidationError(`SQL validation failed. ${location(this.src, pos)}: a top-N ordered by processing time DESC is not supported; order by an event-time attribute or a column`);
        return false;
      });
      ranked = this.at(pos, () => untyped(input).topN(end - start + 1, {
        partitionBy: partition.map((k) => new Expression(k)), orderBy: keys.map((k) => new Expression(k)), offset: start - 1,
        ...(outerUsesRn ? { rowNumber: "$rn" } : {}),
      }));
    }
    // the inner select list over the ranked rows: ROW_NUMBER() is the rank column (or gone when nobody reads it)
    const rankedSources = from.sources;
    const items: StarredItem[] = [];
    inner.items.forEach((it, i) => {
      if (i === at) {
        if (outerUsesRn) items.push({ expr: { kind: "Alias", name: rn, extraNames: [], expr: { kind: "Column", name: "$rn" } }, alias: undefined, pos: it.pos, resolved: true });
      } else if (it.star !== undefined) {
        items.push(...allColumns(rankedSources, it.star === "" ? undefined : it.star, it.pos));
      } else {
        items.push({ expr: selectExpr(this.resolve(it.expr, rankedSources, it.pos), it.alias, i), alias: undefined, pos: it.pos, resolved: true });
      }
    });
    const projected = this.project(ranked, items, items.map((it) => new Expression(it.expr)), inner.pos);
    const outerWhere = rest.length === 0 ? undefined : { expr: rest.length === 1 ? rest[0]! : { kind: "Call", fn: "and", args: rest } as ExprNode, pos: q.where.pos };
    return this.select({ ...q, where: outerWhere }, { table: projected, sources: [sourceOf(projected, f.alias)] });
  }

  /**
   * A ROW_NUMBER() partitioned by window_start and window_end over rows of a window table function or a window
   * aggregate: Flink's window top-N (with rn = 1 ordered by time, its window deduplication), ranked once per window
   * when the watermark passes the window's end (WindowRank node); undefined for any other partitioning.
   */
  private windowRank(input: AnyTable, partition: readonly ExprNode[], order: readonly Extract<ExprNode, { kind: "Sort" }>[],
    start: number, end: number, withRowNumber: boolean, pos: number): AnyTable | undefined {
    const isCol = (e: ExprNode, n: string) => e.kind === "Column" && e.name === n;
    if (!partition.some((e) => isCol(e, "window_start")) || !partition.some((e) => isCol(e, "window_end"))) return undefined;
    const node = (input as unknown as { node: PlanNode }).node;
    if (!hasWindows(node)) return undefined;
    const schema = input.getResolvedSchema();
    const column = (e: ExprNode, what: string): number => {
      if (e.kind !== "Column" || !schema.has(e.name)) throw new ValidationError(`SQL validation failed. ${location(this.src, pos)}: a window top-N ${what} must be a column, got ${JSON.stringify(e)}`);
      return schema.indexOf(e.name);
    };
    const partitionKeys = partition.filter((e) => !isCol(e, "window_start") && !isCol(e, "window_end")).map((e) => column(e, "PARTITION BY key"));
    const orderKeys = order.map((o) => ({ column: column(o.expr, "ORDER BY key"), ascending: o.ascending, nullsFirst: o.nullsFirst ?? o.ascending }));
    return this.at(pos, () => new TableClass(this.env, windowRankNode({
      input: node, windowStart: schema.indexOf("window_start"), windowEnd: schema.indexOf("window_end"), partitionKeys, orderKeys,
      offset: start - 1, fetch: end - start + 1, ...(withRowNumber ? { rowNumber: "$rn" } : {}),
    })) as AnyTable);
  }

  /** `*` and `t.*` as the columns they stand for. */
  private expandStars(q: SelectQuery, sources: readonly Source[]): StarredItem[] {
    if (q.items === undefined) return allColumns(sources, undefined, q.pos);
    return q.items.flatMap((it) => {
      if (it.star === undefined) return [it];
      if (it.star !== "" && !sources.some((s) => s.qualifier === it.star)) {
        throw new ValidationError(`SQL validation failed. ${location(this.src, it.pos)}: unknown table '${it.star}' in '${it.star}.*'; known: [${sources.map((s) => s.qualifier).filter(Boolean).join(", ")}]${didYouMean(it.star, sources.flatMap((s) => (s.qualifier ? [s.qualifier] : [])))}`);
      }
      return allColumns(sources, it.star === "" ? undefined : it.star, it.pos);
    });
  }

  private project(input: AnyTable, items: readonly { pos: number }[], exprs: Expression<unknown>[], pos: number): AnyTable {
    try {
      return untyped(input).select(...exprs);
    } catch (e) {
      // name the select item at fault: the first that fails on its own (else the whole list, e.g. duplicate names)
      const bad = items.findIndex((_, i) => { try { untyped(input).select(exprs[i]!); return false; } catch { return true; } });
      return this.at(bad >= 0 ? items[bad]!.pos : pos, () => { throw e; });
    }
  }

  /** GROUP BY / HAVING / aggregates: Table.groupBy(...).select(...); HAVING is a hidden aggregate column filtered and dropped. */
  private grouped(q: SelectQuery, input: AnyTable, sources: readonly Source[], items: readonly { pos: number }[], given: Expression<unknown>[],
    windowed?: WindowSource, resolved?: { keys: readonly ExprNode[]; having: ExprNode | undefined }): AnyTable {
    const g = q.groupBy;
    let keys = resolved !== undefined ? resolved.keys.map((k) => new Expression(k)) : (g?.exprs ?? []).map((k) => new Expression(this.resolve(k, sources, g!.pos)));
    const having = q.having;
    let havingNode = resolved !== undefined ? resolved.having : having === undefined ? undefined : this.resolve(having.expr, sources, having.pos);
    let exprs = given;
    if (windowed !== undefined) {
      // GROUP BY window_start, window_end, k: the window is the group window, window columns its properties
      const pos = g!.pos;
      keys = keys.filter((k) => !(k.node.kind === "Column" && (k.node.name === "window_start" || k.node.name === "window_end")));
      this.checkSessionKeys(windowed, keys.map((k) => k.node), pos);
      exprs = exprs.map((e, i) => this.at(items[i]!.pos, () => new Expression(windowPropertiesOf(e.node, WINDOW_ALIAS))));
      if (havingNode !== undefined) { const h = havingNode; havingNode = this.at(having!.pos, () => windowPropertiesOf(h, WINDOW_ALIAS, false)); }
    }
    // GROUP BY k, TUMBLE(rowtime, size) (HOP, SESSION): the same group window as the Table API's window(...)
    const keyNodes = keys.map((k) => k.node);
    const legacy = windowed === undefined ? this.at(g?.pos ?? q.pos, () => legacyGroupWindowOf(keyNodes, WINDOW_ALIAS)) : undefined;
    if (legacy !== undefined) {
      keys = legacy.keys.map((k) => new Expression(k));
      exprs = exprs.map((e, i) => this.at(items[i]!.pos, () => new Expression(legacyWindowPropertiesOf(e.node, legacy, WINDOW_ALIAS))));
      if (havingNode !== undefined) { const h = havingNode; havingNode = this.at(having!.pos, () => legacyWindowPropertiesOf(h, legacy, WINDOW_ALIAS)); }
    }
    const groupWindow = windowed?.window ?? legacy?.window;
    const all = havingNode === undefined ? exprs
      : [...exprs, new Expression({ kind: "Alias", name: "$having", extraNames: [], expr: havingNode })];
    const grouped = this.at(g?.pos ?? q.pos, () => (groupWindow === undefined ? untyped(input).groupBy(...keys)
      : untyped(input).window(new GroupWindow(groupWindow)).groupBy(new Expression({ kind: "Column", name: WINDOW_ALIAS }), ...keys)));
    let t: AnyTable;
    try {
      t = grouped.select(...all);
    } catch (e) {
      const bad = all.findIndex((_, i) => { try { grouped.select(all[i]!); return false; } catch { return true; } });
      const pos = bad < 0 ? q.pos : bad < items.length ? items[bad]!.pos : having!.pos;
      return this.at(pos, () => { throw e; });
    }
    if (having === undefined) return t;
    const names = t.getResolvedSchema().names.filter((n) => n !== "$having");
    const filtered = this.at(having.pos, () => untyped(t).filter(new Expression({ kind: "Column", name: "$having" })));
    return untyped(filtered).select(...names.map((n) => new Expression({ kind: "Column", name: n })));
  }

  /** The binder's parts the subquery rewriter uses. */
  private subqueryHost(): ConstructorParameters<typeof SubqueryRewriter>[0] {
    const pc = this.env.planContext();
    return {
      query: (q) => this.query(q),
      from: (f) => this.from(f),
      resolve: (e, sources, pos) => this.resolve(e, sources, pos),
      at: (pos, f) => this.at(pos, f),
      fail: (pos, message) => this.fail(pos, message),
      typeOf: (e, t) => typeOf(e, t.getResolvedSchema(), pc),
    };
  }

  private from(f: FromItem): Bound {
    switch (f.kind) {
      case "Table": {
        if (f.asOf !== undefined) throw new ValidationError(`SQL validation failed. ${location(this.src, f.pos)}: FOR SYSTEM_TIME AS OF must be the right side of a join`);
        const table = this.table(f.name, f.pos);
        return { table, sources: [sourceOf(table, f.alias ?? f.name)] };
      }
      case "Call": {
        if (isWindowTvf(f.name) && this.env.functions.lookup(f.name) === undefined) {
          const table = this.windowTableFunction(f);
          return { table, sources: [sourceOf(table, f.alias ?? f.name)] };
        }
        const args = f.args.map((a) => this.callArg(a));
        const table = this.at(f.pos, () => this.env.fromCall(f.name, ...(args as never[])) as unknown as AnyTable);
        return { table, sources: [sourceOf(table, f.alias ?? f.name)] };
      }
      case "Subquery": {
        const table = this.named(f.query, f.columns, f.pos);
        return { table, sources: [sourceOf(table, f.alias)] };
      }
      case "Join": return this.join(f);
      case "MatchRecognize": {
        const input = this.from(f.input);
        const node = bindMatchRecognize(nodeOf(input.table), f.clause, this.env.planContext(), (pos, g) => this.at(pos, g));
        const table = new TableClass(this.env, node) as AnyTable;
        return { table, sources: [sourceOf(table, f.alias)] };
      }
      case "Unnest":
        throw new ValidationError(`SQL validation failed. ${location(this.src, f.pos)}: UNNEST(...) must be the right side of a join: FROM t CROSS JOIN UNNEST(t.arr) AS u (x)`);
      case "Lateral":
        throw new ValidationError(`SQL validation failed. ${location(this.src, f.pos)}: LATERAL TABLE(...) must be the right side of a join`);
    }
  }

  /**
   * `GROUP BY GROUPING SETS (...)` / `ROLLUP(...)` / `CUBE(...)`: one group aggregate per grouping set, their rows
   * unioned (UNION ALL). In a set's rows the grouping expressions outside the set are NULL, and `GROUPING(a)` /
   * `GROUPING_ID(a, b, ...)` are the set's constants (1 for a grouping expression that is not in the set; GROUPING_ID
   * reads the bits with the first argument highest), as in Flink.
   */
  private groupingSets(q: SelectQuery, input: AnyTable, sources: readonly Source[], items: readonly { pos: number }[], exprs: Expression<unknown>[]): AnyTable {
    const g = q.groupBy!;
    const keys = g.exprs.map((k) => this.resolve(k, sources, g.pos));
    const schema = input.getResolvedSchema();
    const pc = this.env.planContext();
    const keyTypes = keys.map((k) => this.at(g.pos, () => typeOf(k, schema, pc)));
    const keyJson = keys.map((k) => JSON.stringify(k));
    const havingNode = q.having === undefined ? undefined : this.resolve(q.having.expr, sources, q.having.pos);
    const branches = g.sets!.map((set) => {
      const rewrite = (e: ExprNode): ExprNode => {
        const i = keyJson.indexOf(JSON.stringify(e));
        if (i >= 0) return set.includes(i) ? e : { kind: "Literal", value: null, type: keyTypes[i]!.nullable() };
        switch (e.kind) {
          case "Call": {
            const fn = e.udf === undefined ? e.fn.toUpperCase() : "";
            if (fn !== "GROUPING" && fn !== "GROUPING_ID") return { ...e, args: e.args.map(rewrite) };
            let id = 0;
            for (const a of e.args) {
              const k = keyJson.indexOf(JSON.stringify(a));
              if (k < 0) throw new ValidationError(`SQL validation failed. ${location(this.src, g.pos)}: the arguments of ${fn} must be grouping expressions, got ${JSON.stringify(a)}`);
              id = id * 2 + (set.includes(k) ? 0 : 1);
            }
            return { kind: "Literal", value: id, type: DataTypes.BIGINT().notNull() };
          }
          case "Alias": return { ...e, expr: rewrite(e.expr) };
          default: return e;
        }
      };
      const branchExprs = exprs.map((e) => new Expression(rewrite(e.node)));
      return this.grouped(q, input, sources, items, branchExprs, undefined, { keys: set.map((i) => keys[i]!), having: havingNode === undefined ? undefined : rewrite(havingNode) });
    });
    return branches.reduce((a, b) => this.at(g.pos, () => untyped(a).unionAll(b)));
  }

  /**
   * `x [NOT] IN (SELECT y ...)` and `[NOT] EXISTS (SELECT ... WHERE <conditions on the outer row>)` as Flink plans
   * them: a semi join (NOT: an anti join) of the outer rows with the subquery's. `NOT IN` is NULL-aware as in SQL:
   * when x or y may be NULL the condition is `x = y OR x IS NULL OR y IS NULL`, so a NULL x (with a non-empty
   * subquery) or a NULL among the y excludes the row. EXISTS conditions that read only the subquery's columns
   * filter them first; the others (correlated) are the join's condition.
   */
  private subqueryJoin(left: AnyTable, outer: readonly Source[], conjunct: ExprNode): AnyTable {
    const anti = conjunct.kind === "Call" && conjunct.fn === "not";
    const s = (anti ? (conjunct as Extract<ExprNode, { kind: "Call" }>).args[0]! : conjunct) as unknown as SubqueryCall;
    const query = s.query as Query;
    const what = `${anti ? "NOT " : ""}${s.mode === "IN" ? "IN (SELECT ...)" : "EXISTS (SELECT ...)"}`;
    const leftNames = left.getResolvedSchema().names;
    let right: AnyTable;
    let inner: Source[];
    const correlated: ExprNode[] = [];
    const simple = query.kind === "Select" && query.groupBy === undefined && query.having === undefined && !query.distinct
      && !(query.items ?? []).some((it) => it.star === undefined && containsAgg(it.expr));
    if (s.mode === "EXISTS" && simple) {
      const sq = query as SelectQuery;
      const bound = this.from(sq.from);
      ({ table: right, sources: inner } = this.renamedApart(bound, leftNames));
      const local: ExprNode[] = [];
      for (const c of sq.where === undefined ? [] : splitAnd(sq.where.expr)) {
        if (isSubqueryConjunct(c)) throw new ValidationError(`SQL validation failed. ${location(this.src, sq.where!.pos)}: a subquery inside ${what} is not supported`);
        try {
          local.push(this.resolve(c, inner, sq.where!.pos));
        } catch (e) {
          if (!(e instanceof ValidationError)) throw e;
          correlated.push(this.resolve(c, [...inner, ...outer], sq.where!.pos));
        }
      }
      if (local.length > 0) {
        const cond = new Expression(local.length === 1 ? local[0]! : { kind: "Call", fn: "and", args: local });
        const input = right;
        right = this.at(sq.where!.pos, () => untyped(input).filter(cond));
      }
    } else {
      ({ table: right, sources: inner } = this.renamedApart({ table: this.query(query), sources: [] }, leftNames));
    }
    if (s.mode === "IN") {
      const names = right.getResolvedSchema().names;
      if (names.length !== 1) throw new ValidationError(`SQL validation failed. ${location(this.src, s.pos)}: the subquery of ${what} must return one column, it returns ${names.length} [${names.join(", ")}]`);
      const x = this.resolve(s.args[0]!, outer, s.pos);
      const y: ExprNode = { kind: "Column", name: names[0]! };
      const eq: ExprNode = { kind: "Call", fn: "equals", args: [x, y] };
      const pc = this.env.planContext();
      const typing = new ResolvedSchema([...left.getResolvedSchema().columns, ...right.getResolvedSchema().columns]);
      const nullable = (e: ExprNode) => this.at(s.pos, () => typeOf(e, typing, pc).isNullable);
      correlated.unshift(anti && (nullable(x) || nullable(y))
        ? { kind: "Call", fn: "or", args: [eq, { kind: "Call", fn: "isNull", args: [x] }, { kind: "Call", fn: "isNull", args: [y] }] } : eq);
    }
    const condition = correlated.length === 0 ? undefined : correlated.length === 1 ? correlated[0]! : { kind: "Call", fn: "and", args: correlated } as ExprNode;
    const pc = this.env.planContext();
    const rightName = (n: string) => inner.find((x) => x.columns.has(n))?.columns.get(n) ?? n;
    if (condition !== undefined && isWindowJoin(left, right, condition, rightName("window_start"), rightName("window_end"))) {
      // EXISTS over the rows of the same windows: Flink's window semi / anti join
      return this.at(s.pos, () => new TableClass(this.env, planWindowJoin(nodeOf(left), nodeOf(right), anti ? "ANTI" : "SEMI", condition, "window_end", rightName("window_end"), pc, what)) as AnyTable);
    }
    return this.at(s.pos, () => new TableClass(this.env, planSemiJoin((left as unknown as { node: PlanNode }).node, (right as unknown as { node: PlanNode }).node, anti, condition, pc, what)) as AnyTable);
  }

  /** A bound FROM item with its columns that `taken` has too renamed `name0`, `name1`, ... (Flink's names in a join). */
  private renamedApart(b: Bound, taken: readonly string[]): { table: AnyTable; sources: Source[] } {
    const used = new Set(taken);
    const names = b.table.getResolvedSchema().names;
    const renamed = names.map((n) => {
      let name = n;
      for (let i = 0; used.has(name); i++) name = `${n}${i}`;
      used.add(name);
      return name;
    });
    const table = renamed.some((n, i) => n !== names[i]) ? untyped(b.table).as(...renamed) : b.table;
    const renames = new Map(names.map((n, i) => [n, renamed[i]!]));
    const sources = b.sources.length === 0 ? [sourceOf(table, undefined)]
      : b.sources.map((s) => ({ qualifier: s.qualifier, columns: new Map([...s.columns].map(([k, v]) => [k, renames.get(v) ?? v])) }));
    return { table, sources };
  }

  /**
   * `FROM t CROSS JOIN UNNEST(t.arr) AS u (x)` (also `, UNNEST(...)` and `LEFT JOIN UNNEST(...) ON TRUE`): a lateral
   * join with a built-in table function emitting one row per element — an array of rows gives the rows' fields as
   * columns, an array of other values one column, a map its `key` and `value` columns (Flink's UNNEST). A NULL or
   * empty array gives no row (LEFT JOIN: the row padded with NULLs).
   */
  private unnestJoin(f: Extract<FromItem, { kind: "Join" }>, r: Extract<FromItem, { kind: "Unnest" }>): Bound {
    if (f.joinType !== "CROSS" && f.joinType !== "INNER" && f.joinType !== "LEFT") {
      throw new ValidationError(`SQL validation failed. ${location(this.src, f.pos)}: a ${f.joinType} JOIN with UNNEST is not supported; use CROSS JOIN or LEFT JOIN ... ON TRUE`);
    }
    const left = this.from(f.left);
    const arg = this.resolve(r.expr, left.sources, r.pos);
    const schema = left.table.getResolvedSchema();
    const pc = this.env.planContext();
    const type = this.at(r.pos, () => typeOf(arg, schema, pc));
    const fn = this.at(r.pos, () => unnestFunction(type, r.columns, schema.names, r.ordinality === true));
    const added = fn.columns.map((c) => c.name);
    const sources = [...left.sources, { qualifier: r.alias, columns: new Map(added.map((n, i) => [r.columns?.[i] ?? fn.columns[i]!.name, n])) }];
    const on = f.on === undefined ? undefined : new Expression(this.resolve(f.on, sources, f.pos));
    const call = new Expression({ kind: "Call", fn: "$udf", args: [arg], udf: fn });
    const l = untyped(left.table);
    const table = this.at(f.pos, () => (f.joinType === "LEFT" ? l.leftOuterJoinLateral(call, on) : l.joinLateral(call, on)));
    return { table, sources };
  }

  /** `FROM TABLE(TUMBLE | HOP | CUMULATE(TABLE t, DESCRIPTOR(ts), ...))` on its own: a WindowTableFunction node over t. */
  private windowTableFunction(f: Extract<FromItem, { kind: "Call" }>): AnyTable {
    const call = this.windowCall(f);
    if (call.type === "SESSION") {
      throw new ValidationError(`SQL validation failed. ${location(this.src, f.pos)}: SESSION(TABLE ...) is supported in a window aggregate only: GROUP BY window_start, window_end`);
    }
    const input = this.table(call.table.name, call.table.pos);
    const window = {
      type: call.type, timeColumn: call.timeColumn, size: call.size,
      ...(call.step === undefined ? {} : { step: call.step }), ...(call.offset === undefined ? {} : { offset: call.offset }),
    };
    return this.at(f.pos, () => new TableClass(this.env, windowTableFunctionNode({ input: input.node, window })) as AnyTable);
  }

  private windowCall(f: Extract<FromItem, { kind: "Call" }>): WindowTvfCall {
    return readWindowTvf(f.name, f.args, this.env.planContext().resolveFunction, (pos, fn) => this.at(pos, fn), f.pos);
  }

  /**
   * `SELECT ... FROM TABLE(TUMBLE(...)) [WHERE ...] GROUP BY window_start, window_end, ...` (also FROM `(SELECT *
   * FROM TABLE(...)) alias`): Flink's window aggregation, bound as the Table API's group window aggregate over the
   * TVF's input — one final row per window and key when the watermark passes the window's end (append-only).
   */
  private windowAggregateSource(q: SelectQuery): WindowSource | undefined {
    const keys = q.groupBy?.exprs ?? [];
    const grouped = (n: string) => keys.some((k) => k.kind === "Column" && k.name === n);
    if (!grouped("window_start") || !grouped("window_end")) return undefined;
    let f = q.from;
    let alias = f.kind === "Join" ? undefined : f.alias;
    if (f.kind === "Subquery" && f.columns === undefined && f.query.kind === "Select" && f.query.items === undefined
      && f.query.where === undefined && f.query.groupBy === undefined && f.query.having === undefined && !f.query.distinct) {
      f = f.query.from;
      if (f.kind !== "Join") alias ??= f.alias;
    }
    if (f.kind !== "Call" || !isWindowTvf(f.name) || this.env.functions.lookup(f.name) !== undefined) return undefined;
    const call = this.windowCall(f);
    const table = this.table(call.table.name, call.table.pos);
    const schema = table.getResolvedSchema();
    if (!schema.has(call.timeColumn)) {
      throw new ValidationError(`SQL validation failed. ${location(this.src, f.pos)}: ${call.type}: the DESCRIPTOR column '${call.timeColumn}' is not in [${schema.names.join(", ")}]${didYouMean(call.timeColumn, schema.names)}`);
    }
    const type = call.type === "HOP" ? "SLIDE" : call.type;
    const window: GroupWindowDefinition = {
      type, size: call.sizeNode, ...(call.stepNode === undefined ? {} : { step: call.stepNode }),
      ...(call.offsetNode === undefined ? {} : { offset: call.offsetNode }),
      timeField: { kind: "Column", name: call.timeColumn }, alias: WINDOW_ALIAS,
    };
    const columns = new Map(schema.names.map((n) => [n, n]));
    for (const n of ["window_start", "window_end", "window_time"]) columns.set(n, n);
    return { bound: { table, sources: [{ qualifier: alias ?? f.name, columns }] }, window, call };
  }

  /** Flink's session window of `SESSION(TABLE t PARTITION BY k, ...)` is per k: the grouping keys must be the partition keys. */
  private checkSessionKeys(w: WindowSource, keys: readonly ExprNode[], pos: number): void {
    if (w.call.type !== "SESSION") return;
    const names = keys.map((k) => (k.kind === "Column" ? k.name : nodeToStringSafe(k)));
    const partition = w.call.table.partitionBy;
    if (names.length !== partition.length || names.some((n) => !partition.includes(n))) {
      throw new ValidationError(`SQL validation failed. ${location(this.src, pos)}: a SESSION window aggregate must group by window_start, window_end and exactly the PARTITION BY columns [${partition.join(", ")}] of the SESSION call, got [${names.join(", ")}]`);
    }
  }

  /** A join: the right side's columns that the left has too are renamed `name0`, `name1`, ... (Flink's names). */
  private join(f: Extract<FromItem, { kind: "Join" }>): Bound {
    const r = f.right;
    if (r.kind === "Lateral" || (r.kind === "Table" && r.asOf !== undefined)) return this.lateralJoin(f, r);
    if (r.kind === "Unnest") return this.unnestJoin(f, r);
    const left = this.from(f.left);
    const right = this.from(f.right);
    const taken = new Set(left.table.getResolvedSchema().names);
    const rightNames = right.table.getResolvedSchema().names;
    const renamed = rightNames.map((n) => {
      let name = n;
      for (let i = 0; taken.has(name); i++) name = `${n}${i}`;
      taken.add(name);
      return name;
    });
    let rightTable = right.table;
    if (renamed.some((n, i) => n !== rightNames[i])) rightTable = untyped(rightTable).as(...renamed);
    const renames = new Map(rightNames.map((n, i) => [n, renamed[i]!]));
    const rightSources = right.sources.map((s) => ({ qualifier: s.qualifier, columns: new Map([...s.columns].map(([k, v]) => [k, renames.get(v) ?? v])) }));
    const sources = [...left.sources, ...rightSources];
    const l = untyped(left.table);
    const on = f.on === undefined ? undefined : new Expression(this.resolve(f.on, sources, f.pos));
    if (on !== undefined && f.joinType !== "CROSS") {
      const rightEnd = renames.get("window_end") ?? "window_end";
      if (isWindowJoin(left.table, rightTable, on.node, renames.get("window_start") ?? "window_start", rightEnd)) {
        const pc = this.env.planContext();
        const joinType = f.joinType;
        return { table: this.at(f.pos, () => new TableClass(this.env, planWindowJoin(nodeOf(left.table), nodeOf(rightTable), joinType, on.node, "window_end", rightEnd, pc, "window join")) as AnyTable), sources };
      }
    }
    const table = this.at(f.pos, () => {
      switch (f.joinType) {
        case "CROSS": return l.join(rightTable);
        case "INNER": return l.join(rightTable, on);
        case "LEFT": return l.leftOuterJoin(rightTable, on);
        case "RIGHT": return l.rightOuterJoin(rightTable, on!);
        case "FULL": return l.fullOuterJoin(rightTable, on!);
      }
    });
    return { table, sources };
  }

  /**
   * `JOIN LATERAL TABLE(f(...))` (Table.joinLateral / leftOuterJoinLateral) and `JOIN t FOR SYSTEM_TIME AS OF
   * l.time` (a temporal join: t's rowtime and primary key make it a temporal table function, joined laterally).
   */
  private lateralJoin(f: Extract<FromItem, { kind: "Join" }>, r: Extract<FromItem, { kind: "Lateral" | "Table" }>): Bound {
    if (f.joinType !== "INNER" && f.joinType !== "LEFT" && f.joinType !== "CROSS") {
      throw new ValidationError(`SQL validation failed. ${location(this.src, f.pos)}: a ${f.joinType} JOIN with ${r.kind === "Lateral" ? "LATERAL TABLE" : "FOR SYSTEM_TIME AS OF"} is not supported; use [INNER] JOIN or LEFT JOIN`);
    }
    const hints = this.hints;
    const left = this.from(f.left);
    if (r.kind === "Table" && r.asOf !== undefined) {
      // AS OF a processing-time attribute: a lookup join against the table's connector (Flink's rule)
      const time = this.resolve(r.asOf.expr, left.sources, r.asOf.pos);
      const schema = left.table.getResolvedSchema();
      if (time.kind === "Column" && schema.has(time.name) && schema.column(time.name).type.timeAttribute === "PROCTIME") {
        return this.at(f.pos, () => bindLookupJoin(this.env, f.joinType === "LEFT" ? "LEFT" : "INNER", r, left, f.on, hints,
          (e, sources, pos) => this.resolve(e, sources, pos), (pos) => location(this.src, pos)));
      }
    }
    const leftNames = left.table.getResolvedSchema().names;
    let callExpr: ExprNode;
    let qualifier: string | undefined;
    this.versionedRenames.clear();
    if (r.kind === "Lateral") {
      const args = r.args.map((a) => this.resolve(a, left.sources, r.pos));
      const call: ExprNode = { kind: "Call", fn: r.fn, args };
      callExpr = r.columns === undefined ? call : { kind: "Alias", name: r.columns[0]!, extraNames: r.columns.slice(1), expr: call };
      // a temporal table function's columns that the left side has too get Flink's suffixed names, as a
      // FOR SYSTEM_TIME AS OF join's do (`currency0`); `r.currency` still names the function's own column
      const temporal = r.columns === undefined ? this.temporalFunction(r.fn) : undefined;
      if (temporal !== undefined) {
        const own = temporal.table.schema.names;
        const renamed = suffixed(own, leftNames);
        if (renamed.some((n, i) => n !== own[i])) {
          renamed.forEach((n, i) => this.versionedRenames.set(n, own[i]!));
          const nameOf = (n: string) => new Expression({ kind: "Column", name: renamed[own.indexOf(n)]! });
          type Temporal = { createTemporalTableFunction(time: Expression<unknown>, ...keys: Expression<unknown>[]): unknown };
          const udf = this.at(r.pos, () => (untyped(new TableClass(this.env, temporal.table)).as(...renamed) as unknown as Temporal)
            .createTemporalTableFunction(nameOf(temporal.timeAttribute), ...temporal.primaryKey.map(nameOf)));
          callExpr = { kind: "Call", fn: "temporal", args, udf } as ExprNode;
        }
      }
      qualifier = r.alias ?? r.fn;
    } else {
      callExpr = this.versioned(r, left, leftNames);
      qualifier = r.alias ?? r.name;
    }
    // the function's columns: a versioned table's (renamed) columns, or those of a probe join without condition
    const added = r.kind === "Table" || this.versionedRenames.size > 0 ? [...this.versionedRenames.keys()] : this.lateralColumns(r, callExpr, left.table, leftNames.length);
    const sources = [...left.sources, { qualifier, columns: new Map(added.map((n) => [this.originalName(r, n), n])) }];
    const on = f.on === undefined ? undefined : new Expression(this.resolve(f.on, sources, f.pos));
    const l = untyped(left.table);
    const table = this.at(f.pos, () => (f.joinType === "LEFT" ? l.leftOuterJoinLateral(new Expression(callExpr), on) : l.joinLateral(new Expression(callExpr), on)));
    return { table, sources };
  }

  /** The temporal table function registered as `fn`; undefined for any other function. */
  private temporalFunction(fn: string): TemporalTableFunction | undefined {
    const f = (this.env.functions.lookup(fn) as { fn?: unknown } | undefined)?.fn;
    return f instanceof TemporalTableFunction ? f : undefined;
  }

  /** The columns a LATERAL TABLE call adds: a temporal table function's table's, or those of a probe join without condition. */
  private lateralColumns(r: Extract<FromItem, { kind: "Lateral" }>, callExpr: ExprNode, left: AnyTable, leftSize: number): string[] {
    const fn = (this.env.functions.lookup(r.fn) as { fn?: { table?: { schema?: { names: string[] } } } } | undefined)?.fn;
    const versioned = fn?.table?.schema;
    if (versioned !== undefined) return versioned.names;
    return this.at(r.pos, () => untyped(left).joinLateral(new Expression(callExpr))).getResolvedSchema().names.slice(leftSize);
  }

  /** A versioned table's column under its own name (the binder renames those the left side has too). */
  private originalName(r: Extract<FromItem, { kind: "Lateral" | "Table" }>, n: string): string {
    return this.versionedRenames.get(n) ?? n;
  }
  private readonly versionedRenames = new Map<string, string>();

  /** The hints of the SELECT whose FROM is being bound (LOOKUP hints reach its lookup joins). */
  private hints: readonly QueryHint[] | undefined;
  private withHints<T>(hints: readonly QueryHint[] | undefined, f: () => T): T {
    const saved = this.hints;
    this.hints = hints;
    try { return f(); } finally { this.hints = saved; }
  }

  /** `t FOR SYSTEM_TIME AS OF l.time`: a temporal table function call over t's rowtime and primary key. */
  private versioned(r: Extract<FromItem, { kind: "Table" }>, left: Bound, leftNames: readonly string[]): ExprNode {
    const table = this.table(r.name, r.pos);
    const schema = table.getResolvedSchema();
    const pk = (table as unknown as { node: { primaryKey?: readonly string[] } }).node.primaryKey;
    const rowtime = schema.columns.find((c) => c.type.timeAttribute === "ROWTIME");
    if (pk === undefined || pk.length === 0 || rowtime === undefined) {
      throw new ValidationError(`SQL validation failed. ${location(this.src, r.pos)}: FOR SYSTEM_TIME AS OF needs a versioned table: '${r.name}' must declare a PRIMARY KEY and a WATERMARK${pk === undefined || pk.length === 0 ? " (it has no primary key)" : " (it has no rowtime attribute)"}`);
    }
    // columns the left side has too get Flink's suffixed names (rate_time, rowtime0, ...)
    const renamed = suffixed(schema.names, leftNames);
    renamed.forEach((n, i) => this.versionedRenames.set(n, schema.names[i]!));
    const versioned = renamed.some((n, i) => n !== schema.names[i]) ? untyped(table).as(...renamed) : table;
    const nameOf = (n: string) => renamed[schema.names.indexOf(n)]!;
    type Temporal = { createTemporalTableFunction(time: Expression<unknown>, ...keys: Expression<unknown>[]): unknown };
    const fn = this.at(r.pos, () => (versioned as unknown as Temporal).createTemporalTableFunction(
      new Expression({ kind: "Column", name: nameOf(rowtime.name) }), ...pk.map((k) => new Expression({ kind: "Column", name: nameOf(k) }))));
    const time = this.resolve(r.asOf!.expr, left.sources, r.asOf!.pos);
    return { kind: "Call", fn: "temporal", args: [time], udf: fn };
  }

  /** Column references as the bound table names them: `t.col` and `col` checked against the FROM items. */
  private resolve(e: ExprNode, sources: readonly Source[], pos: number): ExprNode {
    switch (e.kind) {
      case "Column": {
        const c = e as QualifiedColumn;
        const at = c.pos ?? pos;
        if (c.qualifier !== undefined) {
          const s = sources.find((x) => x.qualifier === c.qualifier);
          if (s === undefined) {
            const known = sources.flatMap((x) => (x.qualifier ? [x.qualifier] : []));
            throw new ValidationError(`SQL validation failed. ${location(this.src, at)}: table '${c.qualifier}' not found; known: [${known.join(", ")}]${didYouMean(c.qualifier, known)}`);
          }
          const actual = s.columns.get(c.name);
          if (actual === undefined) {
            const known = [...s.columns.keys()];
            throw new ValidationError(`SQL validation failed. ${location(this.src, at)}: column '${c.name}' is not in table '${c.qualifier}' [${known.join(", ")}]${didYouMean(c.name, known)}`);
          }
          return { kind: "Column", name: actual };
        }
        const found = sources.filter((s) => s.columns.has(c.name));
        if (found.length > 1) {
          throw new ValidationError(`SQL validation failed. ${location(this.src, at)}: column '${c.name}' is ambiguous; qualify it: ${found.map((s) => `${s.qualifier ?? "?"}.${c.name}`).join(", ")}`);
        }
        if (found.length === 0) {
          const known = sources.flatMap((s) => [...s.columns.keys()]);
          // the Table API's message (Schema.indexOf), with a hint
          throw new ValidationError(`SQL validation failed. ${location(this.src, at)}: column '${c.name}' is not in [${known.join(", ")}]${didYouMean(c.name, known)}`);
        }
        return { kind: "Column", name: found[0]!.columns.get(c.name)! };
      }
      case "Call":
        if (e.fn === "$subquery") {
          throw new ValidationError(`SQL validation failed. ${location(this.src, (e as unknown as SubqueryCall).pos)}: IN (SELECT ...) and EXISTS (SELECT ...) are supported as conditions of WHERE joined by AND (a semi or anti join), not inside other expressions`);
        }
        if (e.fn === "$ROW_NUMBER") {
          throw new ValidationError(`SQL validation failed. ${location(this.src, pos)}: ROW_NUMBER() OVER (...) is supported in the top-N and deduplication patterns only: `
            + "SELECT ... FROM (SELECT ..., ROW_NUMBER() OVER (PARTITION BY k ORDER BY o) AS rn FROM t) WHERE rn <= N");
        }
        return { ...e, args: e.args.map((a) => this.resolve(a, sources, pos)) };
      case "Agg": return { ...e, args: e.args.map((a) => this.resolve(a, sources, pos)) };
      case "Alias": return { ...e, expr: this.resolve(e.expr, sources, pos) };
      case "Sort": return { ...e, expr: this.resolve(e.expr, sources, pos) };
      case "Argument": return { ...e, expr: this.resolve(e.expr, sources, pos) };
      default: return e;
    }
  }

  /** `VALUES (...), (...)`: each value a constant; the column types are the common types over the rows (Flink's VALUES). */
  private values(q: ValuesQuery, names: readonly string[] | undefined): AnyTable {
    const env = this.env;
    const arity = q.rows[0]!.values.length;
    const evaluated = q.rows.map((r, i) => {
      if (r.values.length !== arity) {
        throw sqlParseError(`VALUES row ${i + 1} has ${r.values.length} values but row 1 has ${arity}`, this.src, r.pos, "SQL statement");
      }
      return this.at(r.pos, () => r.values.map((v) => evaluateConstant(v, `VALUES row ${i + 1}`, env.planContext().resolveFunction)));
    });
    if (names !== undefined && names.length !== arity) {
      throw new ValidationError(`SQL validation failed. ${location(this.src, q.pos)}: the view declares ${names.length} column names [${names.join(", ")}] but VALUES has ${arity} columns`);
    }
    const types: DataType[] = [];
    for (let j = 0; j < arity; j++) {
      let t = evaluated[0]![j]!.type;
      for (let i = 1; i < evaluated.length; i++) {
        const next = evaluated[i]![j]!.type;
        t = this.at(q.rows[i]!.pos, () => commonType(t, next, () => `VALUES row ${i + 1}, column ${j + 1}`));
      }
      types.push(t);
    }
    // Flink names VALUES columns EXPR$0, EXPR$1, ...; a view's column list renames them
    const fields = types.map((t, j) => DataTypes.FIELD(names?.[j] ?? `EXPR$${j}`, t));
    const rows = evaluated.map((r) => Row.of(...r.map((c) => c.value)));
    return this.at(q.pos, () => env.fromValues(DataTypes.ROW(...fields) as DataType<object | null>, rows) as AnyTable);
  }

  private table(name: string, pos: number): AnyTable {
    const cte = this.ctes.get(name);
    if (cte !== undefined) return cte;
    if (!this.env.listTables().includes(name)) {
      const known = [...this.ctes.keys(), ...this.env.listTables()];
      throw new ValidationError(`SQL validation failed. ${location(this.src, pos)}: table '${name}' is not registered; known: [${known.join(", ")}]${didYouMean(name, known)}`);
    }
    return this.at(pos, () => this.env.from(name) as AnyTable);
  }

  /** A SQL argument as the Table API argument it means, so that bindArguments sees the same call. */
  private callArg(a: CallArg): unknown {
    const v = a.value;
    let node: ExprNode;
    switch (v.kind) {
      case "table": {
        const table = this.table(v.name, v.pos);
        return new TableArgument(a.name, table, v.partitionBy, v.orderBy);
      }
      case "descriptor": node = { kind: "Descriptor", names: v.names }; break;
      case "default": node = { kind: "Default" }; break;
      default: node = v.node;
    }
    return new Expression(a.name === undefined ? node : { kind: "Argument", name: a.name, expr: node });
  }

  /** `INSERT INTO sink <query>`: Table.executeInsert(sink), so the sink rules and the result are the Table API's. */
  insert(s: InsertStatement): InsertTableResult {
    if (s.overwrite || s.partition !== undefined) return this.env.startInsert(this.sinkOf(s));
    const t = this.insertQuery(s);
    return this.at(s.pos, () => (t as unknown as { executeInsert(target: string): InsertTableResult }).executeInsert(s.table));
  }

  /** The Sink node of an INSERT (a statement set collects these; EXPLAIN prints them), with Table.insertInto's checks. */
  sinkOf(s: InsertStatement): SinkNode {
    const t = this.insertQuery(s);
    const planned = this.at(s.pos, () => this.env.planInsert((t as unknown as { node: PlanNode }).node, s.table));
    const sink = s.partition === undefined ? planned : withStaticPartition(planned, s.partition);
    if (!s.overwrite) return sink;
    // Flink: INSERT OVERWRITE runs in batch mode, into a sink that implements SupportsOverwrite
    if (!this.env.isBatch()) throw new ValidationError(`SQL validation failed. ${location(this.src, s.pos)}: INSERT OVERWRITE is supported in batch mode only (Flink: Streaming mode not support overwrite.)`);
    if (!this.env.tables.connector(sink.connector).supportsOverwrite) {
      throw new ValidationError(`SQL validation failed. ${location(this.src, s.pos)}: INSERT OVERWRITE requires that the underlying DynamicTableSink of table 'default_catalog.default_database.${s.table}' implements the SupportsOverwrite interface.`);
    }
    const { kind: _kind, id: _id, ...fields } = sink;
    return sinkNode({ ...fields, overwrite: true });
  }

  /** An INSERT's query, checked sink name, widened to every sink column by a column list / static PARTITION (sql-insert-columns.ts). */
  private insertQuery(s: InsertStatement): AnyTable {
    const t = this.query(s.query);
    this.checkSinkName(s);
    const registered = this.env.tables.get(s.table);
    if ((s.columns === undefined && s.partition === undefined) || registered === undefined) return t;
    const sink = this.at(s.pos, () => persistedColumns(resolveSchema(registered.descriptor.schemaSpec!, this.env.planContext())));
    const targets = { columns: s.columns, partition: s.partition, partitionKeys: registered.descriptor.partitionKeys, tableName: s.table };
    const exprs = insertProjection(targets, sink, t.getResolvedSchema(), s.pos, (pos, m) => this.fail(pos, m));
    return this.at(s.pos, () => untyped(t).select(...exprs.map((e) => new Expression(e))));
  }

  private checkSinkName(s: InsertStatement): void {
    if (!this.env.listTables().includes(s.table)) {
      const known = this.env.listTables();
      throw new ValidationError(`SQL validation failed. ${location(this.src, s.pos)}: table '${s.table}' is not registered; known: [${known.join(", ")}]${didYouMean(s.table, known)}`);
    }
  }

  createView(s: CreateViewStatement): void {
    const env = this.env;
    if (s.ifNotExists && env.listTables().includes(s.name)) return;
    let t: AnyTable;
    if (s.query.kind === "Values") {
      t = this.values(s.query, s.columns);
    } else {
      t = this.query(s.query);
      const cols = s.columns;
      if (cols !== undefined) {
        const n = t.getResolvedSchema().size;
        if (cols.length !== n) {
          throw new ValidationError(`SQL validation failed. ${location(this.src, s.pos)}: the view declares ${cols.length} column names [${cols.join(", ")}] but its query has ${n} columns`);
        }
        const view = t;
        t = this.at(s.pos, () => untyped(view).as(...cols));
      }
    }
    const view = t;
    this.at(s.pos, () => env.createTemporaryView(s.name, view));
  }

  /** `CREATE TABLE ... LIKE source (...)`: the source's declarations merged in (src/sql/table-like.ts). */
  private withLike(s: CreateTableStatement): CreateTableStatement {
    const like = s.like!;
    const source = this.env.tables.get(like.name);
    if (source === undefined) {
      const e = likeSourceError(like.name, this.env.listViews().includes(like.name));
      throw new ValidationError(`SQL validation failed. ${location(this.src, like.pos)}: ${e.message}`);
    }
    return mergeLike(s, source.descriptor, (pos, message) => {
      throw new ValidationError(`SQL validation failed. ${location(this.src, pos)}: ${message}`);
    });
  }

  createTable(given: CreateTableStatement): void {
    const s = given.like === undefined ? given : this.withLike(given);
    const connector = s.options.find(([k]) => k === "connector");
    if (connector === undefined) {
      throw new ValidationError(`SQL validation failed. ${location(this.src, s.pos)}: table '${s.name}' needs the option 'connector', e.g. WITH ('connector' = 'datagen')`);
    }
    type Builder = {
      column(n: string, t: DataType): Builder; columnByExpression(n: string, e: string | Expression<unknown>): Builder;
      columnByMetadata(n: string, t: DataType, key?: string, isVirtual?: boolean): Builder;
      watermark(c: string, e: string | Expression<unknown>): Builder; primaryKey(...c: string[]): Builder; build(): Schema;
    };
    let schema = Schema.newBuilder() as unknown as Builder;
    for (const c of s.columns) {
      // a metadata key the connector does not provide is Flink's error when the table is read (table/connector-tables.ts)
      schema = this.at(c.pos, () => (c.kind === "physical" ? schema.column(c.name, c.type)
        : c.kind === "metadata" ? schema.columnByMetadata(c.name, c.type, c.key, c.virtual)
        : schema.columnByExpression(c.name, c.node !== undefined ? new Expression(c.node) : c.sql)));
    }
    const wm = s.watermark;
    if (wm !== undefined) schema = this.at(wm.pos, () => schema.watermark(wm.column, wm.node !== undefined ? new Expression(wm.node) : wm.sql));
    const pk = s.primaryKey;
    if (pk !== undefined) schema = this.at(s.pos, () => schema.primaryKey(...pk));
    const built = this.at(s.pos, () => schema.build());
    let builder = this.at(connector[2], () => TableDescriptor.forConnector(connector[1]).schema(built));
    for (const [key, value, pos] of s.options) {
      if (key !== "connector") builder = this.at(pos, () => builder.option(key, value));
    }
    if (s.comment !== undefined) builder = builder.comment(s.comment);
    const d = s.distribution;
    if (d !== undefined) {
      const args = (d.buckets === undefined ? d.keys : [d.buckets, ...d.keys]) as [number, ...string[]];
      builder = this.at(d.pos, () => (d.kind === "hash" ? builder.distributedByHash(...args) : d.kind === "range" ? builder.distributedByRange(...args) : builder.distributedBy(...args)));
    }
    const p = s.partitionedBy;
    if (p !== undefined) builder = this.at(p.pos, () => builder.partitionedBy(...p.columns));
    const descriptor = builder.build();
    try {
      if (s.temporary) {
        if (s.ifNotExists && this.env.listTables().includes(s.name)) return;
        this.env.createTemporaryTable(s.name, descriptor);
      } else {
        this.env.createTable(s.name, descriptor, s.ifNotExists);
      }
    } catch (e) {
      // the schema is resolved at CREATE TABLE: point at the computed column or the watermark that fails
      const m = e instanceof ValidationError ? /^computed column '(.*?)' /.exec(e.message) : null;
      const column = m ? s.columns.find((c) => c.name === m[1]) : undefined;
      const pos = column?.pos ?? (e instanceof ValidationError && e.message.startsWith("watermark") && wm !== undefined ? wm.pos : s.pos);
      this.at(pos, () => { throw e; });
    }
  }
}

/**
 * A select item as a projection: a column keeps its name; any other expression is named EXPR$<i> by
 * its position in the select list, as Flink SQL does (the Table API would name it _c<i>).
 */
function selectExpr(e: ExprNode, alias: string | undefined, index: number): ExprNode {
  if (alias !== undefined) return { kind: "Alias", name: alias, extraNames: [], expr: e };
  if (e.kind === "Column") return e;
  return { kind: "Alias", name: `EXPR$${index}`, extraNames: [], expr: e };
}

/** `At line 1, column 15` for an offset into the statement. */
function location(src: string, pos: number): string {
  const before = src.slice(0, pos);
  const line = before.split("\n").length;
  return `At line ${line}, column ${pos - before.lastIndexOf("\n")}`;
}

/** A bound table's columns under one qualifier. */
function sourceOf(t: AnyTable, qualifier: string | undefined): Source {
  const names = t.getResolvedSchema().names;
  return { qualifier, columns: new Map(names.map((n) => [n, n])) };
}

/** `*` (qualifier undefined) or `t.*`: column references in FROM order. */
function allColumns(sources: readonly Source[], qualifier: string | undefined, pos: number): StarredItem[] {
  return sources.filter((s) => qualifier === undefined || s.qualifier === qualifier)
    .flatMap((s) => [...s.columns.values()].map((name) => ({ expr: { kind: "Column", name } as ExprNode, alias: undefined, pos, resolved: true })));
}

const nodeOf = (t: AnyTable): PlanNode => (t as unknown as { node: PlanNode }).node;

/**
 * A join of two tables whose rows carry windows, on a condition with `window_start = <right window_start>` and
 * `window_end = <right window_end>` among its AND-ed parts: Flink's window join.
 */
function isWindowJoin(left: AnyTable, right: AnyTable, condition: ExprNode, rightStart: string, rightEnd: string): boolean {
  if (!hasWindows(nodeOf(left)) || !hasWindows(nodeOf(right))) return false;
  const parts = splitAnd(condition);
  const equates = (a: string, b: string) => parts.some((p) => p.kind === "Call" && p.fn === "equals" && p.args.length === 2
    && p.args.every((x) => x.kind === "Column") && new Set(p.args.map((x) => (x as { name: string }).name)).size === 2
    && p.args.some((x) => (x as { name: string }).name === a) && p.args.some((x) => (x as { name: string }).name === b));
  return equates("window_start", rightStart) && equates("window_end", rightEnd);
}

/** Whether the rows of `node` carry windows: a window TVF or a window aggregate under projections and filters. */
function hasWindows(node: PlanNode): boolean {
  let n = node;
  while (n.kind === "Project" || n.kind === "Filter") n = n.input;
  return n.kind === "WindowTableFunction" || n.kind === "WindowAggregate";
}

/** `x IN (SELECT ...)`, `EXISTS (...)` or their negations: a WHERE conjunct planned as a semi / anti join. */
function isSubqueryConjunct(e: ExprNode): boolean {
  const inner = e.kind === "Call" && e.fn === "not" ? e.args[0]! : e;
  return inner.kind === "Call" && inner.fn === "$subquery" && (inner as unknown as SubqueryCall).mode !== "SCALAR";
}

/** Whether an expression reads a column a subquery's join added (`$sq0`, ...). */
function mentionsHidden(e: ExprNode): boolean {
  switch (e.kind) {
    case "Column": return e.name.startsWith("$sq");
    case "Alias": case "Sort": case "Argument": return mentionsHidden(e.expr);
    case "Call": case "Agg": return e.args.some(mentionsHidden);
    default: return false;
  }
}

const nodeToStringSafe = (e: ExprNode): string => (e.kind === "Column" ? e.name : JSON.stringify(e));

function containsAgg(e: ExprNode): boolean {
  switch (e.kind) {
    case "Agg": return true;
    case "Call": return e.fn !== "$OVER" && e.args.some(containsAgg);
    case "Alias": case "Sort": case "Argument": return containsAgg(e.expr);
    default: return false;
  }
}

function splitAnd(e: ExprNode): ExprNode[] {
  return e.kind === "Call" && e.fn === "and" ? e.args.flatMap(splitAnd) : [e];
}

/** The ranks `rn <= N`, `rn < N`, `rn = N`, `N >= rn`, `rn BETWEEN a AND b` select, or undefined. */
function rankRange(c: ExprNode, isRn: (e: ExprNode) => boolean): [number, number] | undefined {
  if (c.kind !== "Call") return undefined;
  const int = (e: ExprNode | undefined) => (e !== undefined && e.kind === "Literal" && typeof e.value === "number" && Number.isInteger(e.value) ? e.value : undefined);
  const [a, b, x] = c.args;
  if (c.fn === "between" && a !== undefined && isRn(a)) {
    const lo = int(b); const hi = int(x);
    return lo === undefined || hi === undefined ? undefined : [Math.max(1, lo), hi];
  }
  const flipped: Record<string, string> = { lessThanOrEqual: "greaterThanOrEqual", lessThan: "greaterThan", equals: "equals" };
  let fn = c.fn;
  let n: number | undefined;
  if (a !== undefined && isRn(a)) n = int(b);
  else if (b !== undefined && isRn(b)) {
    n = int(a);
    const f = Object.entries(flipped).find(([, v]) => v === fn);
    fn = f ? f[0] : "";
  } else return undefined;
  if (n === undefined) return undefined;
  switch (fn) {
    case "lessThanOrEqual": return [1, n];
    case "lessThan": return [1, n - 1];
    case "equals": return [n, n];
    default: return undefined;
  }
}

/** `names` with those that `taken` has (or that an earlier one became) suffixed as Flink does: `rowtime0`, `rowtime1`. */
function suffixed(names: readonly string[], takenNames: readonly string[]): string[] {
  const taken = new Set(takenNames);
  return names.map((n) => {
    let name = n;
    for (let i = 0; taken.has(name); i++) name = `${n}${i}`;
    taken.add(name);
    return name;
  });
}

/** The sink of `INSERT ... PARTITION (k = 'v')`: it receives the static values as text (Flink's SupportsPartitioning.applyStaticPartition). */
function withStaticPartition(sink: SinkNode, partition: readonly StaticPartitionValue[]): SinkNode {
  const spec: Record<string, string> = {};
  for (const p of partition) {
    const v = p.value;
    spec[p.name] = v.kind === "Literal" && v.value !== null ? String(v.value) : "";
  }
  const { kind: _kind, id: _id, ...fields } = sink;
  return sinkNode({ ...fields, staticPartition: spec });
}
