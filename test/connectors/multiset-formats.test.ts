// MULTISET columns in the file formats: Parquet stores Flink's MAP<T, INT NOT NULL> of element to count, JSON
// an object of element to count (as Flink's JSON format writes it); CSV refuses the column.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asyncBufferFromFile, parquetMetadataAsync } from "hyparquet";
import { afterAll, describe, expect, it } from "vitest";
import { DataTypes, EnvironmentSettings, Row, Schema, TableDescriptor, TableEnvironment } from "../../src/index.js";

const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const dirs: string[] = [];
const tempDir = () => { const d = mkdtempSync(join(tmpdir(), "tablestream-multiset-")); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

const BAGS = Schema.newBuilder()
  .column("id", DataTypes.INT().notNull())
  .column("tags", DataTypes.MULTISET(DataTypes.STRING()))
  .build();
const ROWS = [Row.of(1, new Map([["a", 2], ["b", 1]])), Row.of(2, new Map()), Row.of(3, null)];
const files = (dir: string) => readdirSync(dir).filter((f) => !f.startsWith("."));

describe("MULTISET in file formats", () => {
  it("parquet: round trips, stored as MAP<STRING, INT NOT NULL> of element to count", async () => {
    const dir = tempDir();
    const e = env();
    const table = TableDescriptor.forConnector("parquet").schema(BAGS).option("path", dir).build();
    await e.fromAsyncIterable(BAGS, ROWS).executeInsert(table).await();
    expect(await e.from(table).execute().toChangelog()).toEqual(["+I[1, {a=2, b=1}]", "+I[2, {}]", "+I[3, null]"]);
    const md = await parquetMetadataAsync(await asyncBufferFromFile(join(dir, files(dir)[0]!)));
    expect(md.schema.slice(1).map((x) => `${x.name}:${x.repetition_type}${x.converted_type ? `:${x.converted_type}` : ""}`)).toEqual([
      "id:REQUIRED", "tags:OPTIONAL:MAP", "key_value:REPEATED", "key:REQUIRED:UTF8", "value:REQUIRED",
    ]);
  });

  it("json: written as an object of element to count and read back", async () => {
    const dir = tempDir();
    const e = env();
    const table = TableDescriptor.forConnector("filesystem").schema(BAGS).option("path", dir).format("json").build();
    await e.fromAsyncIterable(BAGS, ROWS).executeInsert(table).await();
    const text = files(dir).map((f) => readFileSync(join(dir, f), "utf8")).join("");
    expect(text.trim().split("\n")).toEqual(['{"id":1,"tags":{"a":2,"b":1}}', '{"id":2,"tags":{}}', '{"id":3,"tags":null}']);
    expect(await e.from(table).execute().toChangelog()).toEqual(["+I[1, {a=2, b=1}]", "+I[2, {}]", "+I[3, null]"]);
  });

  it("json needs string elements; csv refuses a MULTISET column, naming it", () => {
    const e = env();
    const ints = Schema.newBuilder().column("m", DataTypes.MULTISET(DataTypes.INT())).build();
    expect(() => e.from(TableDescriptor.forConnector("filesystem").schema(ints).option("path", tempDir()).format("json").build()))
      .toThrow(/format 'json' needs string elements for MULTISET column 'm'/);
    expect(() => e.from(TableDescriptor.forConnector("filesystem").schema(BAGS).option("path", tempDir()).format("csv").build()))
      .toThrow(/format 'csv' cannot hold column 'tags' of type MULTISET<STRING>/);
  });
});

describe("MULTISET in connectors that do not map it", () => {
  it("jdbc (SQLite) and datagen refuse a MULTISET column, naming it", () => {
    const e = env();
    const jdbc = TableDescriptor.forConnector("jdbc").schema(BAGS)
      .option("url", `jdbc:sqlite:${join(tempDir(), "bags.db")}`).option("table-name", "bags").build();
    expect(() => e.from(jdbc).execute()).toThrow("jdbc table");
    expect(() => e.from(jdbc).execute()).toThrow(/column 'tags' has type MULTISET<STRING>, which the jdbc connector does not map/);
    const gen = TableDescriptor.forConnector("datagen").schema(BAGS).option("number-of-rows", "1").build();
    expect(() => e.from(gen).execute()).toThrow(/tags.*cannot generate values of type MULTISET<STRING>/);
  });
});
