// Two-phase (local/global) mini-batch group aggregation (table.optimizer.agg-phase-strategy): the global
// bundle counts keys handed on by the local one, keys go in Flink's bundle-map order, user functions without
// merge stay in one phase, explain() shows both phases, an open local bundle is checkpoint state, and the
// materialized result is the one without mini-batch. Flink's own rows: R-089, R-091 (catalogue tests).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  $, AggregateFunction, DataTypes, EnvironmentSettings, Row, RowKind, type Table, TableEnvironment, ValidationError, call, lit,
} from "../../src/index.js";
import { buildJobGraph } from "../../src/exec/job-graph.js";
import { OPERATORS } from "../../src/table/wiring.js";
import { toJavaString } from "../../src/types/format.js";
import { KIND_SHORT } from "../../src/types/row.js";
import { checkWellFormed, materialize } from "./mini-batch-support.js";

const MINI_BATCH = new Map([
  ["table.exec.mini-batch.enabled", "true"], ["table.exec.mini-batch.allow-latency", "10 s"], ["table.exec.mini-batch.size", "3"],
]);
const with_ = (base: ReadonlyMap<string, string>, key: string, value: string) => new Map([...base, [key, value]]);

const env = (config: ReadonlyMap<string, string> = new Map()) => {
  const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  for (const [k, v] of config) e.getConfig().set(k, v);
  return e;
};
const KV = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.BIGINT()), DataTypes.FIELD("v", DataTypes.INT()));

/** SUM(v) per BIGINT k over the rows (BIGINT keys go in Flink's order 3, 2, 1 in a map of 16 buckets). */
function sums(e: TableEnvironment, rows: readonly (readonly [number, number])[]): Table<object> {
  return e.fromValues(KV, ...rows.map(([k, v]) => Row.of(k, v))).groupBy($("k")).select($("k"), $("v").sum().as("s")) as unknown as Table<object>;
}

const Concat = AggregateFunction.define({
  name: "concat_all", args: [DataTypes.STRING()], result: DataTypes.STRING(),
  createAccumulator: () => ({ s: [] as string[] }),
  accumulate(acc, v) { if (v !== null) acc.s.push(v); },
  getValue: (acc) => acc.s.join(","),
});
const ConcatWithMerge = AggregateFunction.define({
  name: "concat_merge", args: [DataTypes.STRING()], result: DataTypes.STRING(),
  createAccumulator: () => ({ s: [] as string[] }),
  accumulate(acc, v) { if (v !== null) acc.s.push(v); },
  merge(acc, others) { for (const o of others) acc.s.push(...o.s); },
  getValue: (acc) => acc.s.join(","),
});

describe("two-phase group aggregation", () => {
  it("the global bundle holds `size` keys handed on; a local bundle of keys {1, 2} hands on 2 before 1", async () => {
    const rows = [[1, 10], [2, 20], [1, 1], [3, 30], [1, 1], [2, 2]] as const;
    expect(await sums(env(MINI_BATCH), rows).execute().toChangelog()).toEqual([
      // local bundle 1 (1, 2, 1) hands on 2, 1; local bundle 2 (3, 1, 2) hands on 3: the global bundle holds
      // three keys and emits (in its order of first touch: 2, 1, 3)
      "+I[2, 20]", "+I[1, 11]", "+I[3, 30]",
      // then 2 and 1 of local bundle 2 wait in the global bundle until the end of input
      "-U[2, 20]", "+U[2, 22]", "-U[1, 11]", "+U[1, 12]",
    ]);
    // one phase over the same rows: bundles of three records
    expect(await sums(env(with_(MINI_BATCH, "table.optimizer.agg-phase-strategy", "ONE_PHASE")), rows).execute().toChangelog()).toEqual([
      "+I[1, 11]", "+I[2, 20]", "+I[3, 30]", "-U[1, 11]", "+U[1, 12]", "-U[2, 20]", "+U[2, 22]",
    ]);
  });

  it("a retraction goes through the local bundle with its key's other records, in their order", async () => {
    const e = env(with_(MINI_BATCH, "table.exec.mini-batch.size", "2"));
    const t = e.fromValues(KV, Row.of(1, 5), Row.of(2, 7), Row.ofKind(RowKind.DELETE, 1, 5), Row.of(1, 6), Row.ofKind(RowKind.DELETE, 2, 7), Row.of(3, 1));
    const counts = t.groupBy($("k")).select($("k"), $("v").sum().as("s"), lit(1).count().as("n"));
    expect(await counts.execute().toChangelog()).toEqual([
      // local bundle (1, 2): 2 then 1 fill the global bundle
      "+I[2, 7, 1]", "+I[1, 5, 1]",
      // local bundle (-1, 1): one key, -5 then +6; local bundle (-2, 3): 3 then 2, the global bundle is full after 3
      "-U[1, 5, 1]", "+U[1, 6, 1]", "+I[3, 1, 1]",
      // end of input: 2 emptied
      "-D[2, 7, 1]",
    ]);
  });

  it("a user aggregate function without merge keeps the aggregate in one phase; with merge it runs in two", async () => {
    const run = async (fn: typeof Concat | typeof ConcatWithMerge) => {
      const e = env(MINI_BATCH);
      const t = e.fromValues(DataTypes.ROW(DataTypes.FIELD("k", DataTypes.BIGINT()), DataTypes.FIELD("s", DataTypes.STRING())),
        Row.of(1, "a"), Row.of(2, "b"), Row.of(1, "c"), Row.of(3, "d"), Row.of(1, "e"), Row.of(2, "f"));
      const r = t.groupBy($("k")).select($("k"), call(fn, $("s")).as("c"));
      return { explain: r.explain(), rows: await r.execute().toChangelog() };
    };
    const one = await run(Concat);
    expect(one.explain).not.toContain("LocalGroupAggregate");
    expect(one.rows).toEqual(["+I[1, a,c]", "+I[2, b]", "+I[3, d]", "-U[1, a,c]", "+U[1, a,c,e]", "-U[2, b]", "+U[2, b,f]"]);
    const two = await run(ConcatWithMerge);
    expect(two.explain).toContain("LocalGroupAggregate");
    // local bundle 2 hands on 3 first: the global bundle is full before 1's "e" and 2's "f" reach it
    expect(two.rows).toEqual(["+I[2, b]", "+I[1, a,c]", "+I[3, d]", "-U[2, b]", "+U[2, b,f]", "-U[1, a,c]", "+U[1, a,c,e]"]);
  });

  it("explain() shows a GlobalGroupAggregate over a LocalGroupAggregate; ONE_PHASE or no mini-batch shows one Aggregate", () => {
    const t = (config: ReadonlyMap<string, string>) => sums(env(config), [[1, 1]]).explain();
    expect(t(MINI_BATCH)).toBe([
      "== Logical Plan ==",
      "GlobalGroupAggregate(groupBy=[k], select=[k, SUM(v) AS s], changelogMode=[I,UB,UA]) -> [k: BIGINT, s: INT]",
      "+- LocalGroupAggregate(groupBy=[k], select=[k, SUM(v) AS s], changelogMode=[I]) -> [k: BIGINT, s: INT]",
      "   +- Values(rows=1, changelogMode=[I]) -> [k: BIGINT, v: INT]",
    ].join("\n"));
    for (const config of [with_(MINI_BATCH, "table.optimizer.agg-phase-strategy", "ONE_PHASE"), new Map<string, string>(),
      new Map([["table.optimizer.agg-phase-strategy", "TWO_PHASE"]])]) {
      expect(t(config)).not.toContain("LocalGroupAggregate");
      expect(t(config)).toContain("\nAggregate(groupBy=[k]");
    }
    expect(t(with_(MINI_BATCH, "table.optimizer.agg-phase-strategy", "two_phase"))).toContain("LocalGroupAggregate");
  });

  it("checks table.optimizer.agg-phase-strategy, naming it", async () => {
    const e = env(with_(MINI_BATCH, "table.optimizer.agg-phase-strategy", "BOTH"));
    await expect(sums(e, [[1, 1]]).execute().toChangelog()).rejects.toThrow(
      new ValidationError("table.optimizer.agg-phase-strategy: expected one of AUTO, ONE_PHASE, TWO_PHASE, got 'BOTH'"));
  });

  it("an open local bundle and an open global bundle are checkpoint state: restored, the job emits what it would have", async () => {
    const rows = [[1, 10], [2, 20], [1, 1], [3, 30], [1, 1], [2, 2], [3, 3], [4, 4]] as const;
    const table = sums(env(MINI_BATCH), rows);
    const types = table.getResolvedSchema().types;
    const settings = { batch: false, config: MINI_BATCH, clock: () => 0 };
    const out: string[] = [];
    const phase = () => buildJobGraph(table.node, settings, {
      record: (k, v) => { out.push(`${KIND_SHORT[k]}[${v.map((x, i) => toJavaString(types[i], x)).join(", ")}]`); },
    }, OPERATORS);
    const whole = async () => sums(env(MINI_BATCH), rows).execute().toChangelog();
    // five rows in: the global bundle holds 2, 1 (local bundle 1) and the local bundle holds 3, 1
    const first = phase();
    for (const op of first.operators) op.open();
    const src = first.sources[0]!;
    expect(src.reader.poll(src.emitter.out, 5)).toBe("more");
    expect(out).toEqual([]);
    // a snapshot without the pre-barrier flush keeps both bundles
    const snapshot = first.operators.map((op) => op.snapshotState());
    const position = src.reader.position();
    const second = phase();
    second.operators.forEach((op, i) => op.restoreState(snapshot[i]));
    for (const op of second.operators) op.open();
    const src2 = second.sources[0]!;
    src2.reader.seek(position);
    while (src2.reader.poll(src2.emitter.out, 1000) !== "end");
    expect(out).toEqual(await whole());
    expect(out.length).toBeGreaterThan(0);
  });

  it("property: two phases, one phase and no mini-batch materialize the same result; the changelogs are well formed", async () => {
    const row = fc.tuple(fc.constantFrom("a", "b", "c", "d", "a long key of more than seven bytes"), fc.integer({ min: -50, max: 50 }), fc.boolean());
    await fc.assert(fc.asyncProperty(fc.array(row, { maxLength: 40 }), fc.integer({ min: 1, max: 7 }), async (rows, size) => {
      const run = async (config: ReadonlyMap<string, string>) => {
        const e = env(config);
        const t = e.fromValues(DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT()), DataTypes.FIELD("f", DataTypes.BOOLEAN())),
          ...rows.map(([k, v, f]) => Row.of(k, v, f)));
        // two levels: the outer aggregate gets the inner one's retractions; DISTINCT and a composite key
        const inner = t.groupBy($("k"), $("f")).select($("k"), $("f"), $("v").sum().as("s"), $("v").count().distinct().as("d"), $("v").min().as("m"));
        const outer = inner.addColumns($("s").mod(3).as("bucket")).groupBy($("bucket")).select($("bucket"), lit(1).count().as("n"), $("m").max().as("mm"), $("d").sum().as("sd"));
        return outer.execute().toChangelog();
      };
      const plain = await run(new Map());
      const sized = with_(MINI_BATCH, "table.exec.mini-batch.size", String(size));
      for (const config of [sized, with_(sized, "table.optimizer.agg-phase-strategy", "ONE_PHASE")]) {
        const folded = await run(config);
        checkWellFormed(folded);
        expect(materialize(folded)).toEqual(materialize(plain));
      }
    }), { numRuns: 40 });
  });
});
