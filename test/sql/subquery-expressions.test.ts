// Scalar subqueries and IN / EXISTS outside an AND-ed WHERE: left joins with the subquery's result, as Flink
// decorrelates them. Batch gives the final rows once; streaming's changelog materializes to the same rows.
import { describe, expect, it } from "vitest";
import { EnvironmentSettings, ExecutionError, TableEnvironment } from "../../src/index.js";
import { materialize } from "../joins/fixtures.js";

function env(batch: boolean): TableEnvironment {
  const e = TableEnvironment.create(batch ? EnvironmentSettings.inBatchMode() : EnvironmentSettings.inStreamingMode());
  e.executeSql("CREATE VIEW t1 (k, x) AS VALUES ('a', 1), ('a', 5), ('b', 2), ('b', 4), ('c', 3)");
  e.executeSql("CREATE VIEW t2 (k, y) AS VALUES ('a', 2), ('b', 10), (CAST(NULL AS STRING), 7)");
  return e;
}

/** The batch rows (sorted), checked to be what the streaming changelog materializes to. */
async function rows(sql: string): Promise<string[]> {
  const batch = [...await env(true).executeSql(sql).toChangelog()].sort();
  const stream = materialize(await env(false).executeSql(sql).toChangelog()).sort();
  expect(stream).toEqual(batch);
  return batch;
}

describe("scalar subqueries", () => {
  it("correlated by an equality in WHERE: decorrelated into a join with the per-key aggregate", async () => {
    expect(await rows("SELECT k, x FROM t1 WHERE x > (SELECT AVG(x) FROM t1 AS i WHERE i.k = t1.k)")).toEqual(["+I[a, 5]", "+I[b, 4]"]);
    // a key without partner rows reads NULL
    expect(await rows("SELECT k, x, (SELECT SUM(y) FROM t2 WHERE t2.k = t1.k AND y > 1) AS s FROM t1"))
      .toEqual(["+I[a, 1, 2]", "+I[a, 5, 2]", "+I[b, 2, 10]", "+I[b, 4, 10]", "+I[c, 3, null]"]);
    // a plain column is the key's single value
    expect(await rows("SELECT k, (SELECT y FROM t2 WHERE t2.k = t1.k) AS yy FROM t1 WHERE x < 3"))
      .toEqual(["+I[a, 2]", "+I[b, 10]"]);
  });

  it("uncorrelated, in SELECT and WHERE: the one row joined to every row", async () => {
    expect(await rows("SELECT k, x, (SELECT MAX(y) FROM t2) AS m FROM t1"))
      .toEqual(["+I[a, 1, 10]", "+I[a, 5, 10]", "+I[b, 2, 10]", "+I[b, 4, 10]", "+I[c, 3, 10]"]);
    expect(await rows("SELECT * FROM t1 WHERE x > (SELECT MIN(y) FROM t2)")).toEqual(["+I[a, 5]", "+I[b, 4]", "+I[c, 3]"]);
    expect(env(true).sqlQuery("SELECT * FROM t1 WHERE x > (SELECT MIN(y) FROM t2)").getResolvedSchema().names).toEqual(["k", "x"]);
    // an empty subquery is NULL
    expect(await rows("SELECT k, (SELECT y FROM t2 WHERE y > 100) AS none FROM t1 WHERE x = 1")).toEqual(["+I[a, null]"]);
  });

  it("more than one row is Flink's run-time error; more than one column a validation error", async () => {
    await expect(env(true).executeSql("SELECT k, (SELECT y FROM t2) AS m FROM t1").toChangelog())
      .rejects.toThrow(/SingleValueAggFunction received more than one element\./);
    await expect(env(false).executeSql("SELECT k, (SELECT y FROM t2) AS m FROM t1").toChangelog()).rejects.toThrow(ExecutionError);
    expect(() => env(true).sqlQuery("SELECT k, (SELECT k, y FROM t2) AS m FROM t1"))
      .toThrow(/At line 1, column 11: a scalar subquery must return one column, it returns 2 \[k, y\]/);
    expect(() => env(true).sqlQuery("SELECT k FROM t1 WHERE x > (SELECT AVG(y) FROM t2 WHERE t2.y > t1.x)"))
      .toThrow(/may compare the outer row by equalities \(inner = outer\) joined by AND only/);
    expect(() => env(true).sqlQuery("SELECT k, SUM(x) + (SELECT MAX(y) FROM t2) FROM t1 GROUP BY k"))
      .toThrow(/a subquery in the SELECT list of an aggregate query is not supported/);
  });
});

describe("IN and EXISTS under OR, NOT and CASE, and in SELECT", () => {
  it("IN under OR; NOT IN under OR is NULL-aware (a NULL among the subquery's values excludes the row)", async () => {
    expect(await rows("SELECT k, x FROM t1 WHERE x = 1 OR k IN (SELECT k FROM t2 WHERE y > 5)")).toEqual(["+I[a, 1]", "+I[b, 2]", "+I[b, 4]"]);
    expect(await rows("SELECT k, x FROM t1 WHERE NOT (k IN (SELECT k FROM t2)) OR x = 5")).toEqual(["+I[a, 5]"]);
    expect(await rows("SELECT k, x FROM t1 WHERE NOT (k IN (SELECT k FROM t2 WHERE k IS NOT NULL)) OR x = 5")).toEqual(["+I[a, 5]", "+I[c, 3]"]);
  });

  it("IN in SELECT is TRUE, FALSE or NULL as SQL defines it", async () => {
    expect(await rows("SELECT k, x, k IN (SELECT k FROM t2) AS i FROM t1 WHERE x < 4"))
      .toEqual(["+I[a, 1, true]", "+I[b, 2, true]", "+I[c, 3, null]"]);
    expect(await rows("SELECT k, x, k IN (SELECT k FROM t2 WHERE k IS NOT NULL) AS i FROM t1 WHERE x < 4"))
      .toEqual(["+I[a, 1, true]", "+I[b, 2, true]", "+I[c, 3, false]"]);
  });

  it("EXISTS inside CASE (correlated) and under OR (uncorrelated)", async () => {
    expect(await rows("SELECT k, x, CASE WHEN EXISTS (SELECT * FROM t2 WHERE t2.k = t1.k AND y < 5) THEN 'yes' ELSE 'no' END AS e FROM t1"))
      .toEqual(["+I[a, 1, yes]", "+I[a, 5, yes]", "+I[b, 2, no]", "+I[b, 4, no]", "+I[c, 3, no]"]);
    expect(await rows("SELECT k, x FROM t1 WHERE x = 3 OR EXISTS (SELECT * FROM t2 WHERE y > 100)")).toEqual(["+I[c, 3]"]);
    expect(await rows("SELECT k, x FROM t1 WHERE x = 3 OR NOT EXISTS (SELECT * FROM t2 WHERE t2.k = t1.k)"))
      .toEqual(["+I[c, 3]"]);
  });
});
