// PostgreSQL for the jdbc connector tests: PGlite in-process behind pglite-socket (reached by `pg` over
// TCP on loopback, as a server would be), or a real server when TABLESTREAM_TEST_POSTGRES_URL is set
// (.ci/run starts one). Each fixture gets its own database objects by a unique table prefix.
import type { Client } from "pg";
import pg from "pg";

export interface PostgresFixture {
  /** 'pglite' or 'server'. */
  readonly variant: string;
  /** A url for the jdbc connector. */
  readonly url: string;
  /** Runs SQL on a separate admin connection (rows in array mode, values as pg parses them). */
  sql(text: string, params?: unknown[]): Promise<unknown[][]>;
  /** Client connections open now, the admin connection included. */
  connections(): Promise<number>;
  stop(): Promise<void>;
}

export const SERVER_URL = process.env.TABLESTREAM_TEST_POSTGRES_URL;

/** The variants the suite runs against: PGlite always, the server when its url is set. */
export const POSTGRES_VARIANTS: readonly string[] = SERVER_URL ? ["pglite", "server"] : ["pglite"];

async function adminClient(url: string): Promise<Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}

export async function startPostgres(variant: string): Promise<PostgresFixture> {
  if (variant === "server") {
    const url = SERVER_URL!;
    const admin = await adminClient(url);
    return {
      variant, url,
      sql: async (text, params) => (await admin.query({ text, values: params ?? [], rowMode: "array" })).rows as unknown[][],
      connections: async () => Number((await admin.query({ text: "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'", rowMode: "array" })).rows[0][0]),
      stop: async () => { await admin.end(); },
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1", maxConnections: 16 });
  await server.start();
  const url = `postgresql://postgres:postgres@${server.getServerConn()}/postgres?sslmode=disable`;
  const admin = await adminClient(url);
  return {
    variant, url,
    sql: async (text, params) => (await admin.query({ text, values: params ?? [], rowMode: "array" })).rows as unknown[][],
    connections: async () => server.getStats().activeConnections,
    stop: async () => {
      await admin.end().catch(() => {});
      await server.stop();
      await db.close();
    },
  };
}
