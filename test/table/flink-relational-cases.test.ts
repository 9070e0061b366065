import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  $, AggregateFunction, CollectionSink, DataTypes, EnvironmentSettings, Row, RowKind, Schema, TableEnvironment, TableFunction, call, lit,
} from "../../src/index.js";
import type { PositionalRow } from "../../src/index.js";

/**
 * Flink's relational test programs (values, correlate, sinks with primary keys, changelog normalize) in
 * their Table API form, with Flink's exact rows. Restore programs run as one bounded job over
 * `before ∪ after`, expecting `before ∪ after`; "changelog" cases compare the sink's raw changelog as a
 * multiset, in arrival order where the job's order is deterministic.
 */
const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());

describe("§11 values", () => {
  it("R-073 values-test: inline VALUES into sink_t (b INT, a INT, c VARCHAR), bound by position", async () => {
    const env = streaming();
    const sink = new CollectionSink();
    env.createTemporaryTable("sink_t", sink.descriptor(Schema.newBuilder().column("b", "INT").column("a", "INT").column("c", "VARCHAR").build()));
    await env.fromValues(Row.of(1, 2, "Hi"), Row.of(3, 4, "Hello")).executeInsert("sink_t").await();
    expect(sink.changelog()).toEqual(["+I[1, 2, Hi]", "+I[3, 4, Hello]"]);
  });
});

describe("§12 correlate", () => {
  /** `source_t (a BIGINT, b INT NOT NULL, c VARCHAR)`: before + after rows. */
  const source = (env: TableEnvironment) => env.fromValues(
    DataTypes.ROW(DataTypes.FIELD("a", DataTypes.BIGINT()), DataTypes.FIELD("b", DataTypes.INT().notNull()), DataTypes.FIELD("c", DataTypes.STRING())),
    Row.of(1, 1, "hi#there"), Row.of(2, 2, "hello#world"), Row.of(4, 4, "foo#bar"), Row.of(3, 3, "bar#fiz"),
  );
  const sinkT = (env: TableEnvironment) => {
    const sink = new CollectionSink();
    env.createTemporaryTable("sink_t", sink.descriptor(Schema.newBuilder().column("a", "VARCHAR").column("b", "VARCHAR").build()));
    return sink;
  };
  /** StringSplit(str, separator): every part. */
  const StringSplit = TableFunction.define({
    name: "STRING_SPLIT", args: [DataTypes.STRING(), DataTypes.STRING()], result: DataTypes.STRING(),
    eval(out, s, sep) { if (s !== null && sep !== null) for (const p of s.split(sep)) out.collect(p); },
  });
  /** TableFunc1(str): the '#'-separated parts when str contains '#'. */
  const TableFunc1 = TableFunction.define({
    name: "func1", args: [DataTypes.STRING()], result: DataTypes.STRING(),
    eval(out, s) { if (s !== null && s.includes("#")) for (const p of s.split("#")) out.collect(p); },
  });
  const expected = [
    "+I[hi#there, hi]", "+I[hi#there, there]", "+I[hello#world, hello]", "+I[hello#world, world]",
    "+I[foo#bar, foo]", "+I[foo#bar, bar]", "+I[bar#fiz, bar]", "+I[bar#fiz, fiz]",
  ];

  it("R-075 correlate-system-func: LATERAL TABLE(STRING_SPLIT(c, '#')) AS T(s)", async () => {
    const env = streaming();
    env.createTemporaryFunction("STRING_SPLIT", StringSplit);
    const sink = sinkT(env);
    await source(env).joinLateral(call("STRING_SPLIT", $("c"), lit("#")).as("s")).select($("c"), $("s")).executeInsert("sink_t").await();
    expect(sink.changelog()).toEqual(expected);
  });

  it("R-077 correlate-left-join: LEFT JOIN LATERAL TABLE(func1(c)) AS T(s) ON TRUE", async () => {
    const env = streaming();
    env.createTemporaryFunction("func1", TableFunc1);
    const sink = sinkT(env);
    await source(env).leftOuterJoinLateral(call("func1", $("c")).as("s")).select($("c"), $("s")).executeInsert("sink_t").await();
    expect(sink.changelog()).toEqual(expected);
  });

  it("R-075 as flatMap: the function's rows alone (the s column of the case)", async () => {
    const env = streaming();
    const parts = await source(env).flatMap(call(StringSplit, $("c"), lit("#")).as("s")).execute().toChangelog();
    expect(parts).toEqual(expected.map((r) => `+I[${r.slice(3, -1).split(", ")[1]}]`));
  });
});

describe("§14 group aggregation with UDAFs into upsert sinks (the planner sends no -U)", () => {
  /** SOURCE_TWO (`a INT, b BIGINT, c INT, d VARCHAR, e BIGINT`): before + after rows. */
  const sourceTwo = (env: TableEnvironment) => env.fromValues(
    DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.BIGINT()), DataTypes.FIELD("c", DataTypes.INT()),
      DataTypes.FIELD("d", DataTypes.STRING()), DataTypes.FIELD("e", DataTypes.BIGINT())),
    [
      [2, 3, 2, "Hello World Like", 1], [3, 4, 3, "Hello World Its nice", 2], [2, 2, 1, "Hello World", 2], [1, 1, 0, "Hello", 1],
      [5, 11, 10, "GHI", 1], [3, 5, 4, "ABC", 2], [4, 10, 9, "FGH", 2], [4, 7, 6, "CDE", 2], [5, 14, 13, "JKL", 2], [4, 9, 8, "EFG", 1],
      [5, 15, 14, "KLM", 2], [5, 12, 11, "HIJ", 3], [4, 8, 7, "DEF", 1], [5, 13, 12, "IJK", 3], [3, 6, 5, "BCD", 3],
      // after restore
      [1, 1, 0, "Hello", 1], [3, 5, 4, "ABC", 2], [4, 10, 9, "FGH", 2], [4, 7, 6, "CDE", 2], [7, 7, 7, "MNO", 7], [3, 6, 5, "BCD", 3], [7, 7, 7, "XYZ", 7],
    ].map((r): PositionalRow => Row.of(...r)),
  );
  /** WeightedAvg(value, weight) = sum(value * weight) / sum(weight), as BIGINT. */
  const WeightedAvg = AggregateFunction.define({
    name: "my_avg", args: [DataTypes.BIGINT(), DataTypes.INT()], result: DataTypes.BIGINT(),
    createAccumulator: () => ({ sum: 0, count: 0 }),
    accumulate(acc, v, w) { if (v !== null && w !== null) { acc.sum += v * w; acc.count += w; } },
    merge(acc, others) { for (const o of others) { acc.sum += o.sum; acc.count += o.count; } },
    getValue: (acc) => (acc.count === 0 ? null : Math.trunc(acc.sum / acc.count)),
  });
  /** ConcatDistinct(s): distinct values joined with '|' in first-seen order. */
  const ConcatDistinct = AggregateFunction.define({
    name: "my_concat", args: [DataTypes.STRING()], result: DataTypes.STRING(),
    createAccumulator: () => ({ seen: [] as string[] }),
    accumulate(acc, s) { if (s !== null && !acc.seen.includes(s)) acc.seen.push(s); },
    getValue: (acc) => acc.seen.join("|"),
  });
  /** VarSum1(c, 10): running sum of c + 10; VarSum2(5, c): the sum of its second argument when the first exceeds it (0 here). */
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

  it("R-090 group-aggregate-udf-with-merge: my_avg(e, a), my_concat(d) into sink_t (d BIGINT, s1 BIGINT, c1 VARCHAR, PRIMARY KEY (d))", async () => {
    const env = streaming();
    env.createFunction("my_avg", WeightedAvg);
    env.createTemporaryFunction("my_concat", ConcatDistinct);
    const sink = new CollectionSink();
    env.createTemporaryTable("sink_t", sink.descriptor(Schema.newBuilder()
      .column("d", DataTypes.BIGINT().notNull()).column("s1", "BIGINT").column("c1", "VARCHAR").primaryKey("d").build()));
    await sourceTwo(env).groupBy($("e")).select($("e"), call("my_avg", $("e"), $("a")).as("s1"), call("my_concat", $("d")).as("c1"))
      .executeInsert("sink_t").await();
    expect(sink.changelog()).toEqual([
      "+I[1, 1, Hello World Like]", "+I[2, 2, Hello World Its nice]", "+U[2, 2, Hello World Its nice|Hello World]",
      "+U[1, 1, Hello World Like|Hello]", "+U[1, 1, Hello World Like|Hello|GHI]", "+U[2, 2, Hello World Its nice|Hello World|ABC]",
      "+U[2, 2, Hello World Its nice|Hello World|ABC|FGH]", "+U[2, 2, Hello World Its nice|Hello World|ABC|FGH|CDE]",
      "+U[2, 2, Hello World Its nice|Hello World|ABC|FGH|CDE|JKL]", "+U[1, 1, Hello World Like|Hello|GHI|EFG]",
      "+U[2, 2, Hello World Its nice|Hello World|ABC|FGH|CDE|JKL|KLM]", "+I[3, 3, HIJ]", "+U[1, 1, Hello World Like|Hello|GHI|EFG|DEF]",
      "+U[3, 3, HIJ|IJK]", "+U[3, 3, HIJ|IJK|BCD]",
      // after restore: duplicates of seen d values change nothing
      "+I[7, 7, MNO]", "+U[7, 7, MNO|XYZ]",
    ]);
  });

  it("R-092 group-aggregate-udf-without-merge: my_sum1(c, 10), my_sum2(5, c), my_avg(e, a) into an upsert sink", async () => {
    const env = streaming();
    env.createTemporaryFunction("my_sum1", VarSum1);
    env.createFunction("my_avg", WeightedAvg);
    env.createTemporaryFunction("my_sum2", VarSum2);
    const sink = new CollectionSink();
    env.createTemporaryTable("sink_t", sink.descriptor(Schema.newBuilder()
      .column("d", DataTypes.BIGINT().notNull()).column("s1", "BIGINT").column("s2", "BIGINT").column("s3", "BIGINT").primaryKey("d").build()));
    await sourceTwo(env).groupBy($("e"))
      .select($("e"), call("my_sum1", $("c"), lit(10)).as("s1"), call("my_sum2", lit(5), $("c")).as("s2"), call("my_avg", $("e"), $("a")).as("s3"))
      .executeInsert("sink_t").await();
    expect(sink.changelog()).toEqual([
      "+I[1, 12, 0, 1]", "+I[2, 13, 0, 2]", "+U[2, 24, 0, 2]", "+U[1, 22, 0, 1]", "+U[1, 42, 0, 1]", "+U[2, 38, 0, 2]", "+U[2, 57, 0, 2]",
      "+U[2, 73, 0, 2]", "+U[2, 96, 0, 2]", "+U[1, 60, 0, 1]", "+U[2, 120, 0, 2]", "+I[3, 21, 0, 3]", "+U[1, 77, 0, 1]", "+U[3, 43, 0, 3]",
      "+U[3, 58, 0, 3]",
      "+U[1, 87, 0, 1]", "+U[2, 134, 0, 2]", "+U[2, 153, 0, 2]", "+U[2, 169, 0, 2]", "+I[7, 17, 0, 7]", "+U[3, 73, 0, 3]", "+U[7, 34, 0, 7]",
    ]);
  });
});

describe("§22 changelog normalize (upsert / CDC sources)", () => {
  /** `source_t (a VARCHAR, b INT NOT NULL, c VARCHAR, PRIMARY KEY(a))` with changelog-mode I,UA,UB,D: BEFORE_DATA + AFTER_DATA. */
  const BEFORE = [
    ["+I", "one", 1, "a"], ["+I", "two", 2, "b"], ["-U", "one", 1, "a"], ["+U", "one", 1, "aa"], ["+I", "three", 3, "c"],
    ["-D", "two", 2, "b"], ["-U", "three", 3, "c"], ["+U", "three", 3, "cc"],
  ] as const;
  const AFTER = [["+I", "four", 4, "d"], ["+I", "five", 5, "e"], ["-U", "four", 4, "d"], ["+U", "four", 4, "dd"], ["+I", "six", 6, "f"], ["-D", "six", 6, "f"]] as const;
  const KIND = { "+I": RowKind.INSERT, "-U": RowKind.UPDATE_BEFORE, "+U": RowKind.UPDATE_AFTER, "-D": RowKind.DELETE } as const;
  const schema = Schema.newBuilder().column("a", DataTypes.STRING().notNull()).column("b", DataTypes.INT().notNull()).column("c", DataTypes.STRING())
    .primaryKey("a").build();
  const rows = (data: readonly (readonly [keyof typeof KIND, string, number, string])[]) => data.map(([k, ...v]) => Row.ofKind(KIND[k], ...v));
  const show = (data: readonly (readonly [string, string, number, string])[]) => data.map(([k, a, b, c]) => `${k}[${a}, ${b}, ${c}]`);

  function run(config: Record<string, string>) {
    const env = streaming();
    for (const [k, v] of Object.entries(config)) env.getConfig().set(k, v);
    const sink = new CollectionSink();
    env.createTemporaryTable("sink_t", sink.descriptor(Schema.newBuilder().column("a", "VARCHAR").column("b", "INT").column("c", "VARCHAR").build()));
    const pipeline = env.fromValues(schema, [...rows(BEFORE), ...rows(AFTER)]).select($("a"), $("b"), $("c")).insertInto("sink_t");
    return { sink, pipeline };
  }

  it("R-146 changelog-normalize-source: cdc-events-duplicate puts a ChangelogNormalize after the source; the sink gets BEFORE_OUTPUT + AFTER_OUTPUT", async () => {
    const { sink, pipeline } = run({ "table.exec.source.cdc-events-duplicate": "true" });
    expect(pipeline.explain()).toContain("ChangelogNormalize(key=[a], changelogMode=[I,UB,UA,D])");
    await pipeline.execute().await();
    expect(sink.changelog()).toEqual([...show(BEFORE), ...show(AFTER)]);
  });

  it("R-147 changelog-normalize-source-mini-batch: the same rows (mini-batch folds nothing away here)", async () => {
    const { sink, pipeline } = run({
      "table.exec.source.cdc-events-duplicate": "true", "table.exec.mini-batch.enabled": "true", "table.exec.mini-batch.allow-latency": "10 s", "table.exec.mini-batch.size": "2",
    });
    await pipeline.execute().await();
    expect(sink.changelog()).toEqual([...show(BEFORE), ...show(AFTER)]);
  });

  it("an upsert source (I, UA, D) into a retract sink is normalized: -U/+U with the previous row, full deletes, duplicates dropped", async () => {
    const env = streaming();
    const sink = new CollectionSink();
    const t = env.fromValues(schema, Row.of("k", 1, "a"), Row.ofKind(RowKind.UPDATE_AFTER, "k", 1, "b"), Row.ofKind(RowKind.UPDATE_AFTER, "k", 1, "b"),
      Row.ofKind(RowKind.DELETE, "k", 0, null));
    expect(t.changelogMode()).toBe("[I,UA,D]");
    await t.executeInsert(sink.descriptor(Schema.newBuilder().column("a", "STRING").column("b", "INT").column("c", "STRING").build())).await();
    expect(sink.changelog()).toEqual(["+I[k, 1, a]", "-U[k, 1, a]", "+U[k, 1, b]", "-D[k, 1, b]"]);
  });

  it("an upsert sink keyed like the source reads the upsert changelog as it is (no ChangelogNormalize)", async () => {
    const env = streaming();
    const sink = new CollectionSink();
    const t = env.fromValues(schema, Row.of("k", 1, "a"), Row.ofKind(RowKind.UPDATE_AFTER, "k", 2, "b"), Row.ofKind(RowKind.DELETE, "k", 0, null));
    const pipeline = t.insertInto(sink.descriptor(Schema.newBuilder().column("a", DataTypes.STRING().notNull()).column("b", "INT").column("c", "STRING").primaryKey("a").build()));
    expect(pipeline.explain()).not.toContain("ChangelogNormalize");
    await pipeline.execute().await();
    // a key-only delete reaches the upsert sink as the source sent it
    expect(sink.changelog()).toEqual(["+I[k, 1, a]", "+U[k, 2, b]", "-D[k, 0, null]"]);
    expect(sink.materialized()).toEqual([]);
  });
});

describe("property: an upsert sink's materialized table equals the materialized retract changelog", () => {
  const KV = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT()));
  const input = fc.array(fc.tuple(fc.constantFrom("a", "b", "c", "d"), fc.integer({ min: -3, max: 3 }), fc.boolean()), { maxLength: 30 });

  it("holds for random inserts and retractions (sums by key, written to both sinks by one statement set)", async () => {
    await fc.assert(fc.asyncProperty(input, async (commands) => {
      // a valid changelog: a retraction removes a row that is present
      const present: [string, number][] = [];
      const rows: PositionalRow[] = [];
      for (const [k, v, retract] of commands) {
        const at = present.findIndex((r) => r[0] === k);
        if (retract && at >= 0) {
          const [r] = present.splice(at, 1);
          rows.push(Row.ofKind(RowKind.DELETE, r![0], r![1]));
        } else {
          present.push([k, v]);
          rows.push(Row.of(k, v));
        }
      }
      const env = streaming();
      const sums = env.fromValues(KV, rows).groupBy($("k")).select($("k"), $("v").sum().as("total"), $("v").count().as("n"));
      const upsert = new CollectionSink<{ k: string; total: number | null; n: number }>();
      const retract = new CollectionSink<{ k: string; total: number | null; n: number }>();
      const columns = () => Schema.newBuilder().column("k", DataTypes.STRING().notNull()).column("total", "INT").column("n", DataTypes.BIGINT().notNull());
      await env.createStatementSet()
        .addInsert(upsert.descriptor(columns().primaryKey("k").build()), sums)
        .addInsert(retract.descriptor(columns().build()), sums)
        .execute().await();
      expect(upsert.changelog().some((l) => l.startsWith("-U"))).toBe(false);
      const byKey = (r: { k: string }[]) => [...r].sort((x, y) => (x.k < y.k ? -1 : 1));
      expect(byKey(upsert.materialized())).toEqual(byKey(retract.materialized()));
    }), { numRuns: 50 });
  });
});
