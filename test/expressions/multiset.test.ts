// MULTISET<T>: the type (DataTypes, SQL spellings), COLLECT with retraction, CARDINALITY, equality, CAST, the
// printed form ({a=2, b=1}, Flink's) and the accumulator through the checkpoint encoding.
import { describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, Row, RowKind, TableEnvironment, parseDataType } from "../../src/index.js";
import { GroupAggregateOperator } from "../../src/exec/operators/group-aggregate.js";
import type { AggregateNode } from "../../src/plan/nodes.js";
import { decodeSnapshotInPlace, encodeSnapshotJson } from "../../src/exec/snapshot-codec.js";
import { HASHMAP_BACKEND } from "../../src/exec/state/keyed-store.js";

const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const KV = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.STRING()));

describe("MULTISET type", () => {
  it("is spelled MULTISET<T>, T MULTISET (postfix, with nullability on both) and DataTypes.MULTISET", () => {
    expect(String(DataTypes.MULTISET(DataTypes.INT()))).toBe("MULTISET<INT>");
    expect(String(parseDataType("MULTISET<STRING NOT NULL> NOT NULL"))).toBe("MULTISET<STRING NOT NULL> NOT NULL");
    expect(String(parseDataType("INT NOT NULL MULTISET"))).toBe("MULTISET<INT NOT NULL>");
    expect(String(parseDataType("INT MULTISET NOT NULL"))).toBe("MULTISET<INT> NOT NULL");
    expect(() => parseDataType("MULTISET<>")).toThrow();
  });
});

describe("COLLECT", () => {
  it("collects the group's non-NULL values with their counts, first seen first, printed as Flink prints a multiset", async () => {
    const env = streaming();
    env.createTemporaryView("t", env.fromValues(KV, Row.of("x", "a"), Row.of("y", "b"), Row.of("x", "b"), Row.of("x", "a"), Row.of("x", null), Row.of("y", null)) as never);
    const rows = await env.executeSql("SELECT k, COLLECT(v) AS bag, CARDINALITY(COLLECT(v)) AS n FROM t GROUP BY k").toChangelog();
    expect(rows).toEqual([
      "+I[x, {a=1}, 1]", "+I[y, {b=1}, 1]",
      "-U[x, {a=1}, 1]", "+U[x, {a=1, b=1}, 2]",
      "-U[x, {a=1, b=1}, 2]", "+U[x, {a=2, b=1}, 3]",
    ]); // a NULL leaves the group's result as it was: no update (Flink emits none for an unchanged result)
  });

  it("retracts: a count goes down and the element leaves at 0 (a DELETE of the input row)", async () => {
    const env = streaming();
    env.createTemporaryView("t", env.fromValues(KV, Row.of("x", "a"), Row.of("x", "a"), Row.of("x", "b"),
      Row.ofKind(RowKind.DELETE, "x", "a"), Row.ofKind(RowKind.DELETE, "x", "b")) as never);
    const rows = await env.executeSql("SELECT k, COLLECT(v) AS bag FROM t GROUP BY k").toChangelog();
    expect(rows).toEqual([
      "+I[x, {a=1}]", "-U[x, {a=1}]", "+U[x, {a=2}]", "-U[x, {a=2}]", "+U[x, {a=2, b=1}]",
      "-U[x, {a=2, b=1}]", "+U[x, {a=1, b=1}]", "-U[x, {a=1, b=1}]", "+U[x, {a=1}]",
    ]);
  });

  it("is MULTISET<T> NOT NULL of the argument's type; a group of only NULLs is the empty multiset", async () => {
    const env = streaming();
    env.createTemporaryView("t", env.fromValues(KV, Row.of("x", null)) as never);
    const q = env.sqlQuery("SELECT COLLECT(v) AS bag, COLLECT(DISTINCT k) AS ks FROM t");
    expect(q.getResolvedSchema().toShortString()).toBe("[bag: MULTISET<STRING> NOT NULL, ks: MULTISET<STRING> NOT NULL]");
    const rows = await env.executeSql("SELECT COLLECT(v) AS bag FROM t").toChangelog();
    expect(rows).toEqual(["+I[{}]"]);
  });

  it("COLLECT(DISTINCT x) counts each value once", async () => {
    const env = streaming();
    env.createTemporaryView("t", env.fromValues(KV, Row.of("x", "a"), Row.of("x", "a"), Row.of("x", "b")) as never);
    const rows = await env.executeSql("SELECT COLLECT(DISTINCT v) AS bag FROM t").toChangelog();
    expect(rows.at(-1)).toBe("+U[{a=1, b=1}]");
  });

  it("its accumulator goes through the checkpoint encoding and continues as one that never stopped", () => {
    const env = streaming();
    env.createTemporaryView("t", env.fromValues(KV, Row.of("x", "a")) as never);
    const table = env.sqlQuery("SELECT k, COLLECT(v) AS bag FROM t GROUP BY k");
    const node = table.node.kind === "Aggregate" ? table.node : (table.node as unknown as { input: AggregateNode }).input;
    const make = (out: string[]) => {
      const op = new GroupAggregateOperator(node as AggregateNode, false, true, undefined, {}, undefined, undefined, HASHMAP_BACKEND);
      op.out = { record: (k, r) => out.push(`${k}:${r[0]}:${JSON.stringify([...(r[1] as Map<string, number>)])}`), watermark: () => {}, endInput: () => {} };
      op.open();
      return op;
    };
    const out: string[] = [];
    const a = make(out);
    a.processElement(0, 0, ["x", "a"]);
    a.processElement(0, 0, ["x", "b"]);
    a.processElement(0, 0, ["x", "a"]);
    const b = make(out);
    b.restoreState(decodeSnapshotInPlace(JSON.parse(encodeSnapshotJson(a.snapshotState()))));
    out.length = 0;
    b.processElement(0, 3, ["x", "a"]);
    b.processElement(0, 0, ["x", "c"]);
    expect(out).toEqual([
      // 1 is -U, 2 is +U: the retraction of one "a", then the new "c", on the restored bag
      `1:x:${JSON.stringify([["a", 2], ["b", 1]])}`, `2:x:${JSON.stringify([["a", 1], ["b", 1]])}`,
      `1:x:${JSON.stringify([["a", 1], ["b", 1]])}`, `2:x:${JSON.stringify([["a", 1], ["b", 1], ["c", 1]])}`,
    ]);
  });
});

describe("MULTISET values", () => {
  const bags = () => {
    const env = streaming();
    const type = DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT()), DataTypes.FIELD("m", DataTypes.MULTISET(DataTypes.INT())));
    env.createTemporaryView("b", env.fromValues(type, Row.of(1, new Map([[1, 2], [3, 1]])), Row.of(2, [3, 1, 1]), Row.of(3, new Map()), Row.of(4, null)) as never);
    return env;
  };

  it("a value is a Map of element to count, or an array of elements; CARDINALITY counts repeats", async () => {
    const rows = await bags().executeSql("SELECT id, m, CARDINALITY(m) FROM b").toChangelog();
    expect(rows).toEqual(["+I[1, {1=2, 3=1}, 3]", "+I[2, {3=1, 1=2}, 3]", "+I[3, {}, 0]", "+I[4, null, null]"]);
  });

  it("= and <> compare the elements with their counts, not their order; ordering is refused", async () => {
    const env = bags();
    const rows = await env.executeSql("SELECT x.id, y.id, x.m = y.m, x.m <> y.m FROM b AS x, b AS y WHERE x.id < y.id AND x.id < 3 AND y.id < 4").toChangelog();
    expect([...rows].sort()).toEqual(["+I[1, 2, true, false]", "+I[1, 3, false, true]", "+I[2, 3, false, true]"]);
    expect(() => env.sqlQuery("SELECT x.m < y.m FROM b AS x, b AS y")).toThrow(/cannot order values of type MULTISET<INT>/);
  });

  it("CAST converts element-wise (equal elements add their counts); from another type it is refused", async () => {
    const env = bags();
    const rows = await env.executeSql("SELECT id, CAST(m AS MULTISET<STRING>), CAST(m AS MULTISET<BOOLEAN>) FROM b WHERE id = 1").toChangelog();
    expect(rows).toEqual(["+I[1, {1=2, 3=1}, {true=3}]"]);
    expect(() => env.sqlQuery("SELECT CAST(id AS MULTISET<INT>) FROM b")).toThrow(/MULTISET/);
  });

  it("a bad count names the column", () => {
    const env = streaming();
    const type = DataTypes.ROW(DataTypes.FIELD("m", DataTypes.MULTISET(DataTypes.INT())));
    expect(() => env.fromValues(type, Row.of(new Map([[1, 0]])))).toThrow(/count of element 1 is 0/);
  });
});

describe("MULTISET as a key", () => {
  it("GROUP BY, DISTINCT and an equi-join treat two bags with the same counts as one key, whatever their order", async () => {
    const env = streaming();
    const type = DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT()), DataTypes.FIELD("tags", DataTypes.MULTISET(DataTypes.STRING())));
    env.createTemporaryView("t", env.fromValues(type,
      Row.of(1, new Map([["a", 1], ["b", 1]])), Row.of(2, new Map([["b", 1], ["a", 1]])), Row.of(3, new Map([["b", 1]]))));
    expect(await env.sqlQuery("SELECT COUNT(id) FROM t GROUP BY tags").execute().toChangelog())
      .toEqual(["+I[1]", "-U[1]", "+U[2]", "+I[1]"]);
    expect(await env.sqlQuery("SELECT DISTINCT tags FROM t").execute().toChangelog()).toEqual(["+I[{a=1, b=1}]", "+I[{b=1}]"]);
    expect(await env.sqlQuery("SELECT a.id, b.id FROM t a JOIN t b ON a.tags = b.tags").execute().toChangelog())
      .toEqual(["+I[1, 1]", "+I[2, 1]", "+I[1, 2]", "+I[2, 2]", "+I[3, 3]"]);
  });
});

describe("COLLECT in the Table API", () => {
  // the NULL row leaves the bag as it was: no update is sent for an unchanged result (Flink's GroupAggFunction)
  it("$(x).collect() is COLLECT(x): a MULTISET per group, with retraction", async () => {
    const env = streaming();
    const type = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.STRING()));
    const t = env.fromValues(type, Row.of("x", "a"), Row.of("x", "a"), Row.of("x", null), Row.ofKind(RowKind.DELETE, "x", "a"));
    expect(await t.groupBy($("k")).select($("k"), $("v").collect().as("vs")).execute().toChangelog()).toEqual([
      "+I[x, {a=1}]", "-U[x, {a=1}]", "+U[x, {a=2}]", "-U[x, {a=2}]", "+U[x, {a=1}]",
    ]);
  });
});
