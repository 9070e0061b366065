// Call and declaration validation of PTFs: Flink's messages (Flink's test catalogue §4, V-cases) where Flink has
// one, a message naming the argument otherwise. Each rule has a test that checks its message.
import { describe, expect, it } from "vitest";
import {
  $, ArgumentTrait, DataTypes, defaultArg, descriptor, EnvironmentSettings, ExecutionError, lit, nullOf, ProcessTableFunction, Row, scalarArg,
  TableArgDecl, TableEnvironment, TableFunction, TableRuntimeException, tableArg, ValidationError, valueState,
} from "../../src/index.js";
import {
  DescriptorFunction, InvalidRowKindFunction, RowSemanticTableFunction, ScalarArgsFunction,
  SetSemanticTableFunction, TypedRowSemanticTableFunction, TypedSetSemanticTableFunction,
} from "./flink-functions.js";
import { OUT, basicValues, emitObjects, streamingEnv } from "./support.js";

const { ROW_SEMANTIC_TABLE: ROW, SET_SEMANTIC_TABLE: SET, OPTIONAL_PARTITION_BY: OPT_PB, PASS_COLUMNS_THROUGH: PASS } = ArgumentTrait;

function setup(fn: Parameters<TableEnvironment["createTemporaryFunction"]>[1]) {
  const env = streamingEnv();
  const t = basicValues(env);
  env.createTemporaryFunction("f", fn);
  return { env, t };
}

/** The table of V-03/V-05: `SELECT 'Bob' AS name, TRUE AS isValid`. */
function typeDiff(env: TableEnvironment) {
  return env.fromValues(Row.of("Bob", true)).as("name", "isValid");
}

describe("argument binding", () => {
  it("V-01: positional and named arguments cannot be mixed", () => {
    const { env } = setup(ScalarArgsFunction);
    expect(() => env.fromCall("f", 1, lit(true).asArgument("b")))
      .toThrow("Cannot mix positional and named arguments when calling function 'f'");
  });

  it("V-47: a positional argument of the wrong type names the position and both types", () => {
    const { t } = setup(TypedRowSemanticTableFunction);
    expect(() => t.process("f", 1.99)).toThrow("Invalid argument type at position 1. Data type INT expected but DOUBLE NOT NULL passed.");
  });

  it("too many positional arguments: Flink's count message, with the argument list", () => {
    const { t } = setup(RowSemanticTableFunction);
    expect(() => t.process("f", 1, null, "my-uid", 5)).toThrow(
      "Invalid function call to 'f': Invalid number of arguments. At most 4 arguments expected but 5 passed. Arguments are: [r, i, on_time, uid]",
    );
  });

  it("a left-out argument that is not optional is named", () => {
    const { t } = setup(RowSemanticTableFunction);
    expect(() => t.process("f")).toThrow("Invalid function call to 'f': argument 'i' (position 1, INT) is not optional");
    expect(() => t.process("f", null)).toThrow("argument 'i' (position 1, INT) is not optional");
  });

  it("V-57 (deviation): an unknown named argument is rejected instead of ignored", () => {
    const { env } = setup(ScalarArgsFunction);
    expect(() => env.fromCall("f", lit(1).asArgument("i"), lit(true).asArgument("b"), lit("invalid").asArgument("invalid" as "i")))
      .toThrow("Invalid function call to 'f': unknown argument 'invalid'. Arguments are: [i, b, on_time, uid].");
  });

  it("an argument given twice is rejected", () => {
    const { env } = setup(ScalarArgsFunction);
    expect(() => env.fromCall("f", lit(1).asArgument("i"), lit(2).asArgument("i"))).toThrow("argument 'i' is given more than once");
  });

  it("a scalar passed to a table argument, and a table to a scalar argument", () => {
    const { env, t } = setup(RowSemanticTableFunction);
    expect(() => env.fromCall("f", lit(1).asArgument("r"), lit(1).asArgument("i"))).toThrow("Invalid argument value. Argument 'r' expects a table to be passed.");
    expect(() => env.fromCall("f", t.asArgument("r"), t.asArgument("i" as "r")))
      .toThrow("Invalid argument type at position 1. Data type INT expected but TABLE passed (argument 'i').");
  });

  it("NULL for a NOT NULL argument", () => {
    const F = ProcessTableFunction.define({ args: { n: scalarArg(DataTypes.INT().notNull()) }, output: DataTypes.INT(), eval(ctx, _s, { n }) { ctx.collect(n); } });
    const env = streamingEnv();
    expect(() => env.fromCall(F, nullOf(DataTypes.INT()).asArgument("n"))).toThrow("Data type INT NOT NULL expected but NULL passed (argument 'n')");
  });

  it("scalar arguments are constants: a column reference is rejected", () => {
    const { t } = setup(RowSemanticTableFunction);
    expect(() => t.process("f", $("score") as never)).toThrow("argument 'i' of function 'f' must be a constant expression, but score refers to column 'score'");
  });

  it("V-31: descriptor columns must be simple identifiers", () => {
    const { env } = setup(DescriptorFunction);
    expect(() => env.fromCall("f", nullOf(DataTypes.DESCRIPTOR()).asArgument("columnList1"), descriptor("b.INVALID").asArgument("columnList3")))
      .toThrow("column alias must be a simple identifier");
  });

  it("defaultArg() is DEFAULT, by position and by name", async () => {
    const { env } = setup(DescriptorFunction);
    const rows = await env.fromCall("f", nullOf(DataTypes.DESCRIPTOR()), defaultArg(), descriptor("a", "b")).execute().toChangelog();
    expect(rows).toEqual(["+I[{null, null, (`a`, `b`)}]"]);
    expect(await env.fromCall("f", descriptor("x").asArgument("columnList1"), defaultArg().asArgument("columnList2"), descriptor("y").asArgument("columnList3"))
      .execute().toChangelog()).toEqual(["+I[{(`x`), null, (`y`)}]"]);
  });

  it("process() needs a function with a table argument", () => {
    const { t } = setup(ScalarArgsFunction);
    expect(() => t.process("f", 1, true)).toThrow("Function 'f' has no table argument; call it with env.fromCall(...) instead of process(...)");
  });

  it("an unknown function name lists the registered ones", () => {
    const { t } = setup(RowSemanticTableFunction);
    expect(() => t.process("g", 1)).toThrow("Function 'g' is not registered; register it with env.createFunction(\"g\", F). Known functions: [f]");
  });

});

describe("table semantics", () => {
  it("V-19: a row-semantics table cannot be partitioned", () => {
    const { env, t } = setup(RowSemanticTableFunction);
    expect(() => env.fromCall("f", t.partitionBy($("name")).asArgument("r"), lit(1).asArgument("i")))
      .toThrow("Only tables with set semantics may be partitioned. Invalid PARTITION BY clause in the 0-th operand of table function 'f'");
  });

  it("a set-semantics table needs PARTITION BY unless OPTIONAL_PARTITION_BY", () => {
    const { t } = setup(SetSemanticTableFunction);
    expect(() => t.process("f", 1)).toThrow("Table argument 'r' requires a PARTITION BY clause for parallel processing.");
  });

  it("V-03 / V-05: a typed table argument whose columns do not fit the declared type", () => {
    const rowEnv = setup(TypedRowSemanticTableFunction);
    expect(() => rowEnv.env.fromCall("f", typeDiff(rowEnv.env).asArgument("u"), lit(1).asArgument("i")))
      .toThrow("No match found for function signature f(<RecordType(CHAR(3) name, BOOLEAN isValid)>, <NUMERIC>, <COLUMN_LIST>, <CHARACTER>)");
    const setEnv = setup(TypedSetSemanticTableFunction);
    expect(() => setEnv.env.fromCall("f", typeDiff(setEnv.env).partitionBy($("name")).asArgument("u"), lit(1).asArgument("i")))
      .toThrow("No match found for function signature f(<RecordType(CHAR(3) name, BOOLEAN isValid)>, <NUMERIC>, <COLUMN_LIST>, <CHARACTER>)");
  });

  it("V-63: typed table columns match by position; the key column keeps the table's name", async () => {
    const { env } = setup(TypedSetSemanticTableFunction);
    const tNameDiff = env.fromValues(Row.of("Bob", 12)).as("name", "different");
    const result = tNameDiff.partitionBy($("name")).process("f", 1);
    expect(result.getResolvedSchema().names).toEqual(["name", "out"]);
    expect(await result.execute().toChangelog()).toEqual(["+I[Bob, {User(s='Bob', i=12), 1}]"]);
  });

  it("V-27: an updating table into a table argument without SUPPORT_UPDATES", () => {
    const { t } = setup(SetSemanticTableFunction);
    const updating = t.groupBy($("name")).select($("name"), $("score").count().as("c"));
    expect(() => updating.partitionBy($("name")).process("f", 1)).toThrow("StreamPhysicalProcessTableFunction doesn't support consuming update changes");
  });

  it("V-33: REQUIRE_ON_TIME without on_time", () => {
    const RequiredTimeFunction = ProcessTableFunction.define({
      args: { r: tableArg(ROW, ArgumentTrait.REQUIRE_ON_TIME) }, output: OUT, eval(ctx, _s, { r }) { emitObjects(ctx, r); },
    });
    const { t } = setup(RequiredTimeFunction);
    expect(() => t.process("f")).toThrow(
      "Table argument 'r' requires a time attribute. Please provide one using the implicit `on_time` argument. For example: myFunction(..., on_time => DESCRIPTOR(`my_timestamp`)",
    );
  });

  it("on_time is checked: the column must exist and be a timestamp time attribute (time semantics: flink-time.test.ts)", () => {
    const { t } = setup(SetSemanticTableFunction);
    expect(() => t.partitionBy($("name")).process("f", 1, descriptor("score"))).toThrow(
      "Unsupported data type for time attribute. The `on_time` argument must reference a TIMESTAMP or TIMESTAMP_LTZ column (up to precision 3). However, column 'score' in table argument 'r' has data type 'INT NOT NULL'.",
    );
    expect(() => t.partitionBy($("name")).process("f", lit(1).asArgument("i"), descriptor("nope").asArgument("on_time")))
      .toThrow("Each column in the `on_time` argument must reference at least one column in one of the table arguments. Unknown references: [nope]");
  });

  it("V-45: tables of one call must be co-partitioned", () => {
    const MultiInputFunction = ProcessTableFunction.define({
      args: { in1: tableArg(SET), in2: tableArg(SET, OPT_PB) }, output: OUT, eval(ctx, _s, a) { emitObjects(ctx, a.in1, a.in2); },
    });
    const { env, t } = setup(MultiInputFunction);
    expect(() => env.fromCall("f", t.partitionBy($("score")).asArgument("in1"), t.asArgument("in2"))).toThrow(
      "Invalid PARTITION BY columns. The number of columns and their data types must match across all involved table arguments. Given partition key sets: [INT NOT NULL], []",
    );
  });

  it("more than 20 table arguments", () => {
    const args: Record<string, TableArgDecl> = {};
    for (let i = 1; i <= 21; i++) args[`in${i}`] = tableArg(SET);
    const HighMultiInputFunction = ProcessTableFunction.define({ args, output: OUT, eval() {} });
    const { env, t } = setup(HighMultiInputFunction);
    const tables = Object.keys(args).map((n) => t.partitionBy($("score")).asArgument(n));
    expect(() => env.fromCall("f", ...tables)).toThrow("Unsupported table argument count. Currently, the number of input tables is limited to 20.");
  });
});

describe("declarations", () => {
  it("V-07: the system argument names are reserved", () => {
    expect(() => ProcessTableFunction.define({ args: { uid: scalarArg(DataTypes.STRING()) }, output: OUT, eval() {} }))
      .toThrow("Function signature must not declare system arguments. Reserved argument names are: [on_time, uid]");
  });

  it("V-35: table arguments must not be optional", () => {
    expect(() => ProcessTableFunction.define({ args: { r: new TableArgDecl([ROW], undefined, true) }, output: OUT, eval() {} }))
      .toThrow("Table arguments must not be optional.");
  });

  it("pass-through columns with several table arguments", () => {
    expect(() => ProcessTableFunction.define({ args: { r1: tableArg(SET, PASS), r2: tableArg(SET, PASS) }, output: OUT, eval() {} }))
      .toThrow("Pass-through columns are not supported if multiple table arguments are declared.");
  });

  it("several table arguments must all use set semantics", () => {
    expect(() => ProcessTableFunction.define({ args: { r1: tableArg(SET, OPT_PB), r2: tableArg(ROW) }, output: OUT, eval() {} }))
      .toThrow("All main table arguments must use set semantics if multiple table arguments are declared.");
  });

  it("traits: exactly one of ROW/SET semantics; OPTIONAL_PARTITION_BY needs SET", () => {
    expect(() => tableArg()).toThrow("needs exactly one of ArgumentTrait.ROW_SEMANTIC_TABLE, ArgumentTrait.SET_SEMANTIC_TABLE and ArgumentTrait.BROADCAST_SEMANTIC_TABLE");
    expect(() => tableArg(ROW, SET)).toThrow("needs exactly one of");
    expect(() => tableArg(ROW, OPT_PB)).toThrow("OPTIONAL_PARTITION_BY is only valid for a table argument with SET_SEMANTIC_TABLE");
    expect(() => tableArg(SET, PASS, ArgumentTrait.SUPPORT_UPDATES)).toThrow("Signatures with updating inputs must not pass columns through.");
  });

  it("state needs a set-semantics table argument", () => {
    expect(() => ProcessTableFunction.define({ args: { r: tableArg(ROW) }, state: { s: valueState({ n: 0 }) }, output: OUT, eval() {} }))
      .toThrow("state entry 's' needs a table argument with SET_SEMANTIC_TABLE");
  });

  it("table function instead of process table function (NoProcessTableFunction): a plain TableFunction takes no table argument, declared or passed (SQL and Table API)", () => {
    const ONLY_SCALARS = "Only scalar arguments are supported at this location.";
    expect(() => TableFunction.define({ name: "g", args: [tableArg(ROW) as never], result: DataTypes.STRING(), eval() {} })).toThrow(
      `TableFunction 'g': ${ONLY_SCALARS} But argument 1 declared the following traits: [TABLE, ROW_SEMANTIC_TABLE]. A function with table arguments is a ProcessTableFunction`,
    );
    const { env, t } = setup(TableFunction.define({ args: [DataTypes.STRING()], result: DataTypes.STRING(), eval(out, s) { out.collect(s); } }));
    const passed = (which: string) => `${ONLY_SCALARS} But argument ${which} of function 'f' is a table, and a TableFunction takes scalar arguments only`;
    expect(() => env.sqlQuery("SELECT * FROM f(r => TABLE t)")).toThrow(passed("'r'"));
    expect(() => env.fromCall("f", t.asArgument("r"))).toThrow(passed("'r'"));
    expect(() => t.process("f")).toThrow(passed("at position 0"));
    // a TableFunction without a table is not a PTF call either
    expect(() => env.fromCall("f", lit("x"))).toThrow("Function 'f' is not a process table function");
  });

  it("TTL strings follow Flink's duration syntax", () => {
    expect(() => valueState({ n: 0 }, { ttl: "1 fortnight" })).toThrow("valueState ttl: time unit 'fortnight' in '1 fortnight' is not one of");
    expect(() => valueState({ n: 0 }, { ttl: "soon" })).toThrow("valueState ttl: 'soon' is not a duration");
    expect(() => valueState({ n: 0 }, { ttl: "5 ns" })).toThrow("uses a unit below milliseconds");
  });
});

describe("uid", () => {
  it("V-29: the same uid for two different calls", async () => {
    const { t } = setup(SetSemanticTableFunction);
    const a = t.partitionBy($("name")).process("f", lit(42).asArgument("i"), lit("same").asArgument("uid"));
    const b = t.partitionBy($("name")).process("f", lit(999).asArgument("i"), lit("same").asArgument("uid"));
    await expect(a.unionAll(b).execute().toArray()).rejects.toThrow(
      "Duplicate unique identifier 'same' detected among process table functions. Make sure that all PTF calls have an identifier defined that is globally unique.",
    );
  });

  it("the same stateful PTF called twice without uid needs one per call", async () => {
    const { t } = setup(SetSemanticTableFunction);
    const a = t.partitionBy($("name")).process("f", 1);
    const b = t.partitionBy($("name")).process("f", 2);
    await expect(a.unionAll(b).execute().toArray()).rejects.toThrow("Duplicate unique identifier 'f' detected among process table functions.");
    // with a uid per call both run
    const c = t.partitionBy($("name")).process("f", 1, null, "first");
    const d = t.partitionBy($("name")).process("f", 2, null, "second");
    expect(await c.unionAll(d).execute().toChangelog()).toEqual([
      "+I[Bob, {+I[Bob, 12], 1}]", "+I[Bob, {+I[Bob, 12], 2}]", "+I[Alice, {+I[Alice, 42], 1}]", "+I[Alice, {+I[Alice, 42], 2}]",
    ]);
  });

  it("V-61: identical calls with the same uid share one operator (fan-out)", async () => {
    let evals = 0;
    const Counting = ProcessTableFunction.define({
      name: "Counting",
      args: { r: tableArg(SET) },
      state: { c: valueState({ n: 0 }) },
      output: DataTypes.INT(),
      eval(ctx, { c }) { evals++; ctx.collect(++c.n); },
    });
    const env = streamingEnv();
    const t = basicValues(env);
    const a = t.partitionBy($("name")).process(Counting, lit("same").asArgument("uid")).filter($("name").isEqual("Bob"));
    const b = t.partitionBy($("name")).process(Counting, lit("same").asArgument("uid")).filter($("name").isEqual("Alice"));
    expect(await a.unionAll(b).execute().toChangelog()).toEqual(["+I[Bob, 1]", "+I[Alice, 1]"]);
    expect(evals).toBe(2);
  });

  it("V-61: row-semantics calls need no uid", async () => {
    const { t } = setup(RowSemanticTableFunction);
    const rows = await t.process("f", 1).unionAll(t.process("f", 42)).execute().toChangelog();
    expect(rows).toHaveLength(4);
  });

  it("V-49: a function name that does not qualify as uid", () => {
    const env = streamingEnv();
    const t = basicValues(env);
    env.createTemporaryFunction("f$", SetSemanticTableFunction);
    expect(() => t.partitionBy($("name")).process("f$", 1)).toThrow(
      "Could not derive a unique identifier for process table function 'f$'. The function's name does not qualify for a UID. Please provide a custom identifier using the implicit `uid` argument. For example: myFunction(..., uid => 'my-id')",
    );
    expect(() => t.partitionBy($("name")).process("f$", 1, null, "1st"))
      .toThrow("Invalid unique identifier for process table function. The `uid` argument must be a string literal that follows the pattern [a-zA-Z_][a-zA-Z-_0-9]*. But found: 1st");
  });
});

describe("run-time checks", () => {
  it("P-047: an append-only function emitting a DELETE row", async () => {
    const { t } = setup(InvalidRowKindFunction);
    const run = t.process("f").execute().toArray();
    await expect(run).rejects.toThrow(TableRuntimeException);
    await expect(t.process("f").execute().toArray()).rejects.toThrow("Invalid row kind received: DELETE. Expected produced changelog mode: [INSERT]");
  });

  it("collect() with a value that does not fit the output type names the column", async () => {
    const Bad = ProcessTableFunction.define({
      name: "Bad", args: { r: tableArg(ROW) }, output: DataTypes.ROW(DataTypes.FIELD("n", DataTypes.INT())),
      eval(ctx) { ctx.collect({ n: "seven" as unknown as number }); },
    });
    const { t } = setup(Bad);
    const e = await t.process("f").execute().toArray().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ExecutionError);
    expect((e as Error).message).toBe("collect(): output column 'n' of function 'f': value 'seven' (string) does not fit type INT");
  });

  it("an exception in eval fails the job with the function and the row", async () => {
    const Throwing = ProcessTableFunction.define({
      name: "Throwing", args: { r: tableArg(ROW) }, output: DataTypes.INT(),
      eval(_ctx, _s, { r }) { if (r.name === "Alice") throw new Error("boom"); },
    });
    const { t } = setup(Throwing);
    await expect(t.process("f").execute().toArray()).rejects.toThrow("Process table function 'f' failed in eval() for row +I[Alice, 42]: boom");
  });

  it("clearState with an unknown name", async () => {
    const Clearing = ProcessTableFunction.define({
      args: { r: tableArg(SET) }, state: { s: valueState({ n: 0 }) }, output: DataTypes.INT(),
      eval(ctx) { ctx.clearState("t" as "s"); },
    });
    const { t } = setup(Clearing);
    await expect(t.partitionBy($("name")).process("f").execute().toArray()).rejects.toThrow("Unknown state entry: t. State entries of 'f': [s]");
  });
});
