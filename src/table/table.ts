import type { Expression } from "../expressions/expression.js";
import { type ExprNode, col, nodeToString } from "../expressions/node.js";
import { ValidationError } from "./errors.js";
import * as plan from "./plan/builders.js";
import { deriveChangelogMode, modeToShortString } from "./plan/changelog-mode.js";
import { explainPlan } from "./plan/explain.js";
import type { PlanNode } from "./plan/nodes.js";
import { TableResult } from "./table-result.js";
import type { TableEnvironment } from "./table-environment.js";
import type { ResolvedSchema } from "./types/resolved-schema.js";
import type {
  AnyAgg, AsSchema, CheckAs, CheckDrops, CheckItems, CheckNew, CheckPredicate, CheckRenames, DropNames, Flatten,
  KeyNames, RenamePairs, Renamed, SelectSchema,
} from "./typing.js";

/**
 * How a table changes over time, as part of its type: `"append"` (insert-only), `"retract"`
 * (+I/-U/+U/-D), `"upsert"` (+I/+U/-D by key). Sinks that take only inserts accept only `"append"`.
 */
export type ChangelogKind = "append" | "retract" | "upsert";

type AnyExpr = Expression<unknown>;

/**
 * A table: an immutable logical plan plus its schema `S` (column name -> TypeScript value type) and
 * changelog kind `M`. Every method returns a new Table; column references are checked by the compiler.
 *
 * ```ts
 * const adults = people.filter($("age").isGreaterOrEqual(18)).select($("name"), $("age"));
 * // Table<{ name: string | null; age: number | null }, "append">
 * ```
 */
export class Table<S extends object = Record<string, unknown>, M extends ChangelogKind = ChangelogKind> {
  /** Phantom: the row type of this table. */
  declare readonly __schema: S;
  /** Phantom: the changelog kind of this table. */
  declare readonly __mode: M;

  constructor(readonly env: TableEnvironment, readonly node: PlanNode) {}

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
   * Projection: `select($("name"), $("age").plus(1).as("next"))`. Unnamed expressions are named `_c<i>`.
   * Aggregates without groupBy make a global aggregate.
   */
  select<const A extends readonly AnyExpr[]>(...fields: A & CheckItems<S, A>):
    Table<Flatten<SelectSchema<S, A>>, AnyAgg<A> extends true ? "retract" : M> {
    return this.derive(plan.project(this.node, nodes(fields), this.env.planContext()));
  }

  /** Keeps rows whose condition is TRUE (NULL and FALSE are dropped). */
  filter<E extends AnyExpr>(predicate: E & CheckPredicate<S, E>): Table<S, M> {
    return this.derive(plan.filter(this.node, (predicate as AnyExpr).node, this.env.planContext()));
  }

  /** Same as filter(). */
  where<E extends AnyExpr>(predicate: E & CheckPredicate<S, E>): Table<S, M> {
    return this.filter(predicate);
  }

  /** Appends computed columns; a name that exists already is an error (see addOrReplaceColumns). */
  addColumns<const A extends readonly AnyExpr[]>(...fields: A & CheckItems<S, A> & CheckNew<S, A>):
    Table<Flatten<S & SelectSchema<S, A>>, M> {
    const items = nodes(fields);
    const names = this.node.schema.names;
    items.forEach((e, i) => {
      const name = outputNameAt(e, names.length + i);
      if (names.includes(name)) throw new ValidationError(`addColumns: column '${name}' already exists in [${names.join(", ")}]; use addOrReplaceColumns`);
    });
    return this.derive(plan.project(this.node, [...names.map(col), ...items.map((e, i) => named(e, names.length + i))], this.env.planContext(), "addColumns"));
  }

  /** Appends computed columns, replacing columns of the same name in place. */
  addOrReplaceColumns<const A extends readonly AnyExpr[]>(...fields: A & CheckItems<S, A>):
    Table<Flatten<Omit<S, keyof SelectSchema<S, A>> & SelectSchema<S, A>>, M> {
    const items = nodes(fields);
    const names = this.node.schema.names;
    const out: ExprNode[] = names.map(col);
    items.forEach((e, i) => {
      const name = outputNameAt(e, names.length + i);
      const at = names.indexOf(name);
      if (at >= 0) out[at] = named(e, at, name);
      else out.push(named(e, out.length));
    });
    return this.derive(plan.project(this.node, out, this.env.planContext(), "addOrReplaceColumns"));
  }

  /** Renames columns: `renameColumns($("product").as("item"))`. */
  renameColumns<const A extends readonly AnyExpr[]>(...fields: A & CheckRenames<S, A>):
    Table<Flatten<Renamed<S, RenamePairs<A>>>, M> {
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

  /** Removes columns: `dropColumns($("internal_id"))`. */
  dropColumns<const A extends readonly AnyExpr[]>(...fields: A & CheckDrops<S, A>): Table<Flatten<Omit<S, DropNames<A>>>, M> {
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

  /** Renames all columns by position: `env.fromValues("Bob", "Alice").as("name")`. */
  as<const N extends readonly string[]>(...names: N & CheckAs<S, N>): Table<Flatten<AsSchema<S, N>>, M> {
    return this.derive(plan.renameAll(this.node, names as readonly string[], this.env.planContext()));
  }

  /** Groups rows for aggregation: `groupBy($("product")).select($("product"), $("amount").sum().as("total"))`. */
  groupBy<const K extends readonly AnyExpr[]>(...keys: K & CheckItems<S, K>): GroupedTable<S, KeyNames<K>> {
    return new GroupedTable<S, KeyNames<K>>(this.env, this.node, nodes(keys));
  }

  /** Removes duplicate rows. */
  distinct(): Table<S, M extends "append" ? "append" : "retract"> {
    return this.derive(plan.distinct(this.node));
  }

  /** UNION ALL: rows of both tables. Schemas must match by position. */
  unionAll<S2 extends object, M2 extends ChangelogKind>(other: Table<S2, M2> & ([S2] extends [S] ? unknown : { __schemaMismatch: S })):
    Table<S, M | M2> {
    this.sameEnv(other);
    return this.derive(plan.unionAll([this.node, other.node]));
  }

  /** UNION (set semantics): distinct rows of both tables. */
  union<S2 extends object, M2 extends ChangelogKind>(other: Table<S2, M2> & ([S2] extends [S] ? unknown : { __schemaMismatch: S })):
    Table<S, "append" extends M | M2 ? (M | M2 extends "append" ? "append" : "retract") : "retract"> {
    this.sameEnv(other);
    return this.derive(plan.distinct(plan.unionAll([this.node, other.node])));
  }

  private sameEnv(other: Table<object, ChangelogKind>): void {
    if (other.env !== this.env) throw new ValidationError("tables from different TableEnvironments cannot be combined");
  }

  /** Plans and returns the job; it runs when the result is consumed (collect, toArray, print). */
  execute(options: { signal?: AbortSignal } = {}): TableResult<Flatten<S>> {
    return this.env.executeNode(this.node, options.signal) as TableResult<Flatten<S>>;
  }

  /** The logical plan with each node's schema and changelog mode. */
  explain(): string {
    return explainPlan(this.node, this.env.isBatch());
  }

  /** The changelog mode the planner derives for this table, e.g. `[I,UB,UA]`. */
  changelogMode(): string {
    return modeToShortString(deriveChangelogMode(this.node, this.env.isBatch()));
  }

  // ---- Process Table Function calls: partitionBy / process / asArgument (issue 4, src/ptf) ----

  // ---- event time: window / over (issue 3, windows) ----

  // ---- user-defined function joins and sinks: joinLateral / executeInsert / insertInto (issue 3) ----
}

/** The result of `groupBy(...)`: select the grouping keys and aggregates. */
export class GroupedTable<S extends object, G extends string> {
  declare readonly __schema: S;
  constructor(private readonly env: TableEnvironment, private readonly node: PlanNode, private readonly keys: readonly ExprNode[]) {}

  /** Grouping keys and aggregates; other columns may only appear inside aggregates. Produces an updating table. */
  select<const A extends readonly AnyExpr[]>(...fields: A & CheckItems<S, A, G>): Table<Flatten<SelectSchema<S, A, G>>, "retract"> {
    return new Table(this.env, plan.aggregate(this.node, this.keys, nodes(fields), this.env.planContext()));
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
