// FILTER (WHERE ...) and DISTINCT aggregates in SQL, with the rows of Flink's group aggregate program R-086.
import { describe, expect, it } from "vitest";
import { DataTypes, EnvironmentSettings, Row, SqlParseError, TableEnvironment } from "../../src/index.js";

const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());

function sourceOne(env = streaming()) {
  const type = DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.BIGINT()), DataTypes.FIELD("c", DataTypes.STRING()));
  env.createTemporaryView("source_t", env.fromValues(type, [
    Row.of(1, 1, "Hi"), Row.of(2, 2, "Hello"), Row.of(2, 2, "Hello World"),
    Row.of(1, 1, "Hi Again!"), Row.of(2, 2, "Hello Again!"), Row.of(2, 2, "Hello World Again!"),
  ]) as never);
  return env;
}

describe("FILTER (WHERE ...) aggregates", () => {
  it("R-086 group-aggregate-simple: COUNT(*), AVG(a) FILTER (WHERE a > 1), MIN(c); an upsert sink sees the rows without -U", async () => {
    const env = sourceOne();
    const sql = "SELECT b, COUNT(*) AS cnt, CAST(AVG(a) FILTER (WHERE a > 1) AS DOUBLE) AS avg_a, MIN(c) AS min_c FROM source_t GROUP BY b";
    const changelog = await env.executeSql(sql).toChangelog();
    // Flink's rows as its upsert sink (PRIMARY KEY b) receives them: the same changelog without the -U rows
    expect(changelog.filter((r) => !r.startsWith("-U"))).toEqual([
      "+I[1, 1, null, Hi]", "+I[2, 1, 2.0, Hello]", "+U[2, 2, 2.0, Hello]",
      "+U[1, 2, null, Hi]", "+U[2, 3, 2.0, Hello]", "+U[2, 4, 2.0, Hello]",
    ]);
    expect(changelog.filter((r) => r.startsWith("-U"))).toEqual(["-U[2, 1, 2.0, Hello]", "-U[1, 1, null, Hi]", "-U[2, 2, 2.0, Hello]", "-U[2, 3, 2.0, Hello]"]);
  });

  it("is the aggregate of the argument where the condition is TRUE: AGG(CASE WHEN cond THEN x END)", async () => {
    const sql = "SELECT b, SUM(a) FILTER (WHERE c LIKE 'Hello%') AS s, COUNT(*) FILTER (WHERE c LIKE '%Again!') AS n, "
      + "COUNT(DISTINCT c) FILTER (WHERE a = 2) AS d, MAX(c) FILTER (WHERE FALSE) AS none FROM source_t GROUP BY b";
    const rows = await sourceOne().executeSql(sql).toChangelog();
    expect(rows.filter((r) => r.startsWith("+"))).toEqual([
      "+I[1, null, 0, 0, null]", "+I[2, 2, 0, 1, null]", "+U[2, 4, 0, 2, null]", "+U[1, null, 1, 0, null]",
      "+U[2, 6, 1, 3, null]", "+U[2, 8, 2, 4, null]",
    ]);
    const twin = "SELECT b, SUM(CASE WHEN c LIKE 'Hello%' THEN a END) AS s, COUNT(CASE WHEN c LIKE '%Again!' THEN 1 END) AS n, "
      + "COUNT(DISTINCT CASE WHEN a = 2 THEN c END) AS d, MAX(CASE WHEN FALSE THEN c END) AS none FROM source_t GROUP BY b";
    expect(await sourceOne().executeSql(twin).toChangelog()).toEqual(rows);
  });

  it("the condition may not call an aggregate; FILTER needs WHERE", () => {
    const env = sourceOne();
    expect(() => env.sqlQuery("SELECT SUM(a) FILTER (WHERE COUNT(*) > 1) FROM source_t")).toThrow(SqlParseError);
    expect(() => env.sqlQuery("SELECT SUM(a) FILTER (WHERE COUNT(*) > 1) FROM source_t")).toThrow(/aggregate function COUNT is not allowed here/);
    expect(() => env.sqlQuery("SELECT SUM(a) FILTER (a > 1) FROM source_t")).toThrow(/expected WHERE/);
  });
});
