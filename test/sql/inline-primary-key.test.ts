// CREATE TABLE's inline primary key: `c INT PRIMARY KEY NOT ENFORCED` makes c the table's key, as Flink's
// column constraint does.
import { describe, expect, it } from "vitest";
import { EnvironmentSettings, TableEnvironment } from "../../src/index.js";

const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());

describe("an inline PRIMARY KEY", () => {
  it("is the table's primary key", () => {
    const e = env();
    e.executeSql("CREATE TABLE t (a INT, c INT primary key not enforced, b STRING) WITH ('connector' = 'blackhole')");
    expect(e.tables.get("t")!.descriptor.schemaSpec!.toString()).toContain("PRIMARY KEY (`c`) NOT ENFORCED");
  });

  it("needs NOT ENFORCED, and a table has one primary key only", () => {
    expect(() => env().executeSql("CREATE TABLE t (c INT PRIMARY KEY) WITH ('connector' = 'blackhole')")).toThrow(/expected NOT/i);
    expect(() => env().executeSql("CREATE TABLE t (c INT PRIMARY KEY NOT ENFORCED, d INT, PRIMARY KEY (d) NOT ENFORCED) WITH ('connector' = 'blackhole')"))
      .toThrow("a table has at most one PRIMARY KEY");
  });
});
