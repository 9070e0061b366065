import type { ScanPartition } from "./partitions.js";

/**
 * What differs between the databases in the statements the jdbc connector generates: how a bind parameter
 * is written and how many one statement may have. Identifiers are quoted the same way in both (`"a""b"`),
 * and both speak `INSERT … ON CONFLICT (…) DO UPDATE SET … = excluded.…` and row-value `IN`.
 */
export interface SqlDialect {
  readonly name: string;
  /** The i-th bind parameter (1-based): `$1` (PostgreSQL) or `?` (SQLite). */
  placeholder(i: number): string;
  /** Bind parameters one statement may carry (PostgreSQL 65535, SQLite 32766). */
  readonly maxParameters: number;
}

/** A statement with its bind values. */
export interface Statement {
  readonly sql: string;
  readonly params: unknown[];
}

/** `"name"`, with embedded quotes doubled: every name is quoted, so it matches the database's name exactly. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * A `table-name` option as SQL: `schema.table` is split at the first dot (PostgreSQL's schema-qualified
 * names); each part is quoted. A name that is already quoted (`"a.b"`) is taken as one identifier.
 */
export function quoteTableName(tableName: string): string {
  const t = tableName.trim();
  if (t.startsWith('"') && t.endsWith('"') && t.length >= 2) return t;
  const dot = t.indexOf(".");
  return dot < 0 ? quoteIdentifier(t) : `${quoteIdentifier(t.slice(0, dot))}.${quoteIdentifier(t.slice(dot + 1))}`;
}

const columnList = (columns: readonly string[]): string => columns.map(quoteIdentifier).join(", ");

/**
 * The scan of one partition: every column of the table, restricted to the partition's range of
 * `column` (the first partition also takes NULL and values below, the last values above, so no row is
 * missed), and to `where`, the pushed filters (jdbc/filters.ts) with their parameters numbered after the
 * partition's. Without a partition: the whole table.
 */
export function scanQuery(d: SqlDialect, table: string, columns: readonly string[], column?: string, part?: ScanPartition,
  where?: (first: number) => Statement): Statement {
  const base = `SELECT ${columnList(columns)} FROM ${quoteTableName(table)}`;
  let range: Statement | undefined;
  if (column !== undefined && part !== undefined && (part.lower !== undefined || part.upper !== undefined)) {
    const c = quoteIdentifier(column);
    range = part.lower === undefined ? { sql: `${c} <= ${d.placeholder(1)} OR ${c} IS NULL`, params: [part.upper] }
      : part.upper === undefined ? { sql: `${c} >= ${d.placeholder(1)}`, params: [part.lower] }
      : { sql: `${c} BETWEEN ${d.placeholder(1)} AND ${d.placeholder(2)}`, params: [part.lower, part.upper] };
  }
  const filters = where?.((range?.params.length ?? 0) + 1);
  if (filters === undefined || filters.sql === "") return range === undefined ? { sql: base, params: [] } : { sql: `${base} WHERE ${range.sql}`, params: range.params };
  if (range === undefined) return { sql: `${base} WHERE ${filters.sql}`, params: filters.params };
  return { sql: `${base} WHERE (${range.sql}) AND ${filters.sql}`, params: [...range.params, ...filters.params] };
}

/** The lookup of one key: `SELECT … WHERE k1 = ? AND k2 = ?`. */
export function lookupQuery(d: SqlDialect, table: string, columns: readonly string[], keys: readonly string[]): string {
  const where = keys.map((k, i) => `${quoteIdentifier(k)} = ${d.placeholder(i + 1)}`).join(" AND ");
  return `SELECT ${columnList(columns)} FROM ${quoteTableName(table)} WHERE ${where}`;
}

function valuesList(d: SqlDialect, width: number, rows: number): string {
  const groups = new Array<string>(rows);
  let p = 1;
  for (let r = 0; r < rows; r++) {
    const items = new Array<string>(width);
    for (let c = 0; c < width; c++) items[c] = d.placeholder(p++);
    groups[r] = `(${items.join(", ")})`;
  }
  return groups.join(", ");
}

/** `INSERT INTO t (a, b) VALUES (?, ?), …` for `rows` rows. */
export function insertSql(d: SqlDialect, table: string, columns: readonly string[], rows: number): string {
  return `INSERT INTO ${quoteTableName(table)} (${columnList(columns)}) VALUES ${valuesList(d, columns.length, rows)}`;
}

/**
 * The upsert of `rows` rows by primary key: `INSERT … ON CONFLICT (pk) DO UPDATE SET c = excluded.c` for
 * every non-key column (`DO NOTHING` when every column is in the key). The rows of one statement must
 * have distinct keys (the sink's buffer keeps the last change per key).
 */
export function upsertSql(d: SqlDialect, table: string, columns: readonly string[], primaryKey: readonly string[], rows: number): string {
  const rest = columns.filter((c) => !primaryKey.includes(c));
  const action = rest.length === 0
    ? "DO NOTHING"
    : `DO UPDATE SET ${rest.map((c) => `${quoteIdentifier(c)} = excluded.${quoteIdentifier(c)}`).join(", ")}`;
  return `${insertSql(d, table, columns, rows)} ON CONFLICT (${columnList(primaryKey)}) ${action}`;
}

/** The delete of `rows` keys: `DELETE FROM t WHERE "id" IN (?, ?)`, or `("a", "b") IN ((?, ?), …)`. */
export function deleteSql(d: SqlDialect, table: string, primaryKey: readonly string[], rows: number): string {
  const target = primaryKey.length === 1 ? quoteIdentifier(primaryKey[0]!) : `(${columnList(primaryKey)})`;
  const list = primaryKey.length === 1
    ? Array.from({ length: rows }, (_, i) => d.placeholder(i + 1)).join(", ")
    : valuesList(d, primaryKey.length, rows);
  return `DELETE FROM ${quoteTableName(table)} WHERE ${target} IN (${list})`;
}

/** How many rows of `width` parameters fit one statement of the dialect (at most `cap`). */
export function rowsPerStatement(d: SqlDialect, width: number, cap: number): number {
  return Math.max(1, Math.min(cap, Math.floor(d.maxParameters / Math.max(1, width))));
}

export const POSTGRES_DIALECT: SqlDialect = { name: "PostgreSQL", placeholder: (i) => `$${i}`, maxParameters: 65535 };
export const SQLITE_DIALECT: SqlDialect = { name: "SQLite", placeholder: () => "?", maxParameters: 32766 };
