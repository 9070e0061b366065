import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { activeBackendOptions, backendSuite } from "../support/state-backends.js";
import {
  $, CollectionSink, DataTypes, EnvironmentSettings, Row, RowKind, Schema, TableDescriptor, TableEnvironment, ValidationError,
} from "../../src/index.js";

/** A streaming environment on the state backend of the suite that runs (test/support/state-backends.ts). */
const streaming = () => {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  for (const [k, v] of Object.entries(activeBackendOptions())) env.getConfig().set(k, v);
  return env;
};
const batch = () => TableEnvironment.create(EnvironmentSettings.inBatchMode());
const BIDS = DataTypes.ROW(DataTypes.FIELD("auction", DataTypes.INT()), DataTypes.FIELD("price", DataTypes.INT()), DataTypes.FIELD("bidder", DataTypes.STRING()));

backendSuite("topN", () => {
  it("ranks shift when a better row arrives, with -U/+U per changed rank over an insert-only input", async () => {
    const t = streaming().fromValues(BIDS, Row.of(1, 10, "a"), Row.of(1, 30, "b"), Row.of(1, 20, "c"), Row.of(2, 5, "d"), Row.of(1, 5, "e"));
    const q = t.topN(2, { partitionBy: [$("auction")], orderBy: [$("price").desc()], rowNumber: "rn" });
    expect(q.getResolvedSchema().toShortString()).toBe("[auction: INT, price: INT, bidder: STRING, rn: BIGINT NOT NULL]");
    expect(await q.execute().toChangelog()).toEqual([
      "+I[1, 10, a, 1]",
      "-U[1, 10, a, 1]", "+U[1, 30, b, 1]", "+I[1, 10, a, 2]",
      "-U[1, 10, a, 2]", "+U[1, 20, c, 2]",
      "+I[2, 5, d, 1]",
    ]);
  });

  it("a retracted row moves the rows after it up a rank, and the next row enters the range", async () => {
    const t = streaming().fromValues(BIDS, Row.of(1, 10, "a"), Row.of(1, 30, "b"), Row.of(1, 20, "c"),
      Row.ofKind(RowKind.DELETE, 1, 30, "b"), Row.ofKind(RowKind.UPDATE_BEFORE, 1, 20, "c"), Row.ofKind(RowKind.UPDATE_AFTER, 1, 25, "c"));
    const withRank = t.topN(2, { partitionBy: [$("auction")], orderBy: [$("price").desc()], rowNumber: "rn" });
    expect(withRank.changelogMode()).toBe("[I,D]");
    expect(await withRank.execute().toChangelog()).toEqual([
      "+I[1, 10, a, 1]",
      "-D[1, 10, a, 1]", "+I[1, 30, b, 1]", "+I[1, 10, a, 2]",
      "-D[1, 10, a, 2]", "+I[1, 20, c, 2]",
      // -D (1, 30, b): c moves to rank 1, a comes back at rank 2
      "-D[1, 30, b, 1]", "+I[1, 20, c, 1]", "-D[1, 20, c, 2]", "+I[1, 10, a, 2]",
      // -U (1, 20, c): a moves up, rank 2 is empty
      "-D[1, 20, c, 1]", "+I[1, 10, a, 1]", "-D[1, 10, a, 2]",
      // +U (1, 25, c) takes rank 1 again
      "-D[1, 10, a, 1]", "+I[1, 25, c, 1]", "+I[1, 10, a, 2]",
    ]);
    const noRank = t.topN(2, { partitionBy: [$("auction")], orderBy: [$("price").desc()] });
    expect(await noRank.execute().toChangelog()).toEqual([
      "+I[1, 10, a]", "+I[1, 30, b]", "-D[1, 10, a]", "+I[1, 20, c]", "-D[1, 30, b]", "+I[1, 10, a]", "-D[1, 20, c]", "+I[1, 25, c]",
    ]);
  });

  it("offset skips the first ranks of each partition; NULLs sort last in DESC unless nullsFirst()", async () => {
    const t = streaming().fromValues(BIDS, Row.of(1, null, "n"), Row.of(1, 10, "a"), Row.of(1, 30, "b"), Row.of(1, 20, "c"));
    const second = t.topN(1, { partitionBy: [$("auction")], orderBy: [$("price").desc()], offset: 1, rowNumber: "rn" });
    expect(await second.execute().toChangelog()).toEqual([
      "+I[1, null, n, 2]", "-U[1, null, n, 2]", "+U[1, 10, a, 2]", "-U[1, 10, a, 2]", "+U[1, 20, c, 2]",
    ]);
    const nullsFirst = t.topN(1, { orderBy: [$("price").desc().nullsFirst()] });
    expect(await nullsFirst.execute().toChangelog()).toEqual(["+I[1, null, n]"]);
  });

  it("in batch mode the final top rows come out once, as inserts", async () => {
    const t = batch().fromValues(BIDS, Row.of(1, 10, "a"), Row.of(1, 30, "b"), Row.of(2, 5, "d"), Row.of(1, 20, "c"));
    const q = t.topN(2, { partitionBy: [$("auction")], orderBy: [$("price").desc()], rowNumber: "rn" });
    expect(q.changelogMode()).toBe("[I]");
    expect((await q.execute().toChangelog()).sort()).toEqual(["+I[1, 20, c, 2]", "+I[1, 30, b, 1]", "+I[2, 5, d, 1]"]);
  });

  it("explain shows the rank node with its range and mode", () => {
    const t = streaming().fromValues(BIDS, Row.of(1, 10, "a"));
    expect(t.topN(3, { partitionBy: [$("auction")], orderBy: [$("price").desc()] }).explain()).toBe([
      "== Logical Plan ==",
      "Rank(rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=3], partitionBy=[auction], orderBy=[price DESC NULLS LAST], outputRankNumber=[false], changelogMode=[I,D]) -> [auction: INT, price: INT, bidder: STRING]",
      "+- Values(rows=1, changelogMode=[I]) -> [auction: INT, price: INT, bidder: STRING]",
    ].join("\n"));
    expect(t.orderBy($("price").desc()).limit(1, 2).explain().split("\n")[1])
      .toBe("Sort(orderBy=[price DESC NULLS LAST], offset=[1], fetch=[2], changelogMode=[I,D]) -> [auction: INT, price: INT, bidder: STRING]");
  });

  it("bad arguments are ValidationErrors naming the argument", () => {
    const t = streaming().fromValues(BIDS, Row.of(1, 10, "a"));
    expect(() => t.topN(0, { orderBy: [$("price")] })).toThrow(new ValidationError("topN: n must be a positive integer, got 0"));
    expect(() => t.topN(1, { orderBy: [$("price")], rowNumber: "price" } as never)).toThrow("the row-number column 'price' already exists");
    expect(() => t.topN(1, { orderBy: [$("nope")] } as never)).toThrow("topN orderBy: column 'nope' is not in [auction, price, bidder]");
    expect(() => t.topN(1, { partitionBy: [$("price").plus(1)], orderBy: [] } as never)).toThrow("topN partitionBy: argument 1 must be a column reference");
    expect(() => t.limit(-1)).toThrow("fetch: expected a non-negative integer number of rows, got -1");
    expect(() => t.orderBy($("price"), $("price"))).toThrow("orderBy: column 'price' appears more than once");
  });
});

backendSuite("deduplicate", () => {
  it("keep last by processing time replaces the row of its key", async () => {
    const t = streaming().fromValues(BIDS, Row.of(1, 10, "a"), Row.of(2, 5, "b"), Row.of(1, 30, "c"));
    const q = t.deduplicate({ keys: [$("auction")], keep: "last" });
    expect(q.changelogMode()).toBe("[I,UB,UA]");
    expect(await q.execute().toChangelog()).toEqual(["+I[1, 10, a]", "+I[2, 5, b]", "-U[1, 10, a]", "+U[1, 30, c]"]);
  });

  const timed = () => {
    const schema = Schema.newBuilder().column("k", DataTypes.STRING()).column("v", DataTypes.INT()).column("ts", DataTypes.TIMESTAMP(3))
      .watermark("ts", "`ts` - INTERVAL '10' SECOND").build();
    return streaming().fromValues(schema, Row.of("a", 1, new Date(5000)), Row.of("a", 2, new Date(3000)), Row.of("a", 3, new Date(3000)),
      Row.of("a", 4, new Date(9000)));
  };

  it("by event time, keep first keeps the earliest rowtime, keep last the latest (ties: the later row)", async () => {
    expect(await timed().deduplicate({ keys: [$("k")], keep: "first", orderBy: $("ts") }).select($("k"), $("v")).execute().toChangelog())
      .toEqual(["+I[a, 1]", "-U[a, 1]", "+U[a, 2]"]);
    expect(await timed().deduplicate({ keys: [$("k")], keep: "last", orderBy: $("ts") }).select($("k"), $("v")).execute().toChangelog())
      .toEqual(["+I[a, 1]", "-U[a, 1]", "+U[a, 4]"]);
  });

  it("in batch mode: one final row per key", async () => {
    const t = batch().fromValues(BIDS, Row.of(1, 10, "a"), Row.of(2, 5, "b"), Row.of(1, 30, "c"));
    expect((await t.deduplicate({ keys: [$("auction")], keep: "last" }).execute().toChangelog()).sort()).toEqual(["+I[1, 30, c]", "+I[2, 5, b]"]);
    expect(await t.deduplicate({ keys: [$("auction")], keep: "first" }).execute().toChangelog()).toEqual(["+I[1, 10, a]", "+I[2, 5, b]"]);
  });

  it("refuses an updating input and an order column that is not an event-time attribute", () => {
    const t = streaming().fromValues(BIDS, Row.of(1, 10, "a"), Row.ofKind(RowKind.DELETE, 1, 10, "a"));
    expect(() => t.deduplicate({ keys: [$("auction")], keep: "first" }).changelogMode())
      .toThrow("deduplicate doesn't support consuming update and delete changes; its input is [I,D]");
    expect(() => t.deduplicate({ keys: [$("auction")], keep: "first", orderBy: $("price") }))
      .toThrow("deduplicate: the order column 'price' must be an event-time attribute");
  });
});

describe("set operations", () => {
  const K = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()));
  const tables = (env: TableEnvironment) => ({
    l: env.fromValues(K, Row.of("a"), Row.of("a"), Row.of("a"), Row.of("b"), Row.of("c")),
    r: env.fromValues(K, Row.of("a"), Row.of("b"), Row.of("b"), Row.of("d")),
  });

  it("streaming: each result is the set operation of what both inputs hold now", async () => {
    const { l, r } = tables(streaming());
    // the two sources are read alternately: a(l) a(r) a(l) b(r) a(l) b(r) b(l) d(r) c(l)
    expect(await l.intersect(r).execute().toChangelog()).toEqual(["+I[a]", "+I[b]"]);
    expect(l.intersect(r).changelogMode()).toBe("[I]");
    expect(await l.intersectAll(r).execute().toChangelog()).toEqual(["+I[a]", "+I[b]"]);
    expect(await l.minus(r).execute().toChangelog()).toEqual(["+I[a]", "-D[a]", "+I[c]"]);
    expect(l.minus(r).changelogMode()).toBe("[I,D]");
    expect(await l.minusAll(r).execute().toChangelog()).toEqual(["+I[a]", "-D[a]", "+I[a]", "+I[a]", "+I[c]"]);
  });

  it("batch: the final result only", async () => {
    const { l, r } = tables(batch());
    expect((await l.intersect(r).execute().toChangelog()).sort()).toEqual(["+I[a]", "+I[b]"]);
    expect((await l.intersectAll(r).execute().toChangelog()).sort()).toEqual(["+I[a]", "+I[b]"]);
    expect(await l.minus(r).execute().toChangelog()).toEqual(["+I[c]"]);
    expect((await l.minusAll(r).execute().toChangelog()).sort()).toEqual(["+I[a]", "+I[a]", "+I[c]"]);
  });

  it("over updating inputs a retraction can bring a row back", async () => {
    const env = streaming();
    const l = env.fromValues(K, Row.of("a"), Row.of("x"));
    const r = env.fromValues(K, Row.of("a"), Row.ofKind(RowKind.DELETE, "a"));
    expect(await l.minus(r).execute().toChangelog()).toEqual(["+I[a]", "-D[a]", "+I[x]", "+I[a]"]);
    expect(await l.intersect(r).execute().toChangelog()).toEqual(["+I[a]", "-D[a]"]);
  });

  it("rejects tables whose columns differ", () => {
    const env = streaming();
    const { l } = tables(env);
    const two = env.fromValues(DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("n", DataTypes.INT())), Row.of("a", 1));
    expect(() => l.intersect(two as never)).toThrow("union: tables have different numbers of columns");
  });
});

backendSuite("streaming sort on an event-time attribute", () => {
  it("releases rows in (rowtime, key) order as the watermark passes them; late rows are dropped", async () => {
    const schema = Schema.newBuilder().column("v", DataTypes.INT()).column("ts", DataTypes.TIMESTAMP(3))
      .watermark("ts", "`ts` - INTERVAL '2' SECOND").build();
    const t = streaming().fromValues(schema, Row.of(1, new Date(3000)), Row.of(2, new Date(2000)), Row.of(3, new Date(6000)),
      Row.of(4, new Date(500)), Row.of(5, new Date(5000)), Row.of(0, new Date(5000)));
    const q = t.orderBy($("ts"), $("v").desc()).select($("v"));
    expect(q.changelogMode()).toBe("[I]");
    // watermark 4000 after row 3 releases 2 and 1; row 4 (500) is then late; 5 and 0 wait for the end
    expect(await q.execute().toChangelog()).toEqual(["+I[2]", "+I[1]", "+I[5]", "+I[0]", "+I[3]"]);
  });
});

describe("limit on an unbounded stream", () => {
  it("stops the job once satisfied: the result completes and the source is cancelled", async () => {
    const env = streaming();
    env.createTemporaryTable("Endless", TableDescriptor.forConnector("datagen")
      .schema(Schema.newBuilder().column("n", DataTypes.INT()).build()).option("seed", "7").build());
    const result = env.from("Endless").limit(5).execute();
    const rows = await result.toArray();
    expect(rows).toHaveLength(5);
    expect(result.getMetrics()["Collect.numRecordsIn"]).toBe(5);
  });

  it("an INSERT job runs on past a satisfied LIMIT (Flink): the source is read on, its rows dropped, the job can be savepointed", async () => {
    const env = streaming();
    env.createTemporaryTable("Endless", TableDescriptor.forConnector("datagen")
      .schema(Schema.newBuilder().column("n", DataTypes.INT()).build()).option("seed", "7").build());
    const sink = new CollectionSink();
    env.createTemporaryTable("out", sink.descriptor(Schema.newBuilder().column("n", DataTypes.INT()).build()));
    const result = env.from("Endless").limit(3).executeInsert("out");
    for (let waited = 0; sink.size < 3 && waited < 5000; waited += 5) await new Promise((r) => setTimeout(r, 5));
    const read = () => result.getMetrics()["datagen[Endless].numRecordsOut"] as number;
    const before = read();
    for (let waited = 0; read() === before && waited < 5000; waited += 5) await new Promise((r) => setTimeout(r, 5));
    expect(read()).toBeGreaterThan(before);
    const dir = mkdtempSync(join(tmpdir(), "ts-limit-"));
    try {
      await expect(result.getJobClient()!.triggerSavepoint(dir)).resolves.toContain("savepoint-");
    } finally {
      await result.getJobClient()!.cancel();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(sink.changelog()).toHaveLength(3);
    expect(result.getMetrics()["Sink[out].numRecordsIn"]).toBe(3);
  });

  it("a batch INSERT with a LIMIT ends with its source", async () => {
    const env = batch();
    const sink = new CollectionSink();
    env.createTemporaryTable("out", sink.descriptor(Schema.newBuilder().column("n", DataTypes.INT()).build()));
    await env.fromValues(DataTypes.ROW(DataTypes.FIELD("n", DataTypes.INT())), Row.of(1), Row.of(2), Row.of(3)).limit(2).executeInsert("out").await();
    expect(sink.changelog()).toEqual(["+I[1]", "+I[2]"]);
  });

  it("also with an offset: the rows after it, in arrival order", async () => {
    const env = streaming();
    env.createTemporaryTable("Endless", TableDescriptor.forConnector("datagen")
      .schema(Schema.newBuilder().column("n", DataTypes.INT()).build()).option("seed", "7").build());
    const all = await env.from("Endless").limit(10).execute().toChangelog();
    const some = await env.from("Endless").limit(2, 3).execute().toChangelog();
    expect(some).toEqual(all.slice(2, 5));
  });
});
