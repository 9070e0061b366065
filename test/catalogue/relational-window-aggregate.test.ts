// §18 window TVF aggregation (WindowAggregateTestPrograms; B-09, B-11 are) and B-13 (legacy GROUP BY
// SESSION): two-phase restore form through SQL, Flink's exact rows (multisets). Windows open at the savepoint
// are state and fire after the restore. The two-phase and distinct-split variants are plan options Flink
// tests for plan shape; their rows are the one-phase rows. The programs' `proctime AS PROCTIME()` column is
// left out of the source: no query reads it (PROCTIME() is another engineer's work).
import { describe, expect, it } from "vitest";
import { type CatalogueSource, runRestore, sorted } from "./restore-runner.js";

const COLUMNS = "ts STRING, a_int INT, b_double DOUBLE, c_float FLOAT, d_bigdec DECIMAL(10, 2), `comment` STRING, name STRING, "
  + "`rowtime` AS TO_TIMESTAMP(`ts`), WATERMARK for `rowtime` AS `rowtime` - INTERVAL '1' SECOND";
const ts = (s: number) => `2020-10-10 00:00:${String(s).padStart(2, "0")}`;
const BEFORE = [
  [ts(1), 1, 1.0, 1.0, "1.11", "Hi", "a"], [ts(2), 2, 2.0, 2.0, "2.22", "Comment#1", "a"], [ts(3), 2, 2.0, 2.0, "2.22", "Comment#1", "a"],
  [ts(4), 5, 5.0, 5.0, "5.55", null, "a"], [ts(7), 3, 3.0, 3.0, null, "Hello", "b"], [ts(6), 6, 6.0, 6.0, "6.66", "Hi", "b"],
  [ts(8), 3, null, 3.0, "3.33", "Comment#2", "a"], [ts(4), 5, 5.0, null, "5.55", "Hi", "a"], [ts(16), 4, 4.0, 4.0, "4.44", "Hi", "b"],
  [ts(32), 7, 7.0, 7.0, "7.77", null, null], [ts(34), 1, 3.0, 3.0, "3.33", "Comment#3", "b"],
];
const SOURCE: CatalogueSource = {
  name: "window_source_t", columns: COLUMNS, before: BEFORE,
  after: [[ts(40), 10, 3.0, 3.0, "4.44", "Comment#4", "a"], [ts(42), 11, 4.0, 4.0, "5.44", "Comment#5", "d"], [ts(43), 12, 5.0, 5.0, "6.44", "Comment#6", "c"], [ts(44), 13, 6.0, 6.0, "7.44", "Comment#7", "d"]],
};
const SINK = { name: "window_sink_t", columns: "name STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), cnt BIGINT, sum_int INT, distinct_cnt BIGINT" };
const sql = (windowSql: string) => "INSERT INTO window_sink_t SELECT name, window_start, window_end, COUNT(*), SUM(a_int), COUNT(DISTINCT `comment`) FROM TABLE("
  + windowSql + ")\nGROUP BY name, window_start, window_end";

/** Flink's expected rows per window kind: [before, after]. */
const EXPECTED: Record<string, readonly [string[], string[]]> = {
  TUMBLE_EVENT_TIME: [
    ["+I[a, 2020-10-10T00:00, 2020-10-10T00:00:05, 4, 10, 2]", "+I[a, 2020-10-10T00:00:05, 2020-10-10T00:00:10, 1, 3, 1]", "+I[b, 2020-10-10T00:00:05, 2020-10-10T00:00:10, 2, 9, 2]", "+I[b, 2020-10-10T00:00:15, 2020-10-10T00:00:20, 1, 4, 1]"],
    ["+I[b, 2020-10-10T00:00:30, 2020-10-10T00:00:35, 1, 1, 1]", "+I[null, 2020-10-10T00:00:30, 2020-10-10T00:00:35, 1, 7, 0]", "+I[a, 2020-10-10T00:00:40, 2020-10-10T00:00:45, 1, 10, 1]", "+I[c, 2020-10-10T00:00:40, 2020-10-10T00:00:45, 1, 12, 1]", "+I[d, 2020-10-10T00:00:40, 2020-10-10T00:00:45, 2, 24, 2]"],
  ],
  TUMBLE_EVENT_TIME_WITH_OFFSET: [
    ["+I[a, 2020-10-10T00:00:01, 2020-10-10T00:00:06, 4, 10, 2]", "+I[b, 2020-10-10T00:00:06, 2020-10-10T00:00:11, 2, 9, 2]", "+I[a, 2020-10-10T00:00:06, 2020-10-10T00:00:11, 1, 3, 1]", "+I[b, 2020-10-10T00:00:16, 2020-10-10T00:00:21, 1, 4, 1]"],
    ["+I[b, 2020-10-10T00:00:31, 2020-10-10T00:00:36, 1, 1, 1]", "+I[null, 2020-10-10T00:00:31, 2020-10-10T00:00:36, 1, 7, 0]", "+I[a, 2020-10-10T00:00:36, 2020-10-10T00:00:41, 1, 10, 1]", "+I[c, 2020-10-10T00:00:41, 2020-10-10T00:00:46, 1, 12, 1]", "+I[d, 2020-10-10T00:00:41, 2020-10-10T00:00:46, 2, 24, 2]"],
  ],
  HOP_EVENT_TIME: [
    ["+I[a, 2020-10-09T23:59:55, 2020-10-10T00:00:05, 4, 10, 2]", "+I[b, 2020-10-10T00:00, 2020-10-10T00:00:10, 2, 9, 2]", "+I[a, 2020-10-10T00:00, 2020-10-10T00:00:10, 6, 18, 3]", "+I[b, 2020-10-10T00:00:05, 2020-10-10T00:00:15, 2, 9, 2]", "+I[a, 2020-10-10T00:00:05, 2020-10-10T00:00:15, 1, 3, 1]", "+I[b, 2020-10-10T00:00:10, 2020-10-10T00:00:20, 1, 4, 1]", "+I[b, 2020-10-10T00:00:15, 2020-10-10T00:00:25, 1, 4, 1]"],
    ["+I[b, 2020-10-10T00:00:25, 2020-10-10T00:00:35, 1, 1, 1]", "+I[null, 2020-10-10T00:00:25, 2020-10-10T00:00:35, 1, 7, 0]", "+I[b, 2020-10-10T00:00:30, 2020-10-10T00:00:40, 1, 1, 1]", "+I[null, 2020-10-10T00:00:30, 2020-10-10T00:00:40, 1, 7, 0]", "+I[c, 2020-10-10T00:00:35, 2020-10-10T00:00:45, 1, 12, 1]", "+I[d, 2020-10-10T00:00:35, 2020-10-10T00:00:45, 2, 24, 2]", "+I[a, 2020-10-10T00:00:35, 2020-10-10T00:00:45, 1, 10, 1]", "+I[d, 2020-10-10T00:00:40, 2020-10-10T00:00:50, 2, 24, 2]", "+I[a, 2020-10-10T00:00:40, 2020-10-10T00:00:50, 1, 10, 1]", "+I[c, 2020-10-10T00:00:40, 2020-10-10T00:00:50, 1, 12, 1]"],
  ],
  HOP_EVENT_TIME_WITH_OFFSET: [
    ["+I[a, 2020-10-09T23:59:56, 2020-10-10T00:00:06, 4, 10, 2]", "+I[b, 2020-10-10T00:00:01, 2020-10-10T00:00:11, 2, 9, 2]", "+I[a, 2020-10-10T00:00:01, 2020-10-10T00:00:11, 6, 18, 3]", "+I[b, 2020-10-10T00:00:06, 2020-10-10T00:00:16, 2, 9, 2]", "+I[a, 2020-10-10T00:00:06, 2020-10-10T00:00:16, 1, 3, 1]", "+I[b, 2020-10-10T00:00:11, 2020-10-10T00:00:21, 1, 4, 1]", "+I[b, 2020-10-10T00:00:16, 2020-10-10T00:00:26, 1, 4, 1]"],
    ["+I[b, 2020-10-10T00:00:26, 2020-10-10T00:00:36, 1, 1, 1]", "+I[null, 2020-10-10T00:00:26, 2020-10-10T00:00:36, 1, 7, 0]", "+I[a, 2020-10-10T00:00:31, 2020-10-10T00:00:41, 1, 10, 1]", "+I[b, 2020-10-10T00:00:31, 2020-10-10T00:00:41, 1, 1, 1]", "+I[null, 2020-10-10T00:00:31, 2020-10-10T00:00:41, 1, 7, 0]", "+I[c, 2020-10-10T00:00:36, 2020-10-10T00:00:46, 1, 12, 1]", "+I[d, 2020-10-10T00:00:36, 2020-10-10T00:00:46, 2, 24, 2]", "+I[a, 2020-10-10T00:00:36, 2020-10-10T00:00:46, 1, 10, 1]", "+I[d, 2020-10-10T00:00:41, 2020-10-10T00:00:51, 2, 24, 2]", "+I[c, 2020-10-10T00:00:41, 2020-10-10T00:00:51, 1, 12, 1]"],
  ],
  CUMULATE_EVENT_TIME: [
    ["+I[a, 2020-10-10T00:00, 2020-10-10T00:00:05, 4, 10, 2]", "+I[b, 2020-10-10T00:00, 2020-10-10T00:00:10, 2, 9, 2]", "+I[a, 2020-10-10T00:00, 2020-10-10T00:00:10, 6, 18, 3]", "+I[b, 2020-10-10T00:00, 2020-10-10T00:00:15, 2, 9, 2]", "+I[a, 2020-10-10T00:00, 2020-10-10T00:00:15, 6, 18, 3]", "+I[b, 2020-10-10T00:00:15, 2020-10-10T00:00:20, 1, 4, 1]", "+I[b, 2020-10-10T00:00:15, 2020-10-10T00:00:25, 1, 4, 1]", "+I[b, 2020-10-10T00:00:15, 2020-10-10T00:00:30, 1, 4, 1]"],
    ["+I[b, 2020-10-10T00:00:30, 2020-10-10T00:00:35, 1, 1, 1]", "+I[null, 2020-10-10T00:00:30, 2020-10-10T00:00:35, 1, 7, 0]", "+I[b, 2020-10-10T00:00:30, 2020-10-10T00:00:40, 1, 1, 1]", "+I[null, 2020-10-10T00:00:30, 2020-10-10T00:00:40, 1, 7, 0]", "+I[b, 2020-10-10T00:00:30, 2020-10-10T00:00:45, 1, 1, 1]", "+I[c, 2020-10-10T00:00:30, 2020-10-10T00:00:45, 1, 12, 1]", "+I[d, 2020-10-10T00:00:30, 2020-10-10T00:00:45, 2, 24, 2]", "+I[a, 2020-10-10T00:00:30, 2020-10-10T00:00:45, 1, 10, 1]", "+I[null, 2020-10-10T00:00:30, 2020-10-10T00:00:45, 1, 7, 0]"],
  ],
  CUMULATE_EVENT_TIME_WITH_OFFSET: [
    ["+I[a, 2020-10-10T00:00:01, 2020-10-10T00:00:06, 4, 10, 2]", "+I[b, 2020-10-10T00:00:01, 2020-10-10T00:00:11, 2, 9, 2]", "+I[a, 2020-10-10T00:00:01, 2020-10-10T00:00:11, 6, 18, 3]", "+I[b, 2020-10-10T00:00:01, 2020-10-10T00:00:16, 2, 9, 2]", "+I[a, 2020-10-10T00:00:01, 2020-10-10T00:00:16, 6, 18, 3]", "+I[b, 2020-10-10T00:00:16, 2020-10-10T00:00:21, 1, 4, 1]", "+I[b, 2020-10-10T00:00:16, 2020-10-10T00:00:26, 1, 4, 1]", "+I[b, 2020-10-10T00:00:16, 2020-10-10T00:00:31, 1, 4, 1]"],
    ["+I[b, 2020-10-10T00:00:31, 2020-10-10T00:00:36, 1, 1, 1]", "+I[null, 2020-10-10T00:00:31, 2020-10-10T00:00:36, 1, 7, 0]", "+I[a, 2020-10-10T00:00:31, 2020-10-10T00:00:41, 1, 10, 1]", "+I[b, 2020-10-10T00:00:31, 2020-10-10T00:00:41, 1, 1, 1]", "+I[null, 2020-10-10T00:00:31, 2020-10-10T00:00:41, 1, 7, 0]", "+I[b, 2020-10-10T00:00:31, 2020-10-10T00:00:46, 1, 1, 1]", "+I[c, 2020-10-10T00:00:31, 2020-10-10T00:00:46, 1, 12, 1]", "+I[d, 2020-10-10T00:00:31, 2020-10-10T00:00:46, 2, 24, 2]", "+I[a, 2020-10-10T00:00:31, 2020-10-10T00:00:46, 1, 10, 1]", "+I[null, 2020-10-10T00:00:31, 2020-10-10T00:00:46, 1, 7, 0]"],
  ],
};

const PROGRAMS: readonly (readonly [string, string, string, "ONE_PHASE" | "TWO_PHASE", boolean, string])[] = [
  ["R-112", "window-aggregate-tumble-event-time", "TUMBLE(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND)", "ONE_PHASE", false, "TUMBLE_EVENT_TIME"],
  ["R-113", "window-aggregate-tumble-event-time-two-phase", "TUMBLE(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND)", "TWO_PHASE", false, "TUMBLE_EVENT_TIME"],
  ["R-114", "window-aggregate-tumble-event-time-two-phase-distinct-split", "TUMBLE(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND)", "TWO_PHASE", true, "TUMBLE_EVENT_TIME"],
  ["R-115", "window-aggregate-tumble-event-time-with-offset", "TUMBLE(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '1' SECOND)", "ONE_PHASE", false, "TUMBLE_EVENT_TIME_WITH_OFFSET"],
  ["R-116", "window-aggregate-tumble-event-time-two-phase-with-offset", "TUMBLE(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '1' SECOND)", "TWO_PHASE", false, "TUMBLE_EVENT_TIME_WITH_OFFSET"],
  ["R-117", "window-aggregate-tumble-event-time-two-phase-with-offset-distinct-split", "TUMBLE(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '1' SECOND)", "TWO_PHASE", true, "TUMBLE_EVENT_TIME_WITH_OFFSET"],
  ["R-118", "window-aggregate-hop-event-time", "HOP(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '10' SECOND)", "ONE_PHASE", false, "HOP_EVENT_TIME"],
  ["R-119", "window-aggregate-hop-event-time-two-phase", "HOP(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '10' SECOND)", "TWO_PHASE", false, "HOP_EVENT_TIME"],
  ["R-120", "window-aggregate-hop-event-time-two-phase-distinct-split", "HOP(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '10' SECOND)", "TWO_PHASE", true, "HOP_EVENT_TIME"],
  ["R-121", "window-aggregate-hop-event-time-with-offset", "HOP(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '10' SECOND, INTERVAL '1' SECOND)", "ONE_PHASE", false, "HOP_EVENT_TIME_WITH_OFFSET"],
  ["R-122", "window-aggregate-hop-event-time-two-phase-with-offset", "HOP(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '10' SECOND, INTERVAL '1' SECOND)", "TWO_PHASE", false, "HOP_EVENT_TIME_WITH_OFFSET"],
  ["R-123", "window-aggregate-hop-event-time-two-phase-with-offset-distinct-split", "HOP(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '10' SECOND, INTERVAL '1' SECOND)", "TWO_PHASE", true, "HOP_EVENT_TIME_WITH_OFFSET"],
  ["R-124", "window-aggregate-cumulate-event-time", "CUMULATE(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '15' SECOND)", "ONE_PHASE", false, "CUMULATE_EVENT_TIME"],
  ["R-125", "window-aggregate-cumulate-event-time-two-phase", "CUMULATE(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '15' SECOND)", "TWO_PHASE", false, "CUMULATE_EVENT_TIME"],
  ["R-126", "window-aggregate-cumulate-event-time-two-phase-distinct-split", "CUMULATE(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '15' SECOND)", "TWO_PHASE", true, "CUMULATE_EVENT_TIME"],
  ["R-127", "window-aggregate-cumulate-event-time-with-offset", "CUMULATE(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '15' SECOND, INTERVAL '1' SECOND)", "ONE_PHASE", false, "CUMULATE_EVENT_TIME_WITH_OFFSET"],
  ["R-128", "window-aggregate-cumulate-event-time-two-phase-with-offset", "CUMULATE(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '15' SECOND, INTERVAL '1' SECOND)", "TWO_PHASE", false, "CUMULATE_EVENT_TIME_WITH_OFFSET"],
  ["R-129", "window-aggregate-cumulate-event-time-with-offset-distinct-split", "CUMULATE(TABLE window_source_t, DESCRIPTOR(rowtime), INTERVAL '5' SECOND, INTERVAL '15' SECOND, INTERVAL '1' SECOND)", "TWO_PHASE", true, "CUMULATE_EVENT_TIME_WITH_OFFSET"],
];

describe("§18 window TVF aggregation, restored from a savepoint", () => {
  for (const [id, name, windowSql, phase, split, expected] of PROGRAMS) {
    it(`${id} ${name}`, async () => {
      const config: Record<string, string> = { "table.optimizer.agg-phase-strategy": phase };
      if (split) config["table.optimizer.distinct-agg.split.enabled"] = "true";
      const r = await runRestore({ sources: [SOURCE], sink: SINK, sql: sql(windowSql), config });
      expect(sorted(r.before)).toEqual(sorted(EXPECTED[expected]![0]));
      expect(sorted(r.after)).toEqual(sorted(EXPECTED[expected]![1]));
    });
  }
});

describe("B-13 legacy group window aggregation, restored from a savepoint", () => {
  it("B-13 group-window-aggregate-session-event-time: GROUP BY name, SESSION(rowtime, INTERVAL '3' SECOND)", async () => {
    const r = await runRestore({
      sources: [{
        name: "source_t", columns: COLUMNS, before: BEFORE,
        after: [[ts(41), 10, 3.0, 3.0, "4.44", "Comment#4", "a"], [ts(42), 11, 4.0, 4.0, "5.44", "Comment#5", "d"], [ts(43), 12, 5.0, 5.0, "6.44", "Comment#6", "c"], [ts(44), 13, 6.0, 6.0, "7.44", "Comment#7", "d"]],
      }],
      sink: { name: "sink_t", columns: "name STRING, cnt BIGINT" },
      sql: "INSERT INTO sink_t SELECT name, COUNT(*) FROM source_t GROUP BY name, SESSION(rowtime, INTERVAL '3' SECOND)",
    });
    expect(sorted(r.before)).toEqual(sorted(["+I[a, 4]", "+I[b, 2]", "+I[a, 1]", "+I[b, 1]"]));
    expect(sorted(r.after)).toEqual(sorted(["+I[null, 1]", "+I[b, 1]", "+I[a, 1]", "+I[c, 1]", "+I[d, 2]"]));
  });
});
