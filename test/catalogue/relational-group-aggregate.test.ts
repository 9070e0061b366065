// §14 group aggregation and §15 incremental group aggregation (GroupAggregateTestPrograms,
// IncrementalGroupAggregateTestPrograms; B-07): two-phase restore form through SQL, Flink's exact rows.
// Upsert sinks (PRIMARY KEY) receive no -U; mini-batch programs emit one change per key per bundle, and the
// savepoint closes the open bundle.
import { describe, expect, it } from "vitest";
import { AggregateFunction, DataTypes } from "../../src/index.js";
import { type CatalogueSource, runRestore, sorted } from "./restore-runner.js";

const SOURCE_ONE: CatalogueSource = {
  name: "source_t", columns: "a INT, b BIGINT, c VARCHAR",
  before: [[1, 1, "Hi"], [2, 2, "Hello"], [2, 2, "Hello World"]],
  after: [[1, 1, "Hi Again!"], [2, 2, "Hello Again!"], [2, 2, "Hello World Again!"]],
};
const SOURCE_TWO: CatalogueSource = {
  name: "source_t", columns: "a INT, b BIGINT, c INT, d VARCHAR, e BIGINT",
  before: [
    [2, 3, 2, "Hello World Like", 1], [3, 4, 3, "Hello World Its nice", 2], [2, 2, 1, "Hello World", 2], [1, 1, 0, "Hello", 1],
    [5, 11, 10, "GHI", 1], [3, 5, 4, "ABC", 2], [4, 10, 9, "FGH", 2], [4, 7, 6, "CDE", 2], [5, 14, 13, "JKL", 2], [4, 9, 8, "EFG", 1],
    [5, 15, 14, "KLM", 2], [5, 12, 11, "HIJ", 3], [4, 8, 7, "DEF", 1], [5, 13, 12, "IJK", 3], [3, 6, 5, "BCD", 3],
  ],
  after: [[1, 1, 0, "Hello", 1], [3, 5, 4, "ABC", 2], [4, 10, 9, "FGH", 2], [4, 7, 6, "CDE", 2], [7, 7, 7, "MNO", 7], [3, 6, 5, "BCD", 3], [7, 7, 7, "XYZ", 7]],
};
const MINI_BATCH = { "table.exec.mini-batch.enabled": "true", "table.exec.mini-batch.allow-latency": "10 s", "table.exec.mini-batch.size": "5" };

/** WeightedAvg(value, weight) = sum(value * weight) / sum(weight), as BIGINT (with merge). */
const WeightedAvg = AggregateFunction.define({
  name: "my_avg", args: [DataTypes.BIGINT(), DataTypes.INT()], result: DataTypes.BIGINT(),
  createAccumulator: () => ({ sum: 0, count: 0 }),
  accumulate(acc, v, w) { if (v !== null && w !== null) { acc.sum += v * w; acc.count += w; } },
  merge(acc, others) { for (const o of others) { acc.sum += o.sum; acc.count += o.count; } },
  getValue: (acc) => (acc.count === 0 ? null : Math.trunc(acc.sum / acc.count)),
});
/** WeightedAvg without merge. */
const WeightedAvgNoMerge = AggregateFunction.define({
  name: "my_avg", args: [DataTypes.BIGINT(), DataTypes.INT()], result: DataTypes.BIGINT(),
  createAccumulator: () => ({ sum: 0, count: 0 }),
  accumulate(acc, v, w) { if (v !== null && w !== null) { acc.sum += v * w; acc.count += w; } },
  getValue: (acc) => (acc.count === 0 ? null : Math.trunc(acc.sum / acc.count)),
});
/** ConcatDistinct(s): distinct values joined with '|' in first-seen order. */
const ConcatDistinct = AggregateFunction.define({
  name: "my_concat", args: [DataTypes.STRING()], result: DataTypes.STRING(),
  createAccumulator: () => ({ seen: [] as string[] }),
  accumulate(acc, s) { if (s !== null && !acc.seen.includes(s)) acc.seen.push(s); },
  merge(acc, others) { for (const o of others) for (const s of o.seen) if (!acc.seen.includes(s)) acc.seen.push(s); },
  getValue: (acc) => acc.seen.join("|"),
});
/** VarSum1(c, 10): running sum of c + 10; VarSum2(5, c): 0 on this data. */
const VarSum1 = AggregateFunction.define({
  name: "my_sum1", args: [DataTypes.INT(), DataTypes.INT()], result: DataTypes.BIGINT(),
  createAccumulator: () => ({ sum: 0 }),
  accumulate(acc, c, k) { if (c !== null && k !== null) acc.sum += c + k; },
  getValue: (acc) => acc.sum,
});
const VarSum2 = AggregateFunction.define({
  name: "my_sum2", args: [DataTypes.INT(), DataTypes.INT()], result: DataTypes.BIGINT(),
  createAccumulator: () => ({ sum: 0 }),
  accumulate(acc, k, c) { if (k !== null && c !== null && k > 5 + c) acc.sum += c; },
  getValue: (acc) => acc.sum,
});

const SIMPLE = {
  sources: [SOURCE_ONE],
  sink: { name: "sink_t", columns: "b BIGINT, cnt BIGINT, avg_a DOUBLE, min_c VARCHAR, PRIMARY KEY (b) NOT ENFORCED" },
  sql: "INSERT INTO sink_t SELECT b, COUNT(*) AS cnt, AVG(a) FILTER (WHERE a > 1) AS avg_a, MIN(c) AS min_c FROM source_t GROUP BY b",
};
const DISTINCT = {
  sources: [SOURCE_TWO],
  sink: { name: "sink_t", columns: "e BIGINT, cnt_a1 BIGINT, cnt_a2 BIGINT, sum_a BIGINT, sum_b BIGINT, avg_b DOUBLE, cnt_d BIGINT, PRIMARY KEY (e) NOT ENFORCED" },
  sql: "INSERT INTO sink_t SELECT e, COUNT(DISTINCT a) FILTER (WHERE b > 10) AS cnt_a1, COUNT(DISTINCT a) AS cnt_a2, SUM(DISTINCT a) AS sum_a, "
    + "SUM(DISTINCT b) AS sum_b, AVG(b) AS avg_b, COUNT(DISTINCT d) AS concat_d FROM source_t GROUP BY e",
};
const WITH_MERGE = {
  sources: [SOURCE_TWO],
  sink: { name: "sink_t", columns: "d BIGINT, s1 BIGINT, c1 VARCHAR, PRIMARY KEY (d) NOT ENFORCED" },
  sql: "INSERT INTO sink_t SELECT e, my_avg(e, a) as s1, my_concat(d) as c1 FROM source_t GROUP BY e",
  setup: (env: import("../../src/index.js").TableEnvironment) => {
    env.createFunction("my_avg", WeightedAvg);
    env.createTemporaryFunction("my_concat", ConcatDistinct);
  },
};
const WITHOUT_MERGE = {
  sources: [SOURCE_TWO],
  sink: { name: "sink_t", columns: "d BIGINT, s1 BIGINT, s2 BIGINT, s3 BIGINT, PRIMARY KEY (d) NOT ENFORCED" },
  sql: "INSERT INTO sink_t SELECT e, my_sum1(c, 10) as s1, my_sum2(5, c) as s2, my_avg(e, a) as s3 FROM source_t GROUP BY e",
  setup: (env: import("../../src/index.js").TableEnvironment) => {
    env.createTemporaryFunction("my_sum1", VarSum1);
    env.createFunction("my_avg", WeightedAvgNoMerge);
    env.createTemporaryFunction("my_sum2", VarSum2);
  },
};

describe("§14 group aggregation, restored from a savepoint", () => {
  it("R-086 group-aggregate-simple: COUNT(*), AVG FILTER, MIN into an upsert sink", async () => {
    const r = await runRestore(SIMPLE);
    expect(sorted(r.before)).toEqual(sorted(["+I[1, 1, null, Hi]", "+I[2, 1, 2.0, Hello]", "+U[2, 2, 2.0, Hello]"]));
    expect(sorted(r.after)).toEqual(sorted(["+U[1, 2, null, Hi]", "+U[2, 3, 2.0, Hello]", "+U[2, 4, 2.0, Hello]"]));
  });

  it("R-087 group-aggregate-simple-mini-batch", async () => {
    const r = await runRestore({ ...SIMPLE, config: MINI_BATCH });
    expect(sorted(r.before)).toEqual(sorted(["+I[1, 1, null, Hi]", "+I[2, 2, 2.0, Hello]"]));
    expect(sorted(r.after)).toEqual(sorted(["+U[1, 2, null, Hi]", "+U[2, 4, 2.0, Hello]"]));
  });

  it("R-088 group-aggregate-distinct: DISTINCT aggregates (one with FILTER) and AVG", async () => {
    const r = await runRestore(DISTINCT);
    expect(sorted(r.before)).toEqual(sorted([
      "+I[1, 0, 1, 2, 3, 3.0, 1]", "+I[2, 0, 1, 3, 4, 4.0, 1]", "+U[2, 0, 2, 5, 6, 3.0, 2]", "+U[1, 0, 2, 3, 4, 2.0, 2]",
      "+U[1, 1, 3, 8, 15, 5.0, 3]", "+U[2, 0, 2, 5, 11, 3.0, 3]", "+U[2, 0, 3, 9, 21, 5.0, 4]", "+U[2, 0, 3, 9, 28, 5.0, 5]",
      "+U[2, 1, 4, 14, 42, 7.0, 6]", "+U[1, 1, 4, 12, 24, 6.0, 4]", "+U[2, 1, 4, 14, 57, 8.0, 7]", "+I[3, 1, 1, 5, 12, 12.0, 1]",
      "+U[1, 1, 4, 12, 32, 6.0, 5]", "+U[3, 1, 1, 5, 25, 12.0, 2]", "+U[3, 1, 2, 8, 31, 10.0, 3]",
    ]));
    expect(sorted(r.after)).toEqual(sorted([
      "+U[1, 1, 4, 12, 32, 5.0, 5]", "+U[2, 1, 4, 14, 57, 7.0, 7]", "+U[2, 1, 4, 14, 57, 8.0, 7]", "+U[2, 1, 4, 14, 57, 7.0, 7]",
      "+I[7, 0, 1, 7, 7, 7.0, 1]", "+U[3, 1, 2, 8, 31, 9.0, 3]", "+U[7, 0, 1, 7, 7, 7.0, 2]",
    ]));
  });

  // With mini-batch every aggregate here can merge, so the GROUP BY runs in two phases: the local bundle of
  // five rows hands each key on once, in Flink's bundle-map order, and the global bundle emits when it holds
  // five keys (after the first key of the third local bundle, e = 3).
  it("R-089 group-aggregate-distinct-mini-batch: two phases", async () => {
    const r = await runRestore({ ...DISTINCT, config: MINI_BATCH });
    expect(sorted(r.before)).toEqual(sorted([
      "+I[3, 1, 2, 8, 31, 10.0, 3]", "+I[2, 1, 4, 14, 42, 7.0, 6]", "+I[1, 1, 4, 12, 24, 6.0, 4]", "+U[2, 1, 4, 14, 57, 8.0, 7]",
      "+U[1, 1, 4, 12, 32, 6.0, 5]",
    ]));
    expect(sorted(r.after)).toEqual(sorted(["+U[3, 1, 2, 8, 31, 9.0, 3]", "+U[2, 1, 4, 14, 57, 7.0, 7]", "+I[7, 0, 1, 7, 7, 7.0, 2]", "+U[1, 1, 4, 12, 32, 5.0, 5]"]));
  });

  it("R-090 group-aggregate-udf-with-merge: a catalog UDAF and a temporary one", async () => {
    const r = await runRestore(WITH_MERGE);
    expect(sorted(r.before)).toEqual(sorted([
      "+I[1, 1, Hello World Like]", "+I[2, 2, Hello World Its nice]", "+U[2, 2, Hello World Its nice|Hello World]",
      "+U[1, 1, Hello World Like|Hello]", "+U[1, 1, Hello World Like|Hello|GHI]", "+U[2, 2, Hello World Its nice|Hello World|ABC]",
      "+U[2, 2, Hello World Its nice|Hello World|ABC|FGH]", "+U[2, 2, Hello World Its nice|Hello World|ABC|FGH|CDE]",
      "+U[2, 2, Hello World Its nice|Hello World|ABC|FGH|CDE|JKL]", "+U[1, 1, Hello World Like|Hello|GHI|EFG]",
      "+U[2, 2, Hello World Its nice|Hello World|ABC|FGH|CDE|JKL|KLM]", "+I[3, 3, HIJ]", "+U[1, 1, Hello World Like|Hello|GHI|EFG|DEF]",
      "+U[3, 3, HIJ|IJK]", "+U[3, 3, HIJ|IJK|BCD]",
    ]));
    expect(sorted(r.after)).toEqual(sorted(["+I[7, 7, MNO]", "+U[7, 7, MNO|XYZ]"]));
  });

  it("R-091 group-aggregate-udf-with-merge-mini-batch: user functions with merge run in two phases", async () => {
    const r = await runRestore({ ...WITH_MERGE, config: MINI_BATCH });
    expect(sorted(r.before)).toEqual(sorted([
      "+I[2, 2, Hello World Its nice|Hello World|ABC|FGH|CDE|JKL]", "+I[1, 1, Hello World Like|Hello|GHI|EFG]",
      "+U[2, 2, Hello World Its nice|Hello World|ABC|FGH|CDE|JKL|KLM]", "+U[1, 1, Hello World Like|Hello|GHI|EFG|DEF]", "+I[3, 3, HIJ|IJK|BCD]",
    ]));
    expect(sorted(r.after)).toEqual(["+I[7, 7, MNO|XYZ]"]);
  });

  it("R-092 group-aggregate-udf-without-merge", async () => {
    const r = await runRestore(WITHOUT_MERGE);
    expect(sorted(r.before)).toEqual(sorted([
      "+I[1, 12, 0, 1]", "+I[2, 13, 0, 2]", "+U[2, 24, 0, 2]", "+U[1, 22, 0, 1]", "+U[1, 42, 0, 1]", "+U[2, 38, 0, 2]", "+U[2, 57, 0, 2]",
      "+U[2, 73, 0, 2]", "+U[2, 96, 0, 2]", "+U[1, 60, 0, 1]", "+U[2, 120, 0, 2]", "+I[3, 21, 0, 3]", "+U[1, 77, 0, 1]", "+U[3, 43, 0, 3]",
      "+U[3, 58, 0, 3]",
    ]));
    expect(sorted(r.after)).toEqual(sorted(["+U[1, 87, 0, 1]", "+U[2, 134, 0, 2]", "+U[2, 153, 0, 2]", "+U[2, 169, 0, 2]", "+I[7, 17, 0, 7]", "+U[3, 73, 0, 3]", "+U[7, 34, 0, 7]"]));
  });

  it("R-093 group-aggregate-udf-without-merge-mini-batch", async () => {
    const r = await runRestore({ ...WITHOUT_MERGE, config: MINI_BATCH });
    expect(sorted(r.before)).toEqual(sorted(["+I[2, 24, 0, 2]", "+I[1, 42, 0, 1]", "+U[2, 96, 0, 2]", "+U[1, 60, 0, 1]", "+I[3, 58, 0, 3]", "+U[2, 120, 0, 2]", "+U[1, 77, 0, 1]"]));
    expect(sorted(r.after)).toEqual(sorted(["+I[7, 17, 0, 7]", "+U[1, 87, 0, 1]", "+U[2, 169, 0, 2]", "+U[3, 73, 0, 3]", "+U[7, 34, 0, 7]"]));
  });
});

describe("§15 incremental group aggregation, restored from a savepoint", () => {
  it("R-095 / B-07 incremental-group-aggregate-simple: split distinct, mini-batch of 1, a retract sink", async () => {
    const r = await runRestore({
      sources: [{ name: "source_t", columns: "a INT, b BIGINT, c VARCHAR", before: [[1, 1, "hi"], [2, 2, "hello"], [3, 2, "hello world"]], after: [[3, 2, "foo"], [4, 4, "bar"], [5, 2, "foo bar"]] }],
      sink: { name: "sink_t", columns: "b BIGINT, a BIGINT" },
      sql: "INSERT INTO sink_t\n     SELECT\n         b,\n         COUNT(DISTINCT a) AS a\n     FROM source_t\n     GROUP BY b",
      config: {
        "table.exec.mini-batch.enabled": "true", "table.exec.mini-batch.allow-latency": "10 s", "table.exec.mini-batch.size": "1",
        "table.optimizer.distinct-agg.split.enabled": "true",
      },
    });
    expect(sorted(r.before)).toEqual(sorted(["+I[1, 1]", "+I[2, 1]", "-U[2, 1]", "+U[2, 2]"]));
    expect(sorted(r.after)).toEqual(sorted(["-U[2, 2]", "+U[2, 3]", "+I[4, 1]"]));
  });
});
