import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  $, DataTypes, EnvironmentSettings, ExecutionError, Row, Schema, TableDescriptor, TableEnvironment, ValidationError,
} from "../../src/index.js";

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), "tablestream-fs-")); });
afterEach(() => { rmSync(dir, { recursive: true, force: true }); vi.restoreAllMocks(); });

const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());

const rowType = DataTypes.ROW(
  DataTypes.FIELD("name", DataTypes.STRING()),
  DataTypes.FIELD("age", DataTypes.INT()),
  DataTypes.FIELD("score", DataTypes.DOUBLE()),
  DataTypes.FIELD("price", DataTypes.DECIMAL(10, 2)),
  DataTypes.FIELD("ok", DataTypes.BOOLEAN()),
  DataTypes.FIELD("day", DataTypes.DATE()),
  DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)),
  DataTypes.FIELD("lts", DataTypes.TIMESTAMP_LTZ(3)),
  DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.STRING())),
);
const schema = Schema.newBuilder().fromRowDataType(rowType).build();

/** Rows that exercise quoting, NULL versus empty string, line breaks, exponents and precision. */
const people = (e: TableEnvironment) => e.fromValues(rowType,
  Row.of("Alice, \"A\"", 35, 1.5, "10.25", true, "2025-01-02", "2025-01-01 10:00:00.123", new Date(Date.UTC(2025, 0, 1, 9)), ["x", "y"]),
  Row.of("", null, 1e21, "-0.50", false, null, "2025-01-01 10:00:00", null, []),
  Row.of(null, 0, -0.001, null, null, "1999-12-31", null, new Date(1), null),
  Row.of("two\nlines", -7, Number.NaN, "99999999.99", true, null, null, null, ["only"]),
);

const fsTable = (format: string, path: string, opts: Record<string, string> = {}, s: Schema<object> = schema) => {
  let b = TableDescriptor.forConnector("filesystem").schema(s).option("path", path).format(format);
  for (const [k, v] of Object.entries(opts)) b = b.option(k, v);
  return b.build();
};

describe("filesystem connector", () => {
  for (const format of ["csv", "json"]) {
    it(`round-trips every supported type through ${format}`, async () => {
      const e = env();
      e.createTable("out", fsTable(format, join(dir, format)));
      const original = await people(e).execute().toChangelog();
      const result = people(e).executeInsert("out");
      await result.await();
      const files = readdirSync(join(dir, format));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(new RegExp(`^part-[0-9a-f-]{36}-0-0\\.${format}$`));
      expect(await e.from("out").execute().toChangelog()).toEqual(original);
    });
  }

  it("writes CSV as Flink's csv format does, quoting only where needed", async () => {
    const e = env();
    await people(e).executeInsert(fsTable("csv", dir)).await();
    const text = readFileSync(join(dir, readdirSync(dir)[0]!), "utf8");
    expect(text).toBe([
      `"Alice, ""A""",35,1.5,10.25,true,2025-01-02,2025-01-01 10:00:00.123,2025-01-01 09:00:00.000Z,x;y`,
      `"",,1.0E21,-0.50,false,,2025-01-01 10:00:00.000,,""`,
      `,0,-0.001,,,1999-12-31,,1970-01-01 00:00:00.001Z,`,
      `"two\nlines",-7,NaN,99999999.99,true,,,,only`,
      "",
    ].join("\n"));
  });

  it("writes JSON Lines with SQL or ISO-8601 timestamps", async () => {
    const e = env();
    const one = e.fromValues(DataTypes.ROW(DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)), DataTypes.FIELD("d", DataTypes.DECIMAL(20, 2))),
      Row.of("2025-01-01 10:00:00.5", "123456789012345678.91"));
    await one.executeInsert(fsTable("json", join(dir, "sql"), {}, Schema.newBuilder().column("ts", DataTypes.TIMESTAMP(3)).column("d", DataTypes.DECIMAL(20, 2)).build())).await();
    await one.executeInsert(fsTable("json", join(dir, "iso"), { "json.timestamp-format.standard": "ISO-8601" },
      Schema.newBuilder().column("ts", DataTypes.TIMESTAMP(3)).column("d", DataTypes.DECIMAL(20, 2)).build())).await();
    const read = (d: string) => readFileSync(join(dir, d, readdirSync(join(dir, d))[0]!), "utf8");
    // a DECIMAL that a double cannot hold exactly is written as its exact text
    expect(read("sql")).toBe(`{"ts":"2025-01-01 10:00:00.500","d":"123456789012345678.91"}\n`);
    expect(read("iso")).toBe(`{"ts":"2025-01-01T10:00:00.500","d":"123456789012345678.91"}\n`);
  });

  it("a malformed CSV line fails the job naming file, line and column", async () => {
    const file = join(dir, "people.csv");
    writeFileSync(file, "Bob,3,1,2.00,true,,,,\nEve,x,1,2,true,,,,\n");
    const e = env();
    e.createTable("t", fsTable("csv", file));
    await expect(e.from("t").execute().toArray()).rejects.toThrow(new ExecutionError(
      `filesystem table 't': file '${file}', line 2, column 2 ('age'): cannot parse 'x' as INT (set 'csv.ignore-parse-errors' to skip such lines)`));
    writeFileSync(file, "Bob,3\n");
    await expect(e.from("t").execute().toArray()).rejects.toThrow(new ExecutionError(
      `filesystem table 't': file '${file}', line 1: expected 9 field(s) [name, age, score, price, ok, day, ts, lts, tags], got 2 (set 'csv.ignore-parse-errors' to skip such lines)`));
    writeFileSync(file, "a,1,1,1,true,2025-13-01,,,\n");
    await expect(e.from("t").execute().toArray()).rejects.toThrow(
      new ExecutionError(`filesystem table 't': file '${file}', line 1, column 6 ('day'): '2025-13-01' is not a date 'YYYY-MM-DD': month 13 is not in 1..12 (set 'csv.ignore-parse-errors' to skip such lines)`));
    writeFileSync(file, "a,1,1,1,true,,,,\n\"unclosed,1\n");
    await expect(e.from("t").execute().toArray()).rejects.toThrow(new ExecutionError(
      `filesystem table 't': file '${file}', line 2, column 1 ('name'): malformed CSV: a quoted field opened on line 2 is not closed at the end of the file (set 'csv.ignore-parse-errors' to skip such lines)`));
    writeFileSync(file, "a,1,1,1,true,,,,\n\"x\"y,1,1,1,true,,,,\n");
    await expect(e.from("t").execute().toArray()).rejects.toThrow(new ExecutionError(
      `filesystem table 't': file '${file}', line 2, column 1 ('name'): malformed CSV: unexpected character 'y' after the closing quote of a field (set 'csv.ignore-parse-errors' to skip such lines)`));
  });

  it("a malformed JSON line fails the job naming file, line and column", async () => {
    const file = join(dir, "people.json");
    const e = env();
    e.createTable("t", fsTable("json", file));
    writeFileSync(file, `{"name":"a","age":1}\n{"name":"b","age":"old"}\n`);
    await expect(e.from("t").execute().toArray()).rejects.toThrow(new ExecutionError(
      `filesystem table 't': file '${file}', line 2, column 2 ('age'): value 'old' (string) does not fit type INT (set 'json.ignore-parse-errors' to skip such lines)`));
    writeFileSync(file, `{"name":"a"}\n\n{"name":"b",age:2}\n`);
    await expect(e.from("t").execute().toArray()).rejects.toThrow(new ExecutionError(
      `filesystem table 't': file '${file}', line 3, column 13: malformed JSON: Expected double-quoted property name in JSON at position 12 (set 'json.ignore-parse-errors' to skip such lines)`));
    writeFileSync(file, `[1,2]\n`);
    await expect(e.from("t").execute().toArray()).rejects.toThrow(`file '${file}', line 1: expected a JSON object, got [1,2]`);
    e.createTable("strict", fsTable("json", file, { "json.fail-on-missing-field": "true" }));
    writeFileSync(file, `{"name":"a"}\n`);
    await expect(e.from("strict").execute().toArray()).rejects.toThrow(`file '${file}', line 1, column 2 ('age'): the field is missing (json.fail-on-missing-field)`);
  });

  it("skips and counts malformed lines when the table says so", async () => {
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const csv = join(dir, "a.csv");
    writeFileSync(csv, "Bob,3,,,,,,,\nEve,x,,,,,,,\nZed,4\n\"Ann\",5,,,,,,,\n");
    const e = env();
    e.createTable("t", fsTable("csv", csv, { "csv.ignore-parse-errors": "true" }));
    expect(await e.from("t").select($("name"), $("age")).execute().toChangelog()).toEqual(["+I[Bob, 3]", "+I[Ann, 5]"]);
    expect(stderr).toHaveBeenCalledWith(`tablestream: filesystem table 't' skipped 2 malformed lines (csv.ignore-parse-errors) (metric 'filesystem[t].numSkippedRecords'); the first: file '${csv}', line 2, column 2 ('age'): cannot parse 'x' as INT\n`);
    const json = join(dir, "a.json");
    writeFileSync(json, `{"name":"a","age":1}\nnot json\n{"name":"c","age":3}\n`);
    e.createTable("j", fsTable("json", json, { "json.ignore-parse-errors": "true" }));
    expect(await e.from("j").select($("name"), $("age")).execute().toChangelog()).toEqual(["+I[a, 1]", "+I[c, 3]"]);
    expect(stderr).toHaveBeenLastCalledWith(expect.stringMatching(/^tablestream: filesystem table 'j' skipped 1 malformed line \(json\.ignore-parse-errors\) \(metric 'filesystem\[j\]\.numSkippedRecords'\); the first: file '.*a\.json', line 2: malformed JSON: /));
  });

  it("reads every visible file of a directory in name order, skipping hidden and in-progress files", async () => {
    const s = Schema.newBuilder().column("n", DataTypes.INT().notNull()).build();
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "b.csv"), "2\n3\n");
    writeFileSync(join(dir, "a.csv"), "1\n");
    writeFileSync(join(dir, "sub", "c.csv"), "4\n");
    writeFileSync(join(dir, ".part-x.inprogress"), "99\n");
    writeFileSync(join(dir, "_SUCCESS"), "");
    const e = env();
    expect(await e.from(fsTable("csv", dir, {}, s)).execute().toChangelog()).toEqual(["+I[1]", "+I[2]", "+I[3]", "+I[4]"]);
    await expect(e.from(fsTable("csv", join(dir, "nope"), {}, s)).execute().toArray()).rejects.toThrow(
      `filesystem table '*anonymous_filesystem$`);
  });

  it("keeps NULL and the empty string apart, also with a null literal", async () => {
    const s = Schema.newBuilder().column("s", DataTypes.STRING()).column("n", DataTypes.INT()).build();
    const e = env();
    const t = e.fromValues(DataTypes.ROW(DataTypes.FIELD("s", DataTypes.STRING()), DataTypes.FIELD("n", DataTypes.INT())),
      Row.of(null, null), Row.of("", 1), Row.of("N/A", 2));
    await t.executeInsert(fsTable("csv", join(dir, "lit"), { "csv.null-literal": "N/A" }, s)).await();
    const files = readdirSync(join(dir, "lit"));
    expect(readFileSync(join(dir, "lit", files[0]!), "utf8")).toBe(`N/A,N/A\n"",1\n"N/A",2\n`);
    expect(await e.from(fsTable("csv", join(dir, "lit"), { "csv.null-literal": "N/A" }, s)).execute().toChangelog())
      .toEqual(["+I[null, null]", "+I[, 1]", "+I[N/A, 2]"]);
  });

  it("is an append-only sink: an updating table is a planner error naming the sink and the aggregate", () => {
    const e = env();
    e.createTable("out", fsTable("csv", dir, {}, Schema.newBuilder().column("name", DataTypes.STRING()).column("n", DataTypes.BIGINT()).build()));
    const counts = people(e).groupBy($("name")).select($("name"), $("age").count().as("n"));
    expect(() => counts.executeInsert("out")).toThrow(new ValidationError(
      "Table sink 'out' (connector 'filesystem') is append-only and doesn't support consuming update and delete changes [I,UB,UA] which are produced by node Aggregate(groupBy=[name], select=[name, COUNT(age) AS n])"));
    expect(readdirSync(dir)).toEqual([]);
  });

  it("checks the columns of an insert by position", () => {
    const e = env();
    e.createTable("out", fsTable("csv", dir, {}, Schema.newBuilder().column("a", DataTypes.INT()).column("b", DataTypes.INT()).build()));
    const t = e.fromValues(DataTypes.ROW(DataTypes.FIELD("x", DataTypes.INT()), DataTypes.FIELD("y", DataTypes.STRING())), Row.of(1, "a"));
    expect(() => t.executeInsert("out")).toThrow(new ValidationError([
      "Column types of query result and sink for 'out' do not match.",
      "Cause: Incompatible types for sink column 'b' at position 1.",
      "",
      "Query schema: [x: INT, y: STRING]",
      "Sink schema:  [a: INT, b: INT]",
    ].join("\n")));
    expect(() => t.select($("x")).executeInsert("out")).toThrow(/Cause: Different number of columns\./);
    expect(() => t.executeInsert("nope")).toThrow(new ValidationError("Cannot find table 'nope' to insert into; registered tables: [out]"));
  });

  it("validates its options", () => {
    const e = env();
    const d = (opts: Record<string, string>, format = "csv") => fsTable(format, dir, opts);
    expect(() => e.from(TableDescriptor.forConnector("filesystem").schema(schema).option("path", dir).build())).toThrow(
      /filesystem table '.*' needs the option 'format' \('csv' or 'json'\)/);
    expect(() => e.from(d({}, "avro"))).toThrow(/unsupported format 'avro'; supported: csv, json/);
    expect(() => e.from(d({ "csv.field-delimiter": ";;" }))).toThrow(/option 'csv.field-delimiter' of table '.*' must be a single character, got ';;'/);
    expect(() => e.from(d({ "json.ignore-parse-errors": "true" }))).toThrow(/has format 'csv' but JSON options \[json.ignore-parse-errors\]/);
    expect(() => e.from(d({ "csv.ignore-parse-errors": "yes" }))).toThrow(/option 'csv.ignore-parse-errors' of table '.*' must be 'true' or 'false', got 'yes'/);
    const mapSchema = Schema.newBuilder().column("m", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())).build();
    expect(() => e.from(fsTable("csv", dir, {}, mapSchema))).toThrow(/format 'csv' cannot hold column 'm' of type MAP<STRING, INT> \(use format 'json'\)/);
  });
});
