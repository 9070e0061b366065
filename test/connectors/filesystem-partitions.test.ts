// PARTITIONED BY filesystem tables: k=v/ directories written, discovered, pruned; static partitions; INSERT OVERWRITE per partition.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { DataTypes, EnvironmentSettings, Row, Schema, TableEnvironment, ValidationError, type PositionalRow } from "../../src/index.js";
import { escapePathName, unescapePathName } from "../../src/connectors/filesystem/partitions.js";

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), "ts-parts-")); dirs.push(d); return d; };
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

/** Every visible file below `dir` (relative path) with its lines, sorted. */
function tree(dir: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      if (n.startsWith(".") || n.startsWith("_")) continue;
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p).replace(/part-[^/]*$/, "part")] = [...(out[relative(dir, p).replace(/part-[^/]*$/, "part")] ?? []), ...readFileSync(p, "utf8").split("\n").filter((l) => l !== "")].sort();
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

function batch(): TableEnvironment {
  return TableEnvironment.create(EnvironmentSettings.inBatchMode());
}

function create(env: TableEnvironment, dir: string, format = "csv", name = "t"): void {
  env.executeSql(`CREATE TABLE ${name} (id INT, v STRING, dt STRING, hr INT) PARTITIONED BY (dt, hr)
    WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = '${format}')`);
}

const explain = (env: TableEnvironment, sql: string) => env.sqlQuery(sql).explain();
const rows = async (env: TableEnvironment, sql: string) => (await env.executeSql(sql).toArray()).map((r) => `${Row.kindOf(r)}${JSON.stringify(Object.values(r))}`);

describe("filesystem PARTITIONED BY", () => {
  it("writes rows under path/dt=.../hr=.../ without the partition columns, and reads them back typed", async () => {
    const dir = tmp();
    const env = batch();
    create(env, dir);
    await env.executeSql(`INSERT INTO t VALUES (1, 'a', '2024-01-01', 10), (2, 'b', '2024-01-01', 11), (3, 'c', '2024-01-02', 10), (4, 'd', '2024-01-01', 10)`).await();
    expect(tree(dir)).toEqual({
      "dt=2024-01-01/hr=10/part": ["1,a", "4,d"],
      "dt=2024-01-01/hr=11/part": ["2,b"],
      "dt=2024-01-02/hr=10/part": ["3,c"],
    });
    expect(await rows(env, "SELECT id, v, dt, hr, hr + 1 AS h FROM t")).toEqual([
      `+I[1,"a","2024-01-01",10,11]`, `+I[4,"d","2024-01-01",10,11]`, `+I[2,"b","2024-01-01",11,12]`, `+I[3,"c","2024-01-02",10,11]`,
    ]);
  });

  it("JSON Lines files hold the data columns only", async () => {
    const dir = tmp();
    const env = batch();
    create(env, dir, "json");
    await env.executeSql(`INSERT INTO t VALUES (1, 'a', 'x', 1)`).await();
    expect(tree(dir)).toEqual({ "dt=x/hr=1/part": [`{"id":1,"v":"a"}`] });
    expect(await rows(env, "SELECT * FROM t")).toEqual([`+I[1,"a","x",1]`]);
  });

  it("NULL and '' go to __DEFAULT_PARTITION__ (read back as NULL); path characters are escaped as Flink escapes them", async () => {
    const dir = tmp();
    const env = batch();
    create(env, dir);
    await env.executeSql(`INSERT INTO t VALUES (1, 'a', CAST(NULL AS STRING), 1), (2, 'b', '', CAST(NULL AS INT)), (3, 'c', 'a/b=c:d%', 2)`).await();
    expect(tree(dir)).toEqual({
      "dt=__DEFAULT_PARTITION__/hr=1/part": ["1,a"],
      "dt=__DEFAULT_PARTITION__/hr=__DEFAULT_PARTITION__/part": ["2,b"],
      "dt=a%2Fb%3Dc%3Ad%25/hr=2/part": ["3,c"],
    });
    expect(await rows(env, "SELECT * FROM t")).toEqual([`+I[1,"a",null,1]`, `+I[2,"b",null,null]`, `+I[3,"c","a/b=c:d%",2]`]);
    expect(escapePathName("x\u0001#'*?\\{[]^\"")).toBe("x%01%23%27%2A%3F%5C%7B%5B%5D%5E%22");
    expect(unescapePathName(escapePathName("a b/ü=%"))).toBe("a b/ü=%");
  });

  it("a partition directory whose value is not of the column type fails the scan naming it", async () => {
    const dir = tmp();
    mkdirSync(join(dir, "dt=x", "hr=ten"), { recursive: true });
    writeFileSync(join(dir, "dt=x", "hr=ten", "f.csv"), "1,a\n");
    const env = batch();
    create(env, dir);
    await expect(env.executeSql("SELECT * FROM t").toArray()).rejects.toThrow("filesystem table 't': partition directory 'hr=ten' does not hold a value of the column: cannot parse 'ten' as INT");
  });

  it("partition discovery skips hidden directories and names that are no partition", async () => {
    const dir = tmp();
    for (const d of ["dt=x/hr=1", "dt=x/.hr=2", "_tmp/hr=3", "other/hr=4", "dt=y/hr=5"]) {
      mkdirSync(join(dir, d), { recursive: true });
      writeFileSync(join(dir, d, "f.csv"), `${d.length},v\n`);
    }
    const env = batch();
    create(env, dir);
    expect(await rows(env, "SELECT * FROM t")).toEqual([`+I[9,"v","x",1]`, `+I[9,"v","y",5]`]);
  });

  it("prunes partitions by filters on partition columns; explain shows the partitions read", async () => {
    const dir = tmp();
    const env = batch();
    create(env, dir);
    await env.executeSql(`INSERT INTO t VALUES (1, 'a', 'd1', 1), (2, 'b', 'd1', 2), (3, 'c', 'd2', 1), (4, 'd', 'd3', 3)`).await();
    const plan = explain(env, "SELECT id, v FROM t WHERE dt = 'd1' AND hr >= 2");
    expect(plan).toContain("partitions=[{dt=d1, hr=2}]");
    expect(await rows(env, "SELECT id, v FROM t WHERE dt = 'd1' AND hr >= 2")).toEqual([`+I[2,"b"]`]);
    expect(explain(env, "SELECT id FROM t WHERE dt IN ('d2', 'd3') OR hr = 2")).toContain("partitions=[{dt=d1, hr=2}, {dt=d2, hr=1}, {dt=d3, hr=3}]");
    expect(await rows(env, "SELECT id FROM t WHERE hr = 1 AND id > 1")).toEqual([`+I[3]`]);
    expect(explain(env, "SELECT id FROM t WHERE hr = 1 AND id > 1")).toContain("partitions=[{dt=d1, hr=1}, {dt=d2, hr=1}]");
  });

  it("a static partition: INSERT INTO t PARTITION (dt='x') SELECT ... fills dt, the query fills the others", async () => {
    const dir = tmp();
    const env = batch();
    create(env, dir);
    await env.executeSql(`INSERT INTO t PARTITION (dt = 'x') SELECT * FROM (VALUES (1, 'a', 5), (2, 'b', 6)) AS s(id, v, hr)`).await();
    await env.executeSql(`INSERT INTO t PARTITION (dt = 'y', hr = 7) SELECT * FROM (VALUES (3, 'c')) AS s(id, v)`).await();
    expect(tree(dir)).toEqual({ "dt=x/hr=5/part": ["1,a"], "dt=x/hr=6/part": ["2,b"], "dt=y/hr=7/part": ["3,c"] });
  });

  it("INSERT OVERWRITE replaces only the partitions it writes (dynamic), or the static one even when empty", async () => {
    const dir = tmp();
    const env = batch();
    create(env, dir);
    await env.executeSql(`INSERT INTO t VALUES (1, 'a', 'd1', 1), (2, 'b', 'd1', 2), (3, 'c', 'd2', 1)`).await();
    await env.executeSql(`INSERT OVERWRITE t VALUES (10, 'new', 'd1', 1), (11, 'new', 'd3', 1)`).await();
    expect(tree(dir)).toEqual({
      "dt=d1/hr=1/part": ["10,new"], "dt=d1/hr=2/part": ["2,b"], "dt=d2/hr=1/part": ["3,c"], "dt=d3/hr=1/part": ["11,new"],
    });
    await env.executeSql(`INSERT OVERWRITE t PARTITION (dt = 'd1', hr = 2) SELECT id, v FROM t WHERE id > 100`).await();
    expect(tree(dir)).toEqual({ "dt=d1/hr=1/part": ["10,new"], "dt=d2/hr=1/part": ["3,c"], "dt=d3/hr=1/part": ["11,new"] });
    await env.executeSql(`INSERT OVERWRITE t PARTITION (dt = 'd2') SELECT id, v, 5 FROM t WHERE id = 3`).await();
    expect(tree(dir)).toEqual({ "dt=d1/hr=1/part": ["10,new"], "dt=d2/hr=1/part": ["3,c"], "dt=d2/hr=5/part": ["3,c"], "dt=d3/hr=1/part": ["11,new"] });
  });

  it("checkpoints commit each partition's part files (two-phase), a restored job continues per partition", async () => {
    const out = join(tmp(), "out");
    const chk = tmp();
    const schema = Schema.newBuilder().column("id", DataTypes.INT()).column("p", DataTypes.STRING()).build();
    const all: PositionalRow[] = [Row.of(1, "a"), Row.of(2, "b"), Row.of(3, "a"), Row.of(4, "b"), Row.of(5, "a"), Row.of(6, "c")];
    async function* openEnded(rs: readonly PositionalRow[]): AsyncGenerator<PositionalRow> {
      for (const r of rs) yield r;
      await new Promise<void>(() => { /* until the job stops */ });
    }
    const env = (extra: Record<string, string>) => {
      const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
      for (const [k, v] of Object.entries({ "execution.checkpointing.interval-records": "2", "execution.checkpointing.dir": chk, "execution.checkpointing.num-retained": "3", ...extra })) e.getConfig().set(k, v);
      e.executeSql(`CREATE TABLE files (id INT, p STRING) PARTITIONED BY (p) WITH ('connector' = 'filesystem', 'path' = '${out}', 'format' = 'csv')`);
      return e;
    };
    const first = env({}).fromAsyncIterable(schema, openEnded(all.slice(0, 5)), { name: "src" }).executeInsert("files");
    while (!existsSync(chk) || readdirSync(chk).filter((d) => d.startsWith("chk-")).length < 2) await new Promise((r) => setTimeout(r, 2));
    await new Promise((r) => setTimeout(r, 20));
    expect(tree(out)).toEqual({ "p=a/part": ["1", "3"], "p=b/part": ["2", "4"] });
    await first.getJobClient().cancel();
    expect(tree(out)).toEqual({ "p=a/part": ["1", "3"], "p=b/part": ["2", "4"] });
    await env({ "execution.savepoint.path": chk }).fromAsyncIterable(schema, all.slice(4), { name: "src" }).executeInsert("files").await();
    expect(tree(out)).toEqual({ "p=a/part": ["1", "3", "5"], "p=b/part": ["2", "4"], "p=c/part": ["6"] });
    const hidden = (d: string): string[] => readdirSync(d).flatMap((n) => (n.startsWith(".") ? [n] : statSync(join(d, n)).isDirectory() ? hidden(join(d, n)) : []));
    expect(hidden(out)).toEqual([]);
  });

  it("Flink's errors: a partition key must be a scalar physical column; DISTRIBUTED BY needs a bucketing sink; the same key rule for parquet", async () => {
    const env = batch();
    const dir = tmp();
    env.executeSql(`CREATE TABLE b (id INT, v STRING) DISTRIBUTED BY HASH(id) INTO 2 BUCKETS WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'csv')`);
    expect(() => env.executeSql("INSERT INTO b VALUES (1, 'a')")).toThrow("Table 'default_catalog.default_database.b' is a bucketed table, but the underlying DynamicTableSink (connector 'filesystem') doesn't implement the SupportsBucketing interface.");
    env.executeSql(`CREATE TABLE arr (id INT, tags ARRAY<STRING>) PARTITIONED BY (tags) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'json')`);
    expect(() => env.executeSql("SELECT * FROM arr")).toThrow(ValidationError);
    expect(() => env.executeSql("SELECT * FROM arr")).toThrow("filesystem table 'arr': partition column 'tags' has type ARRAY<STRING>; a partition column must be one of");
    env.executeSql(`CREATE TABLE pq (id INT, tags ARRAY<STRING>) PARTITIONED BY (tags) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'parquet')`);
    expect(() => env.executeSql("SELECT * FROM pq")).toThrow("table 'pq': partition column 'tags' has type ARRAY<STRING>; a partition column must be one of");
    env.executeSql(`CREATE TABLE only (p STRING) PARTITIONED BY (p) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'csv')`);
    expect(() => env.executeSql("SELECT * FROM only")).toThrow("filesystem table 'only': every column is a partition key; the files need at least one column that is not");
  });

  it("'partition.default-name' renames the default partition", async () => {
    const dir = tmp();
    const env = batch();
    env.executeSql(`CREATE TABLE t (id INT, p STRING) PARTITIONED BY (p) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'csv', 'partition.default-name' = 'none')`);
    await env.executeSql(`INSERT INTO t VALUES (1, CAST(NULL AS STRING))`).await();
    expect(tree(dir)).toEqual({ "p=none/part": ["1"] });
    expect(await rows(env, "SELECT * FROM t")).toEqual([`+I[1,null]`]);
  });

  it("property: escaping is reversible and leaves no path separator, '=' or ':' in a directory name", () => {
    fc.assert(fc.property(fc.string({ unit: "binary" }), (v) => {
      const e = escapePathName(v);
      expect(unescapePathName(e)).toBe(v);
      expect(/[/=:\\]/.test(e)).toBe(false);
    }), { numRuns: 200 });
  });
});
