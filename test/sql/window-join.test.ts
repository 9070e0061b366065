// Window joins in SQL (joins of two window TVFs on window_start and window_end), with the rows of Flink's programs
// R-031 .. R-037.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DataTypes, EnvironmentSettings, Row, Schema, TableEnvironment } from "../../src/index.js";
import { BACKENDS, BACKEND_NAMES, type BackendName } from "../windows/support.js";

const sorted = (rows: readonly string[]) => [...rows].sort();
const T = (s: string) => `2020-10-10 00:00:${s}`;
const ONE: [string, string, number, string | null][] = [
  [T("01"), "L1", 1, "a"], [T("02"), "L2", 2, "c"], [T("03"), "L3", 2, "x"], [T("04"), "L7", 5, "a"], [T("07"), "L8", 3, "b"], [T("06"), "L6", 6, "b"],
  [T("08"), "L9", 3, "a"], [T("04"), "L4", 5, "a"], [T("16"), "L10", 4, "b"], [T("32"), "L11", 7, null], [T("34"), "L12", 1, "b"],
  [T("41"), "L41", 10, "a"], [T("42"), "L42", 11, "d"], [T("43"), "L43", 12, "c"], [T("44"), "L44", 13, "d"],
];
const TWO: [string, string, number, string | null][] = [
  [T("01"), "R1", 5, "a"], [T("02"), "R2", 7, "b"], [T("03"), "R3", 7, "f"], [T("04"), "R7", 3, "g"], [T("07"), "R8", 8, "b"], [T("06"), "R6", 6, "b"],
  [T("08"), "R9", 3, "a"], [T("04"), "R4", 5, "a"], [T("17"), "R17", 4, "k"], [T("31"), "R31", 7, null], [T("33"), "R33", 1, "b"],
  [T("41"), "R41", 10, "y"], [T("42"), "R42", 11, "c"], [T("43"), "R43", 12, "x"], [T("44"), "R44", 13, "z"],
];

/** The state backend the environments of the running describe block use (BACKENDS). */
let backend: BackendName = "hashmap";

function env(): TableEnvironment {
  const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  for (const [k, v] of Object.entries(BACKENDS[backend])) e.getConfig().set(k, v);
  const schema = Schema.newBuilder().column("ts", DataTypes.STRING()).column("id", DataTypes.STRING()).column("num", DataTypes.INT()).column("name", DataTypes.STRING())
    .columnByExpression("row_time", "TO_TIMESTAMP(`ts`)").watermark("row_time", "`row_time` - INTERVAL '1' SECOND").build();
  e.createTemporaryView("source_one_t", e.fromValues(schema, ...ONE.map((r) => Row.of(...r))) as never);
  e.createTemporaryView("source_two_t", e.fromValues(schema, ...TWO.map((r) => Row.of(...r))) as never);
  return e;
}
const TUMBLE = (t: string) => `TABLE(TUMBLE(TABLE ${t}, DESCRIPTOR(row_time), INTERVAL '5' SECOND))`;
const CUMULATE = (t: string) => `TABLE(CUMULATE(TABLE ${t}, DESCRIPTOR(row_time), INTERVAL '5' SECOND, INTERVAL '10' SECOND))`;
const QUERY = (tvf: (t: string) => string, join: string) => `SELECT L.window_start AS window_start, L.window_end AS window_end, L.name AS name,
  L.id AS L_id, L.num AS L_num, R.id AS R_id, R.num AS R_num
FROM (SELECT * FROM ${tvf("source_one_t")}) L ${join} (SELECT * FROM ${tvf("source_two_t")}) R
ON L.name = R.name AND L.window_start = R.window_start AND L.window_end = R.window_end`;
const W = (a: string, b: string) => `2020-10-10T00:00${a === "00" ? "" : `:${a}`}, 2020-10-10T00:00:${b}`;

describe.each(BACKEND_NAMES)("window joins (state.backend.type = %s)", (b) => {
  beforeEach(() => { backend = b; });
  afterEach(() => { backend = "hashmap"; });
  it("R-031 window-join-left-tumble-event-time: late rows are dropped; windows are joined at their end, append-only", async () => {
    const t = env().sqlQuery(QUERY(TUMBLE, "LEFT JOIN"));
    expect(t.changelogMode()).toBe("[I]");
    expect(t.explain()).toContain("WindowJoin(joinType=[LEFT]");
    expect(sorted(await t.execute().toChangelog())).toEqual(sorted([
      `+I[${W("00", "05")}, a, L1, 1, R1, 5]`, `+I[${W("00", "05")}, a, L7, 5, R1, 5]`, `+I[${W("00", "05")}, x, L3, 2, null, null]`,
      `+I[${W("00", "05")}, c, L2, 2, null, null]`, `+I[${W("05", "10")}, b, L8, 3, R8, 8]`, `+I[${W("05", "10")}, b, L8, 3, R6, 6]`,
      `+I[${W("05", "10")}, b, L6, 6, R8, 8]`, `+I[${W("05", "10")}, b, L6, 6, R6, 6]`, `+I[${W("05", "10")}, a, L9, 3, R9, 3]`,
      `+I[${W("15", "20")}, b, L10, 4, null, null]`,
      `+I[${W("30", "35")}, b, L12, 1, R33, 1]`, `+I[${W("30", "35")}, null, L11, 7, null, null]`, `+I[${W("40", "45")}, a, L41, 10, null, null]`,
      `+I[${W("40", "45")}, d, L42, 11, null, null]`, `+I[${W("40", "45")}, d, L44, 13, null, null]`, `+I[${W("40", "45")}, c, L43, 12, R42, 11]`,
    ]));
  });

  it("R-033 window-join-full-outer-tumble-event-time", async () => {
    const n = "null, null, null, null, null";
    expect(sorted(await env().executeSql(QUERY(TUMBLE, "FULL OUTER JOIN")).toChangelog())).toEqual(sorted([
      `+I[${W("00", "05")}, a, L1, 1, R1, 5]`, `+I[${W("00", "05")}, a, L7, 5, R1, 5]`, `+I[${W("00", "05")}, x, L3, 2, null, null]`, `+I[${n}, R7, 3]`,
      `+I[${W("00", "05")}, c, L2, 2, null, null]`, `+I[${n}, R2, 7]`, `+I[${n}, R3, 7]`, `+I[${W("05", "10")}, b, L8, 3, R8, 8]`,
      `+I[${W("05", "10")}, b, L8, 3, R6, 6]`, `+I[${W("05", "10")}, b, L6, 6, R8, 8]`, `+I[${W("05", "10")}, b, L6, 6, R6, 6]`,
      `+I[${W("05", "10")}, a, L9, 3, R9, 3]`, `+I[${W("15", "20")}, b, L10, 4, null, null]`, `+I[${n}, R17, 4]`,
      `+I[${W("30", "35")}, b, L12, 1, R33, 1]`, `+I[${W("30", "35")}, null, L11, 7, null, null]`, `+I[${n}, R31, 7]`,
      `+I[${W("40", "45")}, a, L41, 10, null, null]`, `+I[${W("40", "45")}, d, L42, 11, null, null]`, `+I[${W("40", "45")}, d, L44, 13, null, null]`,
      `+I[${n}, R43, 12]`, `+I[${n}, R44, 13]`, `+I[${n}, R41, 10]`, `+I[${W("40", "45")}, c, L43, 12, R42, 11]`,
    ]));
  });

  it("R-037 window-join-cumulate-event-time: the late L4 / R4 still join in the open window [00:00, 00:10)", async () => {
    const A = W("00", "10");
    expect(sorted(await env().executeSql(QUERY(CUMULATE, "JOIN")).toChangelog())).toEqual(sorted([
      `+I[${W("00", "05")}, a, L1, 1, R1, 5]`, `+I[${W("00", "05")}, a, L7, 5, R1, 5]`,
      ...["L1, 1", "L7, 5", "L9, 3", "L4, 5"].flatMap((l) => ["R1, 5", "R9, 3", "R4, 5"].map((r) => `+I[${A}, a, ${l}, ${r}]`)),
      ...["L8, 3", "L6, 6"].flatMap((l) => ["R2, 7", "R8, 8", "R6, 6"].map((r) => `+I[${A}, b, ${l}, ${r}]`)),
      `+I[${W("30", "35")}, b, L12, 1, R33, 1]`, `+I[${W("30", "40")}, b, L12, 1, R33, 1]`,
      `+I[${W("40", "45")}, c, L43, 12, R42, 11]`, `+I[${W("40", "50")}, c, L43, 12, R42, 11]`,
    ]));
  });

  const EXISTS = (not: string) => `SELECT window_start, window_end, name, id, num, 'NOT_PRESENT', 0
  FROM (SELECT * FROM ${TUMBLE("source_one_t")}) L WHERE ${not}EXISTS (
    SELECT * FROM (SELECT * FROM ${TUMBLE("source_two_t")}) R WHERE L.name = R.name AND L.window_start = R.window_start AND L.window_end = R.window_end)`;

  it("R-034 window-join-semi-tumble-event-time: WHERE EXISTS over the same windows", async () => {
    const t = env().sqlQuery(EXISTS(""));
    expect(t.explain()).toContain("WindowJoin(joinType=[SEMI]");
    expect(sorted(await t.execute().toChangelog())).toEqual(sorted([
      `+I[${W("00", "05")}, a, L1, 1, NOT_PRESENT, 0]`, `+I[${W("00", "05")}, a, L7, 5, NOT_PRESENT, 0]`, `+I[${W("05", "10")}, b, L8, 3, NOT_PRESENT, 0]`,
      `+I[${W("05", "10")}, b, L6, 6, NOT_PRESENT, 0]`, `+I[${W("05", "10")}, a, L9, 3, NOT_PRESENT, 0]`,
      `+I[${W("30", "35")}, b, L12, 1, NOT_PRESENT, 0]`, `+I[${W("40", "45")}, c, L43, 12, NOT_PRESENT, 0]`,
    ]));
  });

  it("R-035 window-join-anti-tumble-event-time: NOT EXISTS keeps the NULL name (no partner)", async () => {
    const t = env().sqlQuery(EXISTS("NOT "));
    expect(t.changelogMode()).toBe("[I]");
    expect(sorted(await t.execute().toChangelog())).toEqual(sorted([
      `+I[${W("00", "05")}, x, L3, 2, NOT_PRESENT, 0]`, `+I[${W("00", "05")}, c, L2, 2, NOT_PRESENT, 0]`, `+I[${W("15", "20")}, b, L10, 4, NOT_PRESENT, 0]`,
      `+I[${W("30", "35")}, null, L11, 7, NOT_PRESENT, 0]`, `+I[${W("40", "45")}, a, L41, 10, NOT_PRESENT, 0]`,
      `+I[${W("40", "45")}, d, L42, 11, NOT_PRESENT, 0]`, `+I[${W("40", "45")}, d, L44, 13, NOT_PRESENT, 0]`,
    ]));
  });
});
