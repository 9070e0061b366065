// §19 OVER aggregation (OverWindowTestPrograms; B-15, B-17): two-phase restore form through SQL, Flink's
// exact rows (multisets). The rows sorted by the ORDER BY key are state: a row inserted in the middle after
// the restore updates those already emitted after it.
import { describe, expect, it } from "vitest";
import { type CatalogueSource, kind, runRestore, sorted } from "./restore-runner.js";

const APPEND: CatalogueSource = {
  name: "source_t", columns: "key STRING, val BIGINT, ts BIGINT",
  before: [["key1", 1, 100], ["key1", 2, 200], ["key1", 5, 500], ["key1", 6, 600], ["key2", 1, 100], ["key2", 2, 200]],
  after: [["key1", 4, 400]],
};
const SINK = { name: "sink_t", columns: "key STRING, val BIGINT, ts BIGINT, sum_val BIGINT" };
const SUM = "SUM(val) OVER (PARTITION BY key ORDER BY val RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)";

describe("§19 OVER aggregation, restored from a savepoint", () => {
  it("B-15 over-aggregate-sum-append-mode", async () => {
    const r = await runRestore({ sources: [APPEND], sink: SINK, sql: `INSERT INTO sink_t SELECT key, val, ts, ${SUM} AS sum_val FROM source_t` });
    expect(sorted(r.before)).toEqual(sorted(["+I[key1, 1, 100, 1]", "+I[key1, 2, 200, 3]", "+I[key1, 5, 500, 8]", "+I[key1, 6, 600, 14]", "+I[key2, 1, 100, 1]", "+I[key2, 2, 200, 3]"]));
    expect(sorted(r.after)).toEqual(sorted(["+I[key1, 4, 400, 7]", "-U[key1, 5, 500, 8]", "+U[key1, 5, 500, 12]", "-U[key1, 6, 600, 14]", "+U[key1, 6, 600, 18]"]));
  });

  it("B-17 over-aggregate-sum-no-partition-by: emitted peers are not updated (Flink's rule)", async () => {
    const r = await runRestore({
      sources: [APPEND], sink: SINK,
      sql: "INSERT INTO sink_t SELECT key, val, ts, SUM(val) OVER (ORDER BY val RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS sum_val FROM source_t",
    });
    expect(sorted(r.before)).toEqual(sorted([
      "+I[key1, 1, 100, 1]", "+I[key1, 2, 200, 3]", "+I[key1, 5, 500, 8]", "+I[key1, 6, 600, 14]", "+I[key2, 1, 100, 2]", "-U[key1, 2, 200, 3]",
      "+U[key1, 2, 200, 4]", "-U[key1, 5, 500, 8]", "+U[key1, 5, 500, 9]", "-U[key1, 6, 600, 14]", "+U[key1, 6, 600, 15]", "+I[key2, 2, 200, 6]",
      "-U[key1, 5, 500, 9]", "+U[key1, 5, 500, 11]", "-U[key1, 6, 600, 15]", "+U[key1, 6, 600, 17]",
    ]));
    expect(sorted(r.after)).toEqual(sorted(["+I[key1, 4, 400, 10]", "-U[key1, 5, 500, 11]", "+U[key1, 5, 500, 15]", "-U[key1, 6, 600, 17]", "+U[key1, 6, 600, 21]"]));
  });

  it("R-131 over-aggregate-sum-retract-mode: an updating input", async () => {
    const r = await runRestore({
      sources: [{
        name: "source_t", columns: "key STRING, val BIGINT, ts BIGINT", changelog: true,
        before: [["key1", 1, 100], ["key1", 2, 200], ["key1", 5, 500], ["key1", 6, 600], kind("-U", "key1", 2, 200), kind("+U", "key1", 3, 200), ["key2", 1, 100], ["key2", 2, 200]],
        after: [["key3", 1, 100], ["key1", 4, 400], kind("-U", "key1", 3, 200), kind("+U", "key1", 3, 300)],
      }],
      sink: SINK, sql: `INSERT INTO sink_t SELECT key, val, ts, ${SUM} AS sum_val FROM source_t`,
    });
    expect(sorted(r.before)).toEqual(sorted([
      "+I[key1, 1, 100, 1]", "+I[key1, 2, 200, 3]", "+I[key1, 5, 500, 8]", "+I[key1, 6, 600, 14]", "-U[key1, 2, 200, 3]", "-U[key1, 5, 500, 8]",
      "+U[key1, 5, 500, 6]", "-U[key1, 6, 600, 14]", "+U[key1, 6, 600, 12]", "+U[key1, 3, 200, 4]", "-U[key1, 5, 500, 6]", "+U[key1, 5, 500, 9]",
      "-U[key1, 6, 600, 12]", "+U[key1, 6, 600, 15]", "+I[key2, 1, 100, 1]", "+I[key2, 2, 200, 3]",
    ]));
    expect(sorted(r.after)).toEqual(sorted([
      "+I[key3, 1, 100, 1]", "+I[key1, 4, 400, 8]", "-U[key1, 5, 500, 9]", "+U[key1, 5, 500, 13]", "-U[key1, 6, 600, 15]", "+U[key1, 6, 600, 19]",
      "-U[key1, 3, 200, 4]", "-U[key1, 4, 400, 8]", "+U[key1, 4, 400, 5]", "-U[key1, 5, 500, 13]", "+U[key1, 5, 500, 10]", "-U[key1, 6, 600, 19]",
      "+U[key1, 6, 600, 16]", "+U[key1, 3, 300, 4]", "-U[key1, 4, 400, 5]", "+U[key1, 4, 400, 8]", "-U[key1, 5, 500, 10]", "+U[key1, 5, 500, 13]",
      "-U[key1, 6, 600, 16]", "+U[key1, 6, 600, 19]",
    ]));
  });

  it("R-133 over-aggregate-sum-append-mode-multiple-aggs", async () => {
    const r = await runRestore({
      sources: [APPEND], sink: { name: "sink_t", columns: "key STRING, val BIGINT, ts BIGINT, sum_val BIGINT, cnt_key BIGINT" },
      sql: `INSERT INTO sink_t SELECT key, val, ts, ${SUM} AS sum_val, COUNT(key) OVER (PARTITION BY key ORDER BY val RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS cnt_key FROM source_t`,
    });
    expect(sorted(r.before)).toEqual(sorted(["+I[key1, 1, 100, 1, 1]", "+I[key1, 2, 200, 3, 2]", "+I[key1, 5, 500, 8, 3]", "+I[key1, 6, 600, 14, 4]", "+I[key2, 1, 100, 1, 1]", "+I[key2, 2, 200, 3, 2]"]));
    expect(sorted(r.after)).toEqual(sorted(["+I[key1, 4, 400, 7, 3]", "-U[key1, 5, 500, 8, 3]", "+U[key1, 5, 500, 12, 4]", "-U[key1, 6, 600, 14, 4]", "+U[key1, 6, 600, 18, 5]"]));
  });
});
