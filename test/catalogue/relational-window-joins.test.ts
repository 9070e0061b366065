// §5 window joins (WindowJoinTestPrograms): two-phase restore form through SQL, Flink's exact rows
// (multisets). Windows still open at the savepoint are state: they fire after the restore.
import { describe, expect, it } from "vitest";
import { type CatalogueSource, runRestore, sorted } from "./restore-runner.js";

const SOURCE_SCHEMA = "ts STRING, id STRING, num INT, name STRING, row_time AS TO_TIMESTAMP(`ts`), WATERMARK for `row_time` AS `row_time` - INTERVAL '1' SECOND";
const t = (s: number) => `2020-10-10 00:00:${String(s).padStart(2, "0")}`;
const ONE: CatalogueSource = {
  name: "source_one_t", columns: SOURCE_SCHEMA,
  before: [[t(1), "L1", 1, "a"], [t(2), "L2", 2, "c"], [t(3), "L3", 2, "x"], [t(4), "L7", 5, "a"], [t(7), "L8", 3, "b"], [t(6), "L6", 6, "b"],
    [t(8), "L9", 3, "a"], [t(4), "L4", 5, "a"], [t(16), "L10", 4, "b"], [t(32), "L11", 7, null], [t(34), "L12", 1, "b"]],
  after: [[t(41), "L41", 10, "a"], [t(42), "L42", 11, "d"], [t(43), "L43", 12, "c"], [t(44), "L44", 13, "d"]],
};
const TWO: CatalogueSource = {
  name: "source_two_t", columns: SOURCE_SCHEMA,
  before: [[t(1), "R1", 5, "a"], [t(2), "R2", 7, "b"], [t(3), "R3", 7, "f"], [t(4), "R7", 3, "g"], [t(7), "R8", 8, "b"], [t(6), "R6", 6, "b"],
    [t(8), "R9", 3, "a"], [t(4), "R4", 5, "a"], [t(17), "R17", 4, "k"], [t(31), "R31", 7, null], [t(33), "R33", 1, "b"]],
  after: [[t(41), "R41", 10, "y"], [t(42), "R42", 11, "c"], [t(43), "R43", 12, "x"], [t(44), "R44", 13, "z"]],
};
const SINK = { name: "sink_t", columns: "window_start TIMESTAMP(3), window_end TIMESTAMP(3), name STRING, L_id STRING, L_num INT, R_id STRING, R_num INT" };
const TUMBLE = (s: string) => `TABLE(TUMBLE(TABLE ${s}, DESCRIPTOR(row_time), INTERVAL '5' SECOND))`;
const CUMULATE = (s: string) => `TABLE(CUMULATE(TABLE ${s}, DESCRIPTOR(row_time), INTERVAL '5' SECOND, INTERVAL '10' SECOND))`;
const query = (tvf: (s: string) => string, join: string) => `INSERT INTO sink_t SELECT
L.window_start AS window_start,
L.window_end AS window_end,
L.name AS name,
L.id AS L_id,
L.num AS L_num,
R.id AS R_id,
R.num AS R_num
FROM
(
    SELECT * FROM ${tvf("source_one_t")}
) L
${join}
(
    SELECT * FROM ${tvf("source_two_t")}
) R
ON L.name = R.name
AND L.window_start = R.window_start
AND L.window_end = R.window_end`;
const semi = (not: string) => `INSERT INTO sink_t SELECT window_start, window_end, name, id, num, 'NOT_PRESENT', 0
           FROM (
               SELECT * FROM ${TUMBLE("source_one_t")}
           ) L WHERE ${not}EXISTS (
             SELECT * FROM (   
               SELECT * FROM ${TUMBLE("source_two_t")}
             ) R              WHERE L.name = R.name AND L.window_start = R.window_start AND L.window_end = R.window_end)`;
const W0 = "2020-10-10T00:00, 2020-10-10T00:00:05";
const W5 = "2020-10-10T00:00:05, 2020-10-10T00:00:10";
const W15 = "2020-10-10T00:00:15, 2020-10-10T00:00:20";
const W30 = "2020-10-10T00:00:30, 2020-10-10T00:00:35";
const W40 = "2020-10-10T00:00:40, 2020-10-10T00:00:45";
const N = "null, null, null, null, null";

describe("§5 window joins, restored from a savepoint", () => {
  it("R-031 window-join-left-tumble-event-time", async () => {
    const r = await runRestore({ sources: [ONE, TWO], interleaved: true, sink: SINK, sql: query(TUMBLE, "LEFT JOIN") });
    expect(sorted(r.before)).toEqual(sorted([
      `+I[${W0}, a, L1, 1, R1, 5]`, `+I[${W0}, a, L7, 5, R1, 5]`, `+I[${W0}, x, L3, 2, null, null]`, `+I[${W0}, c, L2, 2, null, null]`,
      `+I[${W5}, b, L8, 3, R8, 8]`, `+I[${W5}, b, L8, 3, R6, 6]`, `+I[${W5}, b, L6, 6, R8, 8]`, `+I[${W5}, b, L6, 6, R6, 6]`, `+I[${W5}, a, L9, 3, R9, 3]`,
      `+I[${W15}, b, L10, 4, null, null]`,
    ]));
    expect(sorted(r.after)).toEqual(sorted([
      `+I[${W30}, b, L12, 1, R33, 1]`, `+I[${W30}, null, L11, 7, null, null]`, `+I[${W40}, a, L41, 10, null, null]`, `+I[${W40}, d, L42, 11, null, null]`,
      `+I[${W40}, d, L44, 13, null, null]`, `+I[${W40}, c, L43, 12, R42, 11]`,
    ]));
  });

  it("R-033 window-join-full-outer-tumble-event-time", async () => {
    const r = await runRestore({ sources: [ONE, TWO], interleaved: true, sink: SINK, sql: query(TUMBLE, "FULL OUTER JOIN") });
    expect(sorted(r.before)).toEqual(sorted([
      `+I[${W0}, a, L1, 1, R1, 5]`, `+I[${W0}, a, L7, 5, R1, 5]`, `+I[${W0}, x, L3, 2, null, null]`, `+I[${N}, R7, 3]`, `+I[${W0}, c, L2, 2, null, null]`,
      `+I[${N}, R2, 7]`, `+I[${N}, R3, 7]`, `+I[${W5}, b, L8, 3, R8, 8]`, `+I[${W5}, b, L8, 3, R6, 6]`, `+I[${W5}, b, L6, 6, R8, 8]`,
      `+I[${W5}, b, L6, 6, R6, 6]`, `+I[${W5}, a, L9, 3, R9, 3]`, `+I[${W15}, b, L10, 4, null, null]`, `+I[${N}, R17, 4]`,
    ]));
    expect(sorted(r.after)).toEqual(sorted([
      `+I[${W30}, b, L12, 1, R33, 1]`, `+I[${W30}, null, L11, 7, null, null]`, `+I[${N}, R31, 7]`, `+I[${W40}, a, L41, 10, null, null]`,
      `+I[${W40}, d, L42, 11, null, null]`, `+I[${W40}, d, L44, 13, null, null]`, `+I[${N}, R43, 12]`, `+I[${N}, R44, 13]`, `+I[${N}, R41, 10]`,
      `+I[${W40}, c, L43, 12, R42, 11]`,
    ]));
  });

  it("R-034 window-join-semi-tumble-event-time: WHERE EXISTS", async () => {
    const r = await runRestore({ sources: [ONE, TWO], interleaved: true, sink: SINK, sql: semi("") });
    expect(sorted(r.before)).toEqual(sorted([
      `+I[${W0}, a, L1, 1, NOT_PRESENT, 0]`, `+I[${W0}, a, L7, 5, NOT_PRESENT, 0]`, `+I[${W5}, b, L8, 3, NOT_PRESENT, 0]`,
      `+I[${W5}, b, L6, 6, NOT_PRESENT, 0]`, `+I[${W5}, a, L9, 3, NOT_PRESENT, 0]`,
    ]));
    expect(sorted(r.after)).toEqual(sorted([`+I[${W30}, b, L12, 1, NOT_PRESENT, 0]`, `+I[${W40}, c, L43, 12, NOT_PRESENT, 0]`]));
  });

  it("R-035 window-join-anti-tumble-event-time: WHERE NOT EXISTS keeps the NULL name", async () => {
    const r = await runRestore({ sources: [ONE, TWO], interleaved: true, sink: SINK, sql: semi("NOT ") });
    expect(sorted(r.before)).toEqual(sorted([`+I[${W0}, x, L3, 2, NOT_PRESENT, 0]`, `+I[${W0}, c, L2, 2, NOT_PRESENT, 0]`, `+I[${W15}, b, L10, 4, NOT_PRESENT, 0]`]));
    expect(sorted(r.after)).toEqual(sorted([
      `+I[${W30}, null, L11, 7, NOT_PRESENT, 0]`, `+I[${W40}, a, L41, 10, NOT_PRESENT, 0]`, `+I[${W40}, d, L42, 11, NOT_PRESENT, 0]`, `+I[${W40}, d, L44, 13, NOT_PRESENT, 0]`,
    ]));
  });

  it("R-037 window-join-cumulate-event-time: the late rows still join the open [00:00, 00:10) window", async () => {
    const r = await runRestore({ sources: [ONE, TWO], interleaved: true, sink: SINK, sql: query(CUMULATE, "JOIN") });
    const w10 = "2020-10-10T00:00, 2020-10-10T00:00:10";
    const a = ["L1, 1", "L7, 5", "L9, 3", "L4, 5"].flatMap((l) => ["R1, 5", "R9, 3", "R4, 5"].map((rr) => `+I[${w10}, a, ${l}, ${rr}]`));
    const b = ["L8, 3", "L6, 6"].flatMap((l) => ["R2, 7", "R8, 8", "R6, 6"].map((rr) => `+I[${w10}, b, ${l}, ${rr}]`));
    expect(sorted(r.before)).toEqual(sorted([`+I[${W0}, a, L1, 1, R1, 5]`, `+I[${W0}, a, L7, 5, R1, 5]`, ...a, ...b]));
    expect(sorted(r.after)).toEqual(sorted([
      `+I[${W30}, b, L12, 1, R33, 1]`, "+I[2020-10-10T00:00:30, 2020-10-10T00:00:40, b, L12, 1, R33, 1]",
      `+I[${W40}, c, L43, 12, R42, 11]`, "+I[2020-10-10T00:00:40, 2020-10-10T00:00:50, c, L43, 12, R42, 11]",
    ]));
  });
});
