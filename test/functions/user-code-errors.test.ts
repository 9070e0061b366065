// Errors thrown by user code (scalar, table and aggregate functions, PTF eval and onTimer) fail the job
// with an ExecutionError naming the function and the row, whatever value was thrown — including values
// that cannot be turned into a string — and keep the thrown value reachable as a `cause`.
import { describe, expect, it } from "vitest";
import {
  $, AggregateFunction, ArgumentTrait, DataTypes, EnvironmentSettings, ExecutionError, ProcessTableFunction, Row,
  Over, ScalarFunction, TableEnvironment, TableFunction, Tumble, UNBOUNDED_RANGE, call, descriptor, lit, tableArg,
} from "../../src/index.js";
import { describeThrown } from "../../src/types/describe-thrown.js";
import { TIMED_SOURCE_SCHEMA } from "../ptf/flink-time-functions.js";

const revoked = Proxy.revocable({}, {});
revoked.revoke();

/** Thrown values, with the text the wrapping message shows for each. */
const THROWN: readonly (readonly [string, () => unknown, string])[] = [
  ["an Error", () => new RangeError("seven"), "seven"],
  ["a string", () => "plain text", "plain text"],
  ["a number", () => 42, "42"],
  ["undefined", () => undefined, "undefined"],
  ["a Symbol", () => Symbol("boom"), "Symbol(boom)"],
  ["Object.create(null)", () => Object.create(null) as object, "a thrown object without a prototype (no toString)"],
  ["an object whose toString throws", () => ({ toString() { throw new Error("no"); } }), "a thrown Object that cannot be converted to text"],
  ["an object with a message", () => ({ message: "custom failure" }), "custom failure"],
  ["an Error whose message getter throws", () => Object.defineProperty(new Error("x"), "message", { get() { throw new Error("no"); } }), "Error"],
  ["a revoked Proxy", () => revoked.proxy, "a thrown object that cannot be converted to text"],
];

const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const PEOPLE = DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("n", DataTypes.INT()));
const people = (e: TableEnvironment) => e.fromValues(PEOPLE, Row.of("Bob", 1), Row.of("Ann", 7));

async function failure(t: { execute(): { toArray(): Promise<unknown[]> } }): Promise<Error> {
  try {
    await t.execute().toArray();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected the job to fail");
}

/** Whether `v` is the error or one of its causes. */
function inCauses(e: unknown, v: unknown): boolean {
  for (let c: unknown = e, i = 0; c !== undefined && i < 10; c = (c as { cause?: unknown }).cause, i++) {
    if ((c as { cause?: unknown }).cause === v && Object.prototype.hasOwnProperty.call(c, "cause")) return true;
  }
  return false;
}

describe("describeThrown", () => {
  it.each(THROWN)("%s", (_what, make, text) => {
    expect(describeThrown(make())).toBe(text);
  });

  it("puts the name of an Error in front when asked", () => {
    expect(describeThrown(new TypeError("bad"), true)).toBe("TypeError: bad");
    expect(describeThrown("text", true)).toBe("text");
  });
});

describe.each(THROWN)("user code throws %s", { timeout: 60_000 }, (_what, make, text) => {
  it("a scalar function names itself, its arguments and the row", async () => {
    const thrown = make();
    const Boom = ScalarFunction.define({
      name: "boom", args: [DataTypes.INT()], result: DataTypes.INT(),
      eval: (v) => { if (v === 7) throw thrown; return v; },
    });
    const e = await failure(people(env()).select($("name"), call(Boom, $("n")).as("b")));
    expect(e).toBeInstanceOf(ExecutionError);
    expect(e.message).toBe(`function 'boom' failed for arguments (7): ${text} (row +I[Ann, 7])`);
    expect(inCauses(e, thrown)).toBe(true);
  });

  it("a table function names itself, its arguments and the row", async () => {
    const thrown = make();
    const Split = TableFunction.define({
      name: "split", args: [DataTypes.INT()], result: DataTypes.INT(),
      eval(out, v) { if (v === 7) throw thrown; out.collect(v); },
    });
    const e = await failure(people(env()).joinLateral(call(Split, $("n"))));
    expect(e).toBeInstanceOf(ExecutionError);
    expect(e.message).toBe(`table function 'split' failed for arguments (7): ${text} (row +I[Ann, 7])`);
    expect(inCauses(e, thrown)).toBe(true);
  });

  it("an aggregate function names itself, its arguments and the row", async () => {
    const thrown = make();
    const Sum = AggregateFunction.define({
      name: "sum_or_throw", args: [DataTypes.INT()], result: DataTypes.INT(),
      createAccumulator: () => ({ s: 0 }),
      accumulate(acc, v) { if (v === 7) throw thrown; acc.s += v ?? 0; },
      getValue: (acc) => acc.s,
    });
    const e = await failure(people(env()).groupBy($("name")).select($("name"), call(Sum, $("n")).as("s")));
    expect(e).toBeInstanceOf(ExecutionError);
    expect(e.message).toBe(`aggregate function 'sum_or_throw'.accumulate failed for arguments (7): ${text} (row +I[Ann, 7])`);
    expect(inCauses(e, thrown)).toBe(true);
  });

  it("a PTF's eval names the function and the row", async () => {
    const thrown = make();
    const Fails = ProcessTableFunction.define({
      name: "fails",
      args: { r: tableArg(ArgumentTrait.ROW_SEMANTIC_TABLE) },
      output: DataTypes.ROW(DataTypes.FIELD("x", DataTypes.INT())),
      eval(ctx, _s, { r }) { if ((r as { n: number }).n === 7) throw thrown; ctx.collect({ x: 1 }); },
    });
    const e = env();
    const t = people(e);
    const err = await failure(e.fromCall(Fails, t.asArgument("r")));
    expect(err).toBeInstanceOf(ExecutionError);
    expect(err.message).toBe(`Process table function 'fails' failed in eval() for row +I[Ann, 7]: ${text}`);
    expect(inCauses(err, thrown)).toBe(true);
  });

  it("a PTF's onTimer names the function and the timer", async () => {
    const thrown = make();
    const FailsOnTimer = ProcessTableFunction.define({
      name: "fails_on_timer",
      args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.REQUIRE_ON_TIME) },
      output: DataTypes.ROW(DataTypes.FIELD("x", DataTypes.INT())),
      eval(ctx) { ctx.timeContext("millis").registerOnTime("t", 5); },
      onTimer() { throw thrown; },
    });
    const e = env();
    const t = e.fromValues(TIMED_SOURCE_SCHEMA, Row.of("Bob", 1, new Date(0)), Row.of("Bob", 2, new Date(10)));
    const err = await failure(e.fromCall(FailsOnTimer, t.partitionBy($("name")).asArgument("r"), descriptor("ts").asArgument("on_time")));
    expect(err).toBeInstanceOf(ExecutionError);
    expect(err.message).toBe(`Process table function 'fails_on_timer' failed in onTimer() for timer 't' at 5: ${text}`);
    expect(inCauses(err, thrown)).toBe(true);
  });
});

describe("an aggregate function over a window or an OVER names the row", () => {
  const EVENTS = TIMED_SOURCE_SCHEMA;
  const Throws = AggregateFunction.define({
    name: "throws_on_two", args: [DataTypes.INT()], result: DataTypes.INT(),
    createAccumulator: () => ({ s: 0 }),
    accumulate(acc, v) { if (v === 2) throw Object.create(null); acc.s += v ?? 0; },
    getValue: (acc) => acc.s,
  });

  it("event-time OVER", async () => {
    const e = env();
    const t = e.fromValues(EVENTS, Row.of("Bob", 1, new Date(0)), Row.of("Bob", 2, new Date(10)));
    const err = await failure(t.window(Over.partitionBy($("name")).orderBy($("ts")).preceding(UNBOUNDED_RANGE).as("o"))
      .select($("name"), call(Throws, $("score")).over($("o")).as("s")));
    expect(err).toBeInstanceOf(ExecutionError);
    expect(err.message).toBe("aggregate function 'throws_on_two'.accumulate failed for arguments (2): a thrown object without a prototype (no toString) (row +I[Bob, 2, 1970-01-01T00:00:00.010Z])");
  });

  it("tumbling window", async () => {
    const e = env();
    const t = e.fromValues(EVENTS, Row.of("Bob", 1, new Date(0)), Row.of("Bob", 2, new Date(10)));
    const err = await failure(t.window(Tumble.over(lit(1).seconds()).on($("ts")).as("w")).groupBy($("name"), $("w"))
      .select($("name"), call(Throws, $("score")).as("s")));
    expect(err.message).toBe("aggregate function 'throws_on_two'.accumulate failed for arguments (2): a thrown object without a prototype (no toString) (row +I[Bob, 2, 1970-01-01T00:00:00.010Z])");
  });
});
