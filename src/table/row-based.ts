import type { Expression } from "../expressions/expression.js";
import type { ExprNode } from "../expressions/node.js";
import * as plan from "../plan/builders.js";
import type { PlanNode } from "../plan/nodes.js";
import { type ChangelogKind, Table } from "./table.js";
import { expandColumnFunctions } from "./column-functions.js";
import type { TableEnvironment } from "./table-environment.js";
import type { SelectArgs, SelectResult } from "./typing.js";

type AnyExpr = Expression<unknown>;

/**
 * The result of `aggregate(...)` (Flink's AggregatedTable): the grouping keys and the aggregate's flattened
 * result, available to one `select`. `S` are those columns.
 *
 * ```ts
 * t.groupBy($("key")).aggregate(call(MinMax, $("v")).as("lo", "hi")).select($("key"), $("lo"), $("hi"));
 * ```
 */
export class AggregatedTable<S extends object, M extends ChangelogKind = "retract"> {
  declare readonly __schema: S;
  /** @internal */
  constructor(private readonly env: TableEnvironment, private readonly node: PlanNode) {}

  /** Selects from the keys and the aggregate's columns; the result is an updating table (final in batch mode). */
  select<const A extends readonly AnyExpr[]>(...fields: SelectArgs<S, A>): Table<SelectResult<S, A>, M> {
    return new Table(this.env, plan.project(this.node, expandColumnFunctions(nodes(fields), this.node.schema), this.env.planContext()));
  }
}

/**
 * The result of `flatAggregate(...)` (Flink's FlatAggregateTable): the grouping keys and the rows of the
 * table aggregate function, available to one `select`.
 *
 * ```ts
 * t.groupBy($("key")).flatAggregate(call(Top2, $("v")).as("v", "rank")).select($("key"), $("v"), $("rank"));
 * ```
 */
export class FlatAggregateTable<S extends object, M extends ChangelogKind = "retract"> {
  declare readonly __schema: S;
  /** @internal */
  constructor(private readonly env: TableEnvironment, private readonly node: PlanNode) {}

  /** Selects from the keys and the function's columns; no aggregates here. The result is an updating table (final in batch mode). */
  select<const A extends readonly AnyExpr[]>(...fields: SelectArgs<S, A>): Table<SelectResult<S, A>, M> {
    return new Table(this.env, plan.project(this.node, expandColumnFunctions(nodes(fields), this.node.schema), this.env.planContext(), "flatAggregate(...).select"));
  }
}

function nodes(fields: readonly unknown[]): ExprNode[] {
  return fields.map((f) => (f as AnyExpr).node);
}
