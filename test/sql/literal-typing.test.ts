// Flink SQL's numeric literal typing and implicit casts in comparisons and CASE branches.
import { describe, expect, it } from "vitest";
import { EnvironmentSettings, TableEnvironment, ValidationError } from "../../src/index.js";

function env() {
  const e = TableEnvironment.create(EnvironmentSettings.inBatchMode());
  e.executeSql("CREATE VIEW T(i, b, d, s) AS VALUES (1, CAST(2 AS BIGINT), CAST(1.5 AS DECIMAL(5, 2)), '3'), (2, CAST(3 AS BIGINT), CAST(2.25 AS DECIMAL(5, 2)), '4')");
  return e;
}
const types = (sql: string) => env().sqlQuery(sql).getResolvedSchema().columns.map((c) => String(c.type));

describe("literal typing and implicit casts", () => {
  it("numeric literals: INT, BIGINT beyond INT, DECIMAL(p, s) for a decimal point, DOUBLE with an exponent", () => {
    expect(types("SELECT 1, 12345678901, 1.5, 123.450, 1e0, -2 FROM T"))
      .toEqual(["INT NOT NULL", "BIGINT NOT NULL", "DECIMAL(2, 1) NOT NULL", "DECIMAL(6, 3) NOT NULL", "DOUBLE NOT NULL", "INT NOT NULL"]);
  });

  it("comparisons and arithmetic across numeric types widen: INT = DECIMAL, INT + DECIMAL, BETWEEN, IN", async () => {
    const e = env();
    expect(await e.executeSql("SELECT i = 1.0, b = 2, d = 1.50, i < d, i + 1.5, i BETWEEN 1 AND 1.5, i IN (1, 2.0) FROM T").toChangelog())
      .toEqual(["+I[true, true, true, true, 2.5, true, true]", "+I[false, false, false, true, 3.5, false, true]"]);
    expect(types("SELECT i + 1.5 FROM T")).toEqual(["DECIMAL(12, 1) NOT NULL"]);
  });

  it("CASE branches and IF / COALESCE take the common type of their branches", async () => {
    const sql = "SELECT CASE WHEN i = 1 THEN 1 ELSE 2.5 END, CASE WHEN i = 1 THEN CAST(1 AS TINYINT) ELSE b END, CASE i WHEN 1 THEN 'x' END, IF(i = 1, 1, 2.5), COALESCE(i, b) FROM T";
    expect(types(sql)).toEqual(["DECIMAL(11, 1) NOT NULL", "BIGINT NOT NULL", "CHAR(1)", "DECIMAL(11, 1) NOT NULL", "BIGINT NOT NULL"]);
    expect(await env().executeSql(sql).toChangelog()).toEqual(["+I[1.0, 1, x, 1.0, 1]", "+I[2.5, 3, null, 2.5, 2]"]);
  });

  it("a string literal compared with a TIMESTAMP, TIME or DATE is read as one; numbers and strings are not compared (as Flink)", async () => {
    const e = env();
    expect(await e.executeSql("SELECT TIMESTAMP '2020-01-01 00:00:00' = '2020-01-01 00:00:00', DATE '2020-01-01' < '2020-01-02', "
      + "TIMESTAMP '2020-01-01 00:00:00' BETWEEN '2019-01-01 00:00:00' AND '2020-06-01 00:00:00', TIME '10:00:00' IN ('10:00:00', '11:00:00') FROM T WHERE i = 1").toChangelog())
      .toEqual(["+I[true, true, true, true]"]);
    expect(() => e.sqlQuery("SELECT TIMESTAMP '2020-01-01 00:00:00' = 'x' FROM T")).toThrow(/'x' in equals\(.*\) is not a TIMESTAMP\(3\) NOT NULL value/);
    expect(() => e.sqlQuery("SELECT i FROM T WHERE i = '1'")).toThrow(ValidationError);
    expect(() => e.sqlQuery("SELECT i FROM T WHERE s = 3")).toThrow(/cannot compare STRING with NUMERIC in equals\(s, 3\)/);
  });
});
