// disableSystemArguments: Flink's V-51, V-53, V-55 (NoSystemArgsTableFunction / NoSystemArgsScalarFunction),
// through SQL and the Table API.
import { describe, expect, it } from "vitest";
import { ArgumentTrait, DataTypes, ProcessTableFunction, Schema, descriptor, lit, scalarArg, tableArg } from "../../src/index.js";
import { basicValues, streamingEnv } from "./support.js";

const OUT = DataTypes.ROW(DataTypes.FIELD("out", DataTypes.STRING().notNull())).notNull();

const NoSystemArgsTableFunction = ProcessTableFunction.define({
  disableSystemArguments: true,
  args: { r: tableArg(ArgumentTrait.ROW_SEMANTIC_TABLE), i: scalarArg(DataTypes.INT()) },
  output: OUT,
  eval() {},
});

const NoSystemArgsScalarFunction = ProcessTableFunction.define({
  disableSystemArguments: true,
  args: { i: scalarArg(DataTypes.INT()) },
  output: OUT,
  eval(ctx, _s, { i }) { ctx.collect({ out: `i=${i}` }); },
});

describe("disableSystemArguments", () => {
  it("V-51 a user-defined PTF with a table argument cannot disable system arguments", () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryFunction("f", NoSystemArgsTableFunction);
    const msg = "Disabling system arguments is not supported for user-defined PTF.";
    expect(() => env.executeSql("SELECT * FROM f(r => TABLE t, i => 1);")).toThrow(msg);
    expect(() => env.fromCall("f", env.from("t").asArgument("r"), lit(1).asArgument("i"))).toThrow(msg);
  });

  it("V-53 uid is rejected for a function without system arguments (SQL)", () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", NoSystemArgsScalarFunction);
    expect(() => env.executeSql("SELECT * FROM f(i => 1, uid => 'my-uid');"))
      .toThrow("The 'uid' argument is not supported because function 'f' does not use system arguments.");
    expect(() => env.fromCall("f", lit(1).asArgument("i"), descriptor("x").asArgument("on_time")))
      .toThrow("The 'on_time' argument is not supported because function 'f' does not use system arguments.");
  });

  it("V-55 uid is rejected through the Table API, before the table check", () => {
    const env = streamingEnv();
    basicValues(env);
    env.createTemporaryFunction("f", NoSystemArgsTableFunction);
    expect(() => env.fromCall("f", env.from("t").asArgument("r"), lit(1).asArgument("i"), lit("my-uid").asArgument("uid")))
      .toThrow("The 'uid' argument is not supported because function 'f' does not use system arguments.");
  });

  it("testNoSystemArgsAllowedForScalarPtf: a user-defined PTF without table arguments cannot disable them either", () => {
    const env = streamingEnv();
    env.createTemporaryFunction("f", NoSystemArgsScalarFunction);
    const msg = "Disabling system arguments is not supported for user-defined PTF.";
    expect(() => env.executeSql("SELECT * FROM f(i => 1);")).toThrow(msg);
    expect(() => env.fromCall("f", lit(1).asArgument("i"))).toThrow(msg);
  });

  it("testOnTimeArgRejectedForDisabledPtf / testSystemArgRejectedByNameBeforeTypeCheck: on_time is rejected by name", () => {
    const env = streamingEnv();
    env.createTemporaryView("t_watermarked", env.fromValues(Schema.newBuilder().column("name", DataTypes.STRING()).column("ts", DataTypes.TIMESTAMP_LTZ(3))
      .watermark("ts", "ts").build()) as never);
    basicValues(env);
    env.createTemporaryFunction("f", NoSystemArgsTableFunction);
    const msg = "The 'on_time' argument is not supported because function 'f' does not use system arguments.";
    expect(() => env.sqlQuery("SELECT * FROM f(r => TABLE t_watermarked, i => 1, on_time => DESCRIPTOR(ts));")).toThrow(msg);
    expect(() => env.sqlQuery("SELECT * FROM f(r => TABLE t, i => 1, on_time => 1);")).toThrow(msg);
  });
});
