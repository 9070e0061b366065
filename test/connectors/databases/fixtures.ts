// The databases the jdbc connector suite runs against, behind one shape: SQLite files, PGlite in-process
// (reached over TCP through pglite-socket), and a PostgreSQL server when TABLESTREAM_TEST_POSTGRES_URL is
// set. Each test's tables get a unique name, so one database serves a whole file.
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { POSTGRES_VARIANTS, startPostgres } from "./postgres-fixture.js";

export interface DbFixture {
  /** 'sqlite', 'pglite' or 'server'. */
  readonly name: string;
  readonly dialect: "postgres" | "sqlite";
  /** The jdbc url of the database. */
  readonly url: string;
  /** Runs a statement (admin connection, outside any job). */
  exec(sql: string): Promise<void>;
  /** Rows of a query as arrays of the driver's plain values (numbers as numbers where they fit). */
  rows(sql: string): Promise<unknown[][]>;
  /** Client connections open now (PostgreSQL variants; the admin connection counts), undefined for SQLite. */
  connections(): Promise<number | undefined>;
  stop(): Promise<void>;
}

export const DB_VARIANTS: readonly string[] = ["sqlite", ...POSTGRES_VARIANTS];

let tables = 0;
/** A table name no other test of the run uses. */
export const uniqueTable = (base: string): string => `${base}_${process.pid}_${++tables}`;

export async function startDb(name: string): Promise<DbFixture> {
  if (name === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "tablestream-sqlite-"));
    const file = join(dir, "test.db");
    const db = new Database(file);
    return {
      name, dialect: "sqlite", url: `jdbc:sqlite:${file}`,
      exec: async (sql) => { db.exec(sql); },
      rows: async (sql) => db.prepare(sql).raw(true).all() as unknown[][],
      connections: async () => undefined,
      stop: async () => { db.close(); rmSync(dir, { recursive: true, force: true }); },
    };
  }
  const pg = await startPostgres(name);
  return {
    name, dialect: "postgres", url: pg.url,
    exec: async (sql) => { await pg.sql(sql); },
    rows: (sql) => pg.sql(sql),
    connections: () => pg.connections(),
    stop: () => pg.stop(),
  };
}
