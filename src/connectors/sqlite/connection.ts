import type BetterSqlite3 from "better-sqlite3";
import { ExecutionError } from "../../types/errors.js";
import type { JdbcConnection, RowCursor } from "../jdbc/driver.js";
import { SQLITE_DIALECT, type Statement } from "../jdbc/sql.js";

type DatabaseConstructor = new (path: string, options?: BetterSqlite3.Options) => BetterSqlite3.Database;

let sqliteModule: Promise<DatabaseConstructor> | undefined;

/**
 * `better-sqlite3` is an optional peer dependency, loaded when the first SQLite table is opened (a dynamic
 * import, so the CommonJS build and bundles without it work).
 */
function loadSqlite(where: string): Promise<DatabaseConstructor> {
  return (sqliteModule ??= import("better-sqlite3").then(
    (m) => ((m as { default?: DatabaseConstructor }).default ?? (m as unknown as DatabaseConstructor)),
    (e) => {
      sqliteModule = undefined;
      throw new ExecutionError(`${where}: an SQLite url needs the package 'better-sqlite3' 12.x (npm install better-sqlite3@12): ${(e as Error).message}`, { cause: e });
    },
  ));
}

/**
 * One better-sqlite3 connection. Everything is synchronous (better-sqlite3 runs SQLite in the calling
 * thread), so scans, lookups and flushes need no Promise; prepared statements are kept per SQL text.
 * Rows are read as arrays with integers as bigint (codec.ts checks their range).
 */
export class SqliteConnection implements JdbcConnection {
  readonly dialect = SQLITE_DIALECT;
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  private closed = false;

  private constructor(private readonly db: BetterSqlite3.Database) {}

  static async open(path: string, where: string, timeoutMillis: number): Promise<SqliteConnection> {
    const Database = await loadSqlite(where);
    try {
      return new SqliteConnection(new Database(path, { fileMustExist: path !== ":memory:" && !path.startsWith("file:"), timeout: timeoutMillis }));
    } catch (e) {
      throw new ExecutionError(`${where}: cannot open the SQLite database '${path}': ${(e as Error).message}`, { cause: e });
    }
  }

  private prepare(sql: string): BetterSqlite3.Statement {
    let s = this.statements.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      if (s.reader) s.raw(true).safeIntegers(true);
      this.statements.set(sql, s);
    }
    return s;
  }

  query(stmt: Statement): unknown[][] {
    return this.prepare(stmt.sql).all(...stmt.params) as unknown[][];
  }

  cursor(stmt: Statement, fetchSize: number): RowCursor {
    if (fetchSize === 0) {
      let done = false;
      return { next: () => (done ? null : ((done = true), this.query(stmt))), close: () => {} };
    }
    // a statement of its own (not the cached one): an iterating statement keeps the connection busy
    const s = this.db.prepare(stmt.sql).raw(true).safeIntegers(true);
    const it = s.iterate(...stmt.params) as IterableIterator<unknown[]>;
    let done = false;
    return {
      next: () => {
        if (done) return null;
        const rows: unknown[][] = [];
        for (let i = 0; i < fetchSize; i++) {
          const r = it.next();
          if (r.done) { done = true; break; }
          rows.push(r.value);
        }
        return rows.length > 0 ? rows : null;
      },
      close: () => { if (!done) { done = true; it.return?.(); } },
    };
  }

  transaction(statements: readonly Statement[]): void {
    let i = 0;
    try {
      this.db.transaction(() => {
        for (; i < statements.length; i++) this.prepare(statements[i]!.sql).run(...statements[i]!.params);
      })();
    } catch (e) {
      // which statement failed (the writer names its row)
      if (e !== null && typeof e === "object") (e as { statementIndex?: number }).statementIndex = i;
      throw e;
    }
  }

  get usable(): boolean {
    return !this.closed;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}
