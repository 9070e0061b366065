import type { Expression } from "../../expressions/expression.js";
import type { ExprNode } from "../../expressions/node.js";
import type { Resolve, TAgg, TWindowAlias, TableTypeError } from "../../expressions/type-level.js";
import { ValidationError } from "../../types/errors.js";
import type { PlanNode } from "../../plan/nodes.js";
import { groupWindowSpec, overAggregate, overWindowSpec, windowAggregate } from "../plan/window-builders.js";
import { type ChangelogKind, Table } from "../table.js";
import type { InsertOnlyInBatch } from "../batch-typing.js";
import type { TableEnvironment } from "../table-environment.js";
import type { GroupKeyArgs, GroupKeyNames, GroupSelectArgs, KeyNames, NodeOfExpr, SelectSchema, Validated } from "../typing.js";
import { GroupWindow } from "./group-windows.js";
import { OverWindow } from "./over-windows.js";

type AnyExpr = Expression<unknown>;

/** The schema a window-grouped select sees: the table's columns plus the window alias. */
export type WithWindowAlias<S, A extends string> = S & { readonly [K in A]: TWindowAlias };

/** `table.window(w)` checks: the time / order column exists and the alias is new (`unknown` when all is well). */
export type WindowCheck<S, W> =
  W extends GroupWindow<infer A, infer T>
    ? (T extends keyof S
      ? (unknown extends S[T] ? NewAlias<S, A, W>
        : [NonNullable<S[T]>] extends [Date] ? NewAlias<S, A, W>
        : TableTypeError<`window time attribute '${T}' must be a TIMESTAMP column with a watermark`>)
      : TableTypeError<`window time attribute '${T}' is not a column of the table`>)
    : W extends OverWindow<infer A, infer O>
      ? (O extends keyof S ? NewAlias<S, A, W> : TableTypeError<`over window orderBy column '${O}' is not a column of the table`>)
      : TableTypeError<"window() takes a Tumble, Slide, Session, Cumulate or Over window ending in .as(alias)">;

type NewAlias<S, A extends string, W> =
  string extends keyof S ? unknown // an untyped table (env.from(name)): checked at run time
  : A extends keyof S ? TableTypeError<`the window alias '${A}' is already a column`> : unknown;

/** An over window ordered by a timestamp emits each row once (event time); ordered by another column it updates rows. */
export type OverMode<S, O extends string> = O extends keyof S ? ([NonNullable<S[O]>] extends [Date] ? "append" : "retract") : never;

/** What `table.window(w)` returns for each kind of window. */
export type WindowedTable<S extends object, W, M extends ChangelogKind = ChangelogKind> =
  W extends GroupWindow<infer A, string> ? GroupWindowedTable<S, A, M>
  : W extends OverWindow<infer A, infer O> ? OverWindowedTable<S, A, InsertOnlyInBatch<M, OverMode<S, O>>>
  : never;

/** groupBy keys of a windowed table: valid keys, one of them the window alias. */
export type WindowKeyArgs<S, A extends string, K extends readonly unknown[]> =
  A extends KeyNames<K> ? GroupKeyArgs<S, K>
  : { [I in keyof K]: TableTypeError<`groupBy must contain the window alias: add $("${A}")`> };

/** The keys a window select may use: as GroupKeyNames; every column when groupBy lacks the alias (already an error there). */
export type WindowKeyNames<S, A extends string, K extends readonly unknown[]> = A extends KeyNames<K> ? GroupKeyNames<S, K> : string;

/** Select items of a window aggregate: the usual checks, and the alias only through start()/end()/rowtime(). */
export type WindowSelectArgs<S, F extends readonly unknown[], G extends string> = Validated<F, {
  [I in keyof F]: [Resolve<S, NodeOfExpr<F[I]>, G>] extends [TWindowAlias]
    ? TableTypeError<"a window alias can only be selected as .start(), .end() or .rowtime()">
    : GroupSelectArgs<S, F, G>[I];
}>;

/** Over select items: row-level expressions and aggregates with `.over($("w"))`. */
export type OverSelectArgs<S, F extends readonly unknown[]> = Validated<F, {
  [I in keyof F]: NodeOfExpr<F[I]> extends TAgg<string, unknown> ? TableTypeError<"an aggregate here needs .over($(\"w\"))">
    : GroupSelectArgs<S, F, string>[I];
}>;

function nodes(fields: readonly unknown[], what: string): ExprNode[] {
  return fields.map((f, i) => {
    if (f === null || typeof f !== "object" || !("node" in f)) throw new ValidationError(`${what}: argument ${i + 1} is not an expression`);
    return (f as AnyExpr).node;
  });
}

/** `table.window(groupWindow)`: must be grouped by the window alias (and maybe more keys) next. */
export class GroupWindowedTable<S extends object, A extends string, M extends ChangelogKind = ChangelogKind> {
  declare readonly __schema: S;
  /** @internal */
  constructor(private readonly env: TableEnvironment, private readonly node: PlanNode, private readonly window: GroupWindow<A, string>) {}

  /** Groups by the window alias and further keys: `groupBy($("w"), $("product"))`. */
  groupBy<const K extends readonly AnyExpr[]>(...keys: WindowKeyArgs<WithWindowAlias<S, A>, A, K>):
    WindowGroupedTable<WithWindowAlias<S, A>, WindowKeyNames<WithWindowAlias<S, A>, A, K>, M> {
    return new WindowGroupedTable(this.env, this.node, this.window, nodes(keys, "groupBy"));
  }
}

/** A window-grouped table: select grouping keys, aggregates and window properties. */
export class WindowGroupedTable<S extends object, G extends string, M extends ChangelogKind = ChangelogKind> {
  declare readonly __schema: S;
  /** @internal */
  constructor(
    private readonly env: TableEnvironment,
    private readonly node: PlanNode,
    private readonly window: GroupWindow<string, string>,
    private readonly keys: readonly ExprNode[],
  ) {}

  /**
   * One row per window and key, emitted once when the watermark passes the window's end (append-only):
   * `select($("product"), $("w").start(), $("w").end(), $("amount").sum().as("total"))`.
   */
  select<const F extends readonly AnyExpr[]>(...fields: WindowSelectArgs<S, F, G>): Table<SelectSchema<S, F, G>, InsertOnlyInBatch<M, "append">> {
    const pc = this.env.planContext();
    const spec = groupWindowSpec(this.window.definition, this.node, pc);
    return new Table(this.env, windowAggregate(this.node, spec, this.keys, nodes(fields, "select"), pc, this.env.isBatch()));
  }
}

/** `table.window(overWindow)`: select row-level columns and aggregates over the window. */
export class OverWindowedTable<S extends object, A extends string, M extends ChangelogKind> {
  declare readonly __schema: S;
  declare readonly __alias: A;
  /** @internal */
  constructor(private readonly env: TableEnvironment, private readonly node: PlanNode, private readonly window: OverWindow<A, string>) {}

  /**
   * One output row per input row: `select($("k"), $("v"), $("v").sum().over($("w")).as("running"))`.
   * Ordered by an event-time attribute, a row is emitted when the watermark passes its time (late rows
   * are dropped); ordered by another column, rows already emitted are updated (-U/+U) as rows arrive.
   */
  select<const F extends readonly AnyExpr[]>(...fields: OverSelectArgs<S, F>): Table<SelectSchema<S, F, string>, M> {
    const pc = this.env.planContext();
    const spec = overWindowSpec(this.window.definition, this.node, pc);
    return new Table(this.env, overAggregate(this.node, spec, nodes(fields, "select"), pc, this.env.isBatch()));
  }
}

/** Dispatches `table.window(w)`. */
export function windowTable(env: TableEnvironment, node: PlanNode, w: unknown): unknown {
  if (w instanceof GroupWindow) return new GroupWindowedTable(env, node, w);
  if (w instanceof OverWindow) return new OverWindowedTable(env, node, w);
  throw new ValidationError("window() takes a group window (Tumble, Slide, Session, Cumulate ... .as(alias)) or an over window (Over ... .as(alias))");
}
