// GROUPING SETS, ROLLUP and CUBE: one group aggregate per grouping set, unioned; GROUPING() / GROUPING_ID().
import { describe, expect, it } from "vitest";
import { EnvironmentSettings, TableEnvironment } from "../../src/index.js";

const batch = () => TableEnvironment.create(EnvironmentSettings.inBatchMode());
const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const sorted = (rows: readonly string[]) => [...rows].sort();
const PRODUCTS = "(VALUES ('supplier1', 'product1', 4), ('supplier1', 'product2', 3), ('supplier2', 'product3', 3), ('supplier2', 'product4', 4)) "
  + "AS Products(supplier_id, product_id, rating)";

describe("GROUPING SETS, ROLLUP, CUBE", () => {
  it("the example of Flink's documentation: GROUPING SETS ((supplier_id, rating), (supplier_id), ())", async () => {
    const sql = `SELECT supplier_id, rating, COUNT(*) AS total FROM ${PRODUCTS} GROUP BY GROUPING SETS ((supplier_id, rating), (supplier_id), ())`;
    const expected = sorted([
      "+I[supplier1, 4, 1]", "+I[supplier1, null, 2]", "+I[null, null, 4]", "+I[supplier1, 3, 1]",
      "+I[supplier2, 3, 1]", "+I[supplier2, null, 2]", "+I[supplier2, 4, 1]",
    ]);
    expect(sorted(await batch().executeSql(sql).toChangelog())).toEqual(expected);
    const t = batch().sqlQuery(sql);
    expect(t.getResolvedSchema().toString()).toContain("`rating` INT,");
    expect(t.getResolvedSchema().names).toEqual(["supplier_id", "rating", "total"]);
    // ROLLUP (supplier_id, rating) is the same three sets
    expect(sorted(await batch().executeSql(`SELECT supplier_id, rating, COUNT(*) AS total FROM ${PRODUCTS} GROUP BY ROLLUP (supplier_id, rating)`).toChangelog()))
      .toEqual(expected);
  });

  it("CUBE: every subset; GROUPING and GROUPING_ID name the set of each row", async () => {
    const sql = `SELECT supplier_id, rating, GROUPING(supplier_id) AS gs, GROUPING_ID(supplier_id, rating) AS gid, SUM(rating) AS s FROM ${PRODUCTS} GROUP BY CUBE (supplier_id, rating)`;
    expect(sorted(await batch().executeSql(sql).toChangelog())).toEqual(sorted([
      "+I[supplier1, 4, 0, 0, 4]", "+I[supplier1, 3, 0, 0, 3]", "+I[supplier2, 3, 0, 0, 3]", "+I[supplier2, 4, 0, 0, 4]",
      "+I[supplier1, null, 0, 1, 7]", "+I[supplier2, null, 0, 1, 7]",
      "+I[null, 4, 1, 2, 8]", "+I[null, 3, 1, 2, 6]",
      "+I[null, null, 1, 3, 14]",
    ]));
  });

  it("a plain key next to ROLLUP is in every set; HAVING applies per set; streaming gives an updating union", async () => {
    const sql = `SELECT supplier_id, product_id, COUNT(*) AS n FROM ${PRODUCTS} GROUP BY supplier_id, ROLLUP (product_id) HAVING COUNT(*) > 1 OR product_id = 'product3'`;
    expect(sorted(await batch().executeSql(sql).toChangelog())).toEqual(sorted(["+I[supplier1, null, 2]", "+I[supplier2, null, 2]", "+I[supplier2, product3, 1]"]));
    const e = streaming();
    const rows = await e.executeSql(`SELECT supplier_id, COUNT(*) AS n FROM ${PRODUCTS} GROUP BY GROUPING SETS ((supplier_id), ())`).toChangelog();
    expect(rows.filter((r) => r.startsWith("+I") || r.startsWith("+U")).at(-1)).toBe("+U[null, 4]");
    expect(rows).toContain("+U[supplier2, 2]");
  });
});
