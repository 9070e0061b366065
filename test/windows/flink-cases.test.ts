import { describe, expect, it } from "vitest";
import { $, Over, Session, Slide, TableEnvironment, Tumble, UNBOUNDED_RANGE, lit } from "../../src/index.js";
import { overSource, sessionAfter, sorted, windowSource } from "./fixtures.js";
import { BACKENDS, BACKEND_NAMES } from "./support.js";

/**
 * Flink's test catalogue §6.3 and §6.4, run with the group-window Table API form. Flink asserts the sink's multiset;
 * `expected = before ∪ after`. The order tablestream emits in is asserted separately where it is defined
 * (windows by end, keys by first row; OVER updates in ORDER BY order).
 */
describe.each(BACKEND_NAMES)("Flink's test catalogue §6.3 window aggregation (state.backend.type = %s)", (backend) => {
  const env = TableEnvironment.create();
  for (const [k, v] of Object.entries(BACKENDS[backend])) env.getConfig().set(k, v);

  it("B-09 window-aggregate-tumble-event-time", async () => {
    const result = windowSource(env)
      .window(Tumble.over(lit(5).seconds()).on($("rowtime")).as("w"))
      .groupBy($("name"), $("w"))
      .select($("name"), $("w").start().as("window_start"), $("w").end().as("window_end"),
        lit(1).count().as("cnt"), $("a_int").sum().as("sum_int"), $("comment").countDistinct().as("distinct_cnt"));
    const before = [
      "+I[a, 2020-10-10T00:00, 2020-10-10T00:00:05, 4, 10, 2]",
      "+I[a, 2020-10-10T00:00:05, 2020-10-10T00:00:10, 1, 3, 1]",
      "+I[b, 2020-10-10T00:00:05, 2020-10-10T00:00:10, 2, 9, 2]",
      "+I[b, 2020-10-10T00:00:15, 2020-10-10T00:00:20, 1, 4, 1]",
    ];
    const after = [
      "+I[b, 2020-10-10T00:00:30, 2020-10-10T00:00:35, 1, 1, 1]",
      "+I[null, 2020-10-10T00:00:30, 2020-10-10T00:00:35, 1, 7, 0]",
      "+I[a, 2020-10-10T00:00:40, 2020-10-10T00:00:45, 1, 10, 1]",
      "+I[c, 2020-10-10T00:00:40, 2020-10-10T00:00:45, 1, 12, 1]",
      "+I[d, 2020-10-10T00:00:40, 2020-10-10T00:00:45, 2, 24, 2]",
    ];
    const rows = await result.execute().toChangelog();
    expect(sorted(rows)).toEqual(sorted([...before, ...after]));
    // the late row (00:00:04 after the watermark reached 00:00:07) is not in [00:00, 00:00:05): 4 rows, sum 10
    expect(rows[0]).toBe("+I[a, 2020-10-10T00:00, 2020-10-10T00:00:05, 4, 10, 2]");
    expect(result.getResolvedSchema().toString()).toBe([
      "(",
      "  `name` STRING,",
      "  `window_start` TIMESTAMP(3) NOT NULL,",
      "  `window_end` TIMESTAMP(3) NOT NULL,",
      "  `cnt` BIGINT NOT NULL,",
      "  `sum_int` INT,",
      "  `distinct_cnt` BIGINT NOT NULL",
      ")",
    ].join("\n"));
  });

  it("B-11 window-aggregate-hop-event-time", async () => {
    const rows = await windowSource(env)
      .window(Slide.over(lit(10).seconds()).every(lit(5).seconds()).on($("rowtime")).as("w"))
      .groupBy($("name"), $("w"))
      .select($("name"), $("w").start(), $("w").end(), lit(1).count(), $("a_int").sum(), $("comment").countDistinct())
      .execute().toChangelog();
    const before = [
      "+I[a, 2020-10-09T23:59:55, 2020-10-10T00:00:05, 4, 10, 2]",
      "+I[b, 2020-10-10T00:00, 2020-10-10T00:00:10, 2, 9, 2]",
      "+I[a, 2020-10-10T00:00, 2020-10-10T00:00:10, 6, 18, 3]",
      "+I[b, 2020-10-10T00:00:05, 2020-10-10T00:00:15, 2, 9, 2]",
      "+I[a, 2020-10-10T00:00:05, 2020-10-10T00:00:15, 1, 3, 1]",
      "+I[b, 2020-10-10T00:00:10, 2020-10-10T00:00:20, 1, 4, 1]",
      "+I[b, 2020-10-10T00:00:15, 2020-10-10T00:00:25, 1, 4, 1]",
    ];
    const after = [
      "+I[b, 2020-10-10T00:00:25, 2020-10-10T00:00:35, 1, 1, 1]",
      "+I[null, 2020-10-10T00:00:25, 2020-10-10T00:00:35, 1, 7, 0]",
      "+I[b, 2020-10-10T00:00:30, 2020-10-10T00:00:40, 1, 1, 1]",
      "+I[null, 2020-10-10T00:00:30, 2020-10-10T00:00:40, 1, 7, 0]",
      "+I[c, 2020-10-10T00:00:35, 2020-10-10T00:00:45, 1, 12, 1]",
      "+I[d, 2020-10-10T00:00:35, 2020-10-10T00:00:45, 2, 24, 2]",
      "+I[a, 2020-10-10T00:00:35, 2020-10-10T00:00:45, 1, 10, 1]",
      "+I[d, 2020-10-10T00:00:40, 2020-10-10T00:00:50, 2, 24, 2]",
      "+I[a, 2020-10-10T00:00:40, 2020-10-10T00:00:50, 1, 10, 1]",
      "+I[c, 2020-10-10T00:00:40, 2020-10-10T00:00:50, 1, 12, 1]",
    ];
    expect(sorted(rows)).toEqual(sorted([...before, ...after]));
    // the late 00:00:04 row misses [23:59:55, 00:00:05) (fired) but counts in [00:00, 00:00:10): 6 rows, sum 18
  });

  it("B-13 group-window-aggregate-session-event-time", async () => {
    const rows = await windowSource(env, sessionAfter)
      .window(Session.withGap(lit(3).seconds()).on($("rowtime")).as("w"))
      .groupBy($("name"), $("w"))
      .select($("name"), lit(1).count().as("cnt"))
      .execute().toChangelog();
    const before = ["+I[a, 4]", "+I[b, 2]", "+I[a, 1]", "+I[b, 1]"];
    const after = ["+I[null, 1]", "+I[b, 1]", "+I[a, 1]", "+I[c, 1]", "+I[d, 2]"];
    expect(sorted(rows)).toEqual(sorted([...before, ...after]));
    // sessions fire in order of their end, as Flink's timers do: here that is Flink's listing order
    expect(rows).toEqual([...before, ...after]);
  });
});

describe("Flink's test catalogue §6.4 OVER aggregation", () => {
  const env = TableEnvironment.create();

  it("B-15 over-aggregate-sum-append-mode: a row in the middle updates the rows after it", async () => {
    const rows = await overSource(env)
      .window(Over.partitionBy($("key")).orderBy($("val")).preceding(UNBOUNDED_RANGE).as("w"))
      .select($("key"), $("val"), $("ts"), $("val").sum().over($("w")).as("sum_val"))
      .execute().toChangelog();
    expect(rows).toEqual([
      "+I[key1, 1, 100, 1]", "+I[key1, 2, 200, 3]", "+I[key1, 5, 500, 8]", "+I[key1, 6, 600, 14]",
      "+I[key2, 1, 100, 1]", "+I[key2, 2, 200, 3]",
      // after restore
      "+I[key1, 4, 400, 7]", "-U[key1, 5, 500, 8]", "+U[key1, 5, 500, 12]", "-U[key1, 6, 600, 14]", "+U[key1, 6, 600, 18]",
    ]);
  });

  it("B-17 over-aggregate-sum-no-partition-by: peers already emitted are not updated (Flink's quirk)", async () => {
    const t = overSource(env)
      .window(Over.orderBy($("val")).preceding(UNBOUNDED_RANGE).as("w"))
      .select($("key"), $("val"), $("ts"), $("val").sum().over($("w")).as("sum_val"));
    expect(t.changelogMode()).toBe("[I,UB,UA]");
    expect(await t.execute().toChangelog()).toEqual([
      "+I[key1, 1, 100, 1]", "+I[key1, 2, 200, 3]", "+I[key1, 5, 500, 8]", "+I[key1, 6, 600, 14]",
      "+I[key2, 1, 100, 2]",
      "-U[key1, 2, 200, 3]", "+U[key1, 2, 200, 4]", "-U[key1, 5, 500, 8]", "+U[key1, 5, 500, 9]",
      "-U[key1, 6, 600, 14]", "+U[key1, 6, 600, 15]",
      "+I[key2, 2, 200, 6]",
      "-U[key1, 5, 500, 9]", "+U[key1, 5, 500, 11]", "-U[key1, 6, 600, 15]", "+U[key1, 6, 600, 17]",
      // after restore
      "+I[key1, 4, 400, 10]", "-U[key1, 5, 500, 11]", "+U[key1, 5, 500, 15]", "-U[key1, 6, 600, 17]", "+U[key1, 6, 600, 21]",
    ]);
  });
});
