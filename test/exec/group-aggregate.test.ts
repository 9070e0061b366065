import { describe, expect, it } from "vitest";
import { activeBackendOptions, backendSuite } from "../support/state-backends.js";
import {
  $, DataTypes, type Decimal, EnvironmentSettings, ExecutionError, Row, RowKind, Table, TableEnvironment, lit,
} from "../../src/index.js";

const streaming = () => {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  for (const [k, v] of Object.entries(activeBackendOptions())) env.getConfig().set(k, v);
  return env;
};
const batch = () => TableEnvironment.create(EnvironmentSettings.inBatchMode());

const KV = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT()));
const { INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE } = RowKind;

// streaming group aggregation keeps its groups in the job's state backend: every test runs on both
backendSuite("streaming group aggregation", () => {
  describe("group aggregation: Flink's retract changelog", () => {
    it("first row +I, then a -U old / +U new pair per change", async () => {
      const t = streaming().fromValues(KV, Row.of("widget", 1), Row.of("gadget", 5), Row.of("widget", 1), Row.of("widget", 1));
      const counts = t.groupBy($("k")).select($("k"), $("v").count().as("n"));
      expect(await counts.execute().toChangelog()).toEqual([
        "+I[widget, 1]", "+I[gadget, 1]", "-U[widget, 1]", "+U[widget, 2]", "-U[widget, 2]", "+U[widget, 3]",
      ]);
    });

    it("emits nothing when a row leaves the result unchanged", async () => {
      const t = streaming().fromValues(KV, Row.of("a", 5), Row.of("a", 3), Row.of("a", 5), Row.of("a", 9), Row.of("a", null));
      const max = t.groupBy($("k")).select($("k"), $("v").max().as("mx"));
      // 3 and the second 5 do not raise the max; null is ignored by MAX
      expect(await max.execute().toChangelog()).toEqual(["+I[a, 5]", "-U[a, 5]", "+U[a, 9]"]);
    });

    it("-D when a group's last row is retracted; a later row starts the group again with +I", async () => {
      const t = streaming().fromValues(KV,
        Row.of("a", 1), Row.of("b", 2), Row.ofKind(DELETE, "a", 1), Row.ofKind(INSERT, "a", 7),
        Row.ofKind(UPDATE_BEFORE, "b", 2), Row.ofKind(UPDATE_AFTER, "b", 3));
      const sums = t.groupBy($("k")).select($("k"), $("v").sum().as("s"), $("v").count().as("n"));
      expect(sums.changelogMode()).toBe("[I,UB,UA,D]");
      expect(await sums.execute().toChangelog()).toEqual([
        "+I[a, 1, 1]", "+I[b, 2, 1]",
        "-D[a, 1, 1]", "+I[a, 7, 1]",
        // -U of b's only row empties the group (-D), +U then starts it again (+I): Flink's GroupAggFunction does the same
        "-D[b, 2, 1]", "+I[b, 3, 1]",
      ]);
    });

    it("ignores a retraction for a group that does not exist", async () => {
      const t = streaming().fromValues(KV, Row.ofKind(DELETE, "ghost", 1), Row.of("a", 1), Row.ofKind(UPDATE_BEFORE, "ghost", 4));
      expect(await t.groupBy($("k")).select($("k"), $("v").count().as("n")).execute().toChangelog()).toEqual(["+I[a, 1]"]);
    });

    it("a freed group slot starts fresh for the next new key", async () => {
      // after 'a' is deleted its state slot is reused by 'b': nothing of a's must leak into b
      const t = streaming().fromValues(KV, Row.of("a", 100), Row.of("a", 50), Row.ofKind(DELETE, "a", 100), Row.ofKind(DELETE, "a", 50),
        Row.of("b", 1));
      const q = t.groupBy($("k")).select($("k"), $("v").sum().as("s"), $("v").max().as("mx"), $("v").min().as("mn"), $("v").count().distinct().as("d"));
      expect(await q.execute().toChangelog()).toEqual([
        "+I[a, 100, 100, 100, 1]", "-U[a, 100, 100, 100, 1]", "+U[a, 150, 100, 50, 2]",
        "-U[a, 150, 100, 50, 2]", "+U[a, 50, 50, 50, 1]", "-D[a, 50, 50, 50, 1]",
        "+I[b, 1, 1, 1, 1]",
      ]);
    });
  });

  describe("aggregate functions", () => {
    const data = () => streaming().fromValues(KV,
      Row.of("a", 4), Row.of("a", null), Row.of("a", 4), Row.of("a", 7), Row.of("b", null));

    it("count, count(*) via a NOT NULL argument, sum, sum0, avg, min, max, countDistinct", async () => {
      const q = data().groupBy($("k")).select(
        $("k"), $("v").count().as("cnt"), lit(1).count().as("rows"), $("v").sum().as("s"), $("v").sum0().as("s0"),
        $("v").avg().as("av"), $("v").min().as("mn"), $("v").max().as("mx"), $("v").countDistinct().as("cd"),
      );
      expect(q.getResolvedSchema().toShortString()).toBe(
        "[k: STRING, cnt: BIGINT NOT NULL, rows: BIGINT NOT NULL, s: INT, s0: INT NOT NULL, av: INT, mn: INT, mx: INT, cd: BIGINT NOT NULL]");
      expect(await q.execute().toChangelog()).toEqual([
        "+I[a, 1, 1, 4, 4, 4, 4, 4, 1]",
        // a NULL value: COUNT(v) and the value aggregates ignore it, the row count moves
        "-U[a, 1, 1, 4, 4, 4, 4, 4, 1]", "+U[a, 1, 2, 4, 4, 4, 4, 4, 1]",
        "-U[a, 1, 2, 4, 4, 4, 4, 4, 1]", "+U[a, 2, 3, 8, 8, 4, 4, 4, 1]",
        // AVG of INT is INT, truncated: 15 / 3 = 5
        "-U[a, 2, 3, 8, 8, 4, 4, 4, 1]", "+U[a, 3, 4, 15, 15, 5, 4, 7, 2]",
        // a group of only NULLs: SUM, AVG, MIN, MAX are NULL, SUM0 is 0, the counts of values are 0
        "+I[b, 0, 1, null, 0, null, null, null, 0]",
      ]);
    });

    it("$(x).count().distinct(), sum().distinct() and avg().distinct() see each value once", async () => {
      const q = data().groupBy($("k")).select($("k"), $("v").count().distinct().as("cd"), $("v").sum().distinct().as("sd"), $("v").avg().distinct().as("ad"));
      expect(await q.execute().toChangelog()).toEqual([
        "+I[a, 1, 4, 4]", "-U[a, 1, 4, 4]", "+U[a, 2, 11, 5]", "+I[b, 0, null, null]",
      ]);
    });

    it("distinct aggregates stay exact when duplicates are retracted", async () => {
      const t = streaming().fromValues(KV, Row.of("a", 1), Row.of("a", 1), Row.of("a", 2),
        Row.ofKind(DELETE, "a", 1), Row.ofKind(DELETE, "a", 1), Row.ofKind(DELETE, "a", 2));
      const q = t.groupBy($("k")).select($("k"), $("v").countDistinct().as("cd"), $("v").sum().distinct().as("sd"));
      expect(await q.execute().toChangelog()).toEqual([
        "+I[a, 1, 1]", "-U[a, 1, 1]", "+U[a, 2, 3]",
        // the first DELETE of 1 leaves one copy: no change; the second removes the value
        "-U[a, 2, 3]", "+U[a, 1, 2]", "-D[a, 1, 2]",
      ]);
    });

    it("AVG over DOUBLE is fractional, over DECIMAL exact with scale max(6, s)", async () => {
      const t = streaming().fromValues(
        DataTypes.ROW(DataTypes.FIELD("d", DataTypes.DOUBLE()), DataTypes.FIELD("m", DataTypes.DECIMAL(10, 2))),
        Row.of(1.0, "1.10"), Row.of(2.0, "2.20"), Row.of(2.0, "0.01"));
      const q = t.select($("d").avg().as("ad"), $("m").avg().as("am"), $("m").sum().as("sm"));
      expect(q.getResolvedSchema().toShortString()).toBe("[ad: DOUBLE, am: DECIMAL(38, 6), sm: DECIMAL(38, 2)]");
      expect(await q.execute().toChangelog()).toEqual([
        "+I[1.0, 1.100000, 1.10]",
        "-U[1.0, 1.100000, 1.10]", "+U[1.5, 1.650000, 3.30]",
        // 3.31 / 3 = 1.103333.. rounded half-up at 6 digits
        "-U[1.5, 1.650000, 3.30]", "+U[1.6666666666666667, 1.103333, 3.31]",
      ]);
    });

    it("SUM over DECIMAL(38, s) is exact beyond 20 significant digits", async () => {
      const big = "1234567890123456789012345678.12";
      const t = streaming().fromValues(DataTypes.ROW(DataTypes.FIELD("m", DataTypes.DECIMAL(38, 2))), Row.of(big), Row.of("0.01"));
      const rows = await batchOf(t).select($("m").sum().as("s")).execute().toArray();
      expect((rows[0]!.s as Decimal).toFixed(2)).toBe("1234567890123456789012345678.13");
    });

    it("MIN and MAX of strings, timestamps and decimals", async () => {
      const t = streaming().fromValues(
        DataTypes.ROW(DataTypes.FIELD("s", DataTypes.STRING()), DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)), DataTypes.FIELD("m", DataTypes.DECIMAL(5, 2))),
        Row.of("pear", "2024-01-02 00:00:00", "1.50"), Row.of("apple", "2024-01-03 00:00:00", "-2.00"), Row.of("zoo", "2023-12-31 23:59:59.999", "1.49"));
      const q = t.select($("s").min().as("s_min"), $("s").max().as("s_max"), $("ts").min().as("t_min"), $("ts").max().as("t_max"),
        $("m").min().as("m_min"), $("m").max().as("m_max"));
      expect(await batchOf(t).select($("s").min(), $("s").max(), $("ts").min(), $("ts").max(), $("m").min(), $("m").max()).execute().toChangelog())
        .toEqual(["+I[apple, zoo, 2023-12-31T23:59:59.999, 2024-01-03T00:00, -2.00, 1.50]"]);
      expect((await q.execute().toChangelog()).at(-1)).toBe("+U[apple, zoo, 2023-12-31T23:59:59.999, 2024-01-03T00:00, -2.00, 1.50]");
    });

    it("fails the job with a clear message when an INT sum overflows (Flink would wrap around)", async () => {
      const t = streaming().fromValues(DataTypes.ROW(DataTypes.FIELD("v", DataTypes.INT())), Row.of(2147483647), Row.of(1));
      const r = t.select($("v").sum().as("s")).execute();
      await expect(r.toChangelog()).rejects.toThrow(new ExecutionError("SUM overflow: 2147483648 does not fit INT"));
    });
  });

  describe("MIN / MAX under retraction", () => {
    it("retracting the current extreme falls back to the next value, duplicates counted", async () => {
      const t = streaming().fromValues(KV,
        Row.of("a", 5), Row.of("a", 9), Row.of("a", 9), Row.of("a", 1),
        Row.ofKind(DELETE, "a", 9), // one 9 is left: no change
        Row.ofKind(DELETE, "a", 9), // max falls back to 5
        Row.ofKind(UPDATE_BEFORE, "a", 1), Row.ofKind(UPDATE_AFTER, "a", 6)); // min 1 -> 5, max 5 -> 6
      const q = t.groupBy($("k")).select($("k"), $("v").min().as("mn"), $("v").max().as("mx"));
      expect(await q.execute().toChangelog()).toEqual([
        "+I[a, 5, 5]",
        "-U[a, 5, 5]", "+U[a, 5, 9]",
        "-U[a, 5, 9]", "+U[a, 1, 9]",
        "-U[a, 1, 9]", "+U[a, 1, 5]",
        "-U[a, 1, 5]", "+U[a, 5, 5]",
        "-U[a, 5, 5]", "+U[a, 5, 6]",
      ]);
    });

    it("aggregating an aggregate: MAX over per-key counts follows the counts' retractions", async () => {
      const words = streaming().fromValues("x", "y", "x", "x", "y").as("w");
      const counts = words.groupBy($("w")).select($("w"), lit(1).count().as("c"));
      const top = counts.select($("c").max().as("top"), $("c").min().as("low"), $("c").sum().as("total"));
      expect(top.changelogMode()).toBe("[I,UB,UA,D]");
      expect(await top.execute().toChangelog()).toEqual([
        "+I[1, 1, 1]", // x:1
        "-U[1, 1, 1]", "+U[1, 1, 2]", // y:1
        // x: 1 -> 2 arrives as -U[x,1], +U[x,2]: the -U empties nothing (y still has 1)
        "-U[1, 1, 2]", "+U[1, 1, 1]", "-U[1, 1, 1]", "+U[2, 1, 3]",
        // x: 2 -> 3
        "-U[2, 1, 3]", "+U[1, 1, 1]", "-U[1, 1, 1]", "+U[3, 1, 4]",
        // y: 1 -> 2
        "-U[3, 1, 4]", "+U[3, 3, 3]", "-U[3, 3, 3]", "+U[3, 2, 5]",
      ]);
    });
  });

  describe("MIN / MAX with NaN and out-of-order retractions", () => {
    const KD = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("d", DataTypes.DOUBLE()));
    const minMax = (t: Table<{ k: string | null; d: number | null }, "append" | "retract" | "upsert">) => t.groupBy($("k")).select($("k"), $("d").min().as("mn"), $("d").max().as("mx"));

    it("under retraction NaN is the greatest value (Java's Double.compare), whichever order it comes in", async () => {
      const late = streaming().fromValues(KD, Row.of("a", 1.0), Row.of("a", NaN), Row.of("a", 2.0), Row.ofKind(DELETE, "a", NaN));
      expect(await minMax(late).execute().toChangelog()).toEqual([
        "+I[a, 1.0, 1.0]",
        "-U[a, 1.0, 1.0]", "+U[a, 1.0, NaN]",
        // 2.0 changes neither: NaN stays the maximum
        "-U[a, 1.0, NaN]", "+U[a, 1.0, 2.0]",
      ]);
      const early = streaming().fromValues(KD, Row.of("a", NaN), Row.of("a", 1.0), Row.of("a", Infinity), Row.ofKind(DELETE, "a", 1.0));
      expect(await minMax(early).execute().toChangelog()).toEqual([
        "+I[a, NaN, NaN]",
        "-U[a, NaN, NaN]", "+U[a, 1.0, NaN]",
        "-U[a, 1.0, NaN]", "+U[a, Infinity, NaN]",
      ]);
    });

    it("over an insert-only input MIN/MAX compare with < and > as Flink's declarative functions do", async () => {
      const first = await minMax(batch().fromValues(KD, Row.of("a", NaN), Row.of("a", 1.0))).execute().toChangelog();
      expect(first).toEqual(["+I[a, NaN, NaN]"]);
      const last = await minMax(batch().fromValues(KD, Row.of("a", 1.0), Row.of("a", NaN))).execute().toChangelog();
      expect(last).toEqual(["+I[a, 1.0, 1.0]"]);
    });

    it("a retraction of a value the group does not hold cancels a later accumulation of it", async () => {
      const t = streaming().fromValues(KV,
        Row.of("a", 3), Row.of("a", 4),
        Row.ofKind(DELETE, "a", 5), // counted as -1: MIN/MAX unchanged
        Row.of("a", 5), // cancels it: 5 is not in the group
        Row.of("a", 1), Row.ofKind(DELETE, "a", 4));
      const q = t.groupBy($("k")).select($("k"), $("v").min().as("mn"), $("v").max().as("mx"));
      expect(await q.execute().toChangelog()).toEqual([
        "+I[a, 3, 3]",
        "-U[a, 3, 3]", "+U[a, 3, 4]",
        "-U[a, 3, 4]", "+U[a, 1, 4]",
        "-U[a, 1, 4]", "+U[a, 1, 3]",
      ]);
    });

    it("strings under retraction: the same multiset rules", async () => {
      const KS = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("s", DataTypes.STRING()));
      const t = streaming().fromValues(KS, Row.of("a", "m"), Row.of("a", "p"), Row.ofKind(DELETE, "a", "z"), Row.of("a", "z"), Row.ofKind(DELETE, "a", "p"));
      const q = t.groupBy($("k")).select($("k"), $("s").max().as("mx"));
      expect(await q.execute().toChangelog()).toEqual(["+I[a, m]", "-U[a, m]", "+U[a, p]", "-U[a, p]", "+U[a, m]"]);
    });
  });

  describe("keys", () => {
    it("null keys form a group; numeric, timestamp and composite keys", async () => {
      const t = streaming().fromValues(
        DataTypes.ROW(DataTypes.FIELD("i", DataTypes.BIGINT()), DataTypes.FIELD("d", DataTypes.DOUBLE()),
          DataTypes.FIELD("ts", DataTypes.TIMESTAMP_LTZ(3)), DataTypes.FIELD("s", DataTypes.STRING())),
        Row.of(1, 0.5, 0, "a"), Row.of(null, 0.5, 0, null), Row.of(1, -0.0, 1000, "a"), Row.of(null, 0.0, 0, null), Row.of(9007199254740991, NaN, 1000, "b"),
        Row.of(9007199254740991, NaN, 1000, "b"));
      const byInt = await batchOf(t).groupBy($("i")).select($("i"), lit(1).count()).execute().toChangelog();
      expect(byInt).toEqual(["+I[1, 2]", "+I[null, 2]", "+I[9007199254740991, 2]"]);
      const byDouble = await batchOf(t).groupBy($("d")).select($("d"), lit(1).count()).execute().toChangelog();
      expect(byDouble).toEqual(["+I[0.5, 2]", "+I[-0.0, 2]", "+I[NaN, 2]"]);
      const byTime = await batchOf(t).groupBy($("ts")).select($("ts"), lit(1).count()).execute().toChangelog();
      expect(byTime).toEqual(["+I[1970-01-01T00:00:00Z, 3]", "+I[1970-01-01T00:00:01Z, 3]"]);
      const byPair = await batchOf(t).groupBy($("s"), $("i")).select($("s"), $("i"), lit(1).count()).execute().toChangelog();
      expect(byPair).toEqual(["+I[a, 1, 2]", "+I[null, null, 2]", "+I[b, 9007199254740991, 2]"]);
    });

    it("composite string keys that would collide under a separator join stay apart", async () => {
      const t = streaming().fromValues(DataTypes.ROW(DataTypes.FIELD("a", DataTypes.STRING()), DataTypes.FIELD("b", DataTypes.STRING())),
        Row.of("x|y", "z"), Row.of("x", "y|z"), Row.of("x\u0001string:y", "z"), Row.of("x", "y\u0001string:z"), Row.of("1", "2"), Row.of(null, "2"));
      const q = t.groupBy($("a"), $("b")).select($("a"), $("b"), lit(1).count().as("n"));
      const out = await q.execute().toChangelog();
      expect(out).toHaveLength(6);
      expect(out.every((r) => r.startsWith("+I") && r.endsWith(", 1]"))).toBe(true);
    });

    it("a computed key appears under its expression and can be selected again", async () => {
      const t = streaming().fromValues(KV, Row.of("a", 1), Row.of("b", 2), Row.of("c", 3));
      const q = t.groupBy($("v").mod(2)).select($("v").mod(2).as("parity"), $("k").count().as("n"));
      expect(await q.execute().toChangelog()).toEqual(["+I[1, 1]", "+I[0, 1]", "-U[1, 1]", "+U[1, 2]"]);
    });
  });

  describe("select list over keys and aggregates", () => {
    it("expressions over aggregates and keys, and aggregates shared between items", async () => {
      const t = streaming().fromValues(KV, Row.of("a", 1), Row.of("b", 10), Row.of("a", 3));
      const q = t.groupBy($("k")).select(
        $("k").upperCase().as("K"), $("v").sum().plus($("v").count()).as("x"), $("v").sum().times(2), $("v").max().minus($("v").min()).as("spread"),
      );
      expect(q.getResolvedSchema().names).toEqual(["K", "x", "_c2", "spread"]);
      expect(q.explain()).toContain("Aggregate(groupBy=[k], select=[k, SUM(v) AS EXPR$0, COUNT(v) AS EXPR$1, MAX(v) AS EXPR$2, MIN(v) AS EXPR$3]");
      expect(await q.execute().toChangelog()).toEqual([
        "+I[A, 2, 2, 0]", "+I[B, 11, 20, 0]", "-U[A, 2, 2, 0]", "+U[A, 6, 8, 2]",
      ]);
    });

    it("a column that is neither key nor aggregated is rejected, naming it", () => {
      const t = streaming().fromValues(KV, Row.of("a", 1));
      expect(() => t.groupBy($("k")).select($("k"), $("v") as never))
        .toThrow("select: column 'v' is neither a grouping key nor inside an aggregate (grouping keys: [k])");
    });
  });

  describe("global aggregates (no groupBy)", () => {
    it("streaming: +I on the first row, updates after, -D when every row is retracted", async () => {
      const t = streaming().fromValues(KV, Row.of("a", 2), Row.of("b", 3), Row.ofKind(DELETE, "a", 2), Row.ofKind(DELETE, "b", 3));
      const q = t.select($("v").count().as("n"), $("v").sum().as("s"));
      expect(q.changelogMode()).toBe("[I,UB,UA,D]");
      expect(await q.execute().toChangelog()).toEqual([
        "+I[1, 2]", "-U[1, 2]", "+U[2, 5]", "-U[2, 5]", "+U[1, 3]", "-D[1, 3]",
      ]);
    });

    it("batch: one final row, also over no rows at all (COUNT 0, SUM NULL); streaming prints Empty set", async () => {
      const empty = (env: TableEnvironment) => env.fromValues(KV, Row.of("a", 1)).filter($("v").isGreater(5))
        .select($("v").count().as("n"), $("v").sum().as("s"), $("v").sum0().as("s0"), $("v").max().as("mx"));
      expect(await empty(batch()).execute().toChangelog()).toEqual(["+I[0, null, 0, null]"]);
      expect(await empty(streaming()).execute().toChangelog()).toEqual([]);
    });
  });
});

describe("batch mode", () => {
  it("gives the final insert-only result of the same query, groups in order of first appearance", async () => {
    const q = (env: TableEnvironment) => env.fromValues(KV, Row.of("b", 1), Row.of("a", 2), Row.of("b", 3), Row.of("c", 4))
      .groupBy($("k")).select($("k"), $("v").sum().as("s"), $("v").max().as("mx"));
    expect(q(batch()).changelogMode()).toBe("[I]");
    expect(await q(batch()).execute().toChangelog()).toEqual(["+I[b, 4, 3]", "+I[a, 2, 2]", "+I[c, 4, 4]"]);
    expect(await q(streaming()).execute().toChangelog()).toEqual([
      "+I[b, 1, 1]", "+I[a, 2, 2]", "-U[b, 1, 1]", "+U[b, 4, 3]", "+I[c, 4, 4]",
    ]);
  });

  it("applies retractions of a changelog input before emitting", async () => {
    const q = batch().fromValues(KV, Row.of("a", 1), Row.of("b", 5), Row.ofKind(DELETE, "a", 1), Row.of("b", 6), Row.ofKind(UPDATE_BEFORE, "b", 5))
      .groupBy($("k")).select($("k"), $("v").min().as("mn"));
    expect(await q.execute().toChangelog()).toEqual(["+I[b, 6]"]);
  });
});

/** The same plan in a batch environment (plans do not depend on their environment). */
function batchOf<T extends object>(t: Table<T>): Table<T> {
  return new Table<T>(batch(), t.node);
}
