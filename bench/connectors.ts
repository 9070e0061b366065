/**
 * Connector throughput (part of `npm run bench`; `--connectors-only` runs just this): rows/s of the jdbc
 * upsert sink into SQLite and into PGlite, and of the Parquet sink and source, each beside the same
 * client library used directly by hand (better-sqlite3, pg, hyparquet-writer, hyparquet) doing the same
 * work: upserts of the same rows in transactions of the same size, the same columns written and read.
 * Reported per run: the median of `runs` samples of each side, taken alternately.
 */
import Database from "better-sqlite3";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { DataTypes, EnvironmentSettings, Row, Schema, TableDescriptor, TableEnvironment } from "../src/index.js";

export interface ConnectorBenchOptions {
  readonly rows: number;
  /** PGlite is a single-threaded WASM PostgreSQL: fewer rows keep the run short. */
  readonly pgliteRows: number;
  readonly runs: number;
}

interface Result { name: string; rows: number; table: number[]; baseline: number[] }

const FLUSH = 1000;
const schema = Schema.newBuilder().column("k", DataTypes.INT().notNull()).column("name", DataTypes.STRING()).column("score", DataTypes.DOUBLE()).primaryKey("k").build();
const plain = Schema.newBuilder().column("k", DataTypes.INT().notNull()).column("name", DataTypes.STRING()).column("score", DataTypes.DOUBLE()).build();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function makeRows(n: number): unknown[][] {
  const out = new Array<unknown[]>(n);
  for (let i = 0; i < n; i++) out[i] = [i, `name-${i % 997}`, i * 0.25];
  return out;
}

async function timed(f: () => Promise<void> | void): Promise<number> {
  const t = performance.now();
  await f();
  return (performance.now() - t) / 1000;
}

/** Upserts through the jdbc sink: `sink.buffer-flush.max-rows` = the baseline's transaction size. */
async function viaTable(url: string, table: string, rows: readonly unknown[][]): Promise<void> {
  const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  const d = TableDescriptor.forConnector("jdbc").schema(schema).option("url", url).option("table-name", table)
    .option("sink.buffer-flush.max-rows", FLUSH).option("sink.batch.max-size", FLUSH).option("sink.buffer-flush.interval", "0").build();
  await e.fromAsyncIterable(plain, rows.map((r) => Row.of(...r))).executeInsert(d).await();
}

const upsertSql = (table: string, n: number, p: (i: number) => string) =>
  `INSERT INTO "${table}" ("k", "name", "score") VALUES ${Array.from({ length: n }, (_, r) => `(${p(3 * r + 1)}, ${p(3 * r + 2)}, ${p(3 * r + 3)})`).join(", ")} ON CONFLICT ("k") DO UPDATE SET "name" = excluded."name", "score" = excluded."score"`;

async function sqlite(rows: readonly unknown[][], runs: number): Promise<Result> {
  const dir = mkdtempSync(join(tmpdir(), "tablestream-bench-sqlite-"));
  const file = join(dir, "bench.db");
  const admin = new Database(file);
  const reset = () => admin.exec(`DROP TABLE IF EXISTS t; CREATE TABLE t (k INTEGER PRIMARY KEY, name TEXT, score REAL)`);
  const result: Result = { name: "SQLite upsert (jdbc sink)", rows: rows.length, table: [], baseline: [] };
  for (let r = 0; r < runs; r++) {
    reset();
    result.baseline.push(await timed(() => {
      const db = new Database(file);
      const full = db.prepare(upsertSql("t", FLUSH, () => "?"));
      const write = db.transaction((chunk: readonly unknown[][]) => {
        const stmt = chunk.length === FLUSH ? full : db.prepare(upsertSql("t", chunk.length, () => "?"));
        stmt.run(...chunk.flat());
      });
      for (let i = 0; i < rows.length; i += FLUSH) write(rows.slice(i, i + FLUSH));
      db.close();
    }));
    reset();
    result.table.push(await timed(() => viaTable(`jdbc:sqlite:${file}`, "t", rows)));
  }
  check(Number((admin.prepare("SELECT count(*) FROM t").raw(true).get() as unknown[])[0]), rows.length, result.name);
  admin.close();
  rmSync(dir, { recursive: true, force: true });
  return result;
}

async function pglite(rows: readonly unknown[][], runs: number): Promise<Result> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1", maxConnections: 4 });
  await server.start();
  const url = `postgresql://postgres:postgres@${server.getServerConn()}/postgres?sslmode=disable`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const reset = () => admin.query(`DROP TABLE IF EXISTS t; CREATE TABLE t (k integer PRIMARY KEY, name text, score double precision)`);
  const result: Result = { name: "PGlite upsert (jdbc sink, pg over pglite-socket)", rows: rows.length, table: [], baseline: [] };
  for (let r = 0; r < runs; r++) {
    await reset();
    result.baseline.push(await timed(async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      for (let i = 0; i < rows.length; i += FLUSH) {
        const chunk = rows.slice(i, i + FLUSH);
        await c.query("BEGIN");
        await c.query(upsertSql("t", chunk.length, (p) => `$${p}`), chunk.flat().map((v) => (typeof v === "number" ? String(v) : v)));
        await c.query("COMMIT");
      }
      await c.end();
    }));
    await reset();
    result.table.push(await timed(() => viaTable(url, "t", rows)));
  }
  check(Number((await admin.query("SELECT count(*) AS n FROM t")).rows[0].n), rows.length, result.name);
  await admin.end();
  await server.stop();
  await db.close();
  return result;
}

async function parquet(rows: readonly unknown[][], runs: number): Promise<Result[]> {
  const hw = await import("hyparquet-writer");
  const hp = await import("hyparquet");
  const dir = mkdtempSync(join(tmpdir(), "tablestream-bench-parquet-"));
  const write: Result = { name: "Parquet write (parquet sink)", rows: rows.length, table: [], baseline: [] };
  const read: Result = { name: "Parquet read (parquet source, all columns)", rows: rows.length, table: [], baseline: [] };
  const GROUP = 100_000;
  const columns = [
    { name: "k", type: "INT32" as const, nullable: false },
    { name: "name", type: "STRING" as const },
    { name: "score", type: "DOUBLE" as const },
  ];
  const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  const pq = (path: string) => TableDescriptor.forConnector("parquet").schema(plain).option("path", path).option("parquet.row-group-size", GROUP).build();
  for (let r = 0; r < runs; r++) {
    const base = join(dir, `baseline-${r}.parquet`);
    write.baseline.push(await timed(() => {
      hw.parquetWriteFile({ filename: base, columnData: columns.map((c, j) => ({ ...c, data: rows.map((x) => x[j]) })), rowGroupSize: GROUP });
    }));
    const out = join(dir, `table-${r}`);
    write.table.push(await timed(() => e.fromAsyncIterable(plain, rows.map((x) => Row.of(...x))).executeInsert(pq(out)).await()));
    const file = join(out, readdirSync(out)[0]!);
    read.baseline.push(await timed(async () => {
      const buffer = await hp.asyncBufferFromFile(file);
      let n = 0;
      await hp.parquetRead({ file: buffer, rowFormat: "array", onComplete: (x: unknown[][]) => { n = x.length; } });
      check(n, rows.length, read.name);
    }));
    read.table.push(await timed(async () => {
      let n = 0;
      for await (const b of e.from(pq(out)).execute().batches()) n += b.length;
      check(n, rows.length, read.name);
    }));
  }
  rmSync(dir, { recursive: true, force: true });
  return [write, read];
}

function check(got: number, want: number, what: string): void {
  if (got !== want) throw new Error(`${what}: ${got} rows, expected ${want}`);
}

export async function runConnectorBench(o: ConnectorBenchOptions): Promise<void> {
  const rows = makeRows(o.rows);
  const results = [await sqlite(rows, o.runs), await pglite(rows.slice(0, o.pgliteRows), o.runs), ...await parquet(rows, o.runs)];
  const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
  console.log(`\nconnectors (median of ${o.runs} samples, rows/s; baseline = the client library used directly for the same work)`);
  console.log("| connector | rows | tablestream rows/s | baseline rows/s | ratio |");
  console.log("|:--|--:|--:|--:|--:|");
  for (const r of results) {
    const t = r.rows / median(r.table), b = r.rows / median(r.baseline);
    console.log(`| ${r.name} | ${fmt(r.rows)} | ${fmt(t)} | ${fmt(b)} | ${(t / b).toFixed(2)} |`);
  }
}
