import type { Client, ClientConfig } from "pg";
import { ExecutionError } from "../../types/errors.js";
import type { JdbcConnection, RowCursor } from "../jdbc/driver.js";
import { POSTGRES_DIALECT, type Statement } from "../jdbc/sql.js";

/** What opening a PostgreSQL connection needs (from the jdbc options). */
export interface PostgresConfig {
  readonly connectionString: string;
  readonly user?: string | undefined;
  readonly password?: string | undefined;
  readonly connectTimeoutMillis: number;
  /** For messages: `jdbc table 'orders'`. */
  readonly where: string;
}

/** The client reads every value as PostgreSQL's text (codec.ts converts by the declared column type). */
const RAW_TEXT = { getTypeParser: () => (text: string) => text };

type PgModule = { Client: new (config: ClientConfig) => Client };

let pgModule: Promise<PgModule> | undefined;

/**
 * `pg` is an optional peer dependency, loaded when the first PostgreSQL table is opened (a dynamic
 * import, so the CommonJS build and bundles without pg work).
 */
function loadPg(where: string): Promise<PgModule> {
  return (pgModule ??= import("pg").then(
    (m) => ((m as { default?: PgModule }).default ?? (m as unknown as PgModule)),
    (e) => {
      pgModule = undefined;
      throw new ExecutionError(`${where}: a PostgreSQL url needs the package 'pg' (npm install pg): ${(e as Error).message}`, { cause: e });
    },
  ));
}

let cursorIds = 0;

/** Tells a failed transaction's caller which statement failed (`statementIndex`). */
function markStatement(e: unknown, i: number): void {
  if (e !== null && typeof e === "object") (e as { statementIndex?: number }).statementIndex = i;
}

/** One pg client connection: queries in array row mode, cursors for chunked scans, transactions. */
export class PostgresConnection implements JdbcConnection {
  readonly dialect = POSTGRES_DIALECT;
  private closed = false;
  /** Set when the server ended the connection ('error' event); queries then fail at once. */
  private broken: Error | undefined;

  private constructor(private readonly client: Client) {
    client.on("error", (e) => { this.broken = e; });
  }

  static async open(config: PostgresConfig): Promise<PostgresConnection> {
    const pg = await loadPg(config.where);
    const client = new pg.Client({
      connectionString: config.connectionString,
      ...(config.user !== undefined ? { user: config.user } : {}),
      ...(config.password !== undefined ? { password: config.password } : {}),
      connectionTimeoutMillis: config.connectTimeoutMillis,
      types: RAW_TEXT,
    });
    try {
      await client.connect();
    } catch (e) {
      client.end().catch(() => {});
      throw new ExecutionError(`${config.where}: cannot connect to PostgreSQL: ${(e as Error).message}`, { cause: e });
    }
    return new PostgresConnection(client);
  }

  async query(stmt: Statement): Promise<unknown[][]> {
    if (this.broken) throw this.broken;
    const r = await this.client.query({ text: stmt.sql, values: stmt.params, rowMode: "array" });
    return r.rows as unknown[][];
  }

  cursor(stmt: Statement, fetchSize: number): RowCursor {
    if (fetchSize === 0) {
      let done = false;
      return {
        next: async () => {
          if (done) return null;
          done = true;
          return this.query(stmt);
        },
        close: () => {},
      };
    }
    // a server-side cursor inside a read-only transaction: rows are fetched only as the scan is pulled
    const name = `tablestream_scan_${++cursorIds}`;
    let state: "new" | "open" | "done" = "new";
    return {
      next: async () => {
        if (state === "done") return null;
        if (state === "new") {
          await this.query({ sql: "BEGIN READ ONLY", params: [] });
          state = "open";
          await this.query({ sql: `DECLARE ${name} NO SCROLL CURSOR FOR ${stmt.sql}`, params: stmt.params });
        }
        const rows = await this.query({ sql: `FETCH FORWARD ${fetchSize} FROM ${name}`, params: [] });
        if (rows.length === 0) {
          state = "done";
          await this.query({ sql: "COMMIT", params: [] });
          return null;
        }
        return rows;
      },
      close: async () => {
        if (state !== "open") return;
        state = "done";
        await this.query({ sql: "ROLLBACK", params: [] }).catch(() => {});
      },
    };
  }

  async transaction(statements: readonly Statement[]): Promise<void> {
    await this.query({ sql: "BEGIN", params: [] });
    let i = 0;
    try {
      for (; i < statements.length; i++) await this.query(statements[i]!);
      await this.query({ sql: "COMMIT", params: [] });
    } catch (e) {
      markStatement(e, i);
      if (!this.broken) await this.query({ sql: "ROLLBACK", params: [] }).catch(() => {});
      throw e;
    }
  }

  /** Whether the connection can still be used (a failed flush reconnects otherwise). */
  get usable(): boolean {
    return !this.closed && this.broken === undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.end().catch(() => {});
  }
}
