// ARRAY, MAP and ROW columns in Parquet files written by the sink and read by the source: the LIST / MAP /
// group layout, NULL at every level, nested inside nested, exact scalars inside, and files of other writers.
import { Decimal } from "decimal.js";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ParquetWriter, fileWriter } from "hyparquet-writer";
import { asyncBufferFromFile, parquetMetadataAsync } from "hyparquet";
import { afterAll, describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, ExecutionError, Row, Schema, TableDescriptor, TableEnvironment } from "../../src/index.js";


const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const dirs: string[] = [];
const tempDir = () => { const d = mkdtempSync(join(tmpdir(), "tablestream-parquet-nested-")); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

const parquet = <S extends object>(path: string, schema: Schema<S>, options: Record<string, string> = {}) => {
  let d = TableDescriptor.forConnector("parquet").schema(schema).option("path", path);
  for (const [k, v] of Object.entries(options)) d = d.option(k, v);
  return d.build();
};

const NESTED = Schema.newBuilder()
  .column("id", DataTypes.INT().notNull())
  .column("xs", DataTypes.ARRAY(DataTypes.INT()))
  .column("names", DataTypes.ARRAY(DataTypes.STRING().notNull()))
  .column("m", DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT()))
  .column("byDay", DataTypes.MAP(DataTypes.DATE(), DataTypes.ARRAY(DataTypes.DECIMAL(20, 2))))
  .column("r", DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("at", DataTypes.TIMESTAMP(3)), DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.STRING()))))
  .column("items", DataTypes.ARRAY(DataTypes.ROW(DataTypes.FIELD("sku", DataTypes.STRING()), DataTypes.FIELD("n", DataTypes.BIGINT()))))
  .column("score", DataTypes.DOUBLE())
  .build();

const at = new Date(Date.UTC(2025, 0, 1, 10, 0, 0, 123));
const ROWS = [
  [1, [1, null, 3], ["a", "b"], new Map([["x", 9007199254740991], ["y", null]]), new Map([["2025-02-28", [new Decimal("123456789012345678.91"), null]]]),
    { a: 1, at, tags: ["t", null] }, [{ sku: "s1", n: 2 }, null, { sku: null, n: null }], 1.5],
  [2, [], [], new Map(), new Map(), { a: null, at: null, tags: null }, [], null],
  [3, null, null, null, null, null, null, 3.5],
  [4, [null], ["c"], new Map([["z", -1]]), new Map([["1969-12-31", []], ["2000-01-01", null]]), { a: 4, at: new Date(-1), tags: [] }, [{ sku: "s4", n: -4 }], 4.5],
];

const byName = (schema: Schema<object>, rows: readonly unknown[]) => rows.map((r) => Object.fromEntries(schema.columns.map((c) => [c.name, (r as Record<string, unknown>)[c.name]])));

describe("parquet nested types", () => {
  it("ARRAY, MAP and ROW columns round trip exactly, NULL at every level, nested in each other", async () => {
    const dir = tempDir();
    const e = env();
    await e.fromAsyncIterable(NESTED, ROWS.map((r) => Row.of(...r))).executeInsert(parquet(dir, NESTED)).await();
    const back = await e.from(parquet(dir, NESTED)).execute().toArray();
    const names = NESTED.columns.map((c) => c.name);
    expect(back.map((r) => names.map((n) => (r as Record<string, unknown>)[n]))).toEqual(ROWS);
    // Map values with typed keys (not the strings of a plain object)
    expect([...((back[0] as { m: Map<string, number> }).m).keys()]).toEqual(["x", "y"]);
  });

  it("writes Flink's layout: LIST with list.element, MAP with key_value (required keys), groups for rows", async () => {
    const dir = tempDir();
    await env().fromAsyncIterable(NESTED, ROWS.map((r) => Row.of(...r))).executeInsert(parquet(dir, NESTED)).await();
    const file = join(dir, readdirSync(dir)[0]!);
    const md = await parquetMetadataAsync(await asyncBufferFromFile(file));
    const shape = md.schema.slice(1, 12).map((e) => `${e.name}:${e.repetition_type}${e.converted_type ? `:${e.converted_type}` : ""}`);
    expect(shape).toEqual([
      "id:REQUIRED", "xs:OPTIONAL:LIST", "list:REPEATED", "element:OPTIONAL", "names:OPTIONAL:LIST", "list:REPEATED", "element:REQUIRED:UTF8",
      "m:OPTIONAL:MAP", "key_value:REPEATED", "key:REQUIRED:UTF8", "value:OPTIONAL",
    ]);
  });

  it("reads a nested column alone, and skips row groups by the statistics of a flat column after nested ones", async () => {
    const dir = tempDir();
    const e = env();
    const many = Array.from({ length: 40 }, (_, k) => Row.of(k, [k, null], null, new Map([[`k${k}`, k]]), null, null, null, k));
    await e.fromAsyncIterable(NESTED, many).executeInsert(parquet(dir, NESTED, { "parquet.row-group-size": "10" })).await();
    const q = e.from(parquet(dir, NESTED)).filter($("score").isGreaterOrEqual(38)).select($("m"), $("xs"));
    expect(q.explain()).toMatch(/filter=\[score >= 38\]/);
    expect(await q.execute().toChangelog()).toEqual(["+I[{k38=38}, [38, null]]", "+I[{k39=39}, [39, null]]"]);
  });

  it("a NULL map key fails the job naming the column", async () => {
    const dir = tempDir();
    const schema = Schema.newBuilder().column("m", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())).build();
    const err = await env().fromAsyncIterable(schema, [Row.of(new Map([[null, 1]]))]).executeInsert(parquet(dir, schema)).await().then(() => undefined, (x: unknown) => x);
    expect(err).toBeInstanceOf(ExecutionError);
    expect((err as Error).message).toMatch(/column 'm': a MAP key is NULL/);
  });

  it("reads files of another writer: INT map keys, other group names (map, bag.array); a column of another shape is an error naming it", async () => {
    const dir = tempDir();
    const file = join(dir, "other.parquet");
    const w = new ParquetWriter({
      writer: fileWriter(file),
      schema: [
        { name: "root", num_children: 3 },
        { name: "m", repetition_type: "OPTIONAL", converted_type: "MAP", num_children: 1 },
        { name: "map", repetition_type: "REPEATED", num_children: 2 },
        { name: "key", repetition_type: "REQUIRED", type: "INT32" },
        { name: "value", repetition_type: "OPTIONAL", type: "BYTE_ARRAY", converted_type: "UTF8" },
        { name: "legacy", repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 },
        { name: "bag", repetition_type: "REPEATED", num_children: 1 },
        { name: "array", repetition_type: "REQUIRED", type: "INT64" },
        { name: "n", repetition_type: "OPTIONAL", type: "INT32" },
      ],
    });
    w.write({ columnData: [
      { name: "m", data: [new Map([[1, "a"], [2, null]]), null] },
      { name: "legacy", data: [[5n, 6n], []] },
      { name: "n", data: [1, 2] },
    ] });
    w.finish();
    const schema = Schema.newBuilder().column("m", DataTypes.MAP(DataTypes.INT(), DataTypes.STRING())).column("legacy", DataTypes.ARRAY(DataTypes.BIGINT())).build();
    const rows = await env().from(parquet(file, schema)).execute().toArray();
    expect(rows).toEqual([{ m: new Map([[1, "a"], [2, null]]), legacy: [5, 6] }, { m: null, legacy: [] }]);
    const wrong = Schema.newBuilder().column("n", DataTypes.ARRAY(DataTypes.INT())).build();
    const err = await env().from(parquet(file, wrong)).execute().toArray().then(() => undefined, (x: unknown) => x);
    expect((err as Error).message).toMatch(/column 'n' \(ARRAY<INT>\) of '.*other\.parquet' is not a LIST group/);
    const row = Schema.newBuilder().column("m", DataTypes.ROW(DataTypes.FIELD("key", DataTypes.INT()))).build();
    const err2 = await env().from(parquet(file, row)).execute().toArray().then(() => undefined, (x: unknown) => x);
    expect((err2 as Error).message).toMatch(/column 'm' \(ROW<`key` INT>\) of '.*' is not a group of fields/);
  });

  it("refuses types it does not map, naming the column", () => {
    const schema = Schema.newBuilder().column("m", DataTypes.MAP(DataTypes.STRING(), DataTypes.INTERVAL("SECOND"))).build();
    expect(() => env().from(parquet(tempDir(), schema))).toThrow(/column 'm' has type MAP<STRING, INTERVAL.*, which the parquet connector does not map/);
  });
});
