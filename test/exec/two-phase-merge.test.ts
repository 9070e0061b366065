// Two-phase aggregation with a user AggregateFunction's merge: the local phase builds one accumulator per
// key and bundle (accumulate / retract), the global phase merges it into the group's with merge(acc, [local]);
// a DISTINCT call folds its values instead (Flink merges distinct-value maps and accumulates the new values);
// a function without merge keeps the aggregate in one phase even with TWO_PHASE forced (Flink falls back);
// an open local bundle holding user accumulators is checkpoint state.
import { describe, expect, it } from "vitest";
import { $, AggregateFunction, DataTypes, EnvironmentSettings, Row, RowKind, type Table, TableEnvironment, call } from "../../src/index.js";
import { buildJobGraph } from "../../src/exec/job-graph.js";
import { OPERATORS } from "../../src/table/wiring.js";
import { toJavaString } from "../../src/types/format.js";
import { KIND_SHORT } from "../../src/types/row.js";
import { materialize } from "./mini-batch-support.js";

const MINI_BATCH = new Map([
  ["table.exec.mini-batch.enabled", "true"], ["table.exec.mini-batch.allow-latency", "10 s"], ["table.exec.mini-batch.size", "3"],
]);
const with_ = (base: ReadonlyMap<string, string>, key: string, value: string) => new Map([...base, [key, value]]);
const TWO = with_(MINI_BATCH, "table.optimizer.agg-phase-strategy", "TWO_PHASE");
const ONE = with_(MINI_BATCH, "table.optimizer.agg-phase-strategy", "ONE_PHASE");

const env = (config: ReadonlyMap<string, string>) => {
  const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  for (const [k, v] of config) e.getConfig().set(k, v);
  return e;
};
const KS = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.BIGINT()), DataTypes.FIELD("s", DataTypes.STRING()));

/** The calls the functions below received, as `accumulate x`, `retract x`, `merge <acc> <- <others>`. */
let calls: string[] = [];
const show = (acc: { m: Record<string, number> }) => Object.keys(acc.m).sort().map((k) => `${k}${acc.m[k]}`).join("") || "{}";

/** The values of a group with their multiplicities, a retraction before its accumulate included (a local accumulator may see that). */
const Bag = AggregateFunction.define({
  name: "bag", args: [DataTypes.STRING()], result: DataTypes.STRING(),
  createAccumulator: () => ({ m: {} as Record<string, number> }),
  accumulate(acc, v) { calls.push(`accumulate ${v}`); if (v !== null) acc.m[v] = (acc.m[v] ?? 0) + 1; },
  retract(acc, v) { calls.push(`retract ${v}`); if (v !== null) acc.m[v] = (acc.m[v] ?? 0) - 1; },
  merge(acc, others) {
    calls.push(`merge ${show(acc)} <- ${others.map(show).join(" ")}`);
    for (const o of others) for (const [k, n] of Object.entries(o.m)) acc.m[k] = (acc.m[k] ?? 0) + n;
  },
  getValue: (acc) => Object.keys(acc.m).filter((k) => acc.m[k]! > 0).sort().map((k) => k.repeat(acc.m[k]!)).join(","),
});
/** The same without merge. */
const BagNoMerge = AggregateFunction.define({
  name: "bag_no_merge", args: [DataTypes.STRING()], result: DataTypes.STRING(),
  createAccumulator: () => ({ m: {} as Record<string, number> }),
  accumulate(acc, v) { calls.push(`accumulate ${v}`); if (v !== null) acc.m[v] = (acc.m[v] ?? 0) + 1; },
  getValue: (acc) => Object.keys(acc.m).sort().join(","),
});

const ROWS = [Row.of(1, "a"), Row.of(2, "b"), Row.of(1, "c"), Row.of(3, "d"), Row.of(1, "e"), Row.of(2, "f")];
const bags = (config: ReadonlyMap<string, string>, fn: typeof Bag | typeof BagNoMerge = Bag, rows: readonly unknown[] = ROWS): Table<object> =>
  env(config).fromValues(KS, ...(rows as typeof ROWS)).groupBy($("k")).select($("k"), call(fn, $("s")).as("b"), $("s").count().as("n")) as unknown as Table<object>;

describe("two-phase aggregation merges user accumulators", () => {
  it("the local phase accumulates, the global phase merges one accumulator per key and bundle; ONE_PHASE accumulates in the group", async () => {
    calls = [];
    const two = await bags(TWO).execute().toChangelog();
    // local bundle 1 (1, 2, 1) hands on 2, 1; local bundle 2 (3, 1, 2) hands on 3, 2, 1: the global bundle
    // is full after 3 and emits; 2 and 1 wait in it until the end of input
    expect(two).toEqual([
      "+I[2, b, 1]", "+I[1, a,c, 2]", "+I[3, d, 1]", "-U[2, b, 1]", "+U[2, b,f, 2]", "-U[1, a,c, 2]", "+U[1, a,c,e, 3]",
    ]);
    expect(calls).toEqual([
      // the local accumulators, in arrival order
      "accumulate a", "accumulate b", "accumulate c",
      // local bundle 1 handed on: fresh group accumulators merge the local ones, in Flink's key order
      "merge {} <- b1", "merge {} <- a1c1",
      "accumulate d", "accumulate e", "accumulate f",
      "merge {} <- d1", "merge b1 <- f1", "merge a1c1 <- e1",
    ]);
    calls = [];
    const one = await bags(ONE).execute().toChangelog();
    expect(one).toEqual([
      "+I[1, a,c, 2]", "+I[2, b, 1]", "+I[3, d, 1]", "-U[1, a,c, 2]", "+U[1, a,c,e, 3]", "-U[2, b, 1]", "+U[2, b,f, 2]",
    ]);
    expect(calls).toEqual(["accumulate a", "accumulate b", "accumulate c", "accumulate d", "accumulate e", "accumulate f"]);
    expect(materialize(two)).toEqual(materialize(one));
  });

  it("retractions go to the local accumulator (before an accumulate of the same bundle too) and are merged; an emptied group is deleted", async () => {
    calls = [];
    const rows = [Row.of(1, "a"), Row.of(2, "b"), Row.ofKind(RowKind.DELETE, 1, "a"), Row.of(1, "c"), Row.ofKind(RowKind.DELETE, 2, "b"), Row.of(3, "d")];
    const size2 = with_(TWO, "table.exec.mini-batch.size", "2");
    const two = await bags(size2, Bag, rows).execute().toChangelog();
    expect(two).toEqual(["+I[2, b, 1]", "+I[1, a, 1]", "-U[1, a, 1]", "+U[1, c, 1]", "+I[3, d, 1]", "-D[2, b, 1]"]);
    expect(calls).toEqual([
      "accumulate a", "accumulate b", "merge {} <- b1", "merge {} <- a1",
      // one key in local bundle 2: its accumulator holds a retracted and c added
      "retract a", "accumulate c", "merge a1 <- a-1c1",
      "retract b", "accumulate d", "merge {} <- d1", "merge b1 <- b-1",
    ]);
    const one = await bags(with_(ONE, "table.exec.mini-batch.size", "2"), Bag, rows).execute().toChangelog();
    expect(materialize(two)).toEqual(materialize(one));
    expect(materialize(two)).toEqual(["[1, c, 1]", "[3, d, 1]"]);
  });

  it("a DISTINCT call folds the distinct values into the group (no merge of the function), as Flink's distinct merge accumulates the values new to it", async () => {
    calls = [];
    const rows = [Row.of(1, "a"), Row.of(1, "a"), Row.of(1, "b"), Row.of(1, "a"), Row.of(1, "c")];
    // bundles of one record: each is handed on and emitted alone
    const t = env(with_(TWO, "table.exec.mini-batch.size", "1")).fromValues(KS, ...rows).groupBy($("k")).select($("k"), call(Bag, $("s")).distinct().as("b"));
    expect(t.explain()).toContain("LocalGroupAggregate");
    expect(await t.execute().toChangelog()).toEqual(["+I[1, a]", "-U[1, a]", "+U[1, a,b]", "-U[1, a,b]", "+U[1, a,b,c]"]);
    expect(calls).toEqual(["accumulate a", "accumulate b", "accumulate c"]);
  });

  it("a function without merge keeps one phase, TWO_PHASE forced or not (Flink's rule does not match: no error)", async () => {
    for (const config of [TWO, MINI_BATCH]) {
      calls = [];
      const t = bags(config, BagNoMerge);
      expect(t.explain()).not.toContain("LocalGroupAggregate");
      expect(await t.execute().toChangelog()).toEqual([
        "+I[1, a,c, 2]", "+I[2, b, 1]", "+I[3, d, 1]", "-U[1, a,c, 2]", "+U[1, a,c,e, 3]", "-U[2, b, 1]", "+U[2, b,f, 2]",
      ]);
      expect(calls).toHaveLength(6);
    }
  });

  it("explain() shows both phases with the user function in each", () => {
    expect(bags(TWO, Bag, [Row.of(1, "a")]).explain()).toBe([
      "== Logical Plan ==",
      "GlobalGroupAggregate(groupBy=[k], select=[k, bag(s) AS b, COUNT(s) AS n], changelogMode=[I,UB,UA]) -> [k: BIGINT, b: STRING, n: BIGINT NOT NULL]",
      "+- LocalGroupAggregate(groupBy=[k], select=[k, bag(s) AS b, COUNT(s) AS n], changelogMode=[I]) -> [k: BIGINT, b: STRING, n: BIGINT NOT NULL]",
      "   +- Values(rows=1, changelogMode=[I]) -> [k: BIGINT, s: STRING]",
    ].join("\n"));
  });

  it("a checkpoint with an open local bundle of user accumulators: restored, the job emits what it would have", async () => {
    const rows = [...ROWS, Row.of(3, "g"), Row.of(4, "h")];
    const table = bags(TWO, Bag, rows);
    const types = table.getResolvedSchema().types;
    const settings = { batch: false, config: TWO, clock: () => 0 };
    const out: string[] = [];
    const phase = () => buildJobGraph(table.node, settings, {
      record: (k, v) => { out.push(`${KIND_SHORT[k]}[${v.map((x, i) => toJavaString(types[i], x)).join(", ")}]`); },
    }, OPERATORS);
    // five rows in: the global bundle holds 2, 1 (merged from local bundle 1), the local bundle holds 3 and 1's accumulators
    const first = phase();
    for (const op of first.operators) op.open();
    const src = first.sources[0]!;
    expect(src.reader.poll(src.emitter.out, 5)).toBe("more");
    expect(out).toEqual([]);
    const snapshot = structuredClone(first.operators.map((op) => op.snapshotState()));
    const position = src.reader.position();
    calls = [];
    const second = phase();
    second.operators.forEach((op, i) => op.restoreState(snapshot[i]));
    for (const op of second.operators) op.open();
    // the restored local bundle rebuilt its accumulators from its records
    expect(calls).toEqual(["accumulate d", "accumulate e"]);
    const src2 = second.sources[0]!;
    src2.reader.seek(position);
    while (src2.reader.poll(src2.emitter.out, 1000) !== "end");
    expect(out).toEqual(await bags(TWO, Bag, rows).execute().toChangelog());
    expect(out).toEqual([
      "+I[2, b, 1]", "+I[1, a,c, 2]", "+I[3, d, 1]", "-U[2, b, 1]", "+U[2, b,f, 2]", "-U[1, a,c, 2]", "+U[1, a,c,e, 3]",
      "-U[3, d, 1]", "+U[3, d,g, 2]", "+I[4, h, 1]",
    ]);
  });
});
