// OVER aggregates in SQL onto the Table API's over window, with the rows of Flink's programs.
import { describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, Over, Row, RowKind, TableEnvironment, UNBOUNDED_ROW, ValidationError, rowInterval } from "../../src/index.js";
import { events, ev } from "../windows/support.js";

const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const TYPE = DataTypes.ROW(DataTypes.FIELD("key", DataTypes.STRING()), DataTypes.FIELD("val", DataTypes.BIGINT()), DataTypes.FIELD("ts", DataTypes.BIGINT()));
const APPEND = [Row.of("key1", 1, 100), Row.of("key1", 2, 200), Row.of("key1", 5, 500), Row.of("key1", 6, 600), Row.of("key2", 1, 100), Row.of("key2", 2, 200), Row.of("key1", 4, 400)];

function env(rows: readonly ReturnType<typeof Row.of>[]) {
  const e = streaming();
  e.createTemporaryView("source_t", e.fromValues(TYPE, ...rows) as never);
  return e;
}
const FRAME = "OVER (PARTITION BY key ORDER BY val RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)";

describe("OVER aggregates in SQL", () => {
  it("R-133 over-aggregate-sum-append-mode-multiple-aggs: two aggregates over one window; a later smaller val updates the rows after it", async () => {
    const sql = `SELECT key, val, ts, SUM(val) ${FRAME} AS sum_val, COUNT(key) ${FRAME} AS cnt_key FROM source_t`;
    expect(await env(APPEND).executeSql(sql).toChangelog()).toEqual([
      "+I[key1, 1, 100, 1, 1]", "+I[key1, 2, 200, 3, 2]", "+I[key1, 5, 500, 8, 3]", "+I[key1, 6, 600, 14, 4]",
      "+I[key2, 1, 100, 1, 1]", "+I[key2, 2, 200, 3, 2]",
      "+I[key1, 4, 400, 7, 3]", "-U[key1, 5, 500, 8, 3]", "+U[key1, 5, 500, 12, 4]", "-U[key1, 6, 600, 14, 4]", "+U[key1, 6, 600, 18, 5]",
    ]);
  });

  it("R-131 over-aggregate-sum-retract-mode: an updating input re-emits every affected later row", async () => {
    const U = (k: RowKind, ...v: unknown[]) => Row.ofKind(k, ...v);
    const rows = [
      Row.of("key1", 1, 100), Row.of("key1", 2, 200), Row.of("key1", 5, 500), Row.of("key1", 6, 600),
      U(RowKind.UPDATE_BEFORE, "key1", 2, 200), U(RowKind.UPDATE_AFTER, "key1", 3, 200), Row.of("key2", 1, 100), Row.of("key2", 2, 200),
      Row.of("key3", 1, 100), Row.of("key1", 4, 400), U(RowKind.UPDATE_BEFORE, "key1", 3, 200), U(RowKind.UPDATE_AFTER, "key1", 3, 300),
    ];
    const sql = `SELECT key, val, ts, SUM(val) ${FRAME} AS sum_val FROM source_t`;
    expect(await env(rows).executeSql(sql).toChangelog()).toEqual([
      "+I[key1, 1, 100, 1]", "+I[key1, 2, 200, 3]", "+I[key1, 5, 500, 8]", "+I[key1, 6, 600, 14]",
      "-U[key1, 2, 200, 3]", "-U[key1, 5, 500, 8]", "+U[key1, 5, 500, 6]", "-U[key1, 6, 600, 14]", "+U[key1, 6, 600, 12]",
      "+U[key1, 3, 200, 4]", "-U[key1, 5, 500, 6]", "+U[key1, 5, 500, 9]", "-U[key1, 6, 600, 12]", "+U[key1, 6, 600, 15]",
      "+I[key2, 1, 100, 1]", "+I[key2, 2, 200, 3]",
      "+I[key3, 1, 100, 1]", "+I[key1, 4, 400, 8]", "-U[key1, 5, 500, 9]", "+U[key1, 5, 500, 13]", "-U[key1, 6, 600, 15]", "+U[key1, 6, 600, 19]",
      "-U[key1, 3, 200, 4]", "-U[key1, 4, 400, 8]", "+U[key1, 4, 400, 5]", "-U[key1, 5, 500, 13]", "+U[key1, 5, 500, 10]", "-U[key1, 6, 600, 19]", "+U[key1, 6, 600, 16]",
      "+U[key1, 3, 300, 4]", "-U[key1, 4, 400, 5]", "+U[key1, 4, 400, 8]", "-U[key1, 5, 500, 10]", "+U[key1, 5, 500, 13]", "-U[key1, 6, 600, 16]", "+U[key1, 6, 600, 19]",
    ]);
  });

  it("ROWS frames over event time give the Table API's rows; no frame is RANGE UNBOUNDED PRECEDING", async () => {
    const e = streaming();
    e.createTemporaryView("E", e.fromValues(events, ev("a", 1, 1), ev("a", 2, 2), ev("a", 4, 3), ev("b", 8, 3), ev("a", 16, 4)) as never);
    const sql = "SELECT k, v, SUM(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s2, "
      + "MAX(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS m2 FROM E";
    const api = e.from("E").window(Over.partitionBy($("k")).orderBy($("ts")).preceding(rowInterval(1)).as("w"))
      .select($("k"), $("v"), $("v").sum().over($("w")).as("s2"), $("v").max().over($("w")).as("m2"));
    const rows = await e.executeSql(sql).toChangelog();
    expect(rows).toEqual(["+I[a, 1, 1, 1]", "+I[a, 2, 3, 2]", "+I[a, 4, 6, 4]", "+I[b, 8, 8, 8]", "+I[a, 16, 20, 16]"]);
    expect(rows).toEqual(await api.execute().toChangelog());
    const unbounded = await e.executeSql("SELECT k, COUNT(*) OVER (PARTITION BY k ORDER BY ts ROWS UNBOUNDED PRECEDING) AS n FROM E").toChangelog();
    const apiUnbounded = await e.from("E").window(Over.partitionBy($("k")).orderBy($("ts")).preceding(UNBOUNDED_ROW).as("w"))
      .select($("k"), $("v").count().over($("w")).as("n")).execute().toChangelog();
    expect(unbounded).toEqual(apiUnbounded);
    expect(await e.executeSql("SELECT v, SUM(v) OVER (ORDER BY ts) AS s FROM E").toChangelog())
      .toEqual(["+I[1, 1]", "+I[2, 3]", "+I[4, 15]", "+I[8, 15]", "+I[16, 31]"]);
    expect(await e.executeSql("SELECT v, SUM(v) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '1' SECOND PRECEDING AND CURRENT ROW) AS s FROM E").toChangelog())
      .toEqual(["+I[1, 1]", "+I[2, 3]", "+I[4, 6]", "+I[8, 8]", "+I[16, 20]"]);
  });

  it("errors: two different windows, a FOLLOWING bound, DESC, GROUP BY with OVER, an undeclared named window", () => {
    const e = env(APPEND);
    expect(() => e.sqlQuery("SELECT SUM(val) OVER (PARTITION BY key ORDER BY val), COUNT(*) OVER (ORDER BY val) FROM source_t"))
      .toThrow(/all OVER aggregates of one SELECT must use the same window/);
    expect(() => e.sqlQuery("SELECT SUM(val) OVER (ORDER BY val ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM source_t")).toThrow(/expected CURRENT ROW/);
    expect(() => e.sqlQuery("SELECT SUM(val) OVER (ORDER BY val DESC) FROM source_t")).toThrow(ValidationError);
    expect(() => e.sqlQuery("SELECT key, SUM(val) OVER (ORDER BY val) FROM source_t GROUP BY key")).toThrow(/cannot be combined with GROUP BY/);
    expect(() => e.sqlQuery("SELECT SUM(val) OVER w FROM source_t")).toThrow(/at line 1, column 22: Window 'w' not found/);
  });
});

describe("named windows: WINDOW w AS (...)", () => {
  it("OVER w binds as the window written in parentheses (R-133 with a named window)", async () => {
    const named = "SELECT key, val, ts, SUM(val) OVER w AS sum_val, COUNT(key) OVER w AS cnt_key FROM source_t "
      + "WINDOW w AS (PARTITION BY key ORDER BY val RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)";
    const rows = await env(APPEND).executeSql(named).toChangelog();
    expect(rows).toEqual([
      "+I[key1, 1, 100, 1, 1]", "+I[key1, 2, 200, 3, 2]", "+I[key1, 5, 500, 8, 3]", "+I[key1, 6, 600, 14, 4]",
      "+I[key2, 1, 100, 1, 1]", "+I[key2, 2, 200, 3, 2]",
      "+I[key1, 4, 400, 7, 3]", "-U[key1, 5, 500, 8, 3]", "+U[key1, 5, 500, 12, 4]", "-U[key1, 6, 600, 14, 4]", "+U[key1, 6, 600, 18, 5]",
    ]);
    const e = env(APPEND);
    expect(e.sqlQuery(named).explain()).toEqual(e.sqlQuery(`SELECT key, val, ts, SUM(val) ${FRAME} AS sum_val, COUNT(key) ${FRAME} AS cnt_key FROM source_t`).explain());
  });

  it("a ROWS frame over event time, a window among several, and ROW_NUMBER() OVER w as a top-N", async () => {
    const e = streaming();
    e.createTemporaryView("E", e.fromValues(events, ev("a", 1, 1), ev("a", 2, 2), ev("a", 4, 3), ev("b", 8, 3), ev("a", 16, 4)) as never);
    const sql = "SELECT k, v, SUM(v) OVER w2 AS s2, MAX(v) OVER w2 AS m2 FROM E "
      + "WINDOW w1 AS (ORDER BY ts), w2 AS (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)";
    expect(await e.executeSql(sql).toChangelog()).toEqual(["+I[a, 1, 1, 1]", "+I[a, 2, 3, 2]", "+I[a, 4, 6, 4]", "+I[b, 8, 8, 8]", "+I[a, 16, 20, 16]"]);
    const top = "SELECT k, v FROM (SELECT k, v, ROW_NUMBER() OVER w AS rn FROM E WINDOW w AS (PARTITION BY k ORDER BY v DESC)) WHERE rn <= 1";
    expect(await e.executeSql(top).toChangelog()).toEqual(await e.executeSql(
      "SELECT k, v FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM E) WHERE rn <= 1").toChangelog());
    expect((await e.executeSql(top).toChangelog()).length).toBeGreaterThan(2);
  });

  it("errors: an unknown name lists the declared ones, a duplicate name, NULLS FIRST in an aggregate's window", () => {
    const e = env(APPEND);
    expect(() => e.sqlQuery("SELECT SUM(val) OVER x FROM source_t WINDOW w AS (ORDER BY val)")).toThrow(/Window 'x' not found; the WINDOW clause declares 'w'/);
    expect(() => e.sqlQuery("SELECT SUM(val) OVER w FROM source_t WINDOW w AS (ORDER BY val), w AS (ORDER BY ts)")).toThrow(/column 66: Duplicate window names not allowed: 'w'/);
    expect(() => e.sqlQuery("SELECT SUM(val) OVER w FROM source_t WINDOW w AS (ORDER BY val NULLS FIRST)")).toThrow(/NULLS FIRST \/ LAST is not supported in the window of an OVER aggregate/);
  });
});
