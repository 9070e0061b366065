import type { ExprNode } from "../expressions/node.js";
import type { OrderItem } from "../ptf/order-by.js";
import type { DataType } from "../types/data-type.js";

/**
 * The statements `env.executeSql` reads (docs/sql.md). Every node keeps the source offset (`pos`) of
 * its first token so that the binder can name the line and column of a validation error.
 */
export type Statement = QueryStatement | CreateViewStatement | CreateTableStatement;

export interface QueryStatement {
  readonly kind: "Query";
  readonly query: Query;
}

export interface CreateViewStatement {
  readonly kind: "CreateView";
  readonly name: string;
  readonly pos: number;
  readonly temporary: boolean;
  readonly ifNotExists: boolean;
  /** `CREATE VIEW v(a, b) AS ...`: names for the query's columns. */
  readonly columns: readonly string[] | undefined;
  readonly query: Query;
}

export interface CreateTableStatement {
  readonly kind: "CreateTable";
  readonly name: string;
  readonly pos: number;
  readonly temporary: boolean;
  readonly ifNotExists: boolean;
  readonly columns: readonly ColumnDef[];
  readonly watermark: { readonly column: string; readonly sql: string; readonly pos: number } | undefined;
  readonly primaryKey: readonly string[] | undefined;
  readonly comment: string | undefined;
  /** `WITH ('k' = 'v', ...)` in the order written. */
  readonly options: readonly (readonly [key: string, value: string, pos: number])[];
}

export type ColumnDef =
  | { readonly kind: "physical"; readonly name: string; readonly type: DataType; readonly pos: number }
  /** `name AS expr`: the SQL text of the expression, parsed again by Schema (which keeps it for printing). */
  | { readonly kind: "computed"; readonly name: string; readonly sql: string; readonly pos: number };

export type Query = SelectQuery | ValuesQuery;

export interface ValuesQuery {
  readonly kind: "Values";
  readonly pos: number;
  readonly rows: readonly { readonly values: readonly ExprNode[]; readonly pos: number }[];
}

export interface SelectQuery {
  readonly kind: "Select";
  readonly pos: number;
  /** undefined: `SELECT *`. */
  readonly items: readonly SelectItem[] | undefined;
  readonly from: FromItem;
  readonly where: { readonly expr: ExprNode; readonly pos: number } | undefined;
}

export interface SelectItem {
  readonly expr: ExprNode;
  readonly alias: string | undefined;
  readonly pos: number;
}

export type FromItem =
  | { readonly kind: "Table"; readonly name: string; readonly pos: number }
  | { readonly kind: "Call"; readonly name: string; readonly pos: number; readonly args: readonly CallArg[] };

export interface CallArg {
  /** `name => value`; undefined for a positional argument. */
  readonly name: string | undefined;
  readonly value: ArgValue;
  readonly pos: number;
}

export type ArgValue =
  | { readonly kind: "table"; readonly name: string; readonly pos: number; readonly partitionBy: readonly string[]; readonly orderBy: readonly OrderItem[] }
  | { readonly kind: "descriptor"; readonly names: readonly string[] }
  | { readonly kind: "default" }
  | { readonly kind: "expr"; readonly node: ExprNode };
