// Flink's PTF programs and planner tests that the public half of the catalogue keeps back (the even-numbered cases), for the
// areas tablestream has: no table / scalar arguments, row and set semantics, context, pass-through, state
// and data views (§3.1-3.4, §3.7-3.8) and the planner facts about them (§4). Program ids and expected rows
// are Flink's (ProcessTableFunctionTestPrograms / ProcessTableFunctionTest); SQL calls are written with
// their Table API equivalents (`f(r => TABLE t PARTITION BY name, i => 1)` =
// `env.fromCall("f", t.partitionBy($("name")).asArgument("r"), lit(1).asArgument("i"))`).
// Flink compares multisets; tablestream's order is deterministic and asserted as is.
import { beforeEach, describe, expect, it } from "vitest";
import {
  $, ArgumentTrait, DataTypes, descriptor, lit, nullOf, ProcessTableFunction, Row, Schema, Session, call, scalarArg, tableArg,
} from "../../src/index.js";
import {
  AtomicTypeWrappingFunction, ClearStateFunction, ComplexValueViewFunction, ContextFunction, DescriptorFunction, EmptyOutputFunction,
  EmptyOutputRowSemanticFunction, IntervalDayArgFunction, MapStateFunction, PojoArgsFunction, PojoCreatingFunction,
  RowDataRowSemanticTableFunction, RowSemanticTableFunction, RowSemanticTablePassThroughFunction, ScalarArgsFunction, SetSemanticTableFunction,
  SetSemanticTableOptionalPartitionFunction, SetSemanticTablePassThroughFunction, TypedRowSemanticTableFunction, TypedSetSemanticTableFunction,
  UserType, nullErrors,
} from "./flink-functions.js";
import { OUT, basicValues, emitObjects, multiValues, streamingEnv } from "./support.js";

const { ROW_SEMANTIC_TABLE: ROW, SET_SEMANTIC_TABLE: SET, OPTIONAL_PARTITION_BY: OPT_PB } = ArgumentTrait;

/** `CREATE VIEW t_name_diff AS SELECT 'Bob' AS name, 12 AS different` (PLANTEST setup). */
function nameDiff(env: ReturnType<typeof streamingEnv>) {
  return env.fromValues(DataTypes.ROW(DataTypes.FIELD("name", DataTypes.CHAR(3).notNull()), DataTypes.FIELD("different", DataTypes.INT().notNull())),
    Row.of("Bob", 12));
}

describe("§3.1 no table / scalar arguments (held-out programs)", () => {
  it("process-scalar-args-table-api: fromCall with lit(42) and lit(true)", async () => {
    const env = streamingEnv();
    const t = env.fromCall(ScalarArgsFunction, lit(42).asArgument("i"), lit(true).asArgument("b"));
    expect(await t.execute().toChangelog()).toEqual(["+I[{42, true}]"]);
  });

  it("process-interval-day-args: INTERVAL '1' SECOND arrives as a Duration (PT1S)", async () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryFunction("f", IntervalDayArgFunction);
    expect(await env.fromCall("f", lit(1).seconds().asArgument("d")).execute().toChangelog()).toEqual(["+I[{PT1S}]"]);
  });

  it("process-pojo-args: a typed table argument and a structured scalar argument from a UDF", async () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryFunction("f", PojoArgsFunction);
    env.createTemporaryFunction("pojoCreator", PojoCreatingFunction);
    // f(input => TABLE t, scalar => pojoCreator('Bob', 12))
    const result = env.fromCall("f", env.from("t").asArgument("input"), call("pojoCreator", "Bob", 12).asArgument("scalar"));
    expect(await result.execute().toChangelog()).toEqual([
      "+I[{User(s='Bob', i=12), User(s='Bob', i=12)}]",
      "+I[{User(s='Alice', i=42), User(s='Bob', i=12)}]",
    ]);
  });

  it("process-descriptor: nullable, optional and NOT NULL DESCRIPTOR arguments", async () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryFunction("f", DescriptorFunction);
    // f(columnList1 => NULL, columnList3 => DESCRIPTOR(a, b, c))
    const result = env.fromCall("f", nullOf(DataTypes.DESCRIPTOR()).asArgument("columnList1"), descriptor("a", "b", "c").asArgument("columnList3"));
    expect(await result.execute().toChangelog()).toEqual(["+I[{null, null, (`a`, `b`, `c`)}]"]);
  });

  it("testDescriptors: one, two and zero columns; DESCRIPTOR() is an empty column list", async () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", DescriptorFunction);
    const result = env.fromCall("f",
      descriptor("a").asArgument("columnList1"), descriptor("b", "c").asArgument("columnList2"), descriptor().asArgument("columnList3"));
    expect(result.explain()).toContain("invocation=[f(DESCRIPTOR(a), DESCRIPTOR(b, c), DESCRIPTOR(), DEFAULT(), DEFAULT())]");
    expect(await result.execute().toChangelog()).toEqual(["+I[{(`a`), (`b`, `c`), ()}]"]);
  });
});

describe("§3.2 row semantics (held-out programs)", () => {
  const expected = ["+I[{+I[Bob, 12], 1}]", "+I[{+I[Alice, 42], 1}]"];

  it("process-row-table-api-inline: Table.process with a positional argument", async () => {
    const env = streamingEnv();
    expect(await basicValues(env).process(RowSemanticTableFunction, 1).execute().toChangelog()).toEqual(expected);
  });

  it("process-typed-row: f(u => TABLE t, i => 1)", async () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryFunction("f", TypedRowSemanticTableFunction);
    expect(await env.fromCall("f", env.from("t").asArgument("u"), lit(1).asArgument("i")).execute().toChangelog())
      .toEqual(["+I[{User(s='Bob', i=12), 1}]", "+I[{User(s='Alice', i=42), 1}]"]);
  });

  it("testTypedRowSemanticTableIgnoringColumnNames: columns of a typed table match by position", async () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", TypedRowSemanticTableFunction);
    const result = env.fromCall("f", nameDiff(env).asArgument("u"), lit(1).asArgument("i"));
    expect(result.getResolvedSchema().names).toEqual(["out"]);
    expect(await result.execute().toChangelog()).toEqual(["+I[{User(s='Bob', i=12), 1}]"]);
  });

  it("process-row-pass-through: f(r => TABLE t, i => 1) forwards the input columns first", async () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryFunction("f", RowSemanticTablePassThroughFunction);
    const result = env.fromCall("f", env.from("t").asArgument("r"), lit(1).asArgument("i"));
    expect(result.getResolvedSchema().toShortString()).toBe("[name: VARCHAR(5) NOT NULL, score: INT NOT NULL, out: STRING]");
    expect(await result.execute().toChangelog()).toEqual(["+I[Bob, 12, {+I[Bob, 12], 1}]", "+I[Alice, 42, {+I[Alice, 42], 1}]"]);
  });

  it("process-row-data-conversion: the first field read by position", async () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryFunction("f", RowDataRowSemanticTableFunction);
    expect(await env.fromCall("f", env.from("t").asArgument("input")).execute().toChangelog()).toEqual(["+I[{Hello Bob!}]", "+I[{Hello Alice!}]"]);
  });

  it("testZeroColumnOutput: ROW<> output of a row-semantics call has no column at all", async () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryFunction("f", EmptyOutputRowSemanticFunction);
    const result = env.fromCall("f", env.from("t").asArgument("r"));
    expect(result.getResolvedSchema().names).toEqual([]);
    // one empty row per input row
    expect(await result.execute().toChangelog()).toEqual(["+I[]", "+I[]"]);
  });
});

describe("§3.3 set semantics, optional partitioning, context (held-out programs)", () => {
  const expected = ["+I[Bob, {+I[Bob, 12], 1}]", "+I[Alice, {+I[Alice, 42], 1}]"];

  it("process-set: f(r => TABLE t PARTITION BY name, i => 1)", async () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryFunction("f", SetSemanticTableFunction);
    const result = env.fromCall("f", env.from("t").partitionBy($("name")).asArgument("r"), lit(1).asArgument("i"));
    expect(result.getResolvedSchema().names).toEqual(["name", "out"]);
    expect(await result.execute().toChangelog()).toEqual(expected);
  });

  it("process-set-table-api-inline: partitionBy(...).process with a positional argument", async () => {
    const env = streamingEnv();
    expect(await basicValues(env).partitionBy($("name")).process(SetSemanticTableFunction, 1).execute().toChangelog()).toEqual(expected);
  });

  it("process-typed-set: f(u => TABLE t PARTITION BY name, i => 1)", async () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryFunction("f", TypedSetSemanticTableFunction);
    expect(await env.fromCall("f", env.from("t").partitionBy($("name")).asArgument("u"), lit(1).asArgument("i")).execute().toChangelog())
      .toEqual(["+I[Bob, {User(s='Bob', i=12), 1}]", "+I[Alice, {User(s='Alice', i=42), 1}]"]);
  });

  it("testTypedSetSemanticTableForwardingOriginalColumnName(TableApi): the key keeps the table's column name", async () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", TypedSetSemanticTableFunction);
    const viaCall = env.fromCall("f", nameDiff(env).partitionBy($("name")).asArgument("u"), lit(1).asArgument("i"));
    const viaProcess = nameDiff(env).partitionBy($("name")).process("f", 1);
    for (const result of [viaCall, viaProcess]) {
      expect(result.getResolvedSchema().toShortString()).toBe("[name: CHAR(3) NOT NULL, out: STRING]");
      expect(await result.execute().toChangelog()).toEqual(["+I[Bob, {User(s='Bob', i=12), 1}]"]);
    }
  });

  it("testDifferentPartitionKey: PARTITION BY score forwards score; the uid is the function name", async () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryFunction("f", SetSemanticTableFunction);
    const result = env.fromCall("f", env.from("t").partitionBy($("score")).asArgument("r"), lit(1).asArgument("i"));
    expect(result.getResolvedSchema().toShortString()).toBe("[score: INT NOT NULL, out: STRING]");
    expect(result.explain()).toContain("invocation=[f(TABLE(#0) PARTITION BY(score), 1, DEFAULT(), DEFAULT())], uid=[f]");
    expect(await result.execute().toChangelog()).toEqual(["+I[12, {+I[Bob, 12], 1}]", "+I[42, {+I[Alice, 42], 1}]"]);
  });

  it("process-optional-partition-by: f(r => TABLE t, i => 1) without PARTITION BY", async () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryFunction("f", SetSemanticTableOptionalPartitionFunction);
    const result = env.fromCall("f", env.from("t").asArgument("r"), lit(1).asArgument("i"));
    expect(result.getResolvedSchema().names).toEqual(["out"]);
    expect(await result.execute().toChangelog()).toEqual(["+I[{+I[Bob, 12], 1}]", "+I[{+I[Alice, 42], 1}]"]);
  });

  it("process-set-atomic-wrapping: an INT output becomes EXPR$0 after the key", async () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryFunction("f", AtomicTypeWrappingFunction);
    const result = env.fromCall("f", env.from("t").partitionBy($("name")).asArgument("r"));
    expect(result.getResolvedSchema().toShortString()).toBe("[name: VARCHAR(5) NOT NULL, EXPR$0: INT]");
    expect(await result.execute().toChangelog()).toEqual(["+I[Bob, 12]", "+I[Alice, 42]"]);
  });

  it("process-context: partition columns, changelog mode and data type of the table argument", async () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryFunction("f", ContextFunction);
    const result = env.fromCall("f", env.from("t").partitionBy($("name")).asArgument("r"), lit("param").asArgument("s"));
    expect(await result.execute().toChangelog()).toEqual([
      "+I[Bob, {+I[Bob, 12], param, [0], [INSERT], ROW<`name` VARCHAR(5) NOT NULL, `score` INT NOT NULL>}]",
      "+I[Alice, {+I[Alice, 42], param, [0], [INSERT], ROW<`name` VARCHAR(5) NOT NULL, `score` INT NOT NULL>}]",
    ]);
  });

  it("testPartitionOnlyColumnOutput: ROW<> output with PARTITION BY gives the key column only", () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryFunction("f", EmptyOutputFunction);
    expect(env.fromCall("f", env.from("t").partitionBy($("name")).asArgument("r")).getResolvedSchema().names).toEqual(["name"]);
  });

  it("process-set-from-session-view-with-multi-partition-by: a PTF over a session-window aggregate, two key columns", async () => {
    const env = streamingEnv();
    const schema = Schema.newBuilder()
      .column("suite_name", DataTypes.STRING())
      .column("test_name", DataTypes.STRING())
      .column("ts", DataTypes.TIMESTAMP_LTZ(3))
      .watermark("ts", "ts - INTERVAL '0.001' SECOND")
      .build();
    const t = env.fromValues(schema,
      Row.of("suiteA", "test1", 0), Row.of("suiteB", "test2", 1), Row.of("suiteA", "test1", 2), Row.of("suiteA", "test1", 3),
      Row.of("suiteA", "test1", 4), Row.of("suiteA", "test1", 5), Row.of("suiteA", "test1", 6));
    // SELECT suite_name, test_name, COUNT(*) AS c FROM SESSION(TABLE t PARTITION BY (suite_name, test_name), DESCRIPTOR(ts),
    //   INTERVAL '0.002' SECOND) GROUP BY suite_name, test_name, window_start, window_end
    const v = t.window(Session.withGap(lit(2).millis()).on($("ts")).as("w"))
      .groupBy($("suite_name"), $("test_name"), $("w"))
      .select($("suite_name"), $("test_name"), lit(1).count().as("c"));
    env.createTemporaryFunction("f", SetSemanticTableFunction);
    const result = env.fromCall("f", v.partitionBy($("suite_name"), $("test_name")).asArgument("r"), lit(1).asArgument("i"));
    expect(result.getResolvedSchema().names).toEqual(["suite_name", "test_name", "out"]);
    expect(await result.execute().toChangelog()).toEqual([
      "+I[suiteB, test2, {+I[suiteB, test2, 1], 1}]",
      "+I[suiteA, test1, {+I[suiteA, test1, 6], 1}]",
    ]);
  });
});

describe("§3.4 pass-through (held-out programs)", () => {
  it("process-set-pass-through: f(r => TABLE t PARTITION BY name, i => 1) forwards all columns", async () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryFunction("f", SetSemanticTablePassThroughFunction);
    const result = env.fromCall("f", env.from("t").partitionBy($("name")).asArgument("r"), lit(1).asArgument("i"));
    expect(result.getResolvedSchema().names).toEqual(["name", "score", "out"]);
    expect(result.explain()).toContain("invocation=[f(TABLE(#0) PARTITION BY(name), 1, DEFAULT(), DEFAULT())], uid=[f]");
    expect(await result.execute().toChangelog()).toEqual(["+I[Bob, 12, {+I[Bob, 12], 1}]", "+I[Alice, 42, {+I[Alice, 42], 1}]"]);
  });
});

describe("§3.7 / §3.8 state and data views (held-out programs)", () => {
  beforeEach(() => { nullErrors.length = 0; });

  async function run(fn: Parameters<ReturnType<typeof streamingEnv>["createTemporaryFunction"]>[1]): Promise<string[]> {
    const env = streamingEnv();
    multiValues(env);
    env.createTemporaryFunction("f", fn);
    return env.fromCall("f", env.from("t").partitionBy($("name")).asArgument("r")).execute().toChangelog();
  }

  it("process-clearing-state: Bob's state is cleared after his second row", async () => {
    expect(await run(ClearStateFunction)).toEqual([
      "+I[Bob, {ScoreWithDefaults(s='null', i=99), +I[Bob, 12]}]",
      "+I[Alice, {ScoreWithDefaults(s='null', i=99), +I[Alice, 42]}]",
      "+I[Bob, {ScoreWithDefaults(s='null', i=100), +I[Bob, 99]}]",
      "+I[Bob, {ScoreWithDefaults(s='null', i=99), +I[Bob, 100]}]",
      "+I[Alice, {ScoreWithDefaults(s='null', i=100), +I[Alice, 400]}]",
    ]);
  });

  it("process-complex-value-state: a ValueView of a composite value (Tuple2<Instant, List<Integer>>)", async () => {
    expect(await run(ComplexValueViewFunction)).toEqual([
      "+I[Bob, {null, KeyedStateValueView, +I[Bob, 12]}]",
      "+I[Alice, {null, KeyedStateValueView, +I[Alice, 42]}]",
      "+I[Bob, {(1970-01-01T00:00:00.001Z,[12]), KeyedStateValueView, +I[Bob, 99]}]",
      "+I[Bob, {(1970-01-01T00:00:00.002Z,[12, 99]), KeyedStateValueView, +I[Bob, 100]}]",
      "+I[Alice, {(1970-01-01T00:00:00.001Z,[42]), KeyedStateValueView, +I[Alice, 400]}]",
    ]);
  });

  it("process-map-state: null values are kept, null keys rejected, the third Bob call clears the map", async () => {
    expect(await run(MapStateFunction)).toEqual([
      "+I[Bob, {{}, KeyedStateMapViewWithKeysNotNull, +I[Bob, 12]}]",
      "+I[Alice, {{}, KeyedStateMapViewWithKeysNotNull, +I[Alice, 42]}]",
      "+I[Bob, {{Bob=2, nullValue=null, oldBob=1}, KeyedStateMapViewWithKeysNotNull, +I[Bob, 99]}]",
      "+I[Bob, {{}, KeyedStateMapViewWithKeysNotNull, +I[Bob, 100]}]",
      "+I[Alice, {{Alice=2, nullValue=null, oldAlice=1}, KeyedStateMapViewWithKeysNotNull, +I[Alice, 400]}]",
    ]);
    expect(new Set(nullErrors)).toEqual(new Set(["TableRuntimeException: Map views don't support null keys."]));
  });
});

describe("§4 planner facts and messages (held-out cases)", () => {
  it("invalid uid: f(uid => '%', i => 1, b => true)", () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", ScalarArgsFunction);
    expect(() => env.fromCall("f", lit("%").asArgument("uid"), lit(1).asArgument("i"), lit(true).asArgument("b"))).toThrow(
      "Invalid unique identifier for process table function. The `uid` argument must be a string literal that follows the pattern [a-zA-Z_][a-zA-Z-_0-9]*. But found: %",
    );
  });

  it("testScalarArgsWithUid: the uid argument is reordered after the declared ones", () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", ScalarArgsFunction);
    const result = env.fromCall("f", lit("my-uid").asArgument("uid"), lit(1).asArgument("i"), lit(true).asArgument("b"));
    expect(result.explain()).toContain("invocation=[f(1, true, DEFAULT(), 'my-uid')], uid=[my-uid]");
    expect(result.getResolvedSchema().names).toEqual(["out"]);
  });

  it("testScalarArgsNoUid / testEmptyArgs: no uid without set semantics, an explicit one is kept", () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", ScalarArgsFunction);
    expect(env.fromCall("f", lit(1).asArgument("i"), lit(true).asArgument("b")).explain())
      .toContain("invocation=[f(1, true, DEFAULT(), DEFAULT())], uid=[NULL]");
    const empty = streamingEnv();
    empty.createTemporaryFunction("g", ProcessTableFunction.define({ output: OUT, eval(ctx) { emitObjects(ctx, "empty"); } }));
    expect(empty.fromCall("g", lit("my-ptf").asArgument("uid")).explain()).toContain("invocation=[g(DEFAULT(), 'my-ptf')], uid=[my-ptf]");
  });

  it("testRowSemanticTablePassThroughColumns: row semantics need no uid", () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryFunction("f", RowSemanticTablePassThroughFunction);
    expect(env.fromCall("f", env.from("t").asArgument("r"), lit(1).asArgument("i")).explain())
      .toContain("invocation=[f(TABLE(#0), 1, DEFAULT(), DEFAULT())], uid=[NULL], select=[name,score,out]");
  });

  it("testIntervalDayArgs / testIntervalYearArgs: interval literals as arguments", () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", IntervalDayArgFunction);
    expect(env.fromCall("f", lit(1).seconds().asArgument("d")).getResolvedSchema().names).toEqual(["out"]);
  });

  it("invalid on_time column: every on_time column must exist in a table argument", () => {
    const env = streamingEnv();
    const schema = Schema.newBuilder()
      .column("name", DataTypes.STRING()).column("score", DataTypes.INT()).column("ts", DataTypes.TIMESTAMP_LTZ(3)).watermark("ts", "ts").build();
    const tWatermarked = env.fromValues(schema, Row.of("Bob", 12, 0));
    env.createTemporaryFunction("f", RowSemanticTableFunction);
    expect(() => env.fromCall("f", tWatermarked.asArgument("r"), lit(1).asArgument("i"), descriptor("ts", "INVALID").asArgument("on_time"))).toThrow(
      "Invalid time attribute declaration. Each column in the `on_time` argument must reference at least one column in one of the table arguments. Unknown references: [INVALID]",
    );
  });

  it("multiple table args: all main table arguments must use set semantics", () => {
    expect(() => ProcessTableFunction.define({ args: { r1: tableArg(SET, OPT_PB), r2: tableArg(ROW) }, output: OUT, eval() {} }))
      .toThrow("All main table arguments must use set semantics if multiple table arguments are declared.");
  });

  it("row instead of table: a scalar passed to a table argument", () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", RowSemanticTableFunction);
    expect(() => env.fromCall("f", lit(42).asArgument("r"), lit(1).asArgument("i")))
      .toThrow("Invalid argument value. Argument 'r' expects a table to be passed.");
  });

  it("invalid partition by clause: an unknown PARTITION BY column lists the available ones", () => {
    const env = streamingEnv();
    const t = basicValues(env);
    env.createTemporaryFunction("f", SetSemanticTableFunction);
    expect(() => t.partitionBy($("invalid" as "name"))).toThrow("Invalid column 'invalid' for PARTITION BY clause. Available columns are: [name, score]");
  });

  it("different partition keys by data type", () => {
    const MultiInputFunction = ProcessTableFunction.define({
      args: { in1: tableArg(SET), in2: tableArg(SET, OPT_PB) }, output: OUT, eval(ctx, _s, a) { emitObjects(ctx, a.in1, a.in2); },
    });
    const env = streamingEnv();
    const t = basicValues(env);
    env.createTemporaryFunction("f", MultiInputFunction);
    expect(() => env.fromCall("f", t.partitionBy($("score")).asArgument("in1"), t.partitionBy($("name")).asArgument("in2"))).toThrow(
      "Invalid PARTITION BY columns. The number of columns and their data types must match across all involved table arguments. Given partition key sets: [INT NOT NULL], [VARCHAR(5) NOT NULL]",
    );
  });

  it("invalid table args in Table API: a table that cannot be cast to the typed argument", () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", TypedRowSemanticTableFunction);
    const t = env.fromValues(Row.of("Bob", 1.99));
    expect(() => t.process("f", 1)).toThrow(
      "Invalid argument value. Argument 'u' expects a typed table, but the provided table is incompatible and cannot be cast to the target type.",
    );
  });

  it("updates into POJO table arg: a typed table argument with SUPPORT_UPDATES", () => {
    expect(() => ProcessTableFunction.define({
      args: { u: tableArg(ROW, ArgumentTrait.SUPPORT_UPDATES).typed(UserType), i: scalarArg(DataTypes.INT()) }, output: DataTypes.STRING(), eval() {},
    })).toThrow("Table arguments that support updates must use a row type.");
  });
});
