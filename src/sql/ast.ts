import type { ExprNode, LiteralNode } from "../expressions/node.js";
import type { OrderItem } from "../ptf/order-by.js";
import type { DataType } from "../types/data-type.js";
import type { CatalogStatement, ExplainStatement, LikeClause, StatementSetStatement } from "./catalog-ast.js";
import type { MatchRecognizeClause } from "./match-recognize-ast.js";

/**
 * The statements `env.executeSql` reads (docs/sql.md). Every node keeps the source offset (`pos`) of
 * its first token so that the binder can name the line and column of a validation error.
 */
export type Statement = QueryStatement | CreateViewStatement | CreateTableStatement | InsertStatement | CatalogStatement | StatementSetStatement | ExplainStatement;

/** `INSERT INTO sink <query>`: runs as `sqlQuery(query).executeInsert(sink)`. */
export interface InsertStatement {
  readonly kind: "Insert";
  readonly table: string;
  /** `INSERT OVERWRITE`: batch only; the sink's previous contents are replaced. */
  readonly overwrite?: boolean;
  readonly pos: number;
  readonly query: Query;
  /** `INSERT INTO t (a, c) ...`: the sink columns the query fills, in the query's order; the others get NULL. */
  readonly columns?: readonly InsertColumn[];
  /** `PARTITION (b = 2)`: static partition columns, filled with the constant; the query fills the other columns. */
  readonly partition?: readonly StaticPartitionValue[];
}

/** One `k = literal` of an INSERT's PARTITION clause. */
export interface StaticPartitionValue {
  readonly name: string;
  readonly value: LiteralNode;
  readonly pos: number;
}

/** One column of an INSERT's column list, with its offset in the statement. */
export interface InsertColumn {
  readonly name: string;
  readonly pos: number;
}

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

/** A CREATE TABLE's `DISTRIBUTED ...` clause; `kind` is `unknown` when no algorithm is named. */
export interface DistributionClause {
  readonly kind: "hash" | "range" | "unknown";
  readonly keys: readonly string[];
  readonly buckets: number | undefined;
  readonly pos: number;
}

export interface CreateTableStatement {
  readonly kind: "CreateTable";
  readonly name: string;
  readonly pos: number;
  readonly temporary: boolean;
  readonly ifNotExists: boolean;
  readonly columns: readonly ColumnDef[];
  /** `node`: a watermark copied by LIKE from a table declared through the Table API (no SQL text). */
  readonly watermark: { readonly column: string; readonly sql: string; readonly pos: number; readonly node?: ExprNode } | undefined;
  readonly primaryKey: readonly string[] | undefined;
  readonly comment: string | undefined;
  /** `DISTRIBUTED BY [HASH | RANGE] (k, ...) [INTO n BUCKETS]` / `DISTRIBUTED INTO n BUCKETS`. */
  readonly distribution?: DistributionClause;
  /** `PARTITIONED BY (k, ...)`. */
  readonly partitionedBy?: { readonly columns: readonly string[]; readonly pos: number };
  /** `WITH ('k' = 'v', ...)` in the order written. */
  readonly options: readonly (readonly [key: string, value: string, pos: number])[];
  /** `LIKE source [(INCLUDING ALL | EXCLUDING OPTIONS | OVERWRITING WATERMARKS ...)]`. */
  readonly like?: LikeClause;
}

export type ColumnDef =
  | { readonly kind: "physical"; readonly name: string; readonly type: DataType; readonly pos: number }
  /** `name AS expr`: the SQL text of the expression, parsed again by Schema (which keeps it for printing). */
  /** `node`: a column copied by LIKE from a table declared through the Table API (no SQL text). */
  | { readonly kind: "computed"; readonly name: string; readonly sql: string; readonly pos: number; readonly node?: ExprNode }
  /** `name TYPE METADATA [FROM 'key'] [VIRTUAL]`: a value the connector provides next to the row. */
  | { readonly kind: "metadata"; readonly name: string; readonly type: DataType; readonly key: string | undefined; readonly virtual: boolean; readonly pos: number };

/** A query: a SELECT, VALUES, a set operation, or any of them with WITH / ORDER BY / LIMIT around it. */
export type Query = SelectQuery | ValuesQuery | SetOpQuery | WithQuery | OrderedQuery;

export interface ValuesQuery {
  readonly kind: "Values";
  readonly pos: number;
  readonly rows: readonly { readonly values: readonly ExprNode[]; readonly pos: number }[];
}

/** `WITH a AS (...), b (x, y) AS (...) <query>`: each name is visible in the later ones and the body. */
export interface WithQuery {
  readonly kind: "With";
  readonly pos: number;
  readonly ctes: readonly { readonly name: string; readonly columns: readonly string[] | undefined; readonly query: Query; readonly pos: number }[];
  readonly body: Query;
}

/** `left UNION|INTERSECT|EXCEPT [ALL] right`. */
export interface SetOpQuery {
  readonly kind: "SetOp";
  readonly pos: number;
  readonly op: "UNION" | "INTERSECT" | "EXCEPT";
  readonly all: boolean;
  readonly left: Query;
  readonly right: Query;
}

/** `<query> ORDER BY ... [LIMIT n] [OFFSET n ROWS] [FETCH FIRST n ROWS ONLY]`. */
export interface OrderedQuery {
  readonly kind: "Ordered";
  readonly pos: number;
  readonly query: Query;
  readonly orderBy: readonly { readonly expr: ExprNode; readonly ascending: boolean; readonly nullsFirst: boolean | undefined; readonly pos: number }[];
  readonly offset: number | undefined;
  readonly fetch: number | undefined;
}

export interface SelectQuery {
  readonly kind: "Select";
  readonly pos: number;
  readonly distinct: boolean;
  /** Hints written after SELECT (a `/*+ LOOKUP(...)` comment); absent without any. */
  readonly hints?: readonly QueryHint[];
  /** undefined: `SELECT *`. */
  readonly items: readonly SelectItem[] | undefined;
  readonly from: FromItem;
  readonly where: { readonly expr: ExprNode; readonly pos: number } | undefined;
  /**
   * `exprs`: every grouping expression once. `sets`: with GROUPING SETS / ROLLUP / CUBE, the grouping sets as
   * positions in `exprs` (`GROUP BY ROLLUP(a, b)` is [[0, 1], [0], []]); undefined for a plain GROUP BY.
   */
  readonly groupBy: { readonly exprs: readonly ExprNode[]; readonly pos: number; readonly sets?: readonly (readonly number[])[] } | undefined;
  readonly having: { readonly expr: ExprNode; readonly pos: number } | undefined;
}

/**
 * A query hint after SELECT, in a comment `/*+ LOOKUP('table'='c', 'async'='true')`: its name (upper case) and its
 * options, key-value pairs (`'k'='v'`) or a plain list (`BROADCAST(t1, t2)`: keys with empty values).
 */
export interface QueryHint {
  readonly name: string;
  readonly options: readonly (readonly [string, string])[];
  readonly pos: number;
}

export interface SelectItem {
  readonly expr: ExprNode;
  readonly alias: string | undefined;
  readonly pos: number;
  /** `t.*` (expr unused). */
  readonly star?: string;
}

export type JoinKind = "INNER" | "LEFT" | "RIGHT" | "FULL" | "CROSS";

export type FromItem =
  /** `t [FOR SYSTEM_TIME AS OF left.rowtime] [AS] alias`. */
  | { readonly kind: "Table"; readonly name: string; readonly pos: number; readonly alias: string | undefined; readonly asOf?: { readonly expr: ExprNode; readonly pos: number } }
  /** `LATERAL TABLE(f(args)) [AS] alias [(c1, ...)]`: the right side of a join, correlated with the left. */
  | { readonly kind: "Lateral"; readonly fn: string; readonly args: readonly ExprNode[]; readonly pos: number; readonly alias: string | undefined; readonly columns: readonly string[] | undefined }
  /** `UNNEST(expr) [AS] alias [(c1, ...)]`: the right side of a join, one row per element of the left row's array / map. */
  /** `WITH ORDINALITY`: a last column numbering the elements from 1. */
  | { readonly kind: "Unnest"; readonly expr: ExprNode; readonly pos: number; readonly alias: string | undefined; readonly columns: readonly string[] | undefined; readonly ordinality?: boolean }
  | { readonly kind: "Call"; readonly name: string; readonly pos: number; readonly args: readonly CallArg[]; readonly alias: string | undefined }
  | { readonly kind: "Subquery"; readonly query: Query; readonly pos: number; readonly alias: string | undefined; readonly columns: readonly string[] | undefined }
  /** `input MATCH_RECOGNIZE (...) [AS] alias` (src/sql/match-recognize.ts). */
  | { readonly kind: "MatchRecognize"; readonly input: FromItem; readonly clause: MatchRecognizeClause; readonly pos: number; readonly alias: string | undefined }
  | { readonly kind: "Join"; readonly joinType: JoinKind; readonly left: FromItem; readonly right: FromItem; readonly on: ExprNode | undefined; readonly pos: number };

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
