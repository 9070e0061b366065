// Mini-batch group aggregation (table.exec.mini-batch.*): Flink's GROUP_BY_*_MINI_BATCH programs with a real
// restore, the bundle rules in small programs, and the property that folding changes nothing but the changelog's
// granularity: the materialized result equals the one without mini-batch.
import fc from "fast-check";
import { expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, Row, RowKind, type Table, TableEnvironment, ValidationError, ifThenElse, lit, nullOf } from "../../src/index.js";
import { restoreRun } from "../table/relational-support.js";
import { checkWellFormed, materialize } from "./mini-batch-support.js";
import { activeBackendOptions, backendSuite } from "../support/state-backends.js";

const MINI_BATCH = new Map([
  ["table.exec.mini-batch.enabled", "true"], ["table.exec.mini-batch.allow-latency", "10 s"], ["table.exec.mini-batch.size", "5"],
]);

/** Flink's one-phase MiniBatchGroupAggFunction (two phases are the default where every aggregate can merge). */
const ONE_PHASE = new Map([...MINI_BATCH, ["table.optimizer.agg-phase-strategy", "ONE_PHASE"]]);

/** `config` with the options of the state backend the suite runs on. */
const onBackend = (config: ReadonlyMap<string, string> = new Map()) => new Map([...config, ...Object.entries(activeBackendOptions())]);

const env = (config: ReadonlyMap<string, string> = new Map()) => {
  const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  for (const [k, v] of onBackend(config)) e.getConfig().set(k, v);
  return e;
};

const SOURCE_ONE = DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.BIGINT()), DataTypes.FIELD("c", DataTypes.STRING()));

/** R-086's query: `SELECT b, COUNT(*) AS cnt, AVG(a) FILTER (WHERE a > 1) AS avg_a, MIN(c) AS min_c FROM source_t GROUP BY b`. */
function simple(e: TableEnvironment): Table<object> {
  const t = e.fromValues(SOURCE_ONE,
    Row.of(1, 1, "Hi"), Row.of(2, 2, "Hello"), Row.of(2, 2, "Hello World"),
    Row.of(1, 1, "Hi Again!"), Row.of(2, 2, "Hello Again!"), Row.of(2, 2, "Hello World Again!"));
  return t.groupBy($("b")).select(
    $("b"), lit(1).count().as("cnt"),
    ifThenElse($("a").isGreater(1), $("a").cast(DataTypes.DOUBLE()), nullOf(DataTypes.DOUBLE())).avg().as("avg_a"),
    $("c").min().as("min_c"),
  ) as unknown as Table<object>;
}

backendSuite("mini-batch group aggregation (Flink's MiniBatchGroupAggFunction)", () => {
  it("R-087 group-aggregate-simple-mini-batch: one change per key per bundle; the savepoint ends the bundle", () => {
    const r = restoreRun(simple(env(ONE_PHASE)), 3, onBackend(ONE_PHASE));
    // Flink's upsert sink shows +I[1, 1, null, Hi], +I[2, 2, 2.0, Hello] | +U[1, 2, null, Hi], +U[2, 4, 2.0, Hello]
    expect(r.before).toEqual(["+I[1, 1, null, Hi]", "+I[2, 2, 2.0, Hello]"]);
    expect(r.after).toEqual(["-U[1, 1, null, Hi]", "+U[1, 2, null, Hi]", "-U[2, 2, 2.0, Hello]", "+U[2, 4, 2.0, Hello]"]);
  });

  it("R-087 in two phases (Flink's plan for it): the same rows, keys handed on in Flink's bundle-map order (BIGINT 2 before 1)", () => {
    const r = restoreRun(simple(env(MINI_BATCH)), 3, onBackend(MINI_BATCH));
    expect(r.before).toEqual(["+I[2, 2, 2.0, Hello]", "+I[1, 1, null, Hi]"]);
    expect(r.after).toEqual(["-U[2, 2, 2.0, Hello]", "+U[2, 4, 2.0, Hello]", "-U[1, 1, null, Hi]", "+U[1, 2, null, Hi]"]);
  });

  it("without mini-batch the same program emits every change (R-086)", () => {
    const r = restoreRun(simple(env()), 3, onBackend());
    expect(r.before).toEqual(["+I[1, 1, null, Hi]", "+I[2, 1, 2.0, Hello]", "-U[2, 1, 2.0, Hello]", "+U[2, 2, 2.0, Hello]"]);
    expect(r.after).toEqual([
      "-U[1, 1, null, Hi]", "+U[1, 2, null, Hi]", "-U[2, 2, 2.0, Hello]", "+U[2, 3, 2.0, Hello]", "-U[2, 3, 2.0, Hello]", "+U[2, 4, 2.0, Hello]",
    ]);
  });

  it("a bundle ends after `size` records; groups are emitted in order of first touch", async () => {
    const config = new Map([...ONE_PHASE, ["table.exec.mini-batch.size", "3"]]);
    const e = env(config);
    const t = e.fromValues(DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT())),
      Row.of("b", 1), Row.of("a", 1), Row.of("b", 1), Row.of("a", 5), Row.of("c", 2), Row.of("a", -5), Row.of("c", 1));
    const sums = t.groupBy($("k")).select($("k"), $("v").sum().as("s"));
    expect(await sums.execute().toChangelog()).toEqual([
      // bundle 1: b, a, b
      "+I[b, 2]", "+I[a, 1]",
      // bundle 2: a, c, a — a's result is 1 again: no change
      "+I[c, 2]",
      // end of input: c
      "-U[c, 2]", "+U[c, 3]",
    ]);
  });

  it("a group emptied in a bundle is deleted once; created and emptied in one bundle it emits nothing", async () => {
    const e = env(new Map([...ONE_PHASE, ["table.exec.mini-batch.size", "4"]]));
    const t = e.fromValues(DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT())),
      Row.of("a", 1), Row.of("b", 1),
      Row.ofKind(RowKind.DELETE, "a", 1), Row.ofKind(RowKind.DELETE, "a", 1),
      Row.ofKind(RowKind.DELETE, "b", 1), Row.of("c", 7), Row.ofKind(RowKind.DELETE, "c", 7), Row.of("b", 3));
    const counts = t.groupBy($("k")).select($("k"), $("v").sum().as("s"), lit(1).count().as("n"));
    // bundle 1 (a, b, -a, -a): a created and emptied (the second -a finds no row: ignored); b new
    // bundle 2 (-b, c, -c, b): b emptied and re-added with 3: an update; c created and emptied: nothing
    expect(await counts.execute().toChangelog()).toEqual(["+I[b, 1, 1]", "-U[b, 1, 1]", "+U[b, 3, 1]"]);
  });

  it("property: the materialized result equals the one without mini-batch; the changelog is well formed", async () => {
    const row = fc.tuple(fc.constantFrom("a", "b", "c", "d"), fc.integer({ min: -50, max: 50 }));
    await fc.assert(fc.asyncProperty(fc.array(row, { maxLength: 40 }), fc.integer({ min: 1, max: 7 }), async (rows, size) => {
      const run = async (config: ReadonlyMap<string, string>) => {
        const e = env(config);
        const t = e.fromValues(DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT())),
          ...rows.map(([k, v]) => Row.of(k, v)));
        // a two-level plan: the outer aggregate consumes the inner one's updates (retractions reach it)
        const inner = t.groupBy($("k")).select($("k"), $("v").sum().as("s"), $("v").max().as("m"));
        const outer = inner.addColumns($("s").mod(3).as("bucket")).groupBy($("bucket")).select($("bucket"), lit(1).count().as("n"), $("m").max().as("mm"));
        return { inner: await inner.execute().toChangelog(), outer: await outer.execute().toChangelog() };
      };
      const plain = await run(new Map());
      const folded = await run(new Map([...MINI_BATCH, ["table.exec.mini-batch.size", String(size)]]));
      checkWellFormed(folded.outer);
      // one level folds changes away; two levels need not: the outer bundle sees the inner's changes per key,
      // an interleaving the unfolded run never had (e.g. [a,0],[b,-35],[a,-22],[b,-40] in bundles of 2: 8 > 6)
      expect(folded.inner.length).toBeLessThanOrEqual(plain.inner.length);
      expect(materialize(folded.inner)).toEqual(materialize(plain.inner));
      expect(materialize(folded.outer)).toEqual(materialize(plain.outer));
    }), { numRuns: 60 });
  });

  it("checks its options, naming them", async () => {
    const bad = (config: [string, string][]) => {
      const e = env(new Map(config));
      const t = e.fromValues(DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING())), Row.of("a"));
      return t.groupBy($("k")).select($("k"), lit(1).count().as("n")).execute().toChangelog();
    };
    await expect(bad([["table.exec.mini-batch.enabled", "true"], ["table.exec.mini-batch.size", "5"]])).rejects.toThrow(
      new ValidationError("table.exec.mini-batch.allow-latency must be greater than 0 when table.exec.mini-batch.enabled is true (got nothing)"));
    await expect(bad([["table.exec.mini-batch.enabled", "true"], ["table.exec.mini-batch.allow-latency", "1 s"], ["table.exec.mini-batch.size", "0"]])).rejects.toThrow(
      new ValidationError("table.exec.mini-batch.size must be a positive integer when table.exec.mini-batch.enabled is true (got '0')"));
    await expect(bad([["table.exec.mini-batch.enabled", "yes"]])).rejects.toThrow(new ValidationError("table.exec.mini-batch.enabled: expected 'true' or 'false', got 'yes'"));
  });
});
