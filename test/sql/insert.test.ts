// INSERT INTO sink SELECT ...: the Table API's executeInsert, result and all.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EnvironmentSettings, SqlParseError, TableEnvironment, ValidationError } from "../../src/index.js";
import { printed } from "../support.js";

const newEnv = () => TableEnvironment.create(EnvironmentSettings.inBatchMode());

describe("INSERT INTO", () => {
  it("writes the query's rows into a CREATE TABLE ... WITH ('connector' = ...) sink and returns the insert result", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ts-sql-insert-"));
    const env = newEnv();
    env.executeSql("CREATE VIEW Orders(id, customer, amount) AS VALUES (1, 'Bob', 10), (2, 'Alice', 20), (3, 'Bob', 5)");
    env.executeSql(`CREATE TABLE Totals (customer STRING, total INT) WITH ('connector' = 'filesystem', 'path' = '${dir}/totals.csv', 'format' = 'csv')`);
    const result = env.executeSql("INSERT INTO Totals SELECT customer, SUM(amount) FROM Orders GROUP BY customer ORDER BY customer");
    await result.await();
    expect(result.getResolvedSchema().toShortString()).toBe("[default_catalog.default_database.Totals: BIGINT NOT NULL]");
    expect(await printed(result)).toMatch(/\| +-1 \|/);
    const out = join(dir, "totals.csv");
    const lines = readdirSync(out).flatMap((f) => readFileSync(join(out, f), "utf8").split("\n").filter(Boolean));
    expect(lines.sort()).toEqual(["Alice,20", "Bob,15"]);
  });

  it("an unknown sink suggests the closest name; INSERT OVERWRITE needs a sink that supports it; PARTITION needs a partition key", () => {
    const env = newEnv();
    env.executeSql("CREATE TABLE Totals (customer STRING, total INT) WITH ('connector' = 'blackhole')");
    expect(() => env.executeSql("INSERT INTO Total SELECT 'a', 1 FROM (VALUES 1)"))
      .toThrow("SQL validation failed. At line 1, column 13: table 'Total' is not registered; known: [Totals]; did you mean 'Totals'?");
    expect(() => env.executeSql("INSERT OVERWRITE Totals SELECT 'a', 1 FROM (VALUES 1)"))
      .toThrow("SQL validation failed. At line 1, column 18: INSERT OVERWRITE requires that the underlying DynamicTableSink of table 'default_catalog.default_database.Totals' implements the SupportsOverwrite interface.");
    expect(() => env.executeSql("INSERT INTO Totals PARTITION (a = 1) SELECT 'a', 1 FROM (VALUES 1)")).toThrow("Static partition column 'a' should be in the partition keys list []");
    expect(() => env.sqlQuery("INSERT INTO Totals SELECT 'a', 1 FROM (VALUES 1)")).toThrow(ValidationError);
  });
});
