// Flink's rank, deduplication, sort / limit and union programs (R-039 .. R-071) in Table API form, with
// Flink's exact rows. Restore programs run with a real restore (snapshot after the "before" rows).
import { describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, Row, RowKind, Schema, TableEnvironment } from "../../src/index.js";
import { restoreRun, sorted } from "./relational-support.js";

const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const batch = () => TableEnvironment.create(EnvironmentSettings.inBatchMode());

/** `source_t (a INT, b VARCHAR, c INT)` and its DATA rows (RankTestPrograms, SortTestPrograms, LimitTestPrograms). */
const ABC = DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.STRING()), DataTypes.FIELD("c", DataTypes.INT()));
const DATA = [Row.of(2, "a", 6), Row.of(4, "b", 8), Row.of(6, "c", 10), Row.of(1, "a", 5), Row.of(3, "b", 7), Row.of(5, "c", 9)];

describe("rank (top-N) programs", () => {
  it("R-039 rank-test-retract-strategy: ROW_NUMBER() OVER (PARTITION BY b ORDER BY c) = 1 over an updating source", () => {
    const env = streaming();
    // Flink's source declares updates (changelog-mode I,UA,UB) although every row is +I. Here a final
    // retraction of a row that never existed makes the input an updating changelog without changing what it holds.
    const t = env.fromValues(ABC, ...DATA, Row.of(4, "d", 7), Row.of(3, "e", 8), Row.ofKind(RowKind.DELETE, 0, "none", 0));
    const q = t.topN(1, { partitionBy: [$("b")], orderBy: [$("c")], rowNumber: "rn" }).select($("a"), $("b"), $("rn").as("c"));
    expect(q.changelogMode()).toBe("[I,D]");
    const r = restoreRun(q, DATA.length);
    expect(r.before).toEqual([
      "+I[2, a, 1]", "+I[4, b, 1]", "+I[6, c, 1]", "-D[2, a, 1]", "+I[1, a, 1]", "-D[4, b, 1]", "+I[3, b, 1]", "-D[6, c, 1]", "+I[5, c, 1]",
    ]);
    expect(r.after).toEqual(["+I[4, d, 1]", "+I[3, e, 1]"]);
  });

  it("R-041 rank-n-test: top-2 per partition in processing-time order (the first two arrivals)", () => {
    const env = streaming();
    const before = [Row.of("book", 1, 12), Row.of("book", 2, 19), Row.of("book", 4, 11), Row.of("fruit", 4, 33)];
    const after = [Row.of("cereal", 6, 21), Row.of("cereal", 7, 23), Row.of("apple", 8, 31), Row.of("fruit", 9, 41)];
    const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("a", DataTypes.STRING()), DataTypes.FIELD("b", DataTypes.INT()), DataTypes.FIELD("c", DataTypes.INT())),
      ...before, ...after);
    const q = t.topN(2, { partitionBy: [$("a")], orderBy: [], rowNumber: "rn" }).select($("a"), $("b"), $("rn").as("c"));
    const r = restoreRun(q, before.length);
    expect(r.before).toEqual(["+I[book, 1, 1]", "+I[book, 2, 2]", "+I[fruit, 4, 1]"]);
    expect(r.after).toEqual(["+I[cereal, 6, 1]", "+I[cereal, 7, 2]", "+I[apple, 8, 1]", "+I[fruit, 9, 2]"]);
  });
});

describe("deduplication programs", () => {
  const before = [
    Row.of(1, "terry", "pen", 1000), Row.of(2, "alice", "pen", 2000), Row.of(3, "bob", "pen", 3000), Row.of(4, "bob", "apple", 4000),
    Row.of(5, "fish", "apple", 5000),
  ];
  const after = [Row.of(6, "jerry", "pen", 6000), Row.of(7, "larry", "apple", 7000), Row.of(8, "bill", "banana", 8000), Row.of(9, "carol", "apple", 9000)];
  const orderType = DataTypes.ROW(DataTypes.FIELD("order_id", DataTypes.BIGINT()), DataTypes.FIELD("user", DataTypes.STRING()),
    DataTypes.FIELD("product", DataTypes.STRING()), DataTypes.FIELD("order_time", DataTypes.BIGINT()));

  it("R-043 deduplicate-asc-proctime: the first row per product by processing time", () => {
    const t = streaming().fromValues(orderType, ...before, ...after);
    const q = t.deduplicate({ keys: [$("product")], keep: "first" });
    expect(q.changelogMode()).toBe("[I]");
    const r = restoreRun(q, before.length);
    expect(r.before).toEqual(["+I[1, terry, pen, 1000]", "+I[4, bob, apple, 4000]"]);
    expect(r.after).toEqual(["+I[8, bill, banana, 8000]"]);
  });

  it("R-042 deduplicate-asc: the first row per product by event time", () => {
    // event_time = TO_TIMESTAMP(FROM_UNIXTIME(order_time)) in Flink; given here as a column of its own
    const schema = Schema.newBuilder().column("order_id", DataTypes.BIGINT()).column("user", DataTypes.STRING())
      .column("product", DataTypes.STRING()).column("order_time", DataTypes.BIGINT()).column("event_time", DataTypes.TIMESTAMP(3))
      .watermark("event_time", "`event_time` - INTERVAL '5' SECOND").build();
    const withTime = (r: ReturnType<typeof Row.of>) => Row.of(...r.values, new Date((r.values[3] as number) * 1000));
    const t = streaming().fromValues(schema, ...[...before, ...after].map(withTime));
    const q = t.deduplicate({ keys: [$("product")], keep: "first", orderBy: $("event_time") })
      .select($("order_id"), $("user"), $("product"), $("order_time"));
    expect(q.changelogMode()).toBe("[I,UB,UA]");
    const r = restoreRun(q, before.length);
    expect(r.before).toEqual(["+I[1, terry, pen, 1000]", "+I[4, bob, apple, 4000]"]);
    expect(r.after).toEqual(["+I[8, bill, banana, 8000]"]);
  });
});

describe("sort / limit programs", () => {
  it("R-065 sort-limit-asc: ORDER BY a LIMIT 3 retracts displaced rows with -D", () => {
    const t = streaming().fromValues(ABC, ...DATA, Row.of(2, "a", 6), Row.of(4, "b", 8), Row.of(1, "a", 5));
    const q = t.orderBy($("a")).limit(3);
    expect(q.changelogMode()).toBe("[I,D]");
    const r = restoreRun(q, DATA.length);
    expect(r.before).toEqual(["+I[2, a, 6]", "+I[4, b, 8]", "+I[6, c, 10]", "-D[6, c, 10]", "+I[1, a, 5]", "-D[4, b, 8]", "+I[3, b, 7]"]);
    expect(r.after).toEqual(["-D[3, b, 7]", "+I[2, a, 6]", "-D[2, a, 6]", "+I[1, a, 5]"]);
  });

  const SORTED = ["+I[1, a, 5]", "+I[2, a, 6]", "+I[3, b, 7]", "+I[4, b, 8]", "+I[5, c, 9]", "+I[6, c, 10]"];

  it("R-067 sort-asc: ORDER BY a in streaming with table.exec.non-temporal-sort.enabled", async () => {
    const env = streaming();
    env.getConfig().set("table.exec.non-temporal-sort.enabled", "true");
    expect(await env.fromValues(ABC, ...DATA).orderBy($("a")).execute().toChangelog()).toEqual(SORTED);
  });

  it("R-067 sort-asc, batch: the ORDER BY oracle", async () => {
    expect(await batch().fromValues(ABC, ...DATA).orderBy($("a")).execute().toChangelog()).toEqual(SORTED);
  });

  it("a streaming ORDER BY on a non-time column without the option is refused, as in Flink", async () => {
    await expect(streaming().fromValues(ABC, ...DATA).orderBy($("a")).execute().toArray())
      .rejects.toThrow("Sort on a non-time-attribute field is not supported");
  });

  it("R-069 limit: LIMIT 3 keeps the first three arrivals; later rows, also after restore, are dropped", () => {
    const t = streaming().fromValues(ABC, ...DATA, Row.of(8, "d", 3), Row.of(7, "e", 2));
    const q = t.limit(3);
    expect(q.changelogMode()).toBe("[I]");
    const r = restoreRun(q, DATA.length);
    expect(r.before).toEqual(["+I[2, a, 6]", "+I[4, b, 8]", "+I[6, c, 10]"]);
    expect(r.after).toEqual([]);
  });

  it("R-069 limit, batch", async () => {
    expect(await batch().fromValues(ABC, ...DATA).limit(3).execute().toChangelog()).toEqual(["+I[2, a, 6]", "+I[4, b, 8]", "+I[6, c, 10]"]);
  });
});

describe("union programs", () => {
  const t1Type = DataTypes.ROW(DataTypes.FIELD("a", DataTypes.BIGINT()), DataTypes.FIELD("b", DataTypes.INT().notNull()),
    DataTypes.FIELD("c", DataTypes.STRING()), DataTypes.FIELD("d", DataTypes.TIMESTAMP(3)));
  const t2Type = DataTypes.ROW(DataTypes.FIELD("d", DataTypes.BIGINT()), DataTypes.FIELD("e", DataTypes.INT().notNull()));
  const ts = (s: string) => new Date(s);

  const run = async (all: boolean, t1: ReturnType<typeof Row.of>[], t2: ReturnType<typeof Row.of>[]) => {
    const env = streaming();
    const a = env.fromValues(t1Type, ...t1).select($("a"), $("b"));
    const b = env.fromValues(t2Type, ...t2).select($("d").as("a"), $("e").as("b"));
    return (all ? a.unionAll(b) : a.union(b)).execute().toChangelog();
  };

  it("R-071 union-all-two-sources: UNION ALL keeps duplicates", async () => {
    const t1 = [Row.of(420, 1, "hello", ts("2023-12-16T01:01:01Z")), Row.of(600, 6, "hello there", ts("2023-12-19T01:01:01Z"))];
    const t2 = [Row.of(420, 1), Row.of(421, 2), Row.of(500, 3), Row.of(421, 2)];
    expect(sorted(await run(true, t1, t2))).toEqual(sorted(["+I[420, 1]", "+I[420, 1]", "+I[421, 2]", "+I[600, 6]", "+I[500, 3]", "+I[421, 2]"]));
  });

  it("R-070 union-two-sources: UNION suppresses duplicates across inputs", async () => {
    const t1 = [Row.of(420, 1, "hello", ts("2023-12-16T01:01:01Z")), Row.of(420, 1, "hello", ts("2023-12-16T01:01:01Z")),
      Row.of(600, 6, "hello there", ts("2023-12-19T01:01:01Z"))];
    const t2 = [Row.of(420, 1), Row.of(421, 2), Row.of(500, 3), Row.of(420, 1)];
    expect(sorted(await run(false, t1, t2))).toEqual(sorted(["+I[420, 1]", "+I[421, 2]", "+I[600, 6]", "+I[500, 3]"]));
  });

  it("union and unionAll over updating inputs pass retractions on", async () => {
    const env = streaming();
    const x = env.fromValues(DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING())), Row.of("a"), Row.of("b"), Row.ofKind(RowKind.DELETE, "a"));
    const y = env.fromValues(DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING())), Row.of("b"));
    expect(await x.unionAll(y).execute().toChangelog()).toEqual(["+I[a]", "+I[b]", "+I[b]", "-D[a]"]);
    expect(await x.union(y).execute().toChangelog()).toEqual(["+I[a]", "+I[b]", "-D[a]"]);
  });
});

