// SQL queries bound onto the Table API's plan: SELECT DISTINCT, GROUP BY / HAVING with aggregates,
// subqueries and VALUES in FROM, WITH.
import { describe, expect, it } from "vitest";
import { $, EnvironmentSettings, SqlParseError, TableEnvironment, ValidationError, lit } from "../../src/index.js";

const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const batch = () => TableEnvironment.create(EnvironmentSettings.inBatchMode());

/** Orders(id, customer, amount) with two orders of Bob. */
function ordersEnv(env = streaming()) {
  env.executeSql("CREATE VIEW Orders(id, customer, amount) AS VALUES (1, 'Bob', 10), (2, 'Alice', 20), (3, 'Bob', 5), (4, 'Carol', 7)");
  return env;
}

const sorted = (rows: string[]) => [...rows].sort();

describe("SQL aggregation", () => {
  it("GROUP BY with COUNT(*), COUNT, SUM, MIN, MAX, AVG and aliases: the same changelog as groupBy().select()", async () => {
    const env = ordersEnv();
    const sql = "SELECT customer, COUNT(*) AS cnt, SUM(amount) AS total, MIN(amount) lo, MAX(amount), AVG(amount) AS av FROM Orders GROUP BY customer";
    const changelog = await env.executeSql(sql).toChangelog();
    expect(changelog).toEqual([
      "+I[Bob, 1, 10, 10, 10, 10]", "+I[Alice, 1, 20, 20, 20, 20]",
      "-U[Bob, 1, 10, 10, 10, 10]", "+U[Bob, 2, 15, 5, 10, 7]", "+I[Carol, 1, 7, 7, 7, 7]",
    ]);
    expect(env.sqlQuery(sql).getResolvedSchema().names).toEqual(["customer", "cnt", "total", "lo", "EXPR$4", "av"]);
    const api = env.from("Orders").groupBy($("customer")).select($("customer"), lit(1).count().as("cnt"), $("amount").sum().as("total"),
      $("amount").min().as("lo"), $("amount").max().as("EXPR$4"), $("amount").avg().as("av"));
    expect(await api.execute().toChangelog()).toEqual(changelog);
  });

  it("a global aggregate, COUNT(DISTINCT x) and an expression over aggregates", async () => {
    const env = ordersEnv(batch());
    expect(await env.executeSql("SELECT COUNT(*), COUNT(DISTINCT customer) AS customers, SUM(amount) * 2 + 1 AS x FROM Orders").toChangelog())
      .toEqual(["+I[4, 3, 85]"]);
  });

  it("HAVING filters groups by an aggregate that is not selected; WHERE filters rows first", async () => {
    const env = ordersEnv(batch());
    expect(sorted(await env.executeSql("SELECT customer FROM Orders WHERE amount > 1 GROUP BY customer HAVING COUNT(*) > 1 OR SUM(amount) >= 20").toChangelog()))
      .toEqual(["+I[Alice]", "+I[Bob]"]);
    expect(env.sqlQuery("SELECT customer FROM Orders GROUP BY customer HAVING COUNT(*) > 1").getResolvedSchema().names).toEqual(["customer"]);
  });

  it("GROUP BY an expression; a column neither grouped nor aggregated is an error at its position", async () => {
    const env = ordersEnv(batch());
    expect(sorted(await env.executeSql("SELECT amount > 8 AS big, COUNT(*) AS n FROM Orders GROUP BY amount > 8").toChangelog()))
      .toEqual(["+I[false, 2]", "+I[true, 2]"]);
    expect(() => env.sqlQuery("SELECT customer, amount FROM Orders GROUP BY customer")).toThrow(ValidationError);
    expect(() => env.sqlQuery("SELECT customer, amount FROM Orders GROUP BY customer")).toThrow(/At line 1, column 18: select: column 'amount' is neither a grouping key nor inside an aggregate/);
  });

  it("SELECT DISTINCT", async () => {
    const env = ordersEnv(batch());
    expect(sorted(await env.executeSql("SELECT DISTINCT customer FROM Orders").toChangelog())).toEqual(["+I[Alice]", "+I[Bob]", "+I[Carol]"]);
  });

  it("aggregates outside SELECT and HAVING are rejected", () => {
    const env = ordersEnv();
    expect(() => env.sqlQuery("SELECT customer FROM Orders WHERE SUM(amount) > 1")).toThrow(SqlParseError);
    expect(() => env.sqlQuery("SELECT customer FROM Orders WHERE SUM(amount) > 1")).toThrow(/line 1, column 35: aggregate function SUM is not allowed here/);
  });
});

describe("SQL subqueries, VALUES in FROM and WITH", () => {
  it("a subquery in FROM, with and without an alias", async () => {
    const env = ordersEnv(batch());
    expect(sorted(await env.executeSql("SELECT customer, total FROM (SELECT customer, SUM(amount) AS total FROM Orders GROUP BY customer) AS s WHERE s.total > 8").toChangelog()))
      .toEqual(["+I[Alice, 20]", "+I[Bob, 15]"]);
    expect(await env.executeSql("SELECT * FROM (SELECT id FROM Orders WHERE id > 3)").toChangelog()).toEqual(["+I[4]"]);
  });

  it("VALUES in FROM, named by the alias's column list", async () => {
    const env = batch();
    const r = env.sqlQuery("SELECT b, a + 1 AS a1 FROM (VALUES (1, 'x'), (2, 'y')) AS t (a, b) WHERE t.a > 1");
    expect(await r.execute().toChangelog()).toEqual(["+I[y, 3]"]);
    expect(await env.executeSql("SELECT COUNT(*) FROM (VALUES 1, 2, 3)").toChangelog()).toEqual(["+I[3]"]);
  });

  it("WITH: each name is visible in the later ones and in the body; a column list renames", async () => {
    const env = ordersEnv(batch());
    const sql = `WITH big AS (SELECT * FROM Orders WHERE amount >= 7),
      per (who, n) AS (SELECT customer, COUNT(*) FROM big GROUP BY customer)
      SELECT who FROM per WHERE n = 1`;
    expect(sorted(await env.executeSql(sql).toChangelog())).toEqual(["+I[Alice]", "+I[Bob]", "+I[Carol]"]);
    // a WITH name is gone after its query
    expect(() => env.sqlQuery("SELECT * FROM big")).toThrow(/table 'big' is not registered/);
  });

  it("WITH over an updating query: COUNT(*) of VALUES retracts its previous count", async () => {
    const env = streaming();
    expect(await env.executeSql("WITH UpdatingTable AS (SELECT COUNT(*) FROM (VALUES 1, 2, 3)) SELECT * FROM UpdatingTable").toChangelog())
      .toEqual(["+I[1]", "-U[1]", "+U[2]", "-U[2]", "+U[3]"]);
  });
});

describe("SQL names: unknown tables and columns suggest the closest known name", () => {
  it("tables", () => {
    const env = ordersEnv();
    expect(() => env.sqlQuery("SELECT * FROM Order")).toThrow("SQL validation failed. At line 1, column 15: table 'Order' is not registered; known: [Orders]; did you mean 'Orders'?");
  });
  it("columns, plain and qualified", () => {
    const env = ordersEnv();
    expect(() => env.sqlQuery("SELECT custome FROM Orders")).toThrow("SQL validation failed. At line 1, column 8: column 'custome' is not in [id, customer, amount]; did you mean 'customer'?");
    expect(() => env.sqlQuery("SELECT o.amont FROM Orders o")).toThrow("SQL validation failed. At line 1, column 8: column 'amont' is not in table 'o' [id, customer, amount]; did you mean 'amount'?");
    expect(() => env.sqlQuery("SELECT x.amount FROM Orders o")).toThrow("SQL validation failed. At line 1, column 8: table 'x' not found; known: [o]");
  });
});

describe("Flink SQL type rules", () => {
  it("VARCHAR without a length is STRING in SQL: CAST(x AS VARCHAR) keeps the whole value, DDL declares STRING", async () => {
    const env = batch();
    expect(await env.executeSql("SELECT CAST(amount AS VARCHAR) AS s, CAST(customer AS VARCHAR(2)) AS c2 FROM (VALUES (1234, 'Alice')) AS t (amount, customer)").toChangelog())
      .toEqual(["+I[1234, Al]"]);
    expect(env.sqlQuery("SELECT CAST(1 AS VARCHAR) AS s, TRY_CAST('x' AS INT) AS i FROM (VALUES 1)").getResolvedSchema().toShortString())
      .toBe("[s: STRING NOT NULL, i: INT]");
    env.executeSql("CREATE TABLE S (name VARCHAR, tags ARRAY<VARCHAR>, n VARCHAR(3)) WITH ('connector' = 'datagen', 'number-of-rows' = '1')");
    expect(env.from("S").getResolvedSchema().toShortString()).toBe("[name: STRING, tags: ARRAY<STRING>, n: VARCHAR(3)]");
  });
});

describe("SQL names: unknown functions", () => {
  it("suggest the closest built-in or registered function", () => {
    const env = ordersEnv();
    expect(() => env.sqlQuery("SELECT UPPR(customer) FROM Orders")).toThrow(/^SQL validation failed\. At line 1, column 8: .*unknown function 'UPPR'.*; did you mean 'UPPER'\?$/);
  });
});
