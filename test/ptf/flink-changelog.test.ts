// Flink's changelog programs and checks (Flink's test catalogue §3.5–3.6, V-27/V-30/V-36/V-37/V-39/V-41/V-67):
// updating table arguments (SUPPORT_UPDATES, REQUIRE_UPDATE_BEFORE, REQUIRE_FULL_DELETE) and functions
// with an updating output (changelogMode), with Flink's rows and messages.
import { describe, expect, it } from "vitest";
import {
  $, ArgumentTrait, ChangelogMode, CollectionSink, DataTypes, descriptor, lit, ProcessTableFunction, Row, RowKind, Schema, tableArg,
  TableRuntimeException, type Table, type TableEnvironment,
} from "../../src/index.js";
import { ptfInspection } from "../../src/exec/operators/ptf/inspect.js";
import type { PtfOperator } from "../../src/exec/operators/ptf/ptf-operator.js";
import { getExecutor } from "../../src/table/executor.js";
import { KIND_SHORT } from "../../src/types/row.js";
import { toJavaString } from "../../src/types/format.js";
import {
  SetSemanticTableFullDeletesArgFunction, SetSemanticTableRetractArgFunction, SetSemanticTableUpdatingArgFunction,
  SetSemanticTableUpdatingKeyedArgFunction, UpdatingPartialDeleteFunction, UpdatingRetractFunction, UpdatingRetractRowSemanticFunction,
  UpdatingJoinFunction, UpdatingUpsertFunction, UpdatingUpsertRowSemanticFunction, keyedUpsertValues, updatingValues, upsertSource,
} from "./flink-changelog-functions.js";
import { OUT, emitObjects, streamingEnv } from "./support.js";

const changes = (t: Table<object>) => t.execute().toChangelog();
const MISMATCH = "Can't generate a valid execution plan for the given query because of a changelog mismatch";

/** The source of P-040 / P-041: an upsert table keyed by name with key-only deletes. */
const P040_SOURCE = [["+I", "Bob", 5], ["+I", "Alice", 2], ["+U", "Bob", 3], ["-D", "Bob", null], ["+I", "Bob", 2], ["-D", "Alice", null]] as const;

/** The sink of P-043 / P-045: `name STRING PRIMARY KEY NOT ENFORCED, name0 STRING, count BIGINT, mode STRING`. */
function keyedSink(env: TableEnvironment, name = "sink", primaryKey = true) {
  const sink = new CollectionSink();
  const b = Schema.newBuilder().column("name", DataTypes.STRING().notNull()).column("name0", DataTypes.STRING())
    .column("count", DataTypes.BIGINT()).column("mode", DataTypes.STRING());
  env.createTemporaryTable(name, sink.descriptor((primaryKey ? b.primaryKey("name") : b).build()));
  return sink;
}

describe("§3.5 changelog input", () => {
  it("P-037 process-updating-input-retract: no PARTITION BY, so no upsert key: retractions without deletes", async () => {
    const env = streamingEnv();
    expect(await changes(env.fromCall(SetSemanticTableUpdatingArgFunction, updatingValues(env).asArgument("r")))).toEqual([
      "+I[{+I[Bob, 1], retract-no-delete}]", "+I[{+I[Alice, 1], retract-no-delete}]",
      "+I[{-U[Bob, 1], retract-no-delete}]", "+I[{+U[Bob, 2], retract-no-delete}]",
    ]);
  });

  it("PARTITION BY the upsert key: upserts (no -U)", async () => {
    const env = streamingEnv();
    expect(await changes(updatingValues(env).partitionBy($("name")).process(SetSemanticTableUpdatingArgFunction))).toEqual([
      "+I[Bob, {+I[Bob, 1], upsert-no-delete}]", "+I[Alice, {+I[Alice, 1], upsert-no-delete}]", "+I[Bob, {+U[Bob, 2], upsert-no-delete}]",
    ]);
  });

  it("PARTITION BY another column than the upsert key: retractions", async () => {
    const env = streamingEnv();
    expect(await changes(updatingValues(env).partitionBy($("EXPR$1")).process(SetSemanticTableUpdatingArgFunction))).toEqual([
      "+I[1, {+I[Bob, 1], retract-no-delete}]", "+I[1, {+I[Alice, 1], retract-no-delete}]",
      "+I[1, {-U[Bob, 1], retract-no-delete}]", "+I[2, {+U[Bob, 2], retract-no-delete}]",
    ]);
  });

  it("P-039 process-updating-input-enforced-retract: REQUIRE_UPDATE_BEFORE although the key matches", async () => {
    const env = streamingEnv();
    expect(await changes(updatingValues(env).partitionBy($("name")).process(SetSemanticTableRetractArgFunction))).toEqual([
      "+I[Bob, {+I[Bob, 1]}]", "+I[Alice, {+I[Alice, 1]}]", "+I[Bob, {-U[Bob, 1]}]", "+I[Bob, {+U[Bob, 2]}]",
    ]);
  });

  it("P-040: key-only deletes carry nulls in the non-key fields", async () => {
    const env = streamingEnv();
    const src = upsertSource(env, P040_SOURCE);
    expect(src.changelogMode()).toBe("[I,UA,~D]");
    expect(await changes(src.partitionBy($("name")).process(SetSemanticTableUpdatingKeyedArgFunction))).toEqual([
      "+I[Bob, {+I[Bob, 5]}]", "+I[Alice, {+I[Alice, 2]}]", "+I[Bob, {+U[Bob, 3]}]", "+I[Bob, {-D[Bob, null]}]",
      "+I[Bob, {+I[Bob, 2]}]", "+I[Alice, {-D[Alice, null]}]",
    ]);
  });

  it("P-041 process-updating-input-enforced-full-deletes: the last row per key fills the deletes", async () => {
    const env = streamingEnv();
    expect(await changes(upsertSource(env, P040_SOURCE).partitionBy($("name")).process(SetSemanticTableFullDeletesArgFunction))).toEqual([
      "+I[Bob, {+I[Bob, 5]}]", "+I[Alice, {+I[Alice, 2]}]", "+I[Bob, {+U[Bob, 3]}]", "+I[Bob, {-D[Bob, 3]}]",
      "+I[Bob, {+I[Bob, 2]}]", "+I[Alice, {-D[Alice, 2]}]",
    ]);
  });

  it("the delivered mode is what tableSemanticsFor(arg).changelogMode() reports", async () => {
    const env = streamingEnv();
    const seen: string[] = [];
    const F = ProcessTableFunction.define({
      args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.SUPPORT_UPDATES, ArgumentTrait.REQUIRE_FULL_DELETE) },
      output: OUT,
      eval(ctx) { seen.push(String(ctx.tableSemanticsFor("r").changelogMode()), String(ctx.changelogMode())); },
    });
    await changes(upsertSource(env, [["+I", "Bob", 1]]).partitionBy($("name")).process(F));
    expect(seen).toEqual(["[INSERT, UPDATE_AFTER, DELETE]", "[INSERT]"]);
  });

  it("the adapter's last rows per key (full deletes of key-only deletes) are operator state: snapshot and restore", () => {
    const env = streamingEnv();
    const run = (rows: readonly (readonly [RowKind, string, number | null])[], restore?: unknown) => {
      const table = upsertSource(env, rows).partitionBy($("name")).process(SetSemanticTableFullDeletesArgFunction);
      const types = table.getResolvedSchema().types;
      const out: string[] = [];
      ptfInspection.track = true;
      ptfInspection.operators.length = 0;
      const job = getExecutor().createJob(table.node, { batch: false, config: env.getConfig().options, clock: Date.now }, {
        record: (k, v) => out.push(`${KIND_SHORT[k]}[${v.map((x, i) => toJavaString(types[i], x)).join(", ")}]`),
      });
      ptfInspection.track = false;
      const op = ptfInspection.operators.find((o) => o.call.fn === SetSemanticTableFullDeletesArgFunction) as PtfOperator;
      if (restore !== undefined) op.restoreState(restore);
      while (job.step(1000) !== "done");
      return { out, state: op.snapshotState() };
    };
    const before = run([["+I", "Bob", 1], ["+I", "Alice", 2]]);
    expect(before.out).toEqual(["+I[Bob, {+I[Bob, 1]}]", "+I[Alice, {+I[Alice, 2]}]"]);
    const after = run([["+U", "Bob", 5], ["-D", "Alice", null]], before.state);
    expect(after.out).toEqual(["+I[Bob, {+U[Bob, 5]}]", "+I[Alice, {-D[Alice, 2]}]"]);
  });

  it("a keyed upsert source into a REQUIRE_UPDATE_BEFORE argument is normalized below the call (ChangelogNormalize)", async () => {
    const env = streamingEnv();
    const src = keyedUpsertValues(env, [["+I", "Bob", 1], ["+I", "Alice", 2], ["+U", "Bob", 5], ["-D", "Alice", null]]);
    expect(src.changelogMode()).toBe("[I,UA,D]");
    const call = src.partitionBy($("name")).process(SetSemanticTableRetractArgFunction);
    expect(call.explain()).toContain("ChangelogNormalize(key=[name], changelogMode=[I,UB,UA,D])");
    expect(await changes(call)).toEqual([
      "+I[Bob, {+I[Bob, 1]}]", "+I[Alice, {+I[Alice, 2]}]", "+I[Bob, {-U[Bob, 1]}]", "+I[Bob, {+U[Bob, 5]}]", "+I[Alice, {-D[Alice, 2]}]",
    ]);
  });

  it("a keyed upsert source PARTITIONed BY another column is normalized too; by its key it stays upserts", async () => {
    const env = streamingEnv();
    const src = () => keyedUpsertValues(env, [["+I", "Bob", 1], ["+U", "Bob", 5]]);
    const other = src().partitionBy($("score")).process(SetSemanticTableUpdatingArgFunction);
    expect(other.explain()).toContain("ChangelogNormalize(key=[name]");
    expect(await changes(other)).toEqual([
      "+I[1, {+I[Bob, 1], retract}]", "+I[1, {-U[Bob, 1], retract}]", "+I[5, {+U[Bob, 5], retract}]",
    ]);
    const byKey = src().partitionBy($("name")).process(SetSemanticTableUpdatingArgFunction);
    expect(byKey.explain()).not.toContain("ChangelogNormalize");
    expect(await changes(byKey)).toEqual(["+I[Bob, {+I[Bob, 1], upsert-full-delete}]", "+I[Bob, {+U[Bob, 5], upsert-full-delete}]"]);
  });

  it("an upsert PTF output into a REQUIRE_UPDATE_BEFORE argument is a changelog mismatch (SQL and Table API alike)", () => {
    const env = streamingEnv();
    const upserts = updatingValues(env).partitionBy($("name")).process(UpdatingUpsertFunction);
    const mismatch = `${MISMATCH}: table argument 'r' of function 'f' (ArgumentTrait.REQUIRE_UPDATE_BEFORE) needs retractions (UPDATE_BEFORE and full deletes) `
      + "but its input is an upsert changelog [I,UA,D] keyed by [name].";
    env.createTemporaryFunction("f", SetSemanticTableRetractArgFunction);
    expect(() => upserts.partitionBy($("name")).process("f")).toThrow(mismatch);
    env.createTemporaryView("t_upsert", upserts);
    expect(() => env.sqlQuery("SELECT * FROM f(r => TABLE t_upsert PARTITION BY name)")).toThrow(mismatch);
    // PARTITION BY another column than the upsert key needs retractions as well
    env.createTemporaryFunction("g", SetSemanticTableUpdatingArgFunction);
    expect(() => upserts.partitionBy($("count")).process("g")).toThrow(
      `${MISMATCH}: table argument 'r' of function 'g' (PARTITION BY [count] is not the upsert key) needs retractions`,
    );
  });

  it("an upstream PTF is asked for retractions when a downstream argument needs them (getRequiredChangelogMode)", async () => {
    const env = streamingEnv();
    const Adaptive = ProcessTableFunction.define({
      args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.SUPPORT_UPDATES, ArgumentTrait.REQUIRE_UPDATE_BEFORE) },
      output: DataTypes.ROW(DataTypes.FIELD("count", DataTypes.BIGINT())),
      // retractions only when asked: emitting -U under the upsert mode would fail the job (P-047's check)
      changelogMode: (ctx) => (ctx.getRequiredChangelogMode().kinds.includes("UPDATE_BEFORE") ? ChangelogMode.all() : ChangelogMode.upsert()),
      eval(ctx, _s, { r }) { ctx.collect(Row.ofKind(Row.kindOf(r), (r as { EXPR$1: number }).EXPR$1)); },
    });
    const call = updatingValues(env).partitionBy($("name")).process(Adaptive).partitionBy($("name")).process(SetSemanticTableRetractArgFunction);
    expect(await changes(call)).toEqual([
      "+I[Bob, {+I[Bob, 1]}]", "+I[Alice, {+I[Alice, 1]}]", "+I[Bob, {-U[Bob, 1]}]", "+I[Bob, {+U[Bob, 2]}]",
    ]);
  });

  it("an upsert changelog without an upsert key cannot be turned into retractions", () => {
    const env = streamingEnv();
    const t = env.fromValues(Row.of("Bob", 1), Row.ofKind(RowKind.UPDATE_AFTER, "Bob", 2)).as("name", "score");
    expect(() => t.partitionBy($("name")).process(SetSemanticTableRetractArgFunction)).toThrow(
      "Table argument 'r' of function '<anonymous>' receives an upsert changelog ([I,UA]) without an upsert key, so its updates cannot be delivered as retractions",
    );
  });

  it("ORDER BY is not supported for updating tables", () => {
    const env = streamingEnv();
    const schema = Schema.newBuilder().column("name", DataTypes.STRING()).column("ts", DataTypes.TIMESTAMP_LTZ(3)).watermark("ts", "ts").build();
    const t = env.fromValues(schema, Row.of("Bob", new Date(0)), Row.ofKind(RowKind.DELETE, "Bob", new Date(0)));
    expect(() => t.partitionBy($("name")).orderBy($("ts")).process(SetSemanticTableUpdatingKeyedArgFunction)).toThrow(
      "Invalid ORDER BY clause for table argument 'r'. ORDER BY is not supported for updating tables (changelog mode [I,D]).",
    );
  });
});

describe("§3.6 changelog output", () => {
  it("P-043 process-updating-output-upsert: upsert output into an upsert sink (full deletes)", async () => {
    const env = streamingEnv();
    const sink = keyedSink(env);
    const t = updatingValues(env).partitionBy($("name")).process(UpdatingUpsertFunction);
    expect(t.changelogMode()).toBe("[I,UA,D]");
    await t.executeInsert("sink").await();
    expect(sink.changelog()).toEqual([
      "+I[Bob, Bob, 1, upsert-full-delete]", "+I[Alice, Alice, 1, upsert-full-delete]", "+U[Bob, Bob, 2, upsert-full-delete]",
    ]);
  });

  it("P-045 process-updating-output-partial-deletes: key-only deletes (declared, see docs/ptf.md)", async () => {
    const env = streamingEnv();
    const sink = keyedSink(env);
    const src = upsertSource(env, [["+I", "Alice", 1], ["+I", "Bob", 2], ["+U", "Alice", 10], ["-D", "Bob", null]]);
    const t = src.partitionBy($("name")).process(UpdatingPartialDeleteFunction);
    expect(t.changelogMode()).toBe("[I,UA,~D]");
    await t.executeInsert("sink").await();
    expect(sink.changelog()).toEqual([
      "+I[Alice, Alice, 1, upsert-partial-delete]", "+I[Bob, Bob, 2, upsert-partial-delete]",
      "+U[Alice, Alice, 10, upsert-partial-delete]", "-D[Bob, Bob, null, upsert-partial-delete]",
    ]);
    expect(sink.materialized()).toEqual([{ name: "Alice", name0: "Alice", count: 10, mode: "upsert-partial-delete" }]);
  });

  it("retract output (ChangelogMode.all()) of a REQUIRE_UPDATE_BEFORE input", async () => {
    const env = streamingEnv();
    const t = updatingValues(env).partitionBy($("name")).process(UpdatingRetractFunction);
    expect(t.changelogMode()).toBe("[I,UB,UA,D]");
    expect(await changes(t)).toEqual([
      "+I[Bob, Bob, 1, retract]", "+I[Alice, Alice, 1, retract]", "-U[Bob, Bob, 1, retract]", "+U[Bob, Bob, 2, retract]",
    ]);
  });

  it("V-67: row semantics may emit retractions", async () => {
    const env = streamingEnv();
    expect(await changes(updatingValues(env).process(UpdatingRetractRowSemanticFunction))).toEqual([
      "+I[Bob, 1, retract]", "+I[Alice, 1, retract]", "-U[Bob, 1, retract]", "+U[Bob, 2, retract]",
    ]);
  });

  it("V-36: row semantics may not emit upserts", () => {
    const env = streamingEnv();
    expect(() => updatingValues(env).process(UpdatingUpsertRowSemanticFunction)).toThrow(
      "PTFs that take table arguments with row semantics don't support upsert output. Table argument 'r' of function '<anonymous>' must use set semantics.",
    );
  });

  it("an upsert output needs PARTITION BY (its upsert key)", () => {
    const env = streamingEnv();
    const F = ProcessTableFunction.define({
      args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.OPTIONAL_PARTITION_BY) },
      output: OUT, changelogMode: ChangelogMode.upsert(), eval() {},
    });
    expect(() => env.fromValues("Bob").as("name").process(F)).toThrow(
      "Function '<anonymous>' declares an upsert output ([INSERT, UPDATE_AFTER, DELETE]), whose upsert key is the PARTITION BY columns; call it with PARTITION BY",
    );
  });

  it("P-047 with an updating output: a kind outside the declared mode fails the job", async () => {
    const env = streamingEnv();
    // PARTITION BY the count: the input arrives as retractions, and the upsert function forwards the -U
    const t = updatingValues(env).partitionBy($("EXPR$1")).process(UpdatingUpsertFunction);
    const err = await t.execute().toChangelog().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TableRuntimeException);
    expect((err as Error).message).toBe("Invalid row kind received: UPDATE_BEFORE. Expected produced changelog mode: [INSERT, UPDATE_AFTER, DELETE]");
  });

  it("a generator may emit retractions", async () => {
    const env = streamingEnv();
    const G = ProcessTableFunction.define({
      output: DataTypes.STRING(), changelogMode: ChangelogMode.all(),
      eval(ctx) { ctx.collect("a"); ctx.collect(Row.ofKind(RowKind.DELETE, "a")); ctx.collect("b"); },
    });
    expect(await changes(env.fromCall(G))).toEqual(["+I[a]", "-D[a]", "+I[b]"]);
  });

  it("changelogMode receives the modes of the table arguments", async () => {
    const env = streamingEnv();
    // forwards the input's changes: insert-only for an insert-only table, retractions otherwise
    const Forward = ProcessTableFunction.define({
      args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.SUPPORT_UPDATES, ArgumentTrait.REQUIRE_UPDATE_BEFORE) },
      output: DataTypes.ROW(DataTypes.FIELD("n", DataTypes.BIGINT())),
      changelogMode: (ctx) => (ctx.getTableChangelogMode(0).kinds.length === 1 ? ChangelogMode.insertOnly() : ChangelogMode.all()),
      eval(ctx, _s, { r }) { ctx.collect(Row.ofKind(Row.kindOf(r), r.EXPR$1 as number)); },
    });
    expect(updatingValues(env).partitionBy($("name")).process(Forward).changelogMode()).toBe("[I,UB,UA,D]");
    const appendOnly = env.fromValues(Row.of("Bob", 7)).as("name", "EXPR$1").partitionBy($("name")).process(Forward);
    expect(appendOnly.changelogMode()).toBe("[I]");
    expect(await changes(appendOnly)).toEqual(["+I[Bob, 7]"]);
  });
});

describe("several updating tables", () => {
  it("UpdatingJoinFunction: two keyed upsert tables joined into an upsert output (upsert delivery on both)", async () => {
    const env = streamingEnv();
    const scores = keyedUpsertValues(env, [["+I", "Bob", 1], ["+I", "Alice", 2], ["+U", "Bob", 3], ["-D", "Alice", null]]);
    const cities = env.fromValues(
      Schema.newBuilder().column("name", DataTypes.STRING().notNull()).column("city", DataTypes.STRING()).primaryKey("name").build(),
      Row.of("Bob", "Berlin"), Row.of("Alice", "Paris"), Row.ofKind(RowKind.UPDATE_AFTER, "Bob", "Rome"),
    );
    const t = env.fromCall(UpdatingJoinFunction, scores.partitionBy($("name")).asArgument("scoreTable"), cities.partitionBy($("name")).asArgument("cityTable"));
    expect(t.changelogMode()).toBe("[I,UA,D]");
    expect(t.explain()).not.toContain("ChangelogNormalize");
    const sink = keyedJoinSink(env);
    await t.executeInsert("join_sink").await();
    // the tables are read in turns: score, city, score, city, ...
    // (each table's PARTITION BY column is forwarded, as in Flink: name, name0; the upsert key is the first)
    expect(sink.changelog()).toEqual([
      "+I[Bob, Bob, score 1 in city Berlin]", "+I[Alice, Alice, score 2 in city Paris]", "+U[Bob, Bob, score 3 in city Berlin]",
      "+U[Bob, Bob, score 3 in city Rome]", "-D[Alice, Alice, null]",
    ]);
    expect(sink.materialized()).toEqual([{ name: "Bob", name0: "Bob", out: "score 3 in city Rome" }]);
  });
});

function keyedJoinSink(env: TableEnvironment) {
  const sink = new CollectionSink();
  env.createTemporaryTable("join_sink", sink.descriptor(Schema.newBuilder().column("name", DataTypes.STRING().notNull())
    .column("name0", DataTypes.STRING().notNull()).column("out", DataTypes.STRING()).primaryKey("name").build()));
  return sink;
}

describe("validation", () => {
  it("V-30: pass-through columns with updates", () => {
    expect(() => tableArg(ArgumentTrait.ROW_SEMANTIC_TABLE, ArgumentTrait.PASS_COLUMNS_THROUGH, ArgumentTrait.SUPPORT_UPDATES)).toThrow(
      "Signatures with updating inputs must not pass columns through.",
    );
    const env = streamingEnv();
    const F = ProcessTableFunction.define({
      args: { r: tableArg(ArgumentTrait.ROW_SEMANTIC_TABLE, ArgumentTrait.PASS_COLUMNS_THROUGH) },
      output: OUT, changelogMode: ChangelogMode.all(), eval(ctx, _s, { r }) { emitObjects(ctx, r); },
    });
    expect(() => env.fromValues("Bob").as("name").process(F)).toThrow("Pass-through columns are not supported for PTFs that produce updates.");
  });

  it("V-27: an updating table into a table argument without SUPPORT_UPDATES", () => {
    const env = streamingEnv();
    const F = ProcessTableFunction.define({ args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) }, output: OUT, eval() {} });
    expect(() => (updatingValues(env) as Table<{ name: string }>).partitionBy($("name")).process(F as never)).toThrow(
      "StreamPhysicalProcessTableFunction doesn't support consuming update changes",
    );
  });

  const V37 = "Time operations using the `on_time` argument are currently not supported for PTFs that consume or produce updates.";
  const watermarkedSchema = Schema.newBuilder().column("name", DataTypes.STRING()).column("score", DataTypes.INT())
    .column("ts", DataTypes.TIMESTAMP_LTZ(3)).watermark("ts", "ts").build();

  it("V-37: on_time with an updating output", () => {
    const env = streamingEnv();
    const t = env.fromValues(watermarkedSchema, Row.of("Bob", 1, new Date(0)));
    expect(() => env.fromCall(UpdatingUpsertFunction, t.partitionBy($("name")).asArgument("r"), descriptor("ts").asArgument("on_time"))).toThrow(V37);
  });

  it("V-37: on_time with an updating input", () => {
    const env = streamingEnv();
    const t = env.fromValues(watermarkedSchema, Row.of("Bob", 1, new Date(0)), Row.ofKind(RowKind.DELETE, "Bob", 1, new Date(0)));
    expect(() => env.fromCall(SetSemanticTableUpdatingKeyedArgFunction, t.partitionBy($("name")).asArgument("r"), descriptor("ts").asArgument("on_time"))).toThrow(V37);
  });


  it("V-39: an upsert output into an operator that needs retractions", () => {
    const env = streamingEnv();
    const t = updatingValues(env).partitionBy($("name")).process(UpdatingUpsertFunction);
    expect(() => t.groupBy($("name")).select($("name"), $("count").sum().as("s")).changelogMode()).toThrow(
      `${MISMATCH}: a group aggregate needs retractions (UPDATE_BEFORE and full deletes) but its input is an upsert changelog [I,UA,D] keyed by [name].`,
    );
    expect(() => t.select($("name0"), $("count")).changelogMode()).toThrow(`${MISMATCH}: a projection drops the upsert key column 'name'`);
    expect(t.select($("name").as("k"), $("count")).changelogMode()).toBe("[I,UA,D]");
  });

  /** Flink's text of V-38 / V-41: the conflict printed as a plan fragment (sink and the node feeding it). */
  const atSink = (node: string) => "There is a changelog mismatch between two operators. "
    + "One produces an upsert changelog (UPDATE_AFTER without UPDATE_BEFORE). "
    + "The other requires a retract changelog (UPDATE_BEFORE and UPDATE_AFTER), for example a sink without a primary key. "
    + "In such cases, ensure that the sink is able to digest upserts where the PRIMARY KEY serves as the upsert key, or make the input produce UPDATE_BEFORE.\n\n"
    + "The conflict is at:\n"
    + "Sink(expectedChangelogMode=[I,UB,UA,D])\n"
    + `  +- ${node}(changelogMode=[I,UA,D])`;

  it("V-38: an upsert output into a sink without primary key (SQL and Table API)", () => {
    const env = streamingEnv();
    keyedSink(env, "t_no_pk_sink", false);
    env.createTemporaryFunction("f", UpdatingUpsertFunction);
    env.createTemporaryView("t_updating", updatingValues(env));
    expect(() => env.from("t_updating").partitionBy($("name")).process("f").executeInsert("t_no_pk_sink")).toThrow(atSink("ProcessTableFunction"));
    expect(() => env.executeSql("INSERT INTO t_no_pk_sink SELECT * FROM f(r => TABLE t_updating PARTITION BY name)")).toThrow(atSink("ProcessTableFunction"));
    expect(() => env.executeSql("INSERT INTO t_no_pk_sink SELECT * FROM f(r => TABLE t_updating PARTITION BY name)")).toThrow(
      "Table sink 't_no_pk_sink' (connector 'collection') has no primary key; the upsert key of its input is [name].",
    );
  });

  it("V-41: an upsert output below a filter into a sink without primary key", () => {
    const env = streamingEnv();
    keyedSink(env, "t_no_pk_sink", false);
    const t = updatingValues(env).partitionBy($("name")).process(UpdatingUpsertFunction).filter($("name0").isNotEqual(lit("")));
    expect(() => t.executeInsert("t_no_pk_sink")).toThrow(atSink("Calc"));
    env.createTemporaryFunction("f", UpdatingUpsertFunction);
    env.createTemporaryView("t_updating", updatingValues(env));
    expect(() => env.executeSql("INSERT INTO t_no_pk_sink SELECT name, name0, `count`, mode FROM f(r => TABLE t_updating PARTITION BY name) WHERE name0 <> ''"))
      .toThrow(atSink("Calc"));
  });

  it("V-40: a retract requirement on an upsert table argument (SQL)", () => {
    const env = streamingEnv();
    env.createTemporaryFunction("upsertPtf", UpdatingUpsertFunction);
    env.createTemporaryFunction("f", SetSemanticTableRetractArgFunction);
    env.createTemporaryView("t_updating", updatingValues(env));
    env.executeSql("CREATE VIEW t_upsert AS SELECT * FROM upsertPtf(r => TABLE t_updating PARTITION BY name)");
    expect(() => env.sqlQuery("SELECT * FROM f(r => TABLE t_upsert PARTITION BY name)")).toThrow(MISMATCH);
  });
});

describe("ChangelogMode", () => {
  it("prints as Flink's ChangelogMode.toString()", () => {
    expect(String(ChangelogMode.insertOnly())).toBe("[INSERT]");
    expect(String(ChangelogMode.all())).toBe("[INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE]");
    expect(String(ChangelogMode.upsert())).toBe("[INSERT, UPDATE_AFTER, DELETE]");
    expect(String(ChangelogMode.upsert(true))).toBe("[INSERT, UPDATE_AFTER, ~DELETE]");
    expect(String(ChangelogMode.of(["UPDATE_AFTER", "INSERT"]))).toBe("[INSERT, UPDATE_AFTER]");
  });

  it("rejects modes that are not changelogs", () => {
    expect(() => ChangelogMode.of([])).toThrow("ChangelogMode.of: a changelog mode needs at least one row kind");
    expect(() => ChangelogMode.of(["INSERT", "UPDATE_BEFORE"])).toThrow("UPDATE_BEFORE without UPDATE_AFTER is not a valid changelog mode");
    expect(() => ChangelogMode.of(["INSERT"], { keyOnlyDeletes: true })).toThrow("keyOnlyDeletes needs DELETE among the kinds");
    expect(() => ChangelogMode.of(["UPSERT" as never])).toThrow("ChangelogMode.of: unknown row kind 'UPSERT'");
    expect(() => ProcessTableFunction.define({ output: OUT, changelogMode: "all" as never, eval() {} })).toThrow(
      "process table function: changelogMode must be a ChangelogMode (e.g. ChangelogMode.all()) or a function returning one",
    );
  });

  it("a changelogMode function that returns something else fails the call", () => {
    const env = streamingEnv();
    const F = ProcessTableFunction.define({ name: "f", output: OUT, changelogMode: (() => "all") as never, eval() {} });
    expect(() => env.fromCall(F)).toThrow("changelogMode of function 'f' must return a ChangelogMode (e.g. ChangelogMode.all()), got all");
  });
});
