import type { TableTypeError } from "../expressions/type-level.js";
import type { Expression } from "../expressions/expression.js";
import type { ColumnNames } from "../expressions/type-level.js";
import { ValidationError } from "../types/errors.js";
import type { PlanNode } from "../plan/nodes.js";
import type { PlannedTable } from "../plan/planning-context.js";
import { type OrderItem, orderItems } from "./order-by.js";
import type { TableArgType } from "./typing.js";

/** What a table argument needs from a Table: its environment and plan. */
export type TableLike = PlannedTable;

/** Marks the facade's `PartitionedTable` (table/partitioned-table.ts), recognized here without importing it. */
export const PARTITIONED_TABLE: unique symbol = Symbol.for("tablestream.PartitionedTable");

/** A table with PARTITION BY keys (and ORDER BY items) as the call binder sees it. */
export interface PartitionedTableLike {
  readonly [PARTITIONED_TABLE]: true;
  readonly table: PlannedTable;
  readonly keys: readonly string[];
  readonly order: readonly OrderItem[];
}

export function isPartitionedTable(x: unknown): x is PartitionedTableLike {
  return typeof x === "object" && x !== null && (x as Partial<PartitionedTableLike>)[PARTITIONED_TABLE] === true;
}

/**
 * A table passed to a PTF by name: `table.asArgument("r")` or
 * `table.partitionBy($("name")).asArgument("r")`, for `env.fromCall(F, ...)`.
 */
export class TableArgument<S = unknown, K extends string = string, N extends string = string> implements TableArgType<S, K> {
  readonly kind = "TableArgument" as const;
  declare readonly __tableArg: { readonly schema: S; readonly keys: K };
  declare readonly __argName: N;
  constructor(
    readonly name: N | undefined,
    readonly table: TableLike,
    /** PARTITION BY column names (empty: no PARTITION BY). */
    readonly partitionKeys: readonly string[],
    /** ORDER BY columns (empty: no ORDER BY). */
    readonly order: readonly OrderItem[] = [],
  ) {
    Object.freeze(this);
  }

  /**
   * ORDER BY for this argument, also without PARTITION BY (SQL `TABLE t ORDER BY ts` for an
   * OPTIONAL_PARTITION_BY argument): `t.asArgument("r").orderBy($("ts"))`. The rules are those of
   * `partitionBy(...).orderBy(...)`.
   */
  orderBy<const O extends readonly AnyExpr[]>(...columns: O & CheckOrderKeys<S, O>): TableArgument<S, K, N> {
    return new TableArgument(this.name, this.table, this.partitionKeys, orderItems(this.table, columns));
  }
}

/** partitionBy items must be column references of the table. */
export type CheckPartitionKeys<S, A extends readonly unknown[]> = {
  [I in keyof A]: A[I] extends Expression<infer N>
    ? N extends { readonly col: infer C } ? (C extends keyof S ? unknown : TableTypeError<`column '${C & string}' is not in [${ColumnNames<S>}]`>)
      : TableTypeError<"partitionBy takes column references $(\"name\")">
    : TableTypeError<"partitionBy takes column references $(\"name\")">;
};

/** orderBy items must be column references of the table, optionally with asc()/desc(). */
export type CheckOrderKeys<S, A extends readonly unknown[]> = {
  [I in keyof A]: A[I] extends Expression<infer N>
    ? N extends { readonly col: infer C } ? (C extends keyof S ? unknown : TableTypeError<`column '${C & string}' is not in [${ColumnNames<S>}]`>)
      : unknown
    : TableTypeError<"orderBy takes column references $(\"ts\").asc()">;
};

type AnyExpr = Expression<unknown>;

export type PartitionKeyNames<A extends readonly unknown[]> = {
  [I in keyof A]: A[I] extends Expression<infer N> ? (N extends { readonly col: infer C extends string } ? C : never) : never;
}[number];

/** Reads the column names of partitionBy(...) items, with a message naming a bad one. */
export function partitionKeyNames(table: TableLike, keys: readonly unknown[]): string[] {
  if (keys.length === 0) throw new ValidationError("partitionBy needs at least one column, e.g. partitionBy($(\"name\"))");
  const names = keys.map((k, i) => {
    const node = (k as { node?: { kind?: string; name?: string } } | null)?.node;
    if (!node || node.kind !== "Column") {
      throw new ValidationError(`partitionBy: argument ${i + 1} must be a column reference $("name"), got ${node ? node.kind : String(k)}`);
    }
    const schema = table.node.schema;
    if (!schema.has(node.name!)) {
      throw new ValidationError(`Invalid column '${node.name!}' for PARTITION BY clause. Available columns are: [${schema.names.join(", ")}]`);
    }
    return node.name!;
  });
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) throw new ValidationError(`partitionBy: column '${dup}' is given more than once`);
  return names;
}

