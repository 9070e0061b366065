// Seed 000 "Updates and Changelog" (업데이트와 Changelog) / seed 004 (更新和变更日志): the two examples
// with the rows the seed prints, and the changelog encodings of its REQUIRE_UPDATE_BEFORE /
// REQUIRE_FULL_DELETE snippets.
import { describe, expect, expectTypeOf, it } from "vitest";
import { customAggregation } from "../../examples/ptf/custom-aggregation.js";
import { toChangelog } from "../../examples/ptf/to-changelog.js";
import { $, CollectionSink, DataTypes, Schema, type Table } from "../../src/index.js";
import { printed } from "../support.js";
import { SetSemanticTableFullDeletesArgFunction, SetSemanticTableRetractArgFunction, keyedUpsertValues, upsertSource } from "./flink-changelog-functions.js";
import { streamingEnv } from "./support.js";

const lines = (...l: string[]) => l.join("\n");

describe("seed 000: updates and changelog", () => {
  it("ToChangelogFunction: an updating aggregate becomes an append-only table; updates arrive as upserts", async () => {
    const t = toChangelog();
    expectTypeOf(t).toEqualTypeOf<Table<{ name: string; flag: string | null; sum: number | null }, "append">>();
    expect(t.changelogMode()).toBe("[I]");
    expect(await printed(t.execute())).toBe(lines(
      "+----+--------------------------------+--------------------------------+-------------+",
      "| op |                           name |                           flag |         sum |",
      "+----+--------------------------------+--------------------------------+-------------+",
      "| +I |                            Bob |                         INSERT |          23 |",
      "| +I |                          Alice |                         INSERT |          42 |",
      "| +I |                          Alice |                   UPDATE_AFTER |          44 |",
      "+----+--------------------------------+--------------------------------+-------------+",
      "3 rows in set",
    ));
  });

  it("CustomAggregation: a PTF that emits retractions (ChangelogMode.all())", async () => {
    const t = customAggregation();
    expectTypeOf(t).toEqualTypeOf<Table<{ name: string; sum: number | null }, "retract">>();
    expect(t.changelogMode()).toBe("[I,UB,UA,D]");
    expect(await printed(t.execute())).toBe(lines(
      "+----+--------------------------------+-------------+",
      "| op |                           name |         sum |",
      "+----+--------------------------------+-------------+",
      "| +I |                            Bob |          23 |",
      "| +I |                          Alice |          42 |",
      "| -U |                          Alice |          42 |",
      "| +U |                          Alice |          44 |",
      "| -D |                            Bob |          23 |",
      "+----+--------------------------------+-------------+",
      "5 rows in set",
    ));
    // written to a retract sink, only Alice remains in the materialized table
    const env = streamingEnv();
    const sink = new CollectionSink();
    env.createTemporaryTable("out", sink.descriptor(Schema.newBuilder().column("name", DataTypes.STRING()).column("sum", DataTypes.INT()).build()));
    await customAggregation(env).executeInsert("out").await();
    expect(sink.materialized()).toEqual([{ name: "Alice", sum: 44 }]);
  });

  // UpdatingTable(name STRING PRIMARY KEY, score INT): +I[Alice, 42], +I[Bob, 0], +U[Bob, 2], +U[Bob, 100], -D[Bob, NULL]
  const UPDATES = [["+I", "Alice", 42], ["+I", "Bob", 0], ["+U", "Bob", 2], ["+U", "Bob", 100], ["-D", "Bob", null]] as const;
  const updatingTable = () => upsertSource(streamingEnv(), UPDATES);

  it("REQUIRE_UPDATE_BEFORE: an upsert table arrives as retractions", async () => {
    // the keyed source is normalized below the call (ChangelogNormalize), as Flink plans it
    const call = keyedUpsertValues(streamingEnv(), UPDATES).partitionBy($("name")).process(SetSemanticTableRetractArgFunction);
    expect(call.explain()).toContain("ChangelogNormalize(key=[name], changelogMode=[I,UB,UA,D])");
    const out = await call.execute().toChangelog();
    // the seed lists `-U[Bob, 100]` last; Flink's ChangelogNormalize (and tablestream) retract a deleted key with -D
    expect(out).toEqual([
      "+I[Alice, {+I[Alice, 42]}]", "+I[Bob, {+I[Bob, 0]}]", "+I[Bob, {-U[Bob, 0]}]", "+I[Bob, {+U[Bob, 2]}]",
      "+I[Bob, {-U[Bob, 2]}]", "+I[Bob, {+U[Bob, 100]}]", "+I[Bob, {-D[Bob, 100]}]",
    ]);
  });

  it("REQUIRE_FULL_DELETE: key-only deletes arrive with the last full row", async () => {
    const out = await updatingTable().partitionBy($("name")).process(SetSemanticTableFullDeletesArgFunction).execute().toChangelog();
    expect(out).toEqual([
      "+I[Alice, {+I[Alice, 42]}]", "+I[Bob, {+I[Bob, 0]}]", "+I[Bob, {+U[Bob, 2]}]", "+I[Bob, {+U[Bob, 100]}]", "+I[Bob, {-D[Bob, 100]}]",
    ]);
  });
});
