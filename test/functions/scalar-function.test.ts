import { describe, expect, it } from "vitest";
import {
  $, call, DataTypes, EnvironmentSettings, ExecutionError, lit, Row, ScalarFunction, TableEnvironment, ValidationError,
} from "../../src/index.js";

const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());

const people = (e: TableEnvironment) => e.fromValues(
  DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("age", DataTypes.INT()), DataTypes.FIELD("score", DataTypes.DECIMAL(5, 2))),
  Row.of("Alice", 35, "1.50"),
  Row.of(null, 2, null),
  Row.of("Bob", null, "2.25"),
);

const Greet = ScalarFunction.define({
  name: "greet",
  args: [DataTypes.STRING(), DataTypes.INT()],
  result: DataTypes.STRING(),
  eval: (name, age) => (name === null ? null : `${name}/${age ?? "?"}`),
});

const Twice = ScalarFunction.define({
  name: "twice",
  args: [DataTypes.INT().notNull()],
  result: DataTypes.INT().notNull(),
  eval: (n) => n * 2,
});

describe("ScalarFunction", () => {
  it("is called inline with typed arguments; nullable parameters receive NULL", async () => {
    const t = people(env()).select($("name"), call(Greet, $("name"), $("age")).as("g"));
    expect(await t.execute().toChangelog()).toEqual(["+I[Alice, Alice/35]", "+I[null, null]", "+I[Bob, Bob/?]"]);
    expect(t.getResolvedSchema().toShortString()).toBe("[name: STRING, g: STRING]");
  });

  it("skips the call for NULL given to a NOT NULL parameter and types the result nullable", async () => {
    let calls = 0;
    const Counted = ScalarFunction.define({
      args: [DataTypes.INT().notNull()], result: DataTypes.INT().notNull(), eval: (n) => { calls++; return n + 1; },
    });
    const t = people(env()).select(call(Counted, $("age")).as("next"));
    expect(t.getResolvedSchema().toShortString()).toBe("[next: INT]");
    expect(await t.execute().toChangelog()).toEqual(["+I[36]", "+I[3]", "+I[null]"]);
    expect(calls).toBe(2);
    // over a NOT NULL argument the result stays NOT NULL
    const nn = env().fromValues(DataTypes.ROW(DataTypes.FIELD("x", DataTypes.INT().notNull())), Row.of(4)).select(call(Twice, $("x")).as("y"));
    expect(nn.getResolvedSchema().toShortString()).toBe("[y: INT NOT NULL]");
  });

  it("is called by its registered name (case-insensitive), in select, filter and nested calls", async () => {
    const e = env();
    e.createTemporaryFunction("twice", Twice);
    const t = people(e).filter(call("TWICE", $("age")).isGreater(10)).select($("name"), call("twice", call("Twice", $("age"))).as("q"));
    expect(await t.execute().toChangelog()).toEqual(["+I[Alice, 140]"]);
  });

  it("widens arguments implicitly: INT to BIGINT, INT to DECIMAL, DECIMAL to DOUBLE", async () => {
    const Dec = ScalarFunction.define({
      args: [DataTypes.DECIMAL(10, 0), DataTypes.DOUBLE(), DataTypes.BIGINT()],
      result: DataTypes.STRING(),
      eval: (d, x, b) => `${d === null ? "null" : d.constructor.name}:${typeof x}:${typeof b}`,
    });
    const t = people(env()).select(call(Dec, $("age"), $("score"), $("age")).as("s"));
    expect(await t.execute().toChangelog()).toEqual(["+I[Decimal:number:number]", "+I[Decimal:object:number]", "+I[null:number:object]"]);
  });

  it("rejects wrong argument types and counts at planning, naming the function and the argument", () => {
    const e = env();
    expect(() => people(e).select(call(Twice, $("name")) as never)).toThrow(new ValidationError(
      "function 'twice': argument 1 (name) has type STRING but the function expects INT NOT NULL, in twice(name)"));
    expect(() => people(e).select(call(Twice, $("age"), lit(1)) as never)).toThrow(new ValidationError(
      "function 'twice' expects 1 argument(s) twice(INT NOT NULL), got 2 in twice(age, 1)"));
    expect(() => people(e).select(call("nope", $("age")))).toThrow(new ValidationError("unknown function 'nope' in nope(age)"));
  });

  it("fails the job with the function's name when eval throws or returns a wrong value", async () => {
    const Boom = ScalarFunction.define({
      name: "boom", args: [DataTypes.STRING()], result: DataTypes.STRING(),
      eval: (s) => { if (s === "Bob") throw new Error("no Bobs"); return s; },
    });
    await expect(people(env()).select(call(Boom, $("name"))).execute().toArray()).rejects.toThrow(
      new ExecutionError("function 'boom' failed for arguments ('Bob'): no Bobs (row +I[Bob, null, 2.25])"));
    const Liar = ScalarFunction.define({
      name: "liar", args: [DataTypes.STRING()], result: DataTypes.INT(), eval: (s) => s as unknown as number,
    });
    await expect(people(env()).select(call(Liar, $("name"))).execute().toArray()).rejects.toThrow(
      new ExecutionError("function 'liar' returned 'Alice', which is not a value of its declared type INT (row +I[Alice, 35, 1.50])"));
    const Undefined = ScalarFunction.define({
      name: "undef", args: [], result: DataTypes.INT(), eval: () => undefined as unknown as number,
    });
    await expect(people(env()).select(call(Undefined)).execute().toArray()).rejects.toThrow(
      new ExecutionError("function 'undef' returned undefined, which is not a value of its declared type INT: return null for SQL NULL (row +I[Alice, 35, 1.50])"));
  });

  it("captures variables like any closure", async () => {
    const seen: string[] = [];
    const Tap = ScalarFunction.define({ args: [DataTypes.STRING()], result: DataTypes.BOOLEAN().notNull(), eval: (s) => { seen.push(String(s)); return true; } });
    await people(env()).filter(call(Tap, $("name"))).execute().toArray();
    expect(seen).toEqual(["Alice", "null", "Bob"]);
  });

  it("works in computed expressions of addColumns and in group keys", async () => {
    const e = env();
    const t = people(e).addColumns(call(Twice, $("age")).as("a2")).groupBy($("a2")).select($("a2"), $("name").count().as("n"));
    expect(await t.execute().toChangelog()).toEqual(["+I[70, 1]", "+I[4, 0]", "+I[null, 1]"]);
  });

  it("validates its declaration", () => {
    expect(() => ScalarFunction.define({ args: [DataTypes.INT(), "INT"] as never, result: DataTypes.INT(), eval: () => 1 }))
      .toThrow(new ValidationError("ScalarFunction: argument 2 of 'args' is not a DataType"));
    expect(() => ScalarFunction.define({ name: "bad name", args: [], result: DataTypes.INT(), eval: () => 1 }))
      .toThrow(new ValidationError(`ScalarFunction 'bad name': function name must match [A-Za-z_][A-Za-z0-9_$]*, got "bad name"`));
    expect(() => ScalarFunction.define({ args: [], result: DataTypes.INT() } as never))
      .toThrow(new ValidationError("ScalarFunction: 'eval' must be a function"));
  });
});
