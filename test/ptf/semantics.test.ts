// Table semantics, virtual processors, output layout and state rules of PTFs (PTF rules 1-4,
// 13-15) beyond Flink's own programs.
import { describe, expect, it } from "vitest";
import {
  $, ArgumentTrait, DataTypes, ExecutionError, lit, ProcessTableFunction, Row, scalarArg, tableArg, valueState,
} from "../../src/index.js";
import type { Context } from "../../src/index.js";
import { uniqueNames } from "../../src/ptf/output-schema.js";
import { basicValues, multiValues, streamingEnv } from "./support.js";

const { ROW_SEMANTIC_TABLE: ROW, SET_SEMANTIC_TABLE: SET, OPTIONAL_PARTITION_BY: OPT_PB, PASS_COLUMNS_THROUGH: PASS } = ArgumentTrait;

const Counter = ProcessTableFunction.define({
  name: "Counter",
  args: { r: tableArg(SET, OPT_PB) },
  state: { c: valueState({ n: 0 }) },
  output: DataTypes.BIGINT(),
  eval(ctx, { c }) { ctx.collect(++c.n); },
});

describe("virtual processors", () => {
  it("one processor per PARTITION BY key, each with its own state", async () => {
    const env = streamingEnv();
    const t = multiValues(env);
    expect(await t.partitionBy($("name")).process(Counter).execute().toChangelog())
      .toEqual(["+I[Bob, 1]", "+I[Alice, 1]", "+I[Bob, 2]", "+I[Bob, 3]", "+I[Alice, 2]"]);
  });

  it("OPTIONAL_PARTITION_BY without PARTITION BY: one processor sees the whole table", async () => {
    const env = streamingEnv();
    const t = multiValues(env);
    expect(await t.process(Counter).execute().toChangelog()).toEqual(["+I[1]", "+I[2]", "+I[3]", "+I[4]", "+I[5]"]);
  });

  it("several PARTITION BY columns, null keys and timestamp keys", async () => {
    const env = streamingEnv();
    const t = env.fromValues(
      DataTypes.ROW(DataTypes.FIELD("a", DataTypes.STRING()), DataTypes.FIELD("b", DataTypes.INT()), DataTypes.FIELD("ts", DataTypes.TIMESTAMP_LTZ(3))),
      Row.of("x", 1, 0), Row.of("x", null, 0), Row.of("x", 1, 0), Row.of(null, 1, 1000), Row.of("1", null, 1000), Row.of(null, 1, 1000),
      Row.of("x", null, 0),
    );
    expect(await t.partitionBy($("a"), $("b")).process(Counter).execute().toChangelog()).toEqual([
      "+I[x, 1, 1]", "+I[x, null, 1]", "+I[x, 1, 2]", "+I[null, 1, 1]", "+I[1, null, 1]", "+I[null, 1, 2]", "+I[x, null, 2]",
    ]);
    expect(await t.partitionBy($("ts")).process(Counter).execute().toChangelog()).toEqual([
      "+I[1970-01-01T00:00:00Z, 1]", "+I[1970-01-01T00:00:00Z, 2]", "+I[1970-01-01T00:00:00Z, 3]", "+I[1970-01-01T00:00:01Z, 1]",
      "+I[1970-01-01T00:00:01Z, 2]", "+I[1970-01-01T00:00:01Z, 3]", "+I[1970-01-01T00:00:00Z, 4]",
    ]);
  });

  it("function chaining: process after process, each partitioned again", async () => {
    const Doubler = ProcessTableFunction.define({
      name: "Doubler",
      args: { r: tableArg(SET) },
      output: DataTypes.ROW(DataTypes.FIELD("score", DataTypes.INT())),
      eval(ctx, _s, { r }) { ctx.collect({ score: (r.score as number) * 2 }); },
    });
    const env = streamingEnv();
    const t = multiValues(env);
    const chained = t.partitionBy($("name")).process(Doubler).partitionBy($("name")).process(Counter);
    expect(chained.getResolvedSchema().names).toEqual(["name", "EXPR$0"]);
    expect(await chained.execute().toChangelog()).toEqual(["+I[Bob, 1]", "+I[Alice, 1]", "+I[Bob, 2]", "+I[Bob, 3]", "+I[Alice, 2]"]);
    const doubled = await t.partitionBy($("name")).process(Doubler).process(ProcessTableFunction.define({
      args: { r: tableArg(ROW) }, output: DataTypes.STRING(), eval(ctx, _s, { r }) { ctx.collect(String(r)); },
    })).execute().toChangelog();
    expect(doubled).toEqual(["+I[+I[Bob, 24]]", "+I[+I[Alice, 84]]", "+I[+I[Bob, 198]]", "+I[+I[Bob, 200]]", "+I[+I[Alice, 800]]"]);
  });

  it("the row given to eval carries its kind and prints like Flink's Row", async () => {
    const seen: string[] = [];
    const Probe = ProcessTableFunction.define({
      args: { r: tableArg(ROW) }, output: DataTypes.INT(),
      eval(_ctx, _s, { r }) { seen.push(`${Row.kindOf(r)} ${String(r)} ${JSON.stringify(r)}`); },
    });
    const env = streamingEnv();
    await basicValues(env).process(Probe).execute().toArray();
    expect(seen).toEqual(['+I +I[Bob, 12] {"name":"Bob","score":12}', '+I +I[Alice, 42] {"name":"Alice","score":42}']);
  });
});

describe("output layout", () => {
  it("duplicate names get a counter suffix starting at 0", () => {
    const t = DataTypes.STRING();
    expect(uniqueNames([{ name: "name", type: t }, { name: "x", type: t }, { name: "name", type: t }, { name: "name", type: t }]).map((c) => c.name))
      .toEqual(["name", "x", "name0", "name1"]);
  });

  it("a key column and an output field of the same name: name | name0", async () => {
    const Echo = ProcessTableFunction.define({
      args: { r: tableArg(SET) }, output: DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("len", DataTypes.INT())),
      eval(ctx, _s, { r }) { ctx.collect({ name: `${r.name}!`, len: String(r.name).length }); },
    });
    const env = streamingEnv();
    const result = basicValues(env).partitionBy($("name")).process(Echo);
    expect(result.getResolvedSchema().names).toEqual(["name", "name0", "len"]);
    const rows = await result.execute().toArray();
    expect(rows).toEqual([{ name: "Bob", name0: "Bob!", len: 3 }, { name: "Alice", name0: "Alice!", len: 5 }]);
  });

  it("Row.of(...) rows are checked against the declared row type", async () => {
    const Short = ProcessTableFunction.define({
      name: "Short", args: { r: tableArg(ROW) }, output: DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.INT())),
      eval(ctx) { ctx.collect(Row.of(1)); },
    });
    const env = streamingEnv();
    await expect(basicValues(env).process(Short).execute().toArray())
      .rejects.toThrow("collect(): function 'Short' declares 2 output fields (ROW<`a` INT, `b` INT>) but Row.of(...) has 1 values");
  });

  it("a NOT NULL output column rejects null", async () => {
    const NotNull = ProcessTableFunction.define({
      name: "NotNull", args: { r: tableArg(ROW) }, output: DataTypes.INT().notNull(), eval(ctx) { ctx.collect(null as unknown as number); },
    });
    const env = streamingEnv();
    await expect(basicValues(env).process(NotNull).execute().toArray())
      .rejects.toThrow("collect(): output column 'EXPR$0' of function 'NotNull': null value for NOT NULL type INT NOT NULL");
  });

  it("collect() outside eval is an error", async () => {
    let kept: Context<string, string, string | null> | undefined;
    const Keeper = ProcessTableFunction.define({
      name: "Keeper", args: { r: tableArg(ROW) }, output: DataTypes.STRING(), eval(ctx) { kept = ctx; },
    });
    const env = streamingEnv();
    await basicValues(env).process(Keeper).execute().toArray();
    expect(() => kept!.collect("late")).toThrow(ExecutionError);
    expect(() => kept!.collect("late")).toThrow("collect() of function 'Keeper' was called outside eval(); keep no reference to ctx");
  });
});

describe("state", () => {
  it("plain-object defaults: each key gets its own copy, nested values included", async () => {
    const Collecting = ProcessTableFunction.define({
      name: "Collecting",
      args: { r: tableArg(SET) },
      state: { s: valueState({ scores: [] as number[], tags: new Map<string, number>(), label: "none" }) },
      output: DataTypes.STRING(),
      eval(ctx, { s }, { r }) {
        s.scores.push(r.score as number);
        s.tags.set(String(r.name), s.scores.length);
        ctx.collect(`${s.label} ${s.scores.join("+")} ${[...s.tags].join(";")}`);
      },
    });
    const env = streamingEnv();
    expect(await multiValues(env).partitionBy($("name")).process(Collecting).execute().toChangelog()).toEqual([
      "+I[Bob, none 12 Bob,1]", "+I[Alice, none 42 Alice,1]", "+I[Bob, none 12+99 Bob,2]", "+I[Bob, none 12+99+100 Bob,3]",
      "+I[Alice, none 42+400 Alice,2]",
    ]);
  });

  it("a state whose fields are all null is no state: the next call sees the defaults again", async () => {
    const Nulling = ProcessTableFunction.define({
      name: "Nulling",
      args: { r: tableArg(SET) },
      state: { s: valueState<{ a: number | null; b: string | null }>({ a: 7, b: "x" }) },
      output: DataTypes.STRING(),
      eval(ctx, { s }, { r }) {
        ctx.collect(`${s.a} ${s.b}`);
        if (r.score === 99) { s.a = null; s.b = null; } else if (s.a !== null) s.a++;
      },
    });
    const env = streamingEnv();
    expect(await multiValues(env).partitionBy($("name")).process(Nulling).execute().toChangelog())
      .toEqual(["+I[Bob, 7 x]", "+I[Alice, 7 x]", "+I[Bob, 8 x]", "+I[Bob, 7 x]", "+I[Alice, 8 x]"]);
  });

  it("clearAllState resets every entry; modifications after clearState in the same call are discarded", async () => {
    const Clearing = ProcessTableFunction.define({
      name: "Clearing",
      args: { r: tableArg(SET) },
      state: { a: valueState({ n: 0 }), b: valueState({ n: 100 }) },
      output: DataTypes.STRING(),
      eval(ctx, { a, b }, { r }) {
        ctx.collect(`${a.n} ${b.n}`);
        if (r.score === 99) ctx.clearAllState();
        a.n++;
        b.n++;
      },
    });
    const env = streamingEnv();
    expect(await multiValues(env).partitionBy($("name")).process(Clearing).execute().toChangelog())
      .toEqual(["+I[Bob, 0 100]", "+I[Alice, 0 100]", "+I[Bob, 1 101]", "+I[Bob, 0 100]", "+I[Alice, 1 101]"]);
  });

  it("scalar arguments reach eval with their declared types", async () => {
    const Args = ProcessTableFunction.define({
      args: {
        r: tableArg(ROW), d: scalarArg(DataTypes.DECIMAL(10, 2)), t: scalarArg(DataTypes.TIMESTAMP_LTZ(3)),
        o: scalarArg(DataTypes.STRING(), { optional: true }),
      },
      output: DataTypes.STRING(),
      eval(ctx, _s, { d, t, o }) { ctx.collect(`${d?.toFixed(2)} ${t?.toISOString()} ${o}`); },
    });
    const env = streamingEnv();
    const t = basicValues(env);
    expect(await env.fromCall(Args, t.asArgument("r"), lit(5).asArgument("d"), lit(new Date(1000)).asArgument("t")).execute().toChangelog())
      .toEqual(["+I[5.00 1970-01-01T00:00:01.000Z null]", "+I[5.00 1970-01-01T00:00:01.000Z null]"]);
  });

  it("the input table's partition key keeps its column type in the output", async () => {
    const env = streamingEnv();
    const t = basicValues(env);
    expect(t.partitionBy($("score")).process(Counter).getResolvedSchema().toShortString()).toBe("[score: INT NOT NULL, EXPR$0: BIGINT]");
  });
});

describe("pass-through", () => {
  it("PASS_COLUMNS_THROUGH forwards the input row with each collected row", async () => {
    const Splitter = ProcessTableFunction.define({
      args: { r: tableArg(ROW, PASS) }, output: DataTypes.ROW(DataTypes.FIELD("part", DataTypes.STRING())),
      eval(ctx, _s, { r }) { for (const p of String(r.name).split("")) if (p !== "o") ctx.collect({ part: p }); },
    });
    const env = streamingEnv();
    const t = env.fromValues(Row.of("Bob", 1)).as("name", "n");
    expect(await t.process(Splitter).execute().toChangelog()).toEqual(["+I[Bob, 1, B]", "+I[Bob, 1, b]"]);
  });
});
