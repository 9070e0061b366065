// Very deep expressions plan and run (code generation splits them into functions of their own), up to
// MAX_EXPRESSION_DEPTH levels of calls; deeper ones — and SQL nested deeper than MAX_SQL_NESTING — fail
// at planning with a ValidationError naming the expression and the limit, never with a RangeError.
import { describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, type Expression, Row, SqlParseError, TableEnvironment, ValidationError, ifThenElse, lit } from "../../src/index.js";
import { MAX_EXPRESSION_DEPTH, expressionDepth } from "../../src/expressions/depth.js";
import { MAX_SQL_NESTING } from "../../src/expressions/sql-expression.js";

const setup = () => {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("s", DataTypes.STRING())),
    Row.of(1, "x"), Row.of(null, "y"), Row.of(3, null));
  env.createTemporaryView("t", t as never);
  return { env, t };
};

type E = Expression<any>;
const plusChain = (n: number): E => { let x: E = $("a"); for (let i = 0; i < n; i++) x = x.plus(1); return x; };
const rightPlusChain = (n: number): E => { let x: E = $("a"); for (let i = 0; i < n; i++) x = lit(1).plus(x); return x; };
/** CASE chain of n branches: a = n-1 → n-1, ..., a = 0 → 0, else `fallback`; depth n + 1. */
const caseChain = (n: number, fallback: E): E => { let x = fallback; for (let i = 0; i < n; i++) x = ifThenElse($("a").isEqual(i), lit(i), x); return x; };

describe("deep expressions run", { timeout: 120_000 }, () => {
  it.each([
    ["1000 nested plus", () => plusChain(1000), ["+I[1001]", "+I[null]", "+I[1003]"]],
    ["600 right-nested plus", () => rightPlusChain(600), ["+I[601]", "+I[null]", "+I[603]"]],
    ["a 999-branch CASE chain", () => caseChain(999, lit(-1)), ["+I[1]", "+I[-1]", "+I[3]"]],
    // branches not taken are not evaluated, across the split functions: a = 1, 3 match first; NULL reaches the division
    ["a CASE chain whose innermost branch divides by zero", () => caseChain(500, $("a").dividedBy(0).plus(0)), ["+I[1]", "+I[null]", "+I[3]"]],
  ] as const)("%s", async (_what, expr, rows) => {
    const { t } = setup();
    expect(await t.select(expr().as("r")).execute().toChangelog()).toEqual(rows);
  });

  it("in a filter, an aggregate argument and a grouping key", async () => {
    const { t } = setup();
    expect(await t.filter(plusChain(700).isGreater(702) as never).select($("a")).execute().toChangelog()).toEqual(["+I[3]"]);
    expect(await t.groupBy($("s").isNull()).select(plusChain(700).sum().as("x")).execute().toArray()).toEqual([{ x: 701 }, { x: 703 }]);
    expect(await t.groupBy(plusChain(600)).select(lit(1).count().as("n")).execute().toChangelog()).toEqual(["+I[1]", "+I[1]", "+I[1]"]);
  });

  it.each([
    ["a 600-term + chain", `SELECT ${"a + ".repeat(599)}a AS r FROM t`, ["+I[600]", "+I[null]", "+I[1800]"]],
    ["a 1000-part || chain", `SELECT s${" || 'z'".repeat(1000)} AS r FROM t`, [`+I[x${"z".repeat(1000)}]`, `+I[y${"z".repeat(1000)}]`, "+I[null]"]],
    ["a CASE with 999 WHENs", `SELECT CASE ${Array.from({ length: 999 }, (_, i) => `WHEN a = ${i} THEN ${i * 10}`).join(" ")} ELSE -1 END AS r FROM t`, ["+I[10]", "+I[-1]", "+I[30]"]],
    [`${MAX_SQL_NESTING - 1} nested parentheses`, `SELECT ${"(".repeat(MAX_SQL_NESTING - 1)}a + 1${")".repeat(MAX_SQL_NESTING - 1)} AS r FROM t`, ["+I[2]", "+I[null]", "+I[4]"]],
  ] as const)("SQL: %s", async (_what, sql, rows) => {
    const { env } = setup();
    expect(await env.sqlQuery(sql).execute().toChangelog()).toEqual(rows);
  });
});

describe("deeper expressions fail at planning, naming the expression and the limit", { timeout: 120_000 }, () => {
  it.each([
    ["plus", () => plusChain(MAX_EXPRESSION_DEPTH + 1), MAX_EXPRESSION_DEPTH + 1, "plus(plus(plus(…, 1), 1), 1)"],
    ["plus, far deeper", () => plusChain(20_000), 20_000, "plus(plus(plus(…, 1), 1), 1)"],
    ["right-nested plus", () => rightPlusChain(5000), 5000, "plus(1, plus(1, plus(1, …)))"],
    ["CASE", () => caseChain(3000, lit(0)), 3001, "if(equals(a, 2999), 2999, if(equals(a, 2998), 2998, if(…, 2997, …)))"],
  ] as const)("%s in select", (_what, expr, depth, shown) => {
    const { t } = setup();
    const e = expr();
    expect(expressionDepth(e.node)).toBe(depth);
    expect(() => t.select(e.as("r"))).toThrow(new ValidationError(
      `the expression ${shown} nests ${depth} levels of calls; the limit is ${MAX_EXPRESSION_DEPTH}. Compute it in several steps (e.g. addColumns in stages) or as a user-defined function`));
  });

  it("in filter, groupBy and addColumns too (at the call, not when the job runs)", () => {
    const { t } = setup();
    const deep = plusChain(5000);
    expect(() => t.filter(deep.isGreater(0) as never)).toThrow(ValidationError);
    expect(() => t.groupBy($("s")).select(deep.sum().as("x"))).toThrow(ValidationError);
    expect(() => t.addColumns(deep.as("x"))).toThrow(/nests 5000 levels of calls; the limit is 1000/);
  });

  it.each([
    ["a + chain", `SELECT ${"a + ".repeat(3000)}1 AS r FROM t`, /nests 3000 levels of calls; the limit is 1000/],
    ["a || chain", `SELECT s${" || 'z'".repeat(3000)} AS r FROM t`, /nests 3000 levels of calls; the limit is 1000/],
    ["a WHERE", `SELECT a FROM t WHERE ${"a + ".repeat(3000)}1 > 0`, /nests 3001 levels of calls; the limit is 1000/],
  ] as const)("SQL: %s", (_what, sql, message) => {
    const { env } = setup();
    expect(() => env.sqlQuery(sql)).toThrow(ValidationError);
    expect(() => env.sqlQuery(sql)).toThrow(message);
  });

  it.each([
    ["parentheses", (n: number) => `SELECT ${"(".repeat(n)}a${")".repeat(n)} AS r FROM t`],
    ["unary minus", (n: number) => `SELECT ${"- ".repeat(n)}a AS r FROM t`],
    ["NOT", (n: number) => `SELECT a FROM t WHERE ${"NOT ".repeat(n)}a > 0`],
    ["function calls", (n: number) => `SELECT ${"ABS(".repeat(n)}a${")".repeat(n)} AS r FROM t`],
  ] as const)("SQL nested deeper than the parser's limit: %s", (_what, sql) => {
    const { env } = setup();
    for (const n of [MAX_SQL_NESTING + 1, 50_000]) {
      expect(() => env.sqlQuery(sql(n))).toThrow(SqlParseError);
      expect(() => env.sqlQuery(sql(n))).toThrow(`the limit is ${MAX_SQL_NESTING}`);
    }
  });
});
