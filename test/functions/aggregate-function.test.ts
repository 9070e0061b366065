import { describe, expect, it } from "vitest";
import {
  $, AggregateFunction, call, DataTypes, EnvironmentSettings, ExecutionError, Row, TableEnvironment, ValidationError,
} from "../../src/index.js";

const env = (batch = false) => TableEnvironment.create(batch ? EnvironmentSettings.inBatchMode() : EnvironmentSettings.inStreamingMode());

/** Flink's documentation example: the weighted average of points by level. */
const WeightedAvg = AggregateFunction.define({
  name: "weighted_avg",
  args: [DataTypes.BIGINT().notNull(), DataTypes.INT().notNull()],
  result: DataTypes.BIGINT(),
  createAccumulator: () => ({ sum: 0, count: 0 }),
  accumulate(acc, value, weight) { acc.sum += value * weight; acc.count += weight; },
  retract(acc, value, weight) { acc.sum -= value * weight; acc.count -= weight; },
  merge(acc, others) { for (const o of others) { acc.sum += o.sum; acc.count += o.count; } },
  getValue: (acc) => (acc.count === 0 ? null : Math.trunc(acc.sum / acc.count)),
});

/** Without retract(): usable on append-only input only. */
const Concat = AggregateFunction.define({
  name: "str_concat",
  args: [DataTypes.STRING()],
  result: DataTypes.STRING().notNull(),
  createAccumulator: () => ({ parts: [] as string[] }),
  accumulate(acc, s) { if (s !== null) acc.parts.push(s); },
  getValue: (acc) => acc.parts.join("|"),
});

const scores = (e: TableEnvironment) => e.fromValues(
  DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("points", DataTypes.BIGINT()), DataTypes.FIELD("level", DataTypes.INT())),
  Row.of("a", 10, 1), Row.of("a", 20, 3), Row.of("b", 5, 2), Row.of("b", null, 2), Row.of("a", 10, 1),
);

describe("AggregateFunction", () => {
  it("aggregates per group inline, with Flink's changelog; NULL for a NOT NULL parameter is not accumulated", async () => {
    const t = scores(env()).groupBy($("name")).select($("name"), call(WeightedAvg, $("points"), $("level")).as("avg"));
    expect(t.getResolvedSchema().toShortString()).toBe("[name: STRING, avg: BIGINT]");
    // a: 10 -> (10+60)/4 = 17 -> (70+10)/5 = 16; b: 5, then a NULL row that changes nothing
    expect(await t.execute().toChangelog()).toEqual(["+I[a, 10]", "-U[a, 10]", "+U[a, 17]", "+I[b, 5]", "-U[a, 17]", "+U[a, 16]"]);
  });

  it("is called by registered name, mixed with built-in aggregates, also without groupBy and in batch mode", async () => {
    const e = env(true);
    e.createFunction("wavg", WeightedAvg);
    const t = scores(e).groupBy($("name")).select($("name"), call("wavg", $("points"), $("level")).as("avg"), $("points").sum().as("total"));
    expect(await t.execute().toChangelog()).toEqual(["+I[a, 16, 40]", "+I[b, 5, 5]"]);
    const global = scores(e).select(call("WAVG", $("points"), $("level")).plus(1).as("g"));
    // (10·1 + 20·3 + 5·2 + 10·1) / (1 + 3 + 2 + 1) = 90 / 7 → 12, plus 1
    expect(await global.execute().toChangelog()).toEqual(["+I[13]"]);
  });

  it("retracts on updating input", async () => {
    const e = env();
    // the inner aggregate updates its rows; the outer weighted average follows the retractions
    const inner = scores(e).groupBy($("name")).select($("name"), $("points").sum().as("total"), $("level").min().as("lvl"));
    const outer = inner.select(call(WeightedAvg, $("total"), $("lvl")).as("w"));
    // inner: +I[a,10,1] -U[a,10,1] +U[a,30,1] +I[b,5,2] -U[a,30,1] +U[a,40,1] (b's NULL row changes nothing)
    // outer: the first retraction empties the global group (-D), then sum/count follow every -U/+U
    expect(await outer.execute().toChangelog()).toEqual([
      "+I[10]", "-D[10]", "+I[30]", "-U[30]", "+U[13]", "-U[13]", "+U[5]", "-U[5]", "+U[16]",
    ]);
  });

  it("without retract() it is rejected over an updating table, naming the function and the mode", () => {
    const e = env();
    const updating = scores(e).groupBy($("name")).select($("name"), $("points").sum().as("total"));
    expect(() => updating.select(call(Concat, $("name")))).toThrow(new ValidationError(
      "aggregate function 'str_concat' has no retract() method, but its input is an updating table (changelog mode [I,UB,UA]); declare retract(acc, ...args) to aggregate updates"));
    // fine on append-only input
    expect(() => scores(e).select(call(Concat, $("name")))).not.toThrow();
  });

  it("supports DISTINCT", async () => {
    const t = scores(env(true)).groupBy($("name")).select($("name"), call(Concat, $("points").cast(DataTypes.STRING())).distinct().as("d"));
    expect(await t.execute().toChangelog()).toEqual(["+I[a, 10|20]", "+I[b, 5]"]);
  });

  it("checks arguments at planning time and results at run time", async () => {
    const e = env();
    e.createTemporaryFunction("wavg", WeightedAvg);
    expect(() => scores(e).groupBy($("name")).select(call("wavg", $("name"), $("level")))).toThrow(new ValidationError(
      "function 'wavg': argument 1 (name) has type STRING but the function expects BIGINT NOT NULL, in wavg(name, level)"));
    expect(() => scores(e).select(call(WeightedAvg, $("points")) as never)).toThrow(new ValidationError(
      "function 'weighted_avg' expects 2 argument(s) weighted_avg(BIGINT NOT NULL, INT NOT NULL), got 1 in weighted_avg(points)"));
    const Bad = AggregateFunction.define({
      name: "bad", args: [DataTypes.BIGINT()], result: DataTypes.INT().notNull(),
      createAccumulator: () => ({ n: 0 as number | null }), accumulate(acc, v) { acc.n = v; }, getValue: (acc) => acc.n as number,
    });
    await expect(scores(e).select(call(Bad, $("points"))).execute().toArray()).rejects.toThrow(
      new ExecutionError("aggregate function 'bad'.getValue returned null, which is not a value of its declared type INT NOT NULL: the type is NOT NULL"));
    const Throws = AggregateFunction.define({
      name: "throws", args: [DataTypes.BIGINT()], result: DataTypes.INT(),
      createAccumulator: () => ({}), accumulate(_acc, v) { if (v === 20) throw new Error("twenty"); }, getValue: () => 1,
    });
    await expect(scores(e).select(call(Throws, $("points"))).execute().toArray()).rejects.toThrow(
      new ExecutionError("aggregate function 'throws'.accumulate failed for arguments (20): twenty (row +I[a, 20, 3])"));
  });

  it("may not be used as a scalar value", () => {
    const e = env();
    e.createTemporaryFunction("wavg", WeightedAvg);
    expect(() => scores(e).filter(call("wavg", $("points"), $("level")).isGreater(1) as never)).toThrow(
      /filter: aggregates are not allowed in a filter condition/);
  });
});

