import { describe, expect, it } from "vitest";
import { DataTypes, SqlParseError, parseDataType } from "../../src/index.js";

describe("parseDataType", () => {
  it.each([
    ["INT", "INT"],
    ["integer", "INT"],
    ["STRING NOT NULL", "STRING NOT NULL"],
    ["VARCHAR(5)", "VARCHAR(5)"],
    ["CHAR", "CHAR(1)"],
    ["DECIMAL(10, 2)", "DECIMAL(10, 2)"],
    ["DECIMAL", "DECIMAL(10, 0)"],
    ["DOUBLE PRECISION", "DOUBLE"],
    ["TIMESTAMP_LTZ(3)", "TIMESTAMP_LTZ(3)"],
    ["TIMESTAMP(3) WITH LOCAL TIME ZONE", "TIMESTAMP_LTZ(3)"],
    ["TIMESTAMP", "TIMESTAMP(6)"],
    ["TIME(3)", "TIME(3)"],
    ["ARRAY<INT NOT NULL>", "ARRAY<INT NOT NULL>"],
    ["MAP<STRING, ARRAY<BIGINT>>", "MAP<STRING, ARRAY<BIGINT>>"],
    ["ROW<i INT, s STRING>", "ROW<`i` INT, `s` STRING>"],
    ["ROW(`a b` INT NOT NULL, c ROW<d DATE>)", "ROW<`a b` INT NOT NULL, `c` ROW<`d` DATE>>"],
    ["ROW<>", "ROW<>"],
    ["INTERVAL DAY TO SECOND(3)", "INTERVAL DAY(2) TO SECOND(3)"],
    ["INTERVAL YEAR TO MONTH", "INTERVAL YEAR(2) TO MONTH"],
  ])("%s is %s", (src, printed) => {
    expect(parseDataType(src).toString()).toBe(printed);
  });

  it("builds the same types as DataTypes", () => {
    expect(parseDataType("ROW<name STRING, age INT NOT NULL>").equals(
      DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("age", DataTypes.INT().notNull())))).toBe(true);
  });

  it.each([
    ["FOO", "cannot parse data type 'FOO' at line 1, column 1: unknown data type 'FOO'; expected one of STRING, VARCHAR(n), CHAR(n), BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p, s), DATE, TIME(p), TIMESTAMP(p), TIMESTAMP_LTZ(p), INTERVAL, ARRAY<t>, MAP<k, v>, MULTISET<t>, ROW<...>, VARIANT, got 'FOO'"],
    ["DECIMAL(10,", "cannot parse data type 'DECIMAL(10,' at line 1, column 12: expected a scale, got end of input"],
    ["DECIMAL(50, 2)", "cannot parse data type 'DECIMAL(50, 2)' at line 1, column 1: DECIMAL precision must be an integer between 1 and 38, got 50"],
    ["ARRAY<INT", "cannot parse data type 'ARRAY<INT' at line 1, column 10: expected '>', got end of input"],
    ["INT NOT", "cannot parse data type 'INT NOT' at line 1, column 5: unexpected input, got 'NOT'"],
    ["ROW<a INT, a STRING>", "cannot parse data type 'ROW<a INT, a STRING>' at line 1, column 1: ROW field 'a' is declared twice"],
  ])("rejects %s", (src, message) => {
    expect(() => parseDataType(src)).toThrow(new SqlParseError(message));
  });
});
