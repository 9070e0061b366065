import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildJobGraph } from "../../src/exec/job-graph.js";
import { OPERATORS } from "../../src/table/wiring.js";
import {
  $, AggregateFunction, DataTypes, EnvironmentSettings, ExecutionError, Row, RowKind, ScalarFunction, TableAggregateFunction, TableEnvironment,
  ValidationError, call,
} from "../../src/index.js";
import type { PositionalRow, Table } from "../../src/index.js";
import { KIND_SHORT } from "../../src/types/row.js";
import { toJavaString } from "../../src/types/format.js";
import { MinMax, NameAndScore, SplitTags, Top2, Top2Incremental, rowBased, scores } from "../../examples/table-api/row-based.js";

const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const batch = () => TableEnvironment.create(EnvironmentSettings.inBatchMode());

describe("map: a scalar function's ROW result becomes the columns", () => {
  it("flattens the row into its fields; input columns are gone", async () => {
    const { mapped } = rowBased();
    expect(mapped.getResolvedSchema().toShortString()).toBe("[upper: STRING NOT NULL, double: INT NOT NULL]");
    expect(await mapped.execute().toChangelog()).toEqual(["+I[BOB, 6]", "+I[ALICE, 18]", "+I[BOB, 14]", "+I[BOB, 10]"]);
  });

  it(".as(...) renames the fields; a non-ROW result is one column _c0 (or its alias)", async () => {
    const t = scores(streaming());
    const renamed = t.map(call(NameAndScore, $("name"), $("score")).as("n", "s"));
    expect(renamed.getResolvedSchema().names).toEqual(["n", "s"]);
    expect(await renamed.execute().toChangelog()).toEqual(["+I[BOB, 6]", "+I[ALICE, 18]", "+I[BOB, 14]", "+I[BOB, 10]"]);
    expect(t.map($("score").plus(1)).getResolvedSchema().names).toEqual(["_c0"]);
    expect(await t.map($("score").plus(1).as("next")).execute().toChangelog()).toEqual(["+I[4]", "+I[10]", "+I[8]", "+I[6]"]);
  });

  it("a NULL row gives NULL fields; the function runs once per row", async () => {
    let calls = 0;
    const Maybe = ScalarFunction.define({
      args: [DataTypes.INT().notNull()],
      result: DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT().notNull()), DataTypes.FIELD("b", DataTypes.INT().notNull())),
      eval: (v) => { calls++; return v > 4 ? { a: v, b: -v } : null; },
    });
    const t = scores(streaming()).map(call(Maybe, $("score")));
    expect(t.getResolvedSchema().toShortString()).toBe("[a: INT, b: INT]");
    expect(await t.execute().toChangelog()).toEqual(["+I[null, null]", "+I[9, -9]", "+I[7, -7]", "+I[5, -5]"]);
    expect(calls).toBe(4);
  });

  it("rejects aggregates, a wrong number of aliases, and table functions", () => {
    const t = scores(streaming());
    expect(() => t.map($("score").sum() as never)).toThrow(/map: takes a scalar function call, got the aggregate/);
    expect(() => t.map(call(NameAndScore, $("name"), $("score")).as("only") as never)).toThrow(/returns 2 column\(s\) \[upper, double\], but 1 alias/);
    expect(() => t.map(call(SplitTags, $("tags")) as never)).toThrow(ValidationError);
  });
});

describe("flatMap: a table function's rows, with only its columns", () => {
  it("emits every collected row; the function's column names may repeat input names", async () => {
    const { tags } = rowBased();
    expect(tags.getResolvedSchema().names).toEqual(["tag"]);
    expect(await tags.execute().toChangelog()).toEqual(["+I[a]", "+I[b]", "+I[c]", "+I[d]", "+I[e]", "+I[f]"]);
    const t = scores(streaming()).select($("tags").as("tag"));
    expect(await t.flatMap(call(SplitTags, $("tag"))).execute().toChangelog()).toEqual(["+I[a]", "+I[b]", "+I[c]", "+I[d]", "+I[e]", "+I[f]"]);
  });

  it("by registered name, renamed with .as(...); row kinds of an updating input pass through", async () => {
    const env = streaming();
    env.createTemporaryFunction("splitTags", SplitTags);
    const updating = env.fromValues(DataTypes.ROW(DataTypes.FIELD("tags", DataTypes.STRING().notNull())),
      Row.of("x#y"), Row.ofKind(RowKind.DELETE, "x#y"));
    expect(await updating.flatMap(call("splitTags", $("tags")).as("t")).execute().toChangelog()).toEqual(["+I[x]", "+I[y]", "-D[x]", "-D[y]"]);
  });

  it("rejects a function that is not a table function, naming it", () => {
    const env = streaming();
    env.createTemporaryFunction("nameAndScore", NameAndScore);
    expect(() => scores(env).flatMap(call("nameAndScore", $("name"), $("score")))).toThrow(/flatMap: function 'nameAndScore' is not a table function/);
  });
});

describe("aggregate: an aggregate function's ROW result per group, then select", () => {
  it("groupBy(...).aggregate(...).select(...) with renamed result columns (Flink's changelog)", async () => {
    const { ranges } = rowBased();
    expect(ranges.getResolvedSchema().toShortString()).toBe("[name: STRING NOT NULL, low: INT, high: INT]");
    expect(await ranges.execute().toChangelog()).toEqual(["+I[Bob, 3, 3]", "+I[Alice, 9, 9]", "-U[Bob, 3, 3]", "+U[Bob, 3, 7]"]);
  });

  it("global aggregate, and select of an expression over the result", async () => {
    const t = scores(streaming()).aggregate(call(MinMax, $("score"))).select($("hi").minus($("lo")).as("spread"));
    expect(await t.execute().toChangelog()).toEqual(["+I[0]", "-U[0]", "+U[6]"]);
  });

  it("batch mode: the final row per group", async () => {
    const t = scores(batch()).groupBy($("name")).aggregate(call(MinMax, $("score"))).select($("name"), $("lo"), $("hi"));
    expect(await t.execute().toChangelog()).toEqual(["+I[Bob, 3, 7]", "+I[Alice, 9, 9]"]);
  });

  it("rejects a result column named like a grouping key, and a non-aggregate call", () => {
    const t = scores(streaming());
    expect(() => t.groupBy($("name")).aggregate(call(MinMax, $("score")).as("name", "x"))).toThrow(/result column 'name' has the name of a grouping key/);
    expect(() => t.aggregate(call(NameAndScore, $("name"), $("score")) as never)).toThrow(/aggregate: takes an aggregate function call/);
  });
});

describe("flatAggregate: table aggregate functions (Top2)", () => {
  it("emitValue: a group's earlier rows are retracted (-D) and its new rows inserted (+I) on every row", async () => {
    const { top2 } = rowBased();
    expect(top2.getResolvedSchema().toShortString()).toBe("[name: STRING NOT NULL, score: INT NOT NULL, rank: INT NOT NULL]");
    expect(top2.changelogMode()).toBe("[I,D]");
    expect(await top2.execute().toChangelog()).toEqual([
      "+I[Bob, 3, 1]", "+I[Alice, 9, 1]",
      "-D[Bob, 3, 1]", "+I[Bob, 7, 1]", "+I[Bob, 3, 2]",
      "-D[Bob, 7, 1]", "-D[Bob, 3, 2]", "+I[Bob, 7, 1]", "+I[Bob, 5, 2]",
    ]);
    expect(top2.explain()).toContain("TableAggregate(groupBy=[name], invocation=[top2(score)], select=[name, score, rank], changelogMode=[I,D])");
  });

  it("emitUpdateWithRetract: only the change is emitted; the same materialized result", async () => {
    const { top2, top2Incremental } = rowBased();
    expect(await top2Incremental.execute().toChangelog()).toEqual([
      "+I[Bob, 3, 1]", "+I[Alice, 9, 1]", "-D[Bob, 3, 1]", "+I[Bob, 7, 1]", "+I[Bob, 3, 2]", "-D[Bob, 3, 2]", "+I[Bob, 5, 2]",
    ]);
    expect(await materialized(top2Incremental)).toEqual(await materialized(top2));
  });

  it("global flatAggregate, by registered name with aliases; batch mode emits the final rows once", async () => {
    const env = streaming();
    env.createTemporaryFunction("top2", Top2);
    const t = scores(env).flatAggregate(call("top2", $("score")).as("s", "r")).select($("s"), $("r"));
    expect(await materialized(t)).toEqual(["+I[7, 2]", "+I[9, 1]"]);
    const b = scores(batch()).groupBy($("name")).flatAggregate(call(Top2, $("score"))).select($("name"), $("score"), $("rank"));
    expect(b.changelogMode()).toBe("[I]");
    expect(await b.execute().toChangelog()).toEqual(["+I[Bob, 7, 1]", "+I[Bob, 5, 2]", "+I[Alice, 9, 1]"]);
  });

  it("an updating input needs retract(); with it, retracted rows leave the result", async () => {
    const env = streaming();
    const updating = env.fromValues(DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT().notNull())),
      Row.of("a", 5), Row.of("a", 8), Row.ofKind(RowKind.DELETE, "a", 8), Row.ofKind(RowKind.DELETE, "a", 5));
    expect(() => updating.groupBy($("k")).flatAggregate(call(Top2, $("v")))).toThrow(/'top2' has no retract\(\) method, but its input is an updating table/);
    const Max = TableAggregateFunction.define({
      args: [DataTypes.INT().notNull()],
      result: DataTypes.INT().notNull(),
      createAccumulator: () => ({ values: [] as number[] }),
      accumulate(acc, v) { acc.values.push(v); },
      retract(acc, v) { acc.values.splice(acc.values.indexOf(v), 1); },
      emitValue(acc, out) { if (acc.values.length > 0) out.collect(Math.max(...acc.values)); },
    });
    const t = updating.groupBy($("k")).flatAggregate(call(Max, $("v"))).select($("k"), $("f0"));
    // the last retraction empties the group: its row is retracted and nothing is emitted
    expect(await t.execute().toChangelog()).toEqual(["+I[a, 5]", "-D[a, 5]", "+I[a, 8]", "-D[a, 8]", "+I[a, 5]", "-D[a, 5]"]);
  });

  it("bad calls and bad emitted rows are clear errors", async () => {
    const t = scores(streaming());
    expect(() => t.flatAggregate(call(MinMax, $("score")) as never)).toThrow(/flatAggregate takes|flatAggregate: takes/);
    expect(() => t.groupBy($("name")).flatAggregate(call(Top2, $("score")).as("name", "rank"))).toThrow(/result column 'name' has the name of a grouping key/);
    expect(() => t.select(call(Top2, $("score")) as never)).toThrow(/table aggregate function; use it with flatAggregate/);
    expect(() => TableAggregateFunction.define({ args: [], result: DataTypes.INT(), createAccumulator: () => ({}), accumulate() {} } as never))
      .toThrow(/declare emitValue\(acc, out\) or emitUpdateWithRetract\(acc, out\)/);
    const Bad = TableAggregateFunction.define({
      name: "bad", args: [DataTypes.INT().notNull()], result: DataTypes.ROW(DataTypes.FIELD("x", DataTypes.INT())),
      createAccumulator: () => ({}), accumulate() {}, emitValue(_acc, out) { out.collect(Row.of(1, 2) as never); },
    });
    await expect(t.flatAggregate(call(Bad, $("score"))).select($("x")).execute().toArray()).rejects.toThrow(ExecutionError);
    await expect(t.flatAggregate(call(Bad, $("score"))).select($("x")).execute().toArray()).rejects.toThrow(/'bad' emitted a row of 2 field\(s\)/);
  });

  it("restores from a snapshot: the groups' accumulators continue", () => {
    const t = rowBased().top2;
    const types = t.getResolvedSchema().types;
    const settings = { batch: false, config: new Map<string, string>(), clock: () => 0 };
    const phase = (out: string[]) => buildJobGraph(t.node, settings, {
      record: (k, v) => { out.push(`${KIND_SHORT[k]}[${v.map((x, i) => toJavaString(types[i], x)).join(", ")}]`); },
    }, OPERATORS);
    const first = phase([]);
    for (const op of first.operators) op.open();
    const src = first.sources[0]!;
    expect(src.reader.poll(src.emitter.out, 3)).toBe("more");
    const snapshot = first.operators.map((op) => op.snapshotState());
    const position = src.reader.position();
    const after: string[] = [];
    const second = phase(after);
    second.operators.forEach((op, i) => op.restoreState(snapshot[i]));
    for (const op of second.operators) op.open();
    second.sources[0]!.reader.seek(position);
    while (second.sources[0]!.reader.poll(second.sources[0]!.emitter.out, 100) !== "end");
    expect(after).toEqual(["-D[Bob, 7, 1]", "-D[Bob, 3, 2]", "+I[Bob, 7, 1]", "+I[Bob, 5, 2]"]);
  });
});

describe("property: flatAggregate's materialized streaming result equals the batch result", () => {
  const row = fc.tuple(fc.constantFrom("a", "b", "c"), fc.integer({ min: 0, max: 20 }));
  it("holds for random inputs, for emitValue and emitUpdateWithRetract", async () => {
    await fc.assert(fc.asyncProperty(fc.array(row, { maxLength: 30 }), async (rows) => {
      const build = (env: TableEnvironment, f: typeof Top2) => env.fromValues(
        DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT().notNull())),
        rows.map((r): PositionalRow => Row.of(r[0], r[1])),
      ).groupBy($("k")).flatAggregate(call(f, $("v"))).select($("k"), $("score"), $("rank"));
      const expected = (await build(batch(), Top2).execute().toChangelog()).sort();
      expect(await materialized(build(streaming(), Top2))).toEqual(expected);
      expect(await materialized(build(streaming(), Top2Incremental as never))).toEqual(expected);
    }), { numRuns: 40 });
  });
});

/** The multiset a changelog describes: each -D removes an equal row that must be there. */
async function materialized(t: Table<object>): Promise<string[]> {
  const rows: string[] = [];
  for (const line of await t.execute().toChangelog()) {
    const body = line.slice(2);
    if (line.startsWith("+")) { rows.push(`+I${body}`); continue; }
    const at = rows.indexOf(`+I${body}`);
    if (at < 0) throw new Error(`retraction of a row never emitted: ${line}`);
    rows.splice(at, 1);
  }
  return rows.sort();
}
