// Parquet files written by the sink and read by the source (hyparquet / hyparquet-writer), with the
// column projection and the row-group skipping of pushed filters.
import { Decimal } from "decimal.js";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, ExecutionError, Row, Schema, TableDescriptor, TableEnvironment } from "../../src/index.js";
import { parquetConnector } from "../../src/connectors/parquet/index.js";
import type { PushedFilter, SourceBatch, SourceReader } from "../../src/connectors/api/contract.js";
import { tableContext } from "../../src/connectors/api/adapter.js";
import { ResolvedSchema } from "../../src/types/resolved-schema.js";

const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const dirs: string[] = [];
const tempDir = () => { const d = mkdtempSync(join(tmpdir(), "tablestream-parquet-")); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

const ALL = Schema.newBuilder()
  .column("b", DataTypes.BOOLEAN()).column("t", DataTypes.TINYINT()).column("s", DataTypes.SMALLINT()).column("i", DataTypes.INT())
  .column("l", DataTypes.BIGINT()).column("f", DataTypes.FLOAT()).column("d", DataTypes.DOUBLE())
  .column("n1", DataTypes.DECIMAL(9, 2)).column("n2", DataTypes.DECIMAL(18, 4)).column("n3", DataTypes.DECIMAL(38, 10))
  .column("v", DataTypes.STRING()).column("dt", DataTypes.DATE()).column("tm", DataTypes.TIME(3))
  .column("ts", DataTypes.TIMESTAMP(3)).column("tz", DataTypes.TIMESTAMP_LTZ(3)).build();

const parquet = <S extends object>(path: string, schema: Schema<S>, options: Record<string, string> = {}) => {
  let d = TableDescriptor.forConnector("parquet").schema(schema).option("path", path);
  for (const [k, v] of Object.entries(options)) d = d.option(k, v);
  return d.build();
};

describe("parquet connector", () => {
  it("writes and reads back every mapped type exactly, NULLs included", async () => {
    const dir = tempDir();
    const e = env();
    const row = {
      b: true, t: -8, s: 300, i: -70000, l: 9007199254740991, f: 1.5, d: -0.1, n1: new Decimal("-1234567.89"), n2: new Decimal("12345678901234.5678"),
      n3: new Decimal("-1234567890123456789012345678.0123456789"), v: "héllo, ✓", dt: "1969-12-31", tm: "23:59:59.999",
      ts: new Date(Date.UTC(2025, 0, 1, 10, 0, 0, 123)), tz: new Date(-1),
    };
    const nulls = Object.fromEntries(Object.keys(row).map((k) => [k, null]));
    await e.fromAsyncIterable(ALL, [Row.of(...Object.values(row)), Row.of(...Object.values(nulls))]).executeInsert(parquet(dir, ALL)).await();
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^part-[0-9a-f-]{36}-0-0\.parquet$/);
    const back = await e.from(parquet(dir, ALL)).execute().toArray();
    expect(back).toEqual([row, nulls]);
  });

  it("reads only the projected columns, in several row groups, across files in name order", async () => {
    const dir = tempDir();
    const e = env();
    const schema = Schema.newBuilder().column("id", DataTypes.INT()).column("name", DataTypes.STRING()).column("score", DataTypes.DOUBLE()).build();
    const rows = Array.from({ length: 25 }, (_, k) => Row.of(k, `n${k}`, k / 2));
    await e.fromAsyncIterable(schema, rows).executeInsert(parquet(dir, schema, { "parquet.row-group-size": "10" })).await();
    const read = await e.from(parquet(dir, schema)).select($("name"), $("id")).execute().toArray();
    expect(read).toEqual(rows.map((r) => ({ name: r.values[1], id: r.values[0] })));
  });

  it("skips row groups whose statistics rule out a pushed filter, and applies the filters to every row", async () => {
    const dir = tempDir();
    const e = env();
    const schema = Schema.newBuilder().column("id", DataTypes.BIGINT()).column("tag", DataTypes.STRING()).build();
    await e.fromAsyncIterable(schema, Array.from({ length: 100 }, (_, k) => Row.of(k, k % 3 === 0 ? null : `t${k % 5}`)))
      .executeInsert(parquet(dir, schema, { "parquet.row-group-size": "20" })).await();
    const read = async (filters: PushedFilter[]) => {
      const table = tableContext(parquetConnector, {
        tableName: "p", connector: "parquet", options: new Map([["path", dir]]),
        physical: new ResolvedSchema([{ name: "id", type: DataTypes.BIGINT() }, { name: "tag", type: DataTypes.STRING() }]),
      }, "source");
      const reader = await parquetConnector.source!.createReader({ ...table, filters, signal: new AbortController().signal } as never) as SourceReader & { skippedGroups: number };
      const out: unknown[][] = [];
      for (let b = await reader.read(); b !== null; b = await reader.read()) out.push(...(b as SourceBatch).rows);
      await reader.close();
      return { rows: out, skipped: reader.skippedGroups };
    };
    const ge = await read([{ column: "id", op: ">=", value: 75 }]);
    expect(ge.rows.map((r) => r[0])).toEqual(Array.from({ length: 25 }, (_, k) => 75 + k));
    expect(ge.skipped).toBe(3);
    const eq = await read([{ column: "id", op: "IN", value: [3, 41] }, { column: "tag", op: "IS NOT NULL" }]);
    expect(eq.rows).toEqual([[41, "t1"]]);
    expect(eq.skipped).toBe(3);
    const none = await read([{ column: "tag", op: "=", value: "t9" }]);
    expect(none.rows).toEqual([]);
    expect(parquetConnector.source!.pushdown!.acceptFilter!({ column: "tag", op: "<", value: "t" }, { columns: [{ name: "tag", type: DataTypes.STRING() }] } as never)).toBe(true);
  });

  it("the planner pushes the projection and the filters into the scan; explain shows them", async () => {
    const dir = tempDir();
    const e = env();
    const schema = Schema.newBuilder().column("id", DataTypes.INT()).column("amount", DataTypes.DOUBLE()).column("note", DataTypes.STRING()).build();
    await e.fromAsyncIterable(schema, Array.from({ length: 50 }, (_, k) => Row.of(k, k * 10, `n${k}`))).executeInsert(parquet(dir, schema, { "parquet.row-group-size": "10" })).await();
    const q = e.from(parquet(dir, schema)).filter($("amount").isGreater(400)).select($("id"));
    expect(q.explain()).toMatch(/project=\[id, amount\].*filter=\[amount > 400\]/s);
    expect(await q.execute().toChangelog()).toEqual(Array.from({ length: 9 }, (_, k) => `+I[${41 + k}]`));
  });

  it("a column the file lacks fails the job naming the table, the file and the column", async () => {
    const dir = tempDir();
    const e = env();
    const schema = Schema.newBuilder().column("id", DataTypes.INT()).build();
    await e.fromAsyncIterable(schema, [Row.of(1)]).executeInsert(parquet(dir, schema)).await();
    const wider = Schema.newBuilder().column("id", DataTypes.INT()).column("missing", DataTypes.STRING()).build();
    const err = await e.from(parquet(dir, wider)).execute().toArray().then(() => undefined, (x: unknown) => x);
    expect(err).toBeInstanceOf(ExecutionError);
    expect((err as Error).message).toMatch(/connector 'parquet' table '.*': column 'missing' is not in '.*part-.*\.parquet', whose columns are \[id\]/);
  });

  it("refuses types it does not map, naming the column", () => {
    const schema = Schema.newBuilder().column("iv", DataTypes.INTERVAL("SECOND")).build();
    expect(() => env().from(parquet(tempDir(), schema))).toThrow(/column 'iv' has type INTERVAL.*, which the parquet connector does not map/);
  });
});
