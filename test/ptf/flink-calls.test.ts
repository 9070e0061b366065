// Flink's PTF programs of Flink's test catalogue §3.1-3.4 (no table / scalar args, row semantics, set semantics and
// context, pass-through), each with Flink's exact expected rows. SQL calls are written with the Table API
// equivalents (`f(r => TABLE t, i => 1)` = `env.fromCall("f", t.asArgument("r"), lit(1).asArgument("i"))`).
import { describe, expect, it } from "vitest";
import { $, ArgumentTrait, DataTypes, type DataType, lit, ProcessTableFunction, Row, structuredType, tableArg } from "../../src/index.js";
import {
  AtomicTypeWrappingFunction, ContextFunction, EmptyArgFunction, EmptyOutputFunction, ImplicitCastingFunction, IntervalYearArgFunction,
  RowSemanticTableFunction, RowSemanticTablePassThroughFunction, ScalarArgsFunction, ScalarBeforeRowSemanticTablePassThroughFunction,
  SetSemanticTableFunction, SetSemanticTableOptionalPartitionFunction, SetSemanticTablePassThroughFunction, TypedRowSemanticTableFunction,
  TypedSetSemanticTableFunction, User, UserType,
} from "./flink-functions.js";
import { printed } from "../support.js";
import { basicValues, streamingEnv } from "./support.js";

describe("§3.1 no table / scalar arguments / fromCall", () => {
  it("P-001 process-scalar-args: evaluated exactly once with its scalar arguments", async () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", ScalarArgsFunction);
    const t = env.fromCall("f", lit(42).asArgument("i"), lit("TRUE").cast(DataTypes.BOOLEAN()).asArgument("b"));
    expect(await t.execute().toChangelog()).toEqual(["+I[{42, true}]"]);
    expect(t.getResolvedSchema().names).toEqual(["out"]);
  });

  it("P-003 process-empty-args", async () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryFunction("f", EmptyArgFunction);
    expect(await env.fromCall("f").execute().toChangelog()).toEqual(["+I[{empty}]"]);
  });

  it("P-005 process-interval-year-args: INTERVAL '1' YEAR arrives as one year (Period P1Y)", async () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", IntervalYearArgFunction);
    expect(await env.fromCall("f", lit(1).years().asArgument("p")).execute().toChangelog()).toEqual(["+I[{P1Y}]"]);
  });
});

describe("§3.2 row semantics", () => {
  const expected = ["+I[{+I[Bob, 12], 1}]", "+I[{+I[Alice, 42], 1}]"];

  it("P-009 process-row: f(r => TABLE t, i => 1)", async () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryFunction("f", RowSemanticTableFunction);
    const result = env.fromCall("f", env.from("t").asArgument("r"), lit(1).asArgument("i"));
    expect(result.getResolvedSchema().names).toEqual(["out"]);
    expect(await result.execute().toChangelog()).toEqual(expected);
  });

  it("P-011 process-row-table-api: fromCall with the class", async () => {
    const env = streamingEnv();
    basicValues(env);
    expect(await env.fromCall(RowSemanticTableFunction, env.from("t").asArgument("r"), lit(1).asArgument("i")).execute().toChangelog())
      .toEqual(expected);
  });

  it("P-013 process-row-table-api-inline-named: Table.process with a named argument", async () => {
    const env = streamingEnv();
    basicValues(env);
    expect(await env.from("t").process(RowSemanticTableFunction, lit(1).asArgument("i")).execute().toChangelog()).toEqual(expected);
  });

  it("P-015 process-typed-row-table-api: a typed table argument receives User objects", async () => {
    const env = streamingEnv();
    basicValues(env);
    expect(await env.fromCall(TypedRowSemanticTableFunction, env.from("t").asArgument("u"), lit(1).asArgument("i")).execute().toChangelog())
      .toEqual(["+I[{User(s='Bob', i=12), 1}]", "+I[{User(s='Alice', i=42), 1}]"]);
  });

  it("P-017 process-implicit-casts: INT -> BIGINT and TIMESTAMP(0) -> TIMESTAMP(6), also inside a nested ROW", async () => {
    const env = streamingEnv();
    // CREATE VIEW v AS SELECT 'Bob', 12, (42, TIMESTAMP '2020-01-01 12:12:12')
    const v = env.fromValues(
      DataTypes.ROW(
        DataTypes.FIELD("EXPR$0", DataTypes.CHAR(3).notNull()),
        DataTypes.FIELD("EXPR$1", DataTypes.INT().notNull()),
        DataTypes.FIELD("EXPR$2", DataTypes.ROW(DataTypes.FIELD("EXPR$0", DataTypes.INT().notNull()), DataTypes.FIELD("EXPR$1", DataTypes.TIMESTAMP(0).notNull())).notNull()),
      ),
      Row.of("Bob", 12, Row.of(42, "2020-01-01 12:12:12")),
    );
    env.createTemporaryFunction("f", ImplicitCastingFunction);
    expect(await env.fromCall("f", v.asArgument("p"), lit(42).asArgument("b")).execute().toChangelog())
      .toEqual(["+I[{CastingPojo(s='Bob', b=12, r=+I[42, 2020-01-01T12:12:12]), 42}]"]);
  });
});

describe("§3.3 set semantics, optional partitioning, context", () => {
  const expected = ["+I[Bob, {+I[Bob, 12], 1}]", "+I[Alice, {+I[Alice, 42], 1}]"];

  it("P-021 process-set-table-api: fromCall with a partitioned table argument", async () => {
    const env = streamingEnv();
    basicValues(env);
    const result = env.fromCall(SetSemanticTableFunction, env.from("t").partitionBy($("name")).asArgument("r"), lit(1).asArgument("i"));
    expect(result.getResolvedSchema().names).toEqual(["name", "out"]);
    expect(await result.execute().toChangelog()).toEqual(expected);
  });

  it("P-023 process-set-table-api-inline-named", async () => {
    const env = streamingEnv();
    basicValues(env);
    expect(await env.from("t").partitionBy($("name")).process(SetSemanticTableFunction, lit(1).asArgument("i")).execute().toChangelog())
      .toEqual(expected);
  });

  it("P-025 process-typed-set-table-api", async () => {
    const env = streamingEnv();
    basicValues(env);
    expect(await env.fromCall(TypedSetSemanticTableFunction, env.from("t").partitionBy($("name")).asArgument("u"), lit(1).asArgument("i"))
      .execute().toChangelog())
      .toEqual(["+I[Bob, {User(s='Bob', i=12), 1}]", "+I[Alice, {User(s='Alice', i=42), 1}]"]);
  });

  it("P-029 process-optional-partition-by-table-api: no PARTITION BY, no key columns", async () => {
    const env = streamingEnv();
    basicValues(env);
    const result = env.fromCall(SetSemanticTableOptionalPartitionFunction, env.from("t").asArgument("r"), lit(1).asArgument("i"));
    expect(result.getResolvedSchema().names).toEqual(["out"]);
    expect(await result.execute().toChangelog()).toEqual(["+I[{+I[Bob, 12], 1}]", "+I[{+I[Alice, 42], 1}]"]);
  });

  it("a scalar output type is wrapped into the column EXPR$0 after the keys", async () => {
    const env = streamingEnv();
    const t = basicValues(env);
    const result = t.partitionBy($("name")).process(AtomicTypeWrappingFunction);
    expect(result.getResolvedSchema().toShortString()).toBe("[name: VARCHAR(5) NOT NULL, EXPR$0: INT]");
    expect(await result.execute().toChangelog()).toEqual(["+I[Bob, 12]", "+I[Alice, 42]"]);
  });

  it("V-59: an output type ROW<> gives only the PARTITION BY columns", async () => {
    const env = streamingEnv();
    const t = basicValues(env);
    const result = t.partitionBy($("name")).process(EmptyOutputFunction);
    expect(result.getResolvedSchema().names).toEqual(["name"]);
    expect(await result.execute().toChangelog()).toEqual(["+I[Bob]", "+I[Alice]"]);
  });

  it("ctx.tableSemanticsFor: partition columns, changelog mode and data type of the table argument", async () => {
    const env = streamingEnv();
    const t = basicValues(env);
    expect(await t.partitionBy($("name")).process(ContextFunction, "x").execute().toChangelog()).toEqual([
      "+I[Bob, {+I[Bob, 12], x, [0], [INSERT], ROW<`name` VARCHAR(5) NOT NULL, `score` INT NOT NULL>}]",
      "+I[Alice, {+I[Alice, 42], x, [0], [INSERT], ROW<`name` VARCHAR(5) NOT NULL, `score` INT NOT NULL>}]",
    ]);
  });
});

describe("§3.4 pass-through columns", () => {
  it("P-035 process-row-pass-through-after-scalar: f(i => 1, r => TABLE t); input columns come first", async () => {
    const env = streamingEnv();
    basicValues(env);
    const result = env.fromCall(ScalarBeforeRowSemanticTablePassThroughFunction, lit(1).asArgument("i"), env.from("t").asArgument("r"));
    expect(result.getResolvedSchema().names).toEqual(["name", "score", "out"]);
    expect(await result.execute().toChangelog()).toEqual(["+I[Bob, 12, {+I[Bob, 12], 1}]", "+I[Alice, 42, {+I[Alice, 42], 1}]"]);
  });

  it("pass-through with row semantics, by position: the table goes to its declared position", async () => {
    const env = streamingEnv();
    const t = basicValues(env);
    expect(await t.process(RowSemanticTablePassThroughFunction, 1).execute().toChangelog())
      .toEqual(["+I[Bob, 12, {+I[Bob, 12], 1}]", "+I[Alice, 42, {+I[Alice, 42], 1}]"]);
    expect(await t.process(ScalarBeforeRowSemanticTablePassThroughFunction, 1).execute().toChangelog())
      .toEqual(["+I[Bob, 12, {+I[Bob, 12], 1}]", "+I[Alice, 42, {+I[Alice, 42], 1}]"]);
  });

  it("pass-through with set semantics forwards all columns (not only the keys)", async () => {
    const env = streamingEnv();
    const t = basicValues(env);
    const result = t.partitionBy($("name")).process(SetSemanticTablePassThroughFunction, 1);
    expect(result.getResolvedSchema().names).toEqual(["name", "score", "out"]);
    expect(await result.execute().toChangelog()).toEqual(["+I[Bob, 12, {+I[Bob, 12], 1}]", "+I[Alice, 42, {+I[Alice, 42], 1}]"]);
  });
});

describe("structured types (Flink's POJOs) in calls", () => {
  class Inner { a: number | null = null; }
  class Outer { id: number | null = null; inner: Inner | null = null; }
  const InnerType = structuredType(Inner, DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT())));
  const OuterType = structuredType(Outer, DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT()), DataTypes.FIELD("inner", InnerType)));

  it("a typed table argument reports its structured type in tableSemanticsFor(...).dataType(), printed with the class as Flink does", async () => {
    const seen: DataType[] = [];
    const F = ProcessTableFunction.define({
      args: { u: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE).typed(UserType) },
      output: DataTypes.STRING(),
      eval(ctx, _s, { u }) {
        seen.push(ctx.tableSemanticsFor("u").dataType());
        ctx.collect(`${String(ctx.tableSemanticsFor("u").dataType())} ${u instanceof User}`);
      },
    });
    const env = streamingEnv();
    basicValues(env);
    expect(await env.from("t").partitionBy($("name")).process(F).execute().toChangelog()).toEqual(["+I[Bob, *User* true]", "+I[Alice, *User* true]"]);
    expect(seen[0]!.structuredClass).toBe(User);
    // an untyped table argument reports its row type
    expect(await env.from("t").partitionBy($("name")).process(ContextFunction, "x").execute().toChangelog()).toContain(
      "+I[Bob, {+I[Bob, 12], x, [0], [INSERT], ROW<`name` VARCHAR(5) NOT NULL, `score` INT NOT NULL>}]",
    );
  });

  it("nested structured values print field by field, keep their classes in toArray(), and the type prints its class", async () => {
    const F = ProcessTableFunction.define({
      args: { r: tableArg(ArgumentTrait.ROW_SEMANTIC_TABLE) },
      output: DataTypes.ROW(DataTypes.FIELD("o", OuterType)),
      eval(ctx, _s, { r }) { ctx.collect({ o: Object.assign(new Outer(), { id: r.score as number, inner: Object.assign(new Inner(), { a: 7 }) }) }); },
    });
    const env = streamingEnv();
    basicValues(env);
    const t = env.from("t").process(F);
    expect(String(t.getResolvedSchema().types[0])).toBe("*Outer*");
    expect(await printed(t.execute())).toBe([
      "+----+--------------------------------+",
      "| op |                              o |",
      "+----+--------------------------------+",
      "| +I |           (id=12, inner=(a=7)) |",
      "| +I |           (id=42, inner=(a=7)) |",
      "+----+--------------------------------+",
      "2 rows in set",
    ].join("\n"));
    const rows = await t.execute().toArray();
    expect(rows[0]!.o).toBeInstanceOf(Outer);
    expect(rows[0]!.o!.inner).toBeInstanceOf(Inner);
    // a structured type equals its ROW type structurally (casts, typed arguments), whatever it prints
    expect(OuterType.equals(DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT()), DataTypes.FIELD("inner", DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT())))))).toBe(true);
  });
});
