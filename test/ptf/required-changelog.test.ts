import { describe, expect, it } from "vitest";
import { $, ChangelogMode, CollectionSink, DataTypes, ProcessTableFunction, Schema, tableArg, ArgumentTrait } from "../../src/index.js";
import type { TableEnvironment } from "../../src/index.js";
import { UpdatingUpsertFunction, upsertSource } from "./flink-changelog-functions.js";
import { streamingEnv } from "./support.js";

/**
 * getRequiredChangelogMode() tells a PTF what its consumer needs (changelog negotiation, docs/semantics.md):
 * all kinds for a retract consumer (the collect sink of execute(), a sink without key), an upsert mode for an
 * upsert sink, with key-only deletes when the sink deletes by key (`sink.supports-delete-by-key`).
 */
function keyedSink(env: TableEnvironment, deleteByKey: boolean) {
  const sink = new CollectionSink();
  const schema = Schema.newBuilder().column("name", DataTypes.STRING().notNull()).column("name0", DataTypes.STRING())
    .column("count", DataTypes.BIGINT()).column("mode", DataTypes.STRING()).primaryKey("name").build();
  env.createTemporaryTable("sink", sink.descriptor(schema, deleteByKey ? { "sink.supports-delete-by-key": "true" } : {}));
  return sink;
}

const P045_SOURCE = [["+I", "Alice", 1], ["+I", "Bob", 2], ["+U", "Alice", 10], ["-D", "Bob", null]] as const;

describe("a PTF's getRequiredChangelogMode() reflects its consumer", () => {
  it("P-045 process-updating-output-partial-deletes: before a sink that deletes by key the function is asked for key-only deletes", async () => {
    const env = streamingEnv();
    const sink = keyedSink(env, true);
    const pipeline = upsertSource(env, P045_SOURCE).partitionBy($("name")).process(UpdatingUpsertFunction).insertInto("sink");
    // the function's call (line 2 of the plan, under the sink) is planned with key-only deletes
    expect(pipeline.explain().split("\n")[2]).toMatch(/^\+- Process\(.*changelogMode=\[I,UA,~D\]\)/);
    await pipeline.execute().await();
    expect(sink.changelog()).toEqual([
      "+I[Alice, Alice, 1, upsert-partial-delete]", "+I[Bob, Bob, 2, upsert-partial-delete]",
      "+U[Alice, Alice, 10, upsert-partial-delete]", "-D[Bob, Bob, null, upsert-partial-delete]",
    ]);
    expect(sink.materialized()).toEqual([{ name: "Alice", name0: "Alice", count: 10, mode: "upsert-partial-delete" }]);
  });

  it("the same call before an upsert sink without delete-by-key, or collected, is asked for full deletes", async () => {
    const env = streamingEnv();
    keyedSink(env, false);
    const t = upsertSource(env, P045_SOURCE).partitionBy($("name")).process(UpdatingUpsertFunction);
    expect(t.changelogMode()).toBe("[I,UA,D]");
    expect(t.insertInto("sink").explain().split("\n")[2]).toMatch(/^\+- Process\(.*changelogMode=\[I,UA,D\]\)/);
  });

  it("a function that chooses retractions when its consumer needs them: upserts into an upsert sink, retractions when collected", async () => {
    const Adaptive = ProcessTableFunction.define({
      name: "Adaptive",
      args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
      output: DataTypes.ROW(DataTypes.FIELD("n", DataTypes.BIGINT())),
      state: {},
      changelogMode: (ctx) => (ctx.getRequiredChangelogMode().kinds.includes("UPDATE_BEFORE") ? ChangelogMode.all() : ChangelogMode.upsert()),
      eval(ctx, _s, { r }) { void r; ctx.collect({ n: 1 }); },
    });
    const env = streamingEnv();
    const t = env.fromValues("Bob", "Bob").as("name").partitionBy($("name")).process(Adaptive);
    expect(t.explain()).toContain("changelogMode=[I,UB,UA,D]");
    const sink = new CollectionSink();
    const pipeline = t.insertInto(sink.descriptor(Schema.newBuilder().column("name", DataTypes.STRING().notNull()).column("n", "BIGINT").primaryKey("name").build()));
    expect(pipeline.explain().split("\n")[2]).toMatch(/^\+- Process\(invocation=\[Adaptive.*changelogMode=\[I,UA,D\]\)/);
  });
});
