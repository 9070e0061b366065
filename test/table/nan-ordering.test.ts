// NaN in ORDER BY, top-N and sort/limit: numbers sort in Java's Double.compare order — NaN above every
// other number (+Infinity included), all NaNs one peer — so a sort is a consistent total order (with JS's
// < and > a NaN made Array.prototype.sort return garbage). -0.0 and 0.0 are equal keys: their rows keep
// their input order. NULLs go where NULLS FIRST / LAST puts them, whatever the direction.
import { describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, Row, TableEnvironment } from "../../src/index.js";

const KD = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("d", DataTypes.DOUBLE()));
const VALUES = [3, NaN, 1, -Infinity, NaN, 2, Infinity, -0, 0, null, 5, NaN, 4];
const ROWS = VALUES.map((d, i) => Row.of(`r${i}`, d));
const keysOf = (lines: string[]) => lines.map((l) => l.slice(0, l.indexOf(",")).replace(/^\+I\[/, ""));

describe("NaN in ORDER BY", () => {
  it("batch ORDER BY ASC: NaN after +Infinity, NULLs first (Flink's default for ASC)", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    const rows = await env.fromValues(KD, ...ROWS).orderBy($("d").asc()).execute().toChangelog();
    expect(rows).toEqual([
      "+I[r9, null]", "+I[r3, -Infinity]", "+I[r7, -0.0]", "+I[r8, 0.0]", "+I[r2, 1.0]", "+I[r5, 2.0]", "+I[r0, 3.0]",
      "+I[r12, 4.0]", "+I[r10, 5.0]", "+I[r6, Infinity]", "+I[r1, NaN]", "+I[r4, NaN]", "+I[r11, NaN]",
    ]);
  });

  it("batch ORDER BY DESC (SQL and Table API): NaN first, NULLs last; -0.0 and 0.0 keep their order", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    env.createTemporaryView("T", env.fromValues(KD, ...ROWS));
    const want = ["r1", "r4", "r11", "r6", "r10", "r12", "r0", "r5", "r2", "r7", "r8", "r3", "r9"];
    expect(keysOf(await env.sqlQuery("SELECT k, d FROM T ORDER BY d DESC").execute().toChangelog())).toEqual(want);
    expect(keysOf(await env.from("T").orderBy($("d").desc()).execute().toChangelog())).toEqual(want);
  });

  it("streaming top-3 by d DESC: NaNs displace every number, ties in arrival order", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    env.createTemporaryView("T", env.fromValues(KD, ...ROWS));
    const rows = await env.sqlQuery("SELECT k, d FROM (SELECT k, d, ROW_NUMBER() OVER (ORDER BY d DESC) AS rn FROM T) WHERE rn <= 3")
      .execute().toChangelog();
    expect(rows).toEqual([
      "+I[r0, 3.0]", "+I[r1, NaN]", "+I[r2, 1.0]",
      "-D[r2, 1.0]", "+I[r4, NaN]", // NaN above 3.0: 1.0 leaves
      "-D[r0, 3.0]", "+I[r6, Infinity]", // Infinity above 3.0, below NaN
      "-D[r6, Infinity]", "+I[r11, NaN]", // the third NaN: Infinity leaves
    ]);
  });

  it("streaming ORDER BY ... LIMIT 2 ASC: NaN is never among the smallest", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const t = env.fromValues(KD, Row.of("a", NaN), Row.of("b", 7), Row.of("c", NaN), Row.of("d", -1));
    const rows = await t.orderBy($("d").asc()).limit(2).execute().toChangelog();
    expect(rows).toEqual(["+I[a, NaN]", "+I[b, 7.0]", "-D[a, NaN]", "+I[d, -1.0]"]);
  });

  it("OVER (ORDER BY d): NaN rows come last, after +Infinity's, as peers in arrival order", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    const T = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("d", DataTypes.DOUBLE()), DataTypes.FIELD("v", DataTypes.INT()));
    env.createTemporaryView("T", env.fromValues(T, Row.of("a", 2, 1), Row.of("b", NaN, 10), Row.of("c", 1, 100), Row.of("d", NaN, 1000),
      Row.of("e", Infinity, 10000)));
    const rows = await env.sqlQuery("SELECT k, SUM(v) OVER (ORDER BY d ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM T").execute().toChangelog();
    expect(rows).toEqual(["+I[c, 100]", "+I[a, 101]", "+I[e, 10101]", "+I[b, 10111]", "+I[d, 11111]"]);
  });
});
