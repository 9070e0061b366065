import type { Expression } from "../expressions/expression.js";
import { type ExprNode, col, nodeToString } from "../expressions/node.js";
import { ValidationError } from "../types/errors.js";
import * as plan from "../plan/builders.js";
import { deriveChangelogMode, modeToShortString } from "../plan/changelog-mode.js";
import { explainPlan } from "../plan/explain.js";
import type { PlanNode } from "../plan/nodes.js";
import type { ProgressOptions } from "./progress.js";
import { TableResult } from "./table-result.js";
import { resolveProcessCall } from "../ptf/call.js";
import { type CheckOrderKeys, type CheckPartitionKeys, type PartitionKeyNames, TableArgument, partitionKeyNames } from "../ptf/table-arguments.js";
import { PartitionedTable } from "./partitioned-table.js";
import type { AnyProcessTableFunction, CheckUpdatingInput, ProcessMode, ProcessOutput } from "../ptf/typing.js";
import type { CheckedArgs, CheckedFunction, ImplicitTable } from "../ptf/call-checks.js";
import type { TableEnvironment } from "./table-environment.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";
import { lateralJoin } from "../functions/lateral.js";
import { planJoin } from "../plan/join-builder.js";
import type { JoinType } from "../plan/nodes/join.js";
import type { FinalInBatch, InsertOnlyInBatch } from "./batch-typing.js";
import type { InnerJoinMode, JoinResult, JoinRight, TemporalColumn } from "./join-typing.js";
import { TemporalTableFunction } from "../functions/temporal-table-function.js";
import { type InsertTableResult, TablePipeline } from "./insert.js";
import * as rel from "./relational-ops.js";
import type { DedupArgs, SetOpArg, TopNArgs, TopNResult } from "./relational-typing.js";
import type { SinkTarget, TableDescriptor } from "./table-descriptor.js";
import type { LateralArg, LateralColumns } from "../functions/typing.js";
import type { GroupWindow } from "./windows/group-windows.js";
import type { OverWindow } from "./windows/over-windows.js";
import { type WindowCheck, type WindowedTable, windowTable } from "./windows/windowed-table.js";
import { planAggregate, planFlatAggregate, planFlatMap, planMap } from "../functions/row-based.js";
import { AggregatedTable, FlatAggregateTable } from "./row-based.js";
import { expandColumnFunctions } from "./column-functions.js";
import { toSqlText } from "./sql-text.js";
import type {
  AggregateArg, AggregateColumns, FlatAggregateArg, FlatAggregateColumns, FlatMapArg, FlatMapResult, MapArg, MapResult,
} from "./row-based-typing.js";
import type {
  AddArgs, AddOrReplaceArgs, AddOrReplaceResult, AddResult, AsArgs, AsResult, DistinctMode, DropArgs, DropResult, Flatten,
  GroupKeyArgs, GroupKeyNames, GroupSelectArgs, PredicateArg, RenameArgs, RenameResult, SelectArgs, SelectMode, SelectResult,
  SelectSchema, UnionArg, UnionMode, UnionResult,
} from "./typing.js";

/** Options of `execute()`. */
export interface ExecuteOptions {
  /** Cancels the job when aborted. */
  readonly signal?: AbortSignal;
  /**
   * Opt-in progress display while the job runs (off by default, so tests print nothing): `true` for a
   * single updating line on stderr, or options (a renderer such as the notebook's `notebookProgress()`,
   * the update interval, the clock). See docs/metrics.md.
   */
  readonly progress?: boolean | ProgressOptions;
}

/**
 * How a table changes over time, as part of its type: `"append"` (insert-only), `"retract"`
 * (+I/-U/+U/-D), `"upsert"` (+I/+U/-D by key). Sinks that take only inserts accept only `"append"`:
 *
 * ```ts
 * const counts = orders.groupBy($("product")).select($("product"), $("amount").sum().as("total"));
 * const appendOnly: Table<{ product: string | null; total: number | null }, "append"> = counts; // compile error: "retract"
 * ```
 * In a batch environment the same `counts` is a `Batch` table, an insert-only `"append"` (batch-typing.ts).
 */
export type { ChangelogKind } from "../plan/planning-context.js";
import { type ChangelogKind, PLANNED_TABLE } from "../plan/planning-context.js";

type AnyExpr = Expression<unknown>;

// `out` on S and M: a Table is read-only in both, so Table<{ a: number }, "append"> is a Table<object>.
// Declared because the compiler cannot measure variance through the conditional types of the method
// signatures (it would compare two Tables method by method, slowly, and fail); for the same reason it
// cannot verify the annotation and reports TS2636, which the directive below expects (docs/typing.md).
/**
 * A table: an immutable logical plan plus its schema `S` (column name -> TypeScript value type) and
 * changelog kind `M`. Every method returns a new Table; column references are checked by the compiler.
 *
 * ```ts
 * const adults = people.filter($("age").isGreaterOrEqual(18)).select($("name"), $("age"));
 * // Table<{ name: string | null; age: number | null }, "append">
 * people.select($("agee"));
 * // error: ... parameter of type 'readonly [TableTypeError<"column 'agee' is not in [age, name]">]'
 * ```
 * The rules behind these types are described in docs/typing.md.
 */
// @ts-expect-error TS2636: variance annotations not provable through conditional types
export class Table<out S extends object = Record<string, unknown>, out M extends ChangelogKind = ChangelogKind> {
  /** Phantom: the row type of this table. */
  declare readonly __schema: S;
  /** Phantom: the changelog kind of this table. */
  declare readonly __mode: M;

  constructor(readonly env: TableEnvironment, readonly node: PlanNode) {}

  /** @internal marks a Table for the planning floors below the facade (plan/planning-context.ts) */
  get [PLANNED_TABLE](): true {
    return true;
  }

  protected derive<S2 extends object, M2 extends ChangelogKind>(node: PlanNode): Table<S2, M2> {
    return new Table<S2, M2>(this.env, node);
  }

  /** The resolved (run-time) schema: column names and Flink data types. */
  getResolvedSchema(): ResolvedSchema {
    return this.node.schema;
  }

  /** Prints the schema like Flink's `printSchema()`. */
  printSchema(out: (line: string) => void = (l) => process.stdout.write(l + "\n")): void {
    out(this.node.schema.toString());
  }

  /**
   * Projection: `select($("name"), $("age").plus(1).as("next"))` is a `Table<{ name: ...; next: ... }>`.
   * Unnamed expressions are named `_c<i>`. Aggregates without groupBy make a global aggregate, an
   * updating (`"retract"`) table. Unknown columns, ill-typed expressions and duplicate output names
   * are compile errors.
   */
  select<const A extends readonly AnyExpr[]>(...fields: SelectArgs<S, A>): Table<SelectResult<S, A>, SelectMode<A, M>> {
    return this.derive(plan.project(this.node, expandColumnFunctions(nodes(fields), this.node.schema), this.env.planContext()));
  }

  /**
   * Keeps rows whose condition is TRUE (NULL and FALSE are dropped). The condition must be BOOLEAN:
   * `filter($("age"))` is a compile error (`the filter condition must be BOOLEAN, got NUMERIC`).
   */
  filter<E extends AnyExpr>(predicate: PredicateArg<S, E>): Table<S, M> {
    const n = this.node;
    // a filter over an inner join is part of its predicate (`a.join(b).where(...)`): equality keys and time bounds count
    if ((n.kind === "Join" || n.kind === "IntervalJoin") && n.joinType === "INNER") {
      const p = (predicate as AnyExpr).node;
      return this.derive(planJoin(n.left, n.right, "INNER", n.condition === undefined ? p : { kind: "Call", fn: "and", args: [n.condition, p] },
        this.env.planContext(), "where"));
    }
    return this.derive(plan.filter(this.node, (predicate as AnyExpr).node, this.env.planContext()));
  }

  /** Same as filter(). */
  where<E extends AnyExpr>(predicate: PredicateArg<S, E>): Table<S, M> {
    return this.filter(predicate as never);
  }

  /**
   * Appends computed columns: `addColumns($("price").times($("amount")).as("cost"))`. A name that exists
   * already is a compile error (`column 'price' already exists; use addOrReplaceColumns`).
   */
  addColumns<const A extends readonly AnyExpr[]>(...fields: AddArgs<S, A>): Table<AddResult<S, A>, M> {
    const items = nodes(fields);
    const names = this.node.schema.names;
    items.forEach((e, i) => {
      const name = outputNameAt(e, names.length + i);
      if (names.includes(name)) throw new ValidationError(`addColumns: column '${name}' already exists in [${names.join(", ")}]; use addOrReplaceColumns`);
    });
    return this.derive(plan.project(this.node, [...names.map(col), ...items.map((e, i) => named(e, names.length + i))], this.env.planContext(), "addColumns"));
  }

  /** Appends computed columns, replacing columns of the same name in place: `addOrReplaceColumns($("age").plus(1).as("age"))`. */
  addOrReplaceColumns<const A extends readonly AnyExpr[]>(...fields: AddOrReplaceArgs<S, A>): Table<AddOrReplaceResult<S, A>, M> {
    const items = nodes(fields);
    const names = this.node.schema.names;
    const out: ExprNode[] = names.map(col);
    const given = items.map((e, i) => outputNameAt(e, names.length + i));
    // as the compile-time check (Flink would keep the last item of a name): one item per name
    const twice = given.find((n, i) => given.indexOf(n) !== i);
    if (twice !== undefined) {
      throw new ValidationError(`addOrReplaceColumns: output column '${twice}' appears more than once among the new columns [${given.join(", ")}]`);
    }
    items.forEach((e, i) => {
      const name = given[i]!;
      const at = names.indexOf(name);
      if (at >= 0) out[at] = named(e, at, name);
      else out.push(named(e, out.length));
    });
    return this.derive(plan.project(this.node, out, this.env.planContext(), "addOrReplaceColumns"));
  }

  /**
   * Renames columns: `renameColumns($("product").as("item"))`. An unknown column, a name that exists
   * already (and is not renamed away) or another item form is a compile error.
   */
  renameColumns<const A extends readonly AnyExpr[]>(...fields: RenameArgs<S, A>): Table<RenameResult<S, A>, M> {
    const renames = new Map<string, string>();
    for (const e of nodes(fields)) {
      if (e.kind !== "Alias" || e.expr.kind !== "Column") {
        throw new ValidationError(`renameColumns: expected $("old").as("new"), got ${nodeToString(e)}`);
      }
      this.node.schema.indexOf(e.expr.name, "renameColumns: column");
      renames.set(e.expr.name, e.name);
    }
    const items = this.node.schema.names.map((n): ExprNode =>
      renames.has(n) ? { kind: "Alias", name: renames.get(n)!, extraNames: [], expr: col(n) } : col(n));
    return this.derive(plan.project(this.node, items, this.env.planContext(), "renameColumns"));
  }

  /** Removes columns: `dropColumns($("internal_id"))`. Unknown columns, or all of them, are a compile error. */
  dropColumns<const A extends readonly AnyExpr[]>(...fields: DropArgs<S, A>): Table<DropResult<S, A>, M> {
    const drop = new Set<string>();
    for (const e of nodes(fields)) {
      if (e.kind !== "Column") throw new ValidationError(`dropColumns: expected a column reference, got ${nodeToString(e)}`);
      this.node.schema.indexOf(e.name, "dropColumns: column");
      drop.add(e.name);
    }
    const keep = this.node.schema.names.filter((n) => !drop.has(n));
    if (keep.length === 0) throw new ValidationError("dropColumns: cannot drop every column");
    return this.derive(plan.project(this.node, keep.map(col), this.env.planContext(), "dropColumns"));
  }

  /**
   * Renames all columns by position: `env.fromValues("Bob", "Alice").as("name")`. Typed for tables
   * whose columns are positional (f0, f1, ... from fromValues); give exactly one name per column.
   */
  as<const N extends readonly [string, ...string[]]>(...names: AsArgs<S, N>): Table<AsResult<S, N>, M> {
    return this.derive(plan.renameAll(this.node, names as readonly string[], this.env.planContext()));
  }

  /**
   * Groups rows for aggregation: `groupBy($("product")).select($("product"), $("amount").sum().as("total"))`
   * is a `Table<{ product: ...; total: number | null }, "retract">`.
   */
  groupBy<const K extends readonly AnyExpr[]>(...keys: GroupKeyArgs<S, K>): GroupedTable<S, GroupKeyNames<S, K>, M> {
    return new GroupedTable<S, GroupKeyNames<S, K>, M>(this.env, this.node, expandColumnFunctions(nodes(keys), this.node.schema));
  }

  /** Removes duplicate rows. An insert-only table stays insert-only; an updating one stays updating. */
  distinct(): Table<S, DistinctMode<M>> {
    return this.derive(plan.distinct(this.node));
  }

  /**
   * UNION ALL: rows of both tables. The compiler checks that both have the same column names and type
   * families (the run time also checks their order); a column nullable in either is nullable.
   */
  unionAll<S2 extends object, M2 extends ChangelogKind>(other: UnionArg<S, S2, Table<S2, M2>>): Table<UnionResult<S, S2>, UnionMode<M, M2>> {
    this.sameEnv(other as Table<S2, M2>);
    return this.derive(plan.unionAll([this.node, (other as Table<S2, M2>).node]));
  }

  /** UNION (set semantics): distinct rows of both tables. */
  union<S2 extends object, M2 extends ChangelogKind>(other: UnionArg<S, S2, Table<S2, M2>>):
    Table<UnionResult<S, S2>, DistinctMode<UnionMode<M, M2>>> {
    this.sameEnv(other as Table<S2, M2>);
    return this.derive(plan.distinct(plan.unionAll([this.node, (other as Table<S2, M2>).node])));
  }

  // ---- joins (src/plan/join-builder.ts, docs/joins.md) ----

  /**
   * Inner join: `orders.join(customers, $("customer_id").isEqual($("id")))`, or `orders.join(customers).where(...)`;
   * without a predicate, a cross join. The result has both tables' columns; a column name on both sides is a
   * compile error (rename one first). Equalities between the two sides are the join keys; a predicate that
   * bounds a rowtime attribute of each side against the other makes an interval join.
   */
  join<S2 extends object, M2 extends ChangelogKind, E extends AnyExpr = never>(
    right: JoinRight<S, S2, Table<S2, M2>>, predicate?: PredicateArg<JoinResult<S, S2, false, false>, E>,
  ): Table<JoinResult<S, S2, false, false>, FinalInBatch<M, InnerJoinMode<M, M2>>> {
    return this.joined(right as Table<S2, M2>, "INNER", predicate, "join");
  }

  /** Left outer join: every row of this table, with NULLs for the right columns where nothing matches. */
  leftOuterJoin<S2 extends object, M2 extends ChangelogKind, E extends AnyExpr = never>(
    right: JoinRight<S, S2, Table<S2, M2>>, predicate?: PredicateArg<JoinResult<S, S2, false, false>, E>,
  ): Table<JoinResult<S, S2, false, true>, FinalInBatch<M, "retract">> {
    return this.joined(right as Table<S2, M2>, "LEFT", predicate, "leftOuterJoin");
  }

  /** Right outer join: every row of the right table, with NULLs for this table's columns where nothing matches. */
  rightOuterJoin<S2 extends object, M2 extends ChangelogKind, E extends AnyExpr>(
    right: JoinRight<S, S2, Table<S2, M2>>, predicate: PredicateArg<JoinResult<S, S2, false, false>, E>,
  ): Table<JoinResult<S, S2, true, false>, FinalInBatch<M, "retract">> {
    return this.joined(right as Table<S2, M2>, "RIGHT", predicate, "rightOuterJoin");
  }

  /** Full outer join: every row of both tables, padded with NULLs where nothing matches. */
  fullOuterJoin<S2 extends object, M2 extends ChangelogKind, E extends AnyExpr>(
    right: JoinRight<S, S2, Table<S2, M2>>, predicate: PredicateArg<JoinResult<S, S2, false, false>, E>,
  ): Table<JoinResult<S, S2, true, true>, FinalInBatch<M, "retract">> {
    return this.joined(right as Table<S2, M2>, "FULL", predicate, "fullOuterJoin");
  }

  /**
   * This table as a versioned table: a temporal table function over its time attribute and primary key, for an
   * event-time temporal join (`FOR SYSTEM_TIME AS OF`): `orders.joinLateral(call(rates, $("order_time")),
   * $("order_currency").isEqual($("currency")))` joins each order with the rate valid at its time.
   */
  createTemporalTableFunction<T extends AnyExpr, const K extends readonly AnyExpr[]>(
    timeAttribute: TemporalColumn<S, T>, ...primaryKey: { [I in keyof K]: TemporalColumn<S, K[I]> }
  ): TemporalTableFunction<S> {
    const name = (e: unknown, what: string) => {
      const n = exprOf(e);
      if (n.kind !== "Column") throw new ValidationError(`createTemporalTableFunction: the ${what} must be a column reference $("..."), got ${nodeToString(n)}`);
      return n.name;
    };
    return new TemporalTableFunction<S>(this.node, name(timeAttribute, "time attribute"), (primaryKey as readonly unknown[]).map((k) => name(k, "primary key")));
  }

  private joined<S2 extends object, M2 extends ChangelogKind, R extends object, RM extends ChangelogKind>(
    right: Table<S2, M2>, joinType: JoinType, predicate: unknown, what: string,
  ): Table<R, RM> {
    if (!(right instanceof Table)) throw new ValidationError(`${what}: the right side must be a Table`);
    this.sameEnv(right);
    const p = predicate === undefined ? undefined : exprOf(predicate);
    return this.derive(planJoin(this.node, right.node, joinType, p, this.env.planContext(), what));
  }

  // ---- ordering, top-N, deduplication, set operations (docs/top-n-and-dedup.md) ----

  /**
   * ORDER BY: `orderBy($("price").desc(), $("id"))`; NULLs first for ASC and last for DESC unless
   * `.nullsFirst()` / `.nullsLast()` says otherwise. Batch: a sort. Streaming: the first key must be an
   * ascending event-time attribute (rows are released by the watermark), unless a `fetch`/`limit`
   * follows, which makes a top-N that retracts rows leaving it.
   */
  orderBy<const O extends readonly AnyExpr[]>(...fields: O & CheckOrderKeys<S, O>): Table<S, M> {
    return this.derive(rel.orderBy(this.node, nodes(fields)));
  }

  /** Skips the first `n` rows (of the sort it follows, or in arrival order). */
  offset(n: number): Table<S, FinalInBatch<M, "retract">> {
    return this.derive(rel.offset(this.node, n));
  }

  /**
   * The first `n` rows (of the sort it follows, or in arrival order). On an unbounded insert-only table
   * without orderBy, the job stops once `n` rows came out: how a notebook peeks at a stream.
   */
  fetch(n: number): Table<S, FinalInBatch<M, "retract">> {
    return this.derive(rel.fetch(this.node, n));
  }

  /** `limit(n)` = `fetch(n)`; `limit(offset, n)` = `offset(offset).fetch(n)`. */
  limit(n: number): Table<S, FinalInBatch<M, "retract">>;
  limit(offset: number, fetch: number): Table<S, FinalInBatch<M, "retract">>;
  limit(a: number, b?: number): Table<S, FinalInBatch<M, "retract">> {
    return this.derive(b === undefined ? rel.fetch(this.node, a) : rel.fetch(rel.offset(this.node, a), b));
  }

  /**
   * Top-N per partition with ROW_NUMBER semantics (SQL: `ROW_NUMBER() OVER (PARTITION BY .. ORDER BY ..)
   * AS rn ... WHERE rn <= n`): `bids.topN(3, { partitionBy: [$("auction")], orderBy: [$("price").desc()], rowNumber: "rn" })`.
   * Rows that leave the top are retracted; `rowNumber` appends the rank as a BIGINT NOT NULL column.
   */
  topN<const K extends readonly AnyExpr[] = [], const O extends readonly AnyExpr[] = [], const R extends string = never>(
    n: number, spec: TopNArgs<S, K, O, R>,
  ): Table<TopNResult<S, R>, FinalInBatch<M, "retract">> {
    return this.derive(rel.topN(this.node, n, spec as rel.TopNSpec));
  }

  /**
   * One row per key: the first or the last (`keep`), by processing time (arrival) or by the event-time
   * attribute `orderBy` (SQL: `ROW_NUMBER() OVER (PARTITION BY keys ORDER BY time ASC|DESC) = 1`).
   * Keep-first by processing time is insert-only; the others update rows by key.
   */
  deduplicate<const K extends readonly AnyExpr[], const T extends AnyExpr = never>(spec: DedupArgs<S, K, T>): Table<S, FinalInBatch<M, "retract">> {
    return this.derive(rel.deduplicate(this.node, spec as rel.DeduplicateSpec));
  }

  /** INTERSECT: distinct rows present in both tables (same column names and type families, checked by the compiler). */
  intersect<S2 extends object, M2 extends ChangelogKind>(other: SetOpArg<S, S2, Table<S2, M2>>): Table<UnionResult<S, S2>, DistinctMode<UnionMode<M, M2>>> {
    return this.derive(this.setOp(other, "INTERSECT", false));
  }

  /** INTERSECT ALL: each row min(count here, count there) times. */
  intersectAll<S2 extends object, M2 extends ChangelogKind>(other: SetOpArg<S, S2, Table<S2, M2>>): Table<UnionResult<S, S2>, DistinctMode<UnionMode<M, M2>>> {
    return this.derive(this.setOp(other, "INTERSECT", true));
  }

  /** EXCEPT (Flink's `minus`): distinct rows of this table not present in the other. Rows later matched are retracted. */
  minus<S2 extends object, M2 extends ChangelogKind>(other: SetOpArg<S, S2, Table<S2, M2>>): Table<UnionResult<S, S2>, FinalInBatch<M, "retract">> {
    return this.derive(this.setOp(other, "MINUS", false));
  }

  /** EXCEPT ALL (`minusAll`): each row max(count here - count there, 0) times. */
  minusAll<S2 extends object, M2 extends ChangelogKind>(other: SetOpArg<S, S2, Table<S2, M2>>): Table<UnionResult<S, S2>, FinalInBatch<M, "retract">> {
    return this.derive(this.setOp(other, "MINUS", true));
  }

  private setOp(other: unknown, op: "INTERSECT" | "MINUS", all: boolean): PlanNode {
    if (!(other instanceof Table)) throw new ValidationError(`${op === "INTERSECT" ? "intersect" : "minus"}${all ? "All" : ""}: expected a Table`);
    this.sameEnv(other as Table<object, ChangelogKind>);
    return rel.setOp(this.node, other.node, op, all);
  }

  private sameEnv(other: Table<object, ChangelogKind>): void {
    if (other.env !== this.env) throw new ValidationError("tables from different TableEnvironments cannot be combined");
  }

  /**
   * Plans and returns the job; it runs when the result is consumed (collect, toArray, print). Rows are
   * typed by the schema: `(await t.execute().toArray())[0].name` is a `string | null`.
   */
  execute(options: ExecuteOptions = {}): TableResult<Flatten<S>> {
    return this.env.executeNode(this.node, options.signal, options.progress) as TableResult<Flatten<S>>;
  }

  /** The logical plan with each node's schema and changelog mode. */
  explain(): string {
    return explainPlan(this.env.negotiate(this.node, true), this.env.isBatch(), this.env.getConfig());
  }

  /**
   * The table's program as Flink SQL, e.g. `SELECT \`name\` AS \`name\` FROM \`Orders\` AS t0`: registered tables by
   * name, VALUES with their exact types, functions by their registered names; `executeSql` of the text gives
   * the same changelog (docs/sql.md, "Programs as SQL"): group windows as window TVFs, over windows as OVER,
   * interval joins with their bounds in ON, temporal joins as FOR SYSTEM_TIME AS OF, PTF calls by the
   * function's registered name. Parts without a SQL form raise a ValidationError naming them (and saying what
   * to do, e.g. register an inline PTF).
   */
  toSql(): string {
    return toSqlText(this.env, this.node);
  }

  /** The changelog mode the planner derives for this table, e.g. `[I,UB,UA]`. */
  changelogMode(): string {
    return modeToShortString(deriveChangelogMode(this.node, this.env.isBatch()));
  }

  // ---- row-based operations: map / flatMap / aggregate / flatAggregate (src/functions/row-based.ts) ----

  /**
   * One output row per row, made by a scalar function: a ROW result is flattened into its fields, another
   * result is one column `_c0`; `.as(...)` renames them. Input columns not returned are gone:
   * `t.map(call(Split, $("s")).as("left", "right"))`.
   */
  map<E extends AnyExpr>(fn: MapArg<S, E>): Table<MapResult<S, E>, M> {
    return this.derive(planMap(this.node, exprOf(fn), this.env.planContext()));
  }

  /**
   * The rows a table function produces for each row, with only the function's columns (renamed with
   * `.as(...)`): `t.flatMap(call(SplitFunction, $("tags")).as("tag"))`.
   */
  flatMap<E extends AnyExpr>(fn: FlatMapArg<S, E>): Table<FlatMapResult<E>, M> {
    return this.derive(planFlatMap(this.node, exprOf(fn), this.env.functions, this.env.planContext()));
  }

  /** A global aggregate with an aggregate function whose ROW result is flattened; `select` follows. */
  aggregate<E extends AnyExpr>(fn: AggregateArg<S, E>): AggregatedTable<AggregateColumns<S, never, E>, FinalInBatch<M, "retract">> {
    return new AggregatedTable(this.env, planAggregate(this.node, [], exprOf(fn), this.env.planContext()));
  }

  /** A global table aggregate (`TableAggregateFunction`): any number of rows out; `select` follows. */
  flatAggregate<E extends AnyExpr>(fn: FlatAggregateArg<S, E>): FlatAggregateTable<FlatAggregateColumns<S, never, E>, FinalInBatch<M, "retract">> {
    return new FlatAggregateTable(this.env, planFlatAggregate(this.node, [], exprOf(fn), this.env.functions, this.env.planContext(), this.env.isBatch()));
  }

  // ---- Process Table Function calls: partitionBy / process / asArgument (issue 4, src/ptf) ----

  /** PARTITION BY for a set-semantics PTF: `names.partitionBy($("name")).process(GreetingWithMemory)`. */
  partitionBy<const K extends readonly AnyExpr[]>(...keys: K & CheckPartitionKeys<S, K>): PartitionedTable<S, PartitionKeyNames<K>, M> {
    return new PartitionedTable<S, PartitionKeyNames<K>, M>(this, partitionKeyNames(this, keys));
  }

  /**
   * Calls a Process Table Function (object or registered name) with this table as its table argument;
   * further arguments are positional (`process(TableFilter, 100)`) or named
   * (`process(TableFilter, lit(100).asArgument("threshold"))`). Calls chain: `t.process(f1).process(f2)`.
   */
  process<F extends AnyProcessTableFunction | string, const A extends readonly unknown[]>(
    fn: CheckedFunction<F, ImplicitTable<S, never>, A> & CheckUpdatingInput<M, F>, ...args: CheckedArgs<F, ImplicitTable<S, never>, A>
  ): Table<ProcessOutput<F, S, never, A>, InsertOnlyInBatch<M, ProcessMode<F>>> {
    return this.derive(resolveProcessCall(this.env, fn, args, new TableArgument(undefined, this, [])));
  }

  /** This table as the named table argument `name` of `env.fromCall(F, ...)`. */
  asArgument<const N extends string>(name: N): TableArgument<S, never, N> {
    return new TableArgument(name, this, []);
  }

  // ---- event time: window / over (issue 3, windows) ----

  /**
   * Windows the table (src/table/windows): a group window to aggregate per window and key, or an over window
   * to aggregate over a frame of rows around each row.
   *
   * ```ts
   * orders.window(Tumble.over(lit(1).hours()).on($("order_time")).as("w"))
   *   .groupBy($("product"), $("w"))
   *   .select($("product"), $("w").start().as("window_start"), $("amount").sum().as("total_sold"));
   * orders.window(Over.partitionBy($("product")).orderBy($("order_time")).preceding(UNBOUNDED_RANGE).as("o"))
   *   .select($("product"), $("amount"), $("amount").sum().over($("o")).as("running_total"));
   * ```
   */
  window<W extends GroupWindow | OverWindow>(w: W & WindowCheck<S, W>): WindowedTable<S, W, M> {
    return windowTable(this.env, this.node, w) as WindowedTable<S, W, M>;
  }

  // ---- user-defined function joins and sinks: joinLateral / executeInsert / insertInto (issue 3) ----

  /**
   * Joins every row with the rows a table function produces for it; rows without output are dropped
   * (Flink's `joinLateral`). Output = this table's columns + the function's (renamed with `.as(...)`):
   * `orders.joinLateral(call("split", $("tags")).as("tag"))`. An optional condition filters the pairs.
   */
  joinLateral<E extends AnyExpr, C extends AnyExpr = never>(
    call: LateralArg<S, E>, condition?: PredicateArg<Flatten<S & LateralColumns<E, false>>, C>,
  ): Table<Flatten<S & LateralColumns<E, false>>, M> {
    return this.derive(lateralJoin(this.node, exprOf(call), "INNER", condition === undefined ? undefined : exprOf(condition),
      this.env.functions, this.env.planContext()));
  }

  /**
   * Writes this table into a connector table and submits the job at once (Flink's `executeInsert`):
   * `await counts.executeInsert("out").await()`. The target is a registered table name or a
   * TableDescriptor (its schema may be omitted: this table's is used). Columns are matched by position.
   * An updating table into an append-only sink is a compile error for a descriptor of a known connector
   * and a planner error otherwise; an upsert sink needs a primary key.
   */
  executeInsert<const T extends string | TableDescriptor<object>>(target: SinkTarget<M, T>, options: { signal?: AbortSignal } = {}): InsertTableResult {
    return this.insertInto(target).execute(options);
  }

  /** Binds this table to a sink without running it (Flink's `insertInto`): `t.insertInto("out").execute()`. */
  insertInto<const T extends string | TableDescriptor<object>>(target: SinkTarget<M, T>): TablePipeline {
    const node = this.env.planInsert(this.node, target as string | TableDescriptor<object>);
    return new TablePipeline(node, (n, signal) => this.env.startInsert(n, signal), this.env.isBatch(), (n) => this.env.negotiate(n, false), this.env.getConfig());
  }

  /**
   * Like joinLateral, but a row for which the function produces no row (or none satisfying the
   * condition) is kept once, with NULL in the function's columns (Flink's `leftOuterJoinLateral`).
   */
  leftOuterJoinLateral<E extends AnyExpr, C extends AnyExpr = never>(
    call: LateralArg<S, E>, condition?: PredicateArg<Flatten<S & LateralColumns<E, true>>, C>,
  ): Table<Flatten<S & LateralColumns<E, true>>, M> {
    return this.derive(lateralJoin(this.node, exprOf(call), "LEFT", condition === undefined ? undefined : exprOf(condition),
      this.env.functions, this.env.planContext()));
  }
}

function exprOf(e: unknown): ExprNode {
  return nodes([e])[0]!;
}

/** The result of `groupBy(...)`: select the grouping keys and aggregates. */
export class GroupedTable<S extends object, G extends string, M extends ChangelogKind = ChangelogKind> {
  declare readonly __schema: S;
  constructor(private readonly env: TableEnvironment, private readonly node: PlanNode, private readonly keys: readonly ExprNode[]) {}

  /** Grouping keys and aggregates; other columns may only appear inside aggregates. Produces an updating table. */
  select<const A extends readonly AnyExpr[]>(...fields: GroupSelectArgs<S, A, G>): Table<SelectSchema<S, A, G>, FinalInBatch<M, "retract">> {
    return new Table(this.env, plan.aggregate(this.node, this.keys, expandColumnFunctions(nodes(fields), this.node.schema), this.env.planContext()));
  }

  /**
   * Aggregates each group with an aggregate function whose ROW result is flattened into columns (Flink's
   * row-based aggregate): `groupBy($("k")).aggregate(call(MinMax, $("v")).as("lo", "hi")).select($("k"), $("lo"))`.
   */
  aggregate<E extends AnyExpr>(fn: AggregateArg<S, E>): AggregatedTable<AggregateColumns<S, G, E>, FinalInBatch<M, "retract">> {
    return new AggregatedTable(this.env, planAggregate(this.node, this.keys, exprOf(fn), this.env.planContext()));
  }

  /**
   * Each group through a table aggregate function (Flink's TableAggregateFunction, e.g. a top-2):
   * `groupBy($("k")).flatAggregate(call(Top2, $("v")).as("v", "rank")).select($("k"), $("v"), $("rank"))`.
   * Streaming output retracts (`-D`) a group's earlier rows when its result changes (docs/functions.md).
   */
  flatAggregate<E extends AnyExpr>(fn: FlatAggregateArg<S, E>): FlatAggregateTable<FlatAggregateColumns<S, G, E>, FinalInBatch<M, "retract">> {
    return new FlatAggregateTable(this.env, planFlatAggregate(this.node, this.keys, exprOf(fn), this.env.functions, this.env.planContext(), this.env.isBatch()));
  }
}

function nodes(fields: readonly unknown[]): ExprNode[] {
  return fields.map((f, i) => {
    if (f === null || typeof f !== "object" || !("node" in f)) {
      throw new ValidationError(`argument ${i + 1} is not an expression; use $("column") or lit(value)`);
    }
    return (f as AnyExpr).node;
  });
}

function outputNameAt(e: ExprNode, i: number): string {
  return e.kind === "Alias" ? e.name : e.kind === "Column" ? e.name : `_c${i}`;
}

/** Keeps an item's name stable when it moves to another position of the projection. */
function named(e: ExprNode, i: number, name = outputNameAt(e, i)): ExprNode {
  if (e.kind === "Alias") return e;
  if (e.kind === "Column" && e.name === name) return e;
  return { kind: "Alias", name, extraNames: [], expr: e };
}
