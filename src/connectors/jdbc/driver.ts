import { ValidationError } from "../../types/errors.js";
import type { DataType } from "../../types/data-type.js";
import type { SqlDialect, Statement } from "./sql.js";

/**
 * What the jdbc connector needs from a database client (one per database: postgres/, sqlite/), so that
 * the scan, lookup and sink logic (reader.ts, lookup.ts, writer.ts) is written once. Methods may return
 * synchronously (better-sqlite3) or a Promise (pg); callers handle both without a Promise per row.
 */
export interface JdbcConnection {
  readonly dialect: SqlDialect;
  /** Rows of a query, as positional arrays of the database's raw values. */
  query(stmt: Statement): unknown[][] | Promise<unknown[][]>;
  /** A query read in chunks of `fetchSize` rows (0: all at once), only as far as it is pulled. */
  cursor(stmt: Statement, fetchSize: number): RowCursor;
  /** Runs the statements in one transaction: all of them take effect, or (on an error) none. */
  transaction(statements: readonly Statement[]): void | Promise<void>;
  /** False once the server ended the connection (a failed flush then reconnects). */
  readonly usable: boolean;
  /** Closes the connection; idempotent. */
  close(): void | Promise<void>;
}

export interface RowCursor {
  /** The next rows (raw values), or null when the query has no more. */
  next(): unknown[][] | null | Promise<unknown[][] | null>;
  close(): void | Promise<void>;
}

/** Raw database values <-> tablestream values for one column type (postgres/codec.ts, sqlite/codec.ts). */
export interface ValueCodec {
  /** Reads a raw value; throws an Error saying why it does not fit (the caller names table, row and column). */
  decoder(type: DataType): (raw: unknown) => unknown;
  /** The bind parameter of a value. */
  encoder(type: DataType): (value: unknown) => unknown;
  /** The column type the database uses for `type` (docs, and the tables the tests create). */
  columnType(type: DataType): string;
}

/** Which database a `url` names, and how to reach it. */
export type JdbcTarget =
  | { readonly kind: "postgres"; readonly connectionString: string }
  | { readonly kind: "sqlite"; readonly path: string };

/**
 * The database of a `url` option: `jdbc:postgresql://…` / `postgresql://…` / `postgres://…` are PostgreSQL
 * (the `jdbc:` prefix dropped, the rest is a libpq connection URI), `jdbc:sqlite:<path>` / `sqlite:<path>`
 * is an SQLite file (`:memory:` for a private in-memory database).
 */
export function jdbcTarget(url: string, tableName: string): JdbcTarget {
  const u = url.trim();
  const noJdbc = u.startsWith("jdbc:") ? u.slice(5) : u;
  if (/^postgres(ql)?:\/\//i.test(noJdbc)) return { kind: "postgres", connectionString: noJdbc };
  if (/^sqlite:/i.test(noJdbc)) {
    const path = noJdbc.slice("sqlite:".length).replace(/^\/\/(?=\/)/, "");
    if (path === "") throw new ValidationError(`jdbc table '${tableName}': the url '${url}' names no SQLite file (jdbc:sqlite:/path/to/file.db)`);
    return { kind: "sqlite", path };
  }
  throw new ValidationError(`jdbc table '${tableName}': unsupported url '${url}'; supported: 'jdbc:postgresql://host:port/database' (or 'postgres://…') and 'jdbc:sqlite:/path/to/file.db'`);
}

/** Types the jdbc connector maps (docs/connectors.md lists the database types). */
export const JDBC_TYPE_ROOTS = ["BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL", "CHAR", "VARCHAR", "DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ"] as const;

const scalar = (t: DataType): boolean => (JDBC_TYPE_ROOTS as readonly string[]).includes(t.root);

/**
 * Whether the database maps `t`. PostgreSQL as Flink's PostgreSQL dialect: the scalar types and a
 * one-dimensional ARRAY of them (`integer[]`, `text[]`); MAP and ROW are refused. SQLite (no Flink
 * dialect): ARRAY, MAP (string keys) and ROW of mapped types, nested freely, stored as JSON text.
 */
function mapped(t: DataType, kind: JdbcTarget["kind"]): boolean {
  if (scalar(t)) return true;
  if (kind === "postgres") return t.root === "ARRAY" && scalar(t.elementType!);
  switch (t.root) {
    case "ARRAY": return mapped(t.elementType!, kind);
    case "MAP": return (t.keyType!.root === "VARCHAR" || t.keyType!.root === "CHAR") && mapped(t.valueType!, kind);
    case "ROW": return t.fields.every((f) => mapped(f.type, kind));
    default: return false;
  }
}

/** A ValidationError naming the first column whose type has no database mapping (PostgreSQL: Flink's message). */
export function checkColumnTypes(columns: readonly { name: string; type: DataType }[], tableName: string, kind: JdbcTarget["kind"]): void {
  for (const c of columns) {
    if (mapped(c.type, kind)) continue;
    if (kind === "postgres" && (c.type.root === "MAP" || c.type.root === "ROW" || c.type.root === "ARRAY")) {
      throw new ValidationError(`jdbc table '${tableName}': column '${c.name}': The PostgreSQL dialect doesn't support type: ${c.type}. (supported: ${JDBC_TYPE_ROOTS.join(", ")} and a one-dimensional ARRAY of them)`);
    }
    const nested = kind === "sqlite" ? ", and ARRAY, MAP (string keys) and ROW of them as JSON text" : "";
    throw new ValidationError(`jdbc table '${tableName}': column '${c.name}' has type ${c.type}, which the jdbc connector does not map; supported: ${JDBC_TYPE_ROOTS.join(", ")}${nested}`);
  }
}
