// Issue 7, SQL: a bad computed column or watermark fails at CREATE TABLE; 1e999 is an error; `a``b` is a`b.
import { describe, expect, it } from "vitest";
import { DataTypes, EnvironmentSettings, Schema, SqlParseError, TableDescriptor, TableEnvironment, ValidationError } from "../../src/index.js";

const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());

describe("CREATE TABLE resolves its schema when it runs", () => {
  const cases: [string, string][] = [
    ["CREATE TABLE t (a INT, b AS a + nope, ts TIMESTAMP(3)) WITH ('connector' = 'datagen')",
      "SQL validation failed. At line 1, column 24: computed column 'b' AS a + nope: column 'nope' is not in [a, ts] (computed columns may use the physical columns [a, ts])"],
    ["CREATE TABLE t (a INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - a) WITH ('connector' = 'datagen')",
      "SQL validation failed. At line 1, column 41: watermark for 'ts': the expression must be 'ts' or 'ts - INTERVAL ...' (bounded out-of-orderness), got ts - a"],
    ["CREATE TEMPORARY TABLE t (a INT, ts TIMESTAMP(3), WATERMARK FOR nope AS ts) WITH ('connector' = 'datagen')",
      "SQL validation failed. At line 1, column 51: watermark: column 'nope' is not in [a, ts]"],
  ];
  for (const [sql, message] of cases) {
    it(sql, () => {
      const e = env();
      expect(() => e.executeSql(sql)).toThrow(new ValidationError(message));
      expect(e.listTables()).toEqual([]);
    });
  }

  it("the Table API's createTable resolves too", () => {
    const schema = Schema.newBuilder().column("a", DataTypes.INT()).columnByExpression("b", "a * missing").build();
    expect(() => env().createTable("t", TableDescriptor.forConnector("datagen").schema(schema).build())).toThrow(/^computed column 'b' AS a \* missing: column 'missing' is not in \[a\]/);
  });
});

describe("SQL literals and quoted identifiers", () => {
  it("1e999 is an error at its position, not Infinity", () => {
    const e = env();
    e.executeSql("CREATE VIEW one(x) AS VALUES (1)");
    expect(() => e.executeSql("SELECT 1e999 AS c FROM one")).toThrow(SqlParseError);
    expect(() => e.executeSql("SELECT -1e999 AS c FROM one")).toThrow(/at line 1, column 9: numeric literal 1e999 is out of the range of DOUBLE/);
  });

  it("1e308 and 1e-999 are DOUBLE values", async () => {
    const e = env();
    e.executeSql("CREATE VIEW one(x) AS VALUES (1)");
    expect(await e.executeSql("SELECT 1e308 AS a, 1e-999 AS b FROM one").toArray()).toEqual([{ a: 1e308, b: 0 }]);
  });

  const identifiers: [string, string][] = [["`a``b`", "a`b"], ["````", "`"], ["`x````y`", "x``y"], ["`it's`", "it's"]];
  for (const [quoted, name] of identifiers) {
    it(`${quoted} names the column ${name}`, async () => {
      const e = env();
      e.createTemporaryView("v", e.fromValues(DataTypes.ROW(DataTypes.FIELD(name, DataTypes.INT())), [{ [name]: 7 }] as never[]));
      const rows = await e.executeSql(`SELECT ${quoted} AS ${quoted} FROM v`).toArray();
      expect(rows.map((r) => Object.entries(r))).toEqual([[[name, 7]]]);
    });
  }
});
