import { describe, expect, it } from "vitest";
import { $, call, DataTypes, EnvironmentSettings, Row, ScalarFunction, TableEnvironment, ValidationError } from "../../src/index.js";

const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const constant = (v: string) => ScalarFunction.define({ args: [], result: DataTypes.STRING().notNull(), eval: () => v });
const one = (e: TableEnvironment) => e.fromValues(DataTypes.ROW(DataTypes.FIELD("x", DataTypes.INT())), Row.of(1));

describe("function catalog", () => {
  it("a temporary function shadows a catalog function of the same name until it is dropped", async () => {
    const e = env();
    e.createFunction("f", constant("catalog"));
    e.createTemporaryFunction("F", constant("temporary"));
    expect(await one(e).select(call("f")).execute().toChangelog()).toEqual(["+I[temporary]"]);
    expect(e.dropTemporaryFunction("f")).toBe(true);
    expect(await one(e).select(call("f")).execute().toChangelog()).toEqual(["+I[catalog]"]);
    expect(e.dropFunction("F")).toBe(true);
    expect(e.dropFunction("f")).toBe(false);
    expect(() => one(e).select(call("f"))).toThrow(new ValidationError("unknown function 'f' in f()"));
  });

  it("refuses duplicates (unless ignoreIfExists) and built-in names", () => {
    const e = env();
    e.createTemporaryFunction("hash", constant("a"));
    expect(() => e.createTemporaryFunction("HASH", constant("b"))).toThrow(new ValidationError(
      "Could not register temporary function. A function 'hash' does already exist."));
    e.createFunction("g", constant("a"));
    expect(() => e.createFunction("g", constant("b"))).toThrow(new ValidationError(
      "Could not register function. A function 'g' does already exist."));
    expect(() => e.createFunction("g", constant("b"), true)).not.toThrow();
    expect(() => e.createTemporaryFunction("upper", constant("b"))).toThrow(new ValidationError(
      "createTemporaryFunction: 'upper' is the name of a built-in function, which always takes precedence; choose another name"));
    expect(() => e.createFunction("if", constant("b"))).toThrow(/'if' is the name of a built-in function/);
    expect(() => e.createFunction("my fn", constant("b"))).toThrow(new ValidationError(
      `createFunction: function name must match [A-Za-z_][A-Za-z0-9_$]*, got "my fn"`));
    expect(e.listUserDefinedFunctions()).toEqual(["g", "hash"]);
  });

  it("is per environment; inline calls need no registration", async () => {
    const a = env();
    const b = env();
    a.createTemporaryFunction("f", constant("a"));
    expect(() => one(b).select(call("f"))).toThrow(new ValidationError("unknown function 'f' in f()"));
    expect(await one(b).select(call(constant("inline")).as("c"), $("x")).execute().toChangelog()).toEqual(["+I[inline, 1]"]);
  });

  it("two inline functions with the same declaration stay distinct in one aggregate", async () => {
    const { AggregateFunction } = await import("../../src/index.js");
    const make = (k: number) => AggregateFunction.define({
      args: [DataTypes.INT()], result: DataTypes.INT(),
      createAccumulator: () => ({ v: 0 }), accumulate(acc, x) { acc.v += (x ?? 0) * k; }, getValue: (acc) => acc.v,
    });
    const t = one(env()).select(call(make(2), $("x")).as("a"), call(make(3), $("x")).as("b"));
    expect(await t.execute().toChangelog()).toEqual(["+I[2, 3]"]);
  });
});
