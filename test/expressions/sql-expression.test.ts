import { describe, expect, it } from "vitest";
import { DataTypes, Row, Schema, SqlParseError, TableEnvironment, ValidationError, parseSqlExpression } from "../../src/index.js";

/** Evaluates SQL text as a computed column over one row (a INT, s STRING, ts TIMESTAMP(3)). */
async function evaluate(sql: string, a: number | null = 2, s: string | null = "Bob", ts = new Date(Date.UTC(2020, 9, 10, 13, 14, 15))) {
  const env = TableEnvironment.create();
  const schema = Schema.newBuilder()
    .column("a", DataTypes.INT())
    .column("s", DataTypes.STRING())
    .column("ts", DataTypes.TIMESTAMP(3))
    .columnByExpression("x", sql)
    .build();
  const t = env.fromValues(schema, Row.of(a, s, ts));
  const [row] = await t.execute().toArray();
  return { value: (row as { x: unknown }).x, type: t.getResolvedSchema().column("x").type.toString() };
}

describe("SQL expressions (computed columns, watermarks)", () => {
  it.each([
    ["a + a * 3", 8, "INT"],
    ["(a + a) * 3", 12, "INT"],
    ["-a + 1", -1, "INT"],
    ["a % 2 = 0", true, "BOOLEAN"],
    ["IF(a % 2 = 0, 'Bob', 'Alice')", "Bob", "VARCHAR(5) NOT NULL"],
    ["CASE WHEN a > 2 THEN 'big' WHEN a = 2 THEN 'two' ELSE 'small' END", "two", "VARCHAR(5) NOT NULL"],
    ["CASE a WHEN 1 THEN 'one' END", null, "CHAR(3)"],
    ["CAST(a AS STRING) || '!'", "2!", "STRING"],
    ["TRY_CAST(s AS INT)", null, "INT"],
    ["a BETWEEN 1 AND 3 AND a NOT IN (5, 6)", true, "BOOLEAN"],
    ["s LIKE 'B%' AND s NOT LIKE '%x'", true, "BOOLEAN"],
    ["s IS NULL OR NOT (a > 1)", false, "BOOLEAN"],
    ["a IS NOT NULL AND TRUE IS TRUE", true, "BOOLEAN NOT NULL"],
    ["UPPER(s) || LOWER(s)", "BOBbob", "STRING"],
    ["CHAR_LENGTH(s) + POSITION('o' IN s)", 5, "INT"],
    ["SUBSTRING(s FROM 2 FOR 1)", "o", "STRING"],
    ["TRIM(BOTH 'B' FROM s)", "ob", "STRING"],
    ["COALESCE(NULL, s)", "Bob", "STRING"],
    ["1.5 * a", "3", "DECIMAL(13, 1)"],
    ["EXTRACT(HOUR FROM ts)", 13, "BIGINT"],
    ["ts + INTERVAL '1:30' MINUTE TO SECOND", new Date(Date.UTC(2020, 9, 10, 13, 15, 45)), "TIMESTAMP(3)"],
    ["ts - INTERVAL '0.001' SECOND", new Date(Date.UTC(2020, 9, 10, 13, 14, 14, 999)), "TIMESTAMP(3)"],
    ["FLOOR(ts TO HOUR)", new Date(Date.UTC(2020, 9, 10, 13)), "TIMESTAMP(3)"],
    ["TO_TIMESTAMP('2020-10-10 00:00:01')", new Date(Date.UTC(2020, 9, 10, 0, 0, 1)), "TIMESTAMP(3)"],
    ["TO_TIMESTAMP(s)", null, "TIMESTAMP(3)"],
    ["DATE '2020-01-01' = DATE '2020-01-01'", true, "BOOLEAN NOT NULL"],
    ["`a` * 10", 20, "INT"],
  ])("%s", async (sql, value, type) => {
    const r = await evaluate(sql);
    expect(r.type).toBe(type);
    expect(String(r.value)).toBe(String(value));
  });

  it("keeps nulls as SQL does", async () => {
    expect((await evaluate("a + 1", null)).value).toBeNull();
    expect((await evaluate("IF(a % 2 = 0, 'Bob', 'Alice')", null)).value).toBe("Alice");
  });

  it.each([
    ["a +", "cannot parse SQL expression 'a +' at line 1, column 4: expected an expression, got end of input"],
    ["COUNT(a)", "cannot parse SQL expression 'COUNT(a)' at line 1, column 1: aggregate function COUNT is not allowed here, got 'COUNT'"],
    ["IF(a, 1)", "cannot parse SQL expression 'IF(a, 1)' at line 1, column 1: IF expects 3 arguments, got 2, got 'IF'"],
    ["'abc", "cannot parse SQL expression ''abc' at line 1, column 1: unterminated string literal"],
    ["r.f", "cannot parse SQL expression 'r.f' at line 1, column 2: field access (a.b) is not supported in SQL expressions; use a column name, got '.'"],
    ["INTERVAL '1' FORTNIGHT", "cannot parse SQL expression 'INTERVAL '1' FORTNIGHT' at line 1, column 14: expected an interval unit (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND, MILLISECOND), got 'FORTNIGHT'"],
    ["a\n  + ?", "cannot parse SQL expression 'a\n  + ?' at line 2, column 5: unexpected character '?'"],
  ])("rejects %j with its position", (sql, message) => {
    expect(() => parseSqlExpression(sql)).toThrow(new SqlParseError(message));
  });

  it("types unknown functions when the expression is planned", async () => {
    await expect(evaluate("NO_SUCH_FN(a)")).rejects.toThrow(ValidationError);
  });
});
