// PARTITIONED BY Parquet tables and the watching Parquet source ('source.monitor-interval'): the filesystem
// connector's k=v/ layout (escaping, __DEFAULT_PARTITION__, pruning, static partitions, INSERT OVERWRITE per
// partition), files written by the sink read back by the source; new files read once, whole, and restored.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EnvironmentSettings, Row, TableEnvironment, ValidationError } from "../../src/index.js";

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), "ts-pq-parts-")); dirs.push(d); return d; };
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

/** The visible files below `dir`, relative, part-file names shortened to `part`. */
function files(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      if (n.startsWith(".") || n.startsWith("_")) continue;
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p).replace(/part-[0-9a-f-]{36}-0-0\.parquet$/, "part"));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out.sort();
}

const batch = () => TableEnvironment.create(EnvironmentSettings.inBatchMode());
const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const rows = async (env: TableEnvironment, sql: string) => (await env.executeSql(sql).toArray()).map((r) => `${Row.kindOf(r)}${JSON.stringify(Object.values(r))}`);

function create(env: TableEnvironment, dir: string, extra = "", connector = "'connector' = 'filesystem', 'format' = 'parquet'"): void {
  env.executeSql(`CREATE TABLE t (id INT, v STRING, dt STRING, hr INT) PARTITIONED BY (dt, hr)
    WITH (${connector}, 'path' = '${dir}', 'parquet.row-group-size' = '2'${extra})`);
}

describe("parquet PARTITIONED BY", () => {
  it("writes one part file per partition directory without the partition columns; reads them back typed, both spellings", async () => {
    const dir = tmp();
    const env = batch();
    create(env, dir);
    await env.executeSql("INSERT INTO t VALUES (1, 'a', '2024-01-01', 10), (2, 'b', '2024-01-01', 11), (3, 'c', '2024-01-02', 10), (4, 'd', '2024-01-01', 10), (5, 'e', CAST(NULL AS STRING), 10), (6, 'f', 'x/y=z', 12)").await();
    expect(files(dir)).toEqual(["dt=2024-01-01/hr=10/part", "dt=2024-01-01/hr=11/part", "dt=2024-01-02/hr=10/part", "dt=__DEFAULT_PARTITION__/hr=10/part", "dt=x%2Fy%3Dz/hr=12/part"]);
    expect(await rows(env, "SELECT id, v, dt, hr FROM t")).toEqual([
      `+I[1,"a","2024-01-01",10]`, `+I[4,"d","2024-01-01",10]`, `+I[2,"b","2024-01-01",11]`, `+I[3,"c","2024-01-02",10]`, `+I[5,"e",null,10]`, `+I[6,"f","x/y=z",12]`,
    ]);
    // the files hold the data columns only: a table over one partition directory without partition keys reads them
    env.executeSql(`CREATE TABLE one (id INT, v STRING) WITH ('connector' = 'parquet', 'path' = '${join(dir, "dt=2024-01-01", "hr=10")}')`);
    expect(await rows(env, "SELECT * FROM one")).toEqual([`+I[1,"a"]`, `+I[4,"d"]`]);
    const other = batch();
    create(other, dir, "", "'connector' = 'parquet'");
    expect(await rows(other, "SELECT hr, id FROM t WHERE dt IS NULL")).toEqual(["+I[10,5]"]);
  });

  it("prunes partitions (explain shows them) together with projection and row-group skipping; only partition columns read", async () => {
    const dir = tmp();
    const env = batch();
    create(env, dir);
    const values = Array.from({ length: 12 }, (_, i) => `(${i}, 'n${i}', '${i < 6 ? "d1" : "d2"}', ${i % 2})`).join(", ");
    await env.executeSql(`INSERT INTO t VALUES ${values}`).await();
    const q = "SELECT id, hr FROM t WHERE dt = 'd2' AND id >= 10";
    const plan = env.sqlQuery(q).explain();
    expect(plan).toContain("partitions=[{dt=d2, hr=0}, {dt=d2, hr=1}]");
    expect(plan).not.toContain("Filter(");
    expect(await rows(env, q)).toEqual(["+I[10,0]", "+I[11,1]"]);
    expect(await rows(env, "SELECT id FROM t WHERE hr = 1 AND dt <> 'd1' AND v = 'n7'")).toEqual(["+I[7]"]);
    expect(await rows(env, "SELECT dt, hr FROM t WHERE dt = 'd1' AND hr = 0")).toEqual([`+I["d1",0]`, `+I["d1",0]`, `+I["d1",0]`]);
    expect(await rows(env, "SELECT id FROM t WHERE dt = 'none'")).toEqual([]);
  });

  it("static partitions; INSERT OVERWRITE replaces only the partitions written, and empties a static one that gets no row", async () => {
    const dir = tmp();
    const env = batch();
    create(env, dir);
    await env.executeSql("INSERT INTO t PARTITION (dt = 'a') SELECT * FROM (VALUES (1, 'x', 1), (2, 'y', 2)) AS s(id, v, hr)").await();
    await env.executeSql("INSERT INTO t VALUES (3, 'z', 'b', 1)").await();
    expect(files(dir)).toEqual(["dt=a/hr=1/part", "dt=a/hr=2/part", "dt=b/hr=1/part"]);
    await env.executeSql("INSERT OVERWRITE t PARTITION (dt = 'a') SELECT * FROM (VALUES (4, 'w', 1)) AS s(id, v, hr)").await();
    expect(await rows(env, "SELECT id, dt, hr FROM t")).toEqual([`+I[4,"a",1]`, `+I[2,"a",2]`, `+I[3,"b",1]`]);
    await env.executeSql("INSERT OVERWRITE t PARTITION (dt = 'a', hr = 2) SELECT id, v FROM t WHERE id > 100").await();
    expect(await rows(env, "SELECT id, dt, hr FROM t")).toEqual([`+I[4,"a",1]`, `+I[3,"b",1]`]);
  });

  it("Flink's partition column rules, naming the column; a streaming job writes the partitions too", async () => {
    const env = streaming();
    env.executeSql("CREATE TABLE bad (id INT, tags ARRAY<INT>) PARTITIONED BY (tags) WITH ('connector' = 'parquet', 'path' = '/tmp/nope')");
    expect(() => env.sqlQuery("SELECT * FROM bad")).toThrow(ValidationError);
    expect(() => env.sqlQuery("SELECT * FROM bad")).toThrow("parquet table 'bad': partition column 'tags' has type ARRAY<INT>; a partition column must be one of");
    env.executeSql("CREATE TABLE all_keys (id INT) PARTITIONED BY (id) WITH ('connector' = 'parquet', 'path' = '/tmp/nope')");
    expect(() => env.executeSql("INSERT INTO all_keys VALUES (1)")).toThrow("every column is a partition key");
    const dir = tmp();
    create(env, dir);
    await env.executeSql("INSERT INTO t VALUES (1, 'a', 'p', 1), (2, 'b', 'q', 1)").await();
    expect(await rows(env, "SELECT id, dt FROM t")).toEqual([`+I[1,"p"]`, `+I[2,"q"]`]);
  });
});

/** Writes a Parquet file with a batch job into `into` (under a hidden name, renamed into place by the sink). */
async function writeParquet(into: string, values: string): Promise<void> {
  const e = batch();
  e.executeSql(`CREATE TABLE w (id INT, v STRING) WITH ('connector' = 'parquet', 'path' = '${into}')`);
  await e.executeSql(`INSERT INTO w VALUES ${values}`).await();
}

const until = async (cond: () => boolean, what: string) => {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!cond()) throw new Error(`timed out waiting for ${what}`);
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("parquet source with source.monitor-interval", () => {
  const ddl = (dir: string, interval = "20 ms", parts = "") =>
    `CREATE TEMPORARY TABLE src (id INT, v STRING${parts ? ", dt STRING" : ""}) ${parts} WITH ('connector' = 'filesystem', 'format' = 'parquet', 'path' = '${dir}', 'source.monitor-interval' = '${interval}')`;

  it("reads the files present, then each new complete file once, in new partitions too, until cancelled", async () => {
    const dir = tmp();
    await writeParquet(join(dir, "dt=a"), "(1, 'x'), (2, 'y')");
    const e = streaming();
    e.executeSql(ddl(dir, "20 ms", "PARTITIONED BY (dt)"));
    // a filter on the partition key: new partitions are read when their values pass it
    const result = e.executeSql("SELECT id, dt FROM src WHERE id > 0 AND dt <> 'skip'");
    const seen: string[] = [];
    const reading = (async () => { for await (const r of result.collect()) seen.push(`${(r as { id: number }).id}${(r as { dt: string }).dt}`); })();
    await until(() => seen.length === 2, "the first file");
    await writeParquet(join(dir, "dt=skip"), "(9, 's')");
    await writeParquet(join(dir, "dt=b"), "(3, 'z'), (0, 'zero')");
    await until(() => seen.length === 3, "the new partition's file");
    // a file still being written (no footer yet) is read once it is complete
    mkdirSync(join(dir, "dt=c"));
    writeFileSync(join(dir, "dt=c", "late.parquet"), "PAR1");
    await pause(100);
    await writeParquet(join(dir, "tmp"), "(4, 'w')");
    const written = readdirSync(join(dir, "tmp")).find((f) => f.endsWith(".parquet"))!;
    renameSync(join(dir, "tmp", written), join(dir, "dt=c", "late.parquet"));
    await until(() => seen.length === 4, "the completed file");
    await pause(100);
    expect(seen).toEqual(["1a", "2a", "3b", "4c"]);
    await result.getJobClient().cancel();
    await reading;
    expect(seen).toEqual(["1a", "2a", "3b", "4c"]);
  });

  it("the table is unbounded: batch mode refuses it; an interval of 0 is an error naming the option", () => {
    const dir = tmp();
    const b = batch();
    b.executeSql(ddl(dir));
    expect(() => b.sqlQuery("SELECT * FROM src").execute()).toThrow(/unbounded table 'src' in batch mode/);
    const e = streaming();
    e.executeSql(ddl(dir, "0 s"));
    expect(() => e.sqlQuery("SELECT * FROM src")).toThrow(/'source.monitor-interval' must be greater than 0, got '0 s'/);
  });

  it("a savepoint stores the files assigned: the restored job reads only the files it had not read", async () => {
    const dir = tmp();
    const sp = tmp();
    await writeParquet(dir, "(1, 'a'), (2, 'b')");
    const run = async (from: string | undefined, waitFor: number, then?: () => Promise<void>) => {
      const e = streaming();
      if (from !== undefined) e.getConfig().set("execution.savepoint.path", from);
      e.executeSql(ddl(dir));
      const result = e.executeSql("SELECT id FROM src");
      const seen: number[] = [];
      const reading = (async () => { for await (const r of result.collect()) seen.push((r as { id: number }).id); })();
      await until(() => seen.length >= waitFor, `${waitFor} rows`);
      if (then) { await then(); await until(() => seen.length >= waitFor + 1, "the new file"); }
      const path = await result.getJobClient().stopWithSavepoint(sp);
      await reading.catch(() => {});
      return { seen, path };
    };
    const first = await run(undefined, 2);
    expect(first.seen).toEqual([1, 2]);
    await writeParquet(dir, "(3, 'c')"); // while the job is stopped
    const second = await run(first.path, 1, () => writeParquet(dir, "(4, 'd')"));
    expect(second.seen).toEqual([3, 4]);
  });
});
