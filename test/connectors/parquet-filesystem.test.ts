// Parquet as Flink spells it: the filesystem connector with 'format' = 'parquet' (the 'parquet' connector
// stays as an alias): the same files, options, pushdown and errors.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CollectionSink, DataTypes, EnvironmentSettings, Row, Schema, TableEnvironment, ValidationError } from "../../src/index.js";

const dirs: string[] = [];
const tempDir = () => { const d = mkdtempSync(join(tmpdir(), "tablestream-fs-parquet-")); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const SCHEMA = Schema.newBuilder().column("id", DataTypes.INT()).column("name", DataTypes.STRING()).build();

describe("'connector' = 'filesystem', 'format' = 'parquet'", () => {
  it("writes Parquet part files that both spellings read back, with projection and filter pushdown", async () => {
    const dir = tempDir();
    const e = env();
    e.executeSql(`CREATE TEMPORARY TABLE pq (id INT, name STRING) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'parquet', 'parquet.row-group-size' = '2')`);
    await e.fromAsyncIterable(SCHEMA, [Row.of(1, "a"), Row.of(2, "b"), Row.of(3, "c"), Row.of(4, null)]).executeInsert("pq").await();
    expect(readdirSync(dir)).toEqual([expect.stringMatching(/^part-[0-9a-f-]{36}-0-0\.parquet$/)]);
    const sink = new CollectionSink();
    e.createTemporaryTable("out", sink.descriptor(Schema.newBuilder().column("name", DataTypes.STRING()).build()));
    const query = "SELECT name FROM pq WHERE id >= 2";
    expect(e.sqlQuery(query).explain()).toMatch(/SourceScan\(table=\[pq\], connector=\[filesystem\], filter=\[id >= 2\]/);
    await e.executeSql(`INSERT INTO out ${query}`).await();
    expect(sink.changelog()).toEqual(["+I[b]", "+I[c]", "+I[null]"]);
    e.executeSql(`CREATE TEMPORARY TABLE alias (id INT, name STRING) WITH ('connector' = 'parquet', 'path' = '${dir}')`);
    expect(await e.sqlQuery("SELECT id, name FROM alias").execute().toChangelog()).toEqual(["+I[1, a]", "+I[2, b]", "+I[3, c]", "+I[4, null]"]);
  });

  it("an unknown option names it; a text-format option is not a Parquet one; an unknown format lists the known ones", async () => {
    const e = env();
    e.executeSql("CREATE TEMPORARY TABLE pq (id INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/x', 'format' = 'parquet', 'csv.field-delimiter' = ';')");
    expect(() => e.sqlQuery("SELECT * FROM pq")).toThrow(ValidationError);
    expect(() => e.sqlQuery("SELECT * FROM pq")).toThrow(/csv\.field-delimiter/);
    e.executeSql("CREATE TEMPORARY TABLE avro (id INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/x', 'format' = 'avro')");
    expect(() => e.sqlQuery("SELECT * FROM avro")).toThrow(/unsupported format 'avro'; supported: csv, json, parquet/);
  });

  it("INSERT OVERWRITE in batch mode replaces the files, through both spellings, as Flink's filesystem connector; streaming mode refuses it", async () => {
    const dir = tempDir();
    const batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    batch.executeSql(`CREATE TEMPORARY TABLE fs (id INT, name STRING) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'parquet')`);
    batch.executeSql(`CREATE TEMPORARY TABLE alias (id INT, name STRING) WITH ('connector' = 'parquet', 'path' = '${dir}')`);
    await batch.executeSql("INSERT INTO fs VALUES (1, 'a'), (2, 'b')").await();
    await batch.executeSql("INSERT INTO alias VALUES (3, 'c')").await();
    expect(readdirSync(dir)).toHaveLength(2);
    await batch.executeSql("INSERT OVERWRITE fs VALUES (4, 'd')").await();
    expect(readdirSync(dir)).toHaveLength(1);
    expect(await batch.executeSql("SELECT * FROM alias").toChangelog()).toEqual(["+I[4, d]"]);
    await batch.executeSql("INSERT OVERWRITE alias VALUES (5, 'e'), (6, 'f')").await();
    expect(await batch.executeSql("SELECT * FROM fs").toChangelog()).toEqual(["+I[5, e]", "+I[6, f]"]);
    // a failing job leaves the files as they were
    await expect((async () => batch.executeSql("INSERT OVERWRITE alias SELECT 1 / (id - 5), name FROM fs").await())()).rejects.toThrow();
    expect(await batch.executeSql("SELECT * FROM fs").toChangelog()).toEqual(["+I[5, e]", "+I[6, f]"]);
    const streaming = env();
    for (const c of [`'connector' = 'filesystem', 'path' = '${dir}', 'format' = 'parquet'`, `'connector' = 'parquet', 'path' = '${dir}'`]) {
      streaming.executeSql(`CREATE TEMPORARY TABLE s (id INT, name STRING) WITH (${c})`);
      expect(() => streaming.executeSql("INSERT OVERWRITE s VALUES (1, 'a')")).toThrow("SQL validation failed. At line 1, column 18: INSERT OVERWRITE is supported in batch mode only (Flink: Streaming mode not support overwrite.)");
      streaming.executeSql("DROP TEMPORARY TABLE s");
    }
  });
});
