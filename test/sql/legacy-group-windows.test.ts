// Flink SQL's legacy group windows (GROUP BY TUMBLE / HOP / SESSION(time_attr, ...)) and their auxiliary
// functions, bound onto the Table API's group window.
import { describe, expect, it } from "vitest";
import { DataTypes, EnvironmentSettings, Row, Schema, TableEnvironment, ValidationError } from "../../src/index.js";

const sorted = (rows: readonly string[]) => [...rows].sort();
const ROWS: [number, string, number][] = [[1, "a", 1], [2, "a", 2], [4, "b", 3], [6, "a", 4], [12, "a", 5], [13, "b", 6]];

function env(): TableEnvironment {
  const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  const schema = Schema.newBuilder().column("ts", DataTypes.STRING()).column("name", DataTypes.STRING()).column("num", DataTypes.INT())
    .columnByExpression("row_time", "TO_TIMESTAMP(`ts`)").watermark("row_time", "`row_time`").build();
  const rows = ROWS.map(([s, n, v]) => Row.of(`2020-10-10 00:00:${String(s).padStart(2, "0")}`, n, v));
  e.createTemporaryView("T", e.fromValues(schema, ...rows) as never);
  return e;
}
const at = (s: string) => `2020-10-10T00:00${s === "00" ? "" : `:${s}`}`;

describe("legacy SQL group windows", () => {
  it("GROUP BY name, TUMBLE(row_time, 5 s): one final row per window and key, with TUMBLE_START / _END / _ROWTIME", async () => {
    const t = env().sqlQuery(`SELECT name, TUMBLE_START(row_time, INTERVAL '5' SECOND) AS s, TUMBLE_END(row_time, INTERVAL '5' SECOND) AS e,
      TUMBLE_ROWTIME(row_time, INTERVAL '5' SECOND) AS rt, COUNT(*) AS c, SUM(num) AS total
      FROM T GROUP BY name, TUMBLE(row_time, INTERVAL '5' SECOND)`);
    expect(t.changelogMode()).toBe("[I]");
    expect(t.getResolvedSchema().names).toEqual(["name", "s", "e", "rt", "c", "total"]);
    expect(sorted(await t.execute().toChangelog())).toEqual(sorted([
      `+I[a, ${at("00")}, ${at("05")}, ${at("04.999")}, 2, 3]`, `+I[b, ${at("00")}, ${at("05")}, ${at("04.999")}, 1, 3]`,
      `+I[a, ${at("05")}, ${at("10")}, ${at("09.999")}, 1, 4]`,
      `+I[a, ${at("10")}, ${at("15")}, ${at("14.999")}, 1, 5]`, `+I[b, ${at("10")}, ${at("15")}, ${at("14.999")}, 1, 6]`,
    ]));
  });

  it("GROUP BY HOP(row_time, slide 5 s, size 10 s) without keys, HAVING on an aggregate", async () => {
    const t = env().sqlQuery(`SELECT HOP_START(row_time, INTERVAL '5' SECOND, INTERVAL '10' SECOND) AS s, COUNT(*) AS c, SUM(num) AS total
      FROM T GROUP BY HOP(row_time, INTERVAL '5' SECOND, INTERVAL '10' SECOND) HAVING COUNT(*) > 2`);
    expect(sorted(await t.execute().toChangelog())).toEqual(sorted([
      "+I[2020-10-09T23:59:55, 3, 6]", `+I[${at("00")}, 4, 10]`, `+I[${at("05")}, 3, 15]`,
    ]));
  });

  it("GROUP BY name, SESSION(row_time, 3 s): sessions per key, SESSION_START / SESSION_END", async () => {
    const t = env().sqlQuery(`SELECT name, SESSION_START(row_time, INTERVAL '3' SECOND), SESSION_END(row_time, INTERVAL '3' SECOND), SUM(num)
      FROM T GROUP BY SESSION(row_time, INTERVAL '3' SECOND), name`);
    expect(t.getResolvedSchema().names).toEqual(["name", "EXPR$1", "EXPR$2", "EXPR$3"]);
    expect(sorted(await t.execute().toChangelog())).toEqual(sorted([
      `+I[a, ${at("01")}, ${at("05")}, 3]`, `+I[a, ${at("06")}, ${at("09")}, 4]`, `+I[a, ${at("12")}, ${at("15")}, 5]`,
      `+I[b, ${at("04")}, ${at("07")}, 3]`, `+I[b, ${at("13")}, ${at("16")}, 6]`,
    ]));
  });

  it("rejects an auxiliary call that does not match the window, two windows, a wrong arity and _PROCTIME", () => {
    const e = env();
    const q = (sql: string) => { try { e.sqlQuery(sql); } catch (err) { return err as Error; } throw new Error("no error"); };
    const mismatch = q("SELECT TUMBLE_END(row_time, INTERVAL '6' SECOND), COUNT(*) FROM T GROUP BY TUMBLE(row_time, INTERVAL '5' SECOND)");
    expect(mismatch).toBeInstanceOf(ValidationError);
    expect(mismatch.message).toMatch(/does not match the group window TUMBLE\(row_time, .*\) of the GROUP BY/);
    expect(q("SELECT HOP_END(row_time, INTERVAL '5' SECOND, INTERVAL '10' SECOND) FROM T GROUP BY TUMBLE(row_time, INTERVAL '5' SECOND)").message)
      .toMatch(/does not match the group window/);
    expect(q("SELECT COUNT(*) FROM T GROUP BY TUMBLE(row_time, INTERVAL '5' SECOND), SESSION(row_time, INTERVAL '1' SECOND)").message)
      .toMatch(/one group window only/);
    expect(q("SELECT COUNT(*) FROM T GROUP BY HOP(row_time, INTERVAL '5' SECOND)").message).toMatch(/HOP takes 3 arguments: HOP\(time_attr, slide, size\)/);
    expect(q("SELECT TUMBLE_PROCTIME(row_time, INTERVAL '5' SECOND) FROM T GROUP BY TUMBLE(row_time, INTERVAL '5' SECOND)").message)
      .toMatch(/TUMBLE_PROCTIME is not supported/);
  });
});
