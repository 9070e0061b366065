import { describe, expect, it } from "vitest";
import {
  $, call, DataTypes, EnvironmentSettings, ExecutionError, Row, TableEnvironment, TableFunction, ValidationError,
} from "../../src/index.js";

const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());

const words = (e: TableEnvironment) => e.fromValues(
  DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT().notNull()), DataTypes.FIELD("text", DataTypes.STRING())),
  Row.of(1, "a bb"),
  Row.of(2, ""),
  Row.of(3, null),
  Row.of(4, "ccc"),
);

/** Two columns: the word and its length; emits nothing for an empty string. */
const Words = TableFunction.define({
  name: "words",
  args: [DataTypes.STRING().notNull()],
  result: DataTypes.ROW(DataTypes.FIELD("word", DataTypes.STRING().notNull()), DataTypes.FIELD("len", DataTypes.INT().notNull())),
  eval(out, s) {
    for (const w of s.split(" ")) if (w) out.collect({ word: w, len: w.length });
  },
});

describe("TableFunction with joinLateral / leftOuterJoinLateral", () => {
  it("joinLateral keeps only rows with output, one output row per collected row, function column names", async () => {
    const t = words(env()).joinLateral(call(Words, $("text")));
    expect(t.getResolvedSchema().toShortString()).toBe("[id: INT NOT NULL, text: STRING, word: STRING NOT NULL, len: INT NOT NULL]");
    expect(await t.execute().toChangelog()).toEqual(["+I[1, a bb, a, 1]", "+I[1, a bb, bb, 2]", "+I[4, ccc, ccc, 3]"]);
  });

  it("leftOuterJoinLateral pads rows without output with NULLs and makes the columns nullable", async () => {
    const t = words(env()).leftOuterJoinLateral(call(Words, $("text")).as("w", "n"));
    expect(t.getResolvedSchema().toShortString()).toBe("[id: INT NOT NULL, text: STRING, w: STRING, n: INT]");
    expect(await t.execute().toChangelog()).toEqual([
      "+I[1, a bb, a, 1]", "+I[1, a bb, bb, 2]", "+I[2, , null, null]", "+I[3, null, null, null]", "+I[4, ccc, ccc, 3]",
    ]);
  });

  it("filters pairs with a join condition (LEFT: a row whose outputs all fail it is padded)", async () => {
    const inner = words(env()).joinLateral(call(Words, $("text")), $("len").isGreater(1));
    expect(await inner.execute().toChangelog()).toEqual(["+I[1, a bb, bb, 2]", "+I[4, ccc, ccc, 3]"]);
    const left = words(env()).leftOuterJoinLateral(call(Words, $("text")), $("len").isGreater(2));
    expect(await left.execute().toChangelog()).toEqual([
      "+I[1, a bb, null, null]", "+I[2, , null, null]", "+I[3, null, null, null]", "+I[4, ccc, ccc, 3]",
    ]);
  });

  it("a non-row result is one column named f0; a registered function is called by name", async () => {
    const Chars = TableFunction.define({
      args: [DataTypes.STRING()], result: DataTypes.STRING().notNull(),
      eval(out, s) { for (const ch of s ?? "") out.collect(ch); },
    });
    const e = env();
    expect(words(e).joinLateral(call(Chars, $("text"))).getResolvedSchema().names).toEqual(["id", "text", "f0"]);
    e.createTemporaryFunction("chars", Chars);
    const t = words(e).filter($("id").isEqual(1)).joinLateral(call("chars", $("text")).as("ch")).select($("ch"));
    expect(await t.execute().toChangelog()).toEqual(["+I[a]", "+I[ ]", "+I[b]", "+I[b]"]);
  });

  it("passes row kinds through: a retracted input row retracts its output rows", async () => {
    const e = env();
    const counts = words(e).groupBy($("text")).select($("text"), $("id").count().as("n"))
      .joinLateral(call(Words, $("text")));
    const changes = await e.fromValues(
      DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT().notNull()), DataTypes.FIELD("text", DataTypes.STRING())),
      Row.of(1, "x y"), Row.of(2, "x y"),
    ).groupBy($("text")).select($("text"), $("id").count().as("n")).joinLateral(call(Words, $("text"))).execute().toChangelog();
    expect(changes).toEqual([
      "+I[x y, 1, x, 1]", "+I[x y, 1, y, 1]", "-U[x y, 1, x, 1]", "-U[x y, 1, y, 1]", "+U[x y, 2, x, 1]", "+U[x y, 2, y, 1]",
    ]);
    expect(counts.changelogMode()).toBe("[I,UB,UA]");
  });

  it("checks collected rows against the declared type and reports eval failures", async () => {
    const Bad = TableFunction.define({
      name: "bad", args: [DataTypes.STRING()], result: DataTypes.ROW(DataTypes.FIELD("n", DataTypes.INT().notNull())),
      eval(out, s) { if (s === "ccc") throw new Error("too long"); out.collect(Row.of(s) as never); },
    });
    await expect(words(env()).joinLateral(call(Bad, $("text"))).execute().toArray()).rejects.toThrow(
      new ExecutionError("table function 'bad' (field 'n') returned 'a bb', which is not a value of its declared type INT NOT NULL"));
    const Wide = TableFunction.define({
      name: "wide", args: [], result: DataTypes.ROW(DataTypes.FIELD("n", DataTypes.INT())),
      eval(out) { out.collect(Row.of(1, 2)); },
    });
    await expect(words(env()).joinLateral(call(Wide)).execute().toArray()).rejects.toThrow(
      new ExecutionError("table function 'wide' collected a row of 2 field(s), but its result type ROW<`n` INT> has 1"));
    const Throws = TableFunction.define({
      name: "throws", args: [DataTypes.STRING()], result: DataTypes.INT(),
      eval(_out, s) { if (s === "ccc") throw new Error("too long"); },
    });
    await expect(words(env()).joinLateral(call(Throws, $("text"))).execute().toArray()).rejects.toThrow(
      new ExecutionError("table function 'throws' failed for arguments ('ccc'): too long (row +I[4, ccc])"));
  });

  it("rejects what is not a table function call, clashing names and wrong alias counts", () => {
    const e = env();
    e.createTemporaryFunction("words", Words);
    expect(() => words(e).joinLateral($("text") as never)).toThrow(new ValidationError(
      `joinLateral: expected a table function call such as call("split", $("tags")).as("tag"), got text`));
    expect(() => words(e).joinLateral(call("nope", $("text")).as("x"))).toThrow(new ValidationError(
      "joinLateral: function 'nope' is not registered; registered functions: [words]"));
    expect(() => words(e).joinLateral(call(Words, $("text")).as("text", "n") as never)).toThrow(new ValidationError(
      "joinLateral: column 'text' of the table function 'words' already exists in the input [id, text]; rename it with .as(...)"));
    expect(() => words(e).leftOuterJoinLateral(call("words", $("text")).as("w"))).toThrow(new ValidationError(
      "leftOuterJoinLateral: the table function 'words' returns 2 column(s) [word, len], but 1 alias(es) were given: [w]"));
    expect(() => words(e).joinLateral(call(Words, $("id")) as never)).toThrow(new ValidationError(
      "function 'words': argument 1 (id) has type INT NOT NULL but the function expects STRING NOT NULL, in words(id)"));
    expect(() => words(e).select(call(Words, $("text")) as never)).toThrow(new ValidationError(
      `function 'words' is a table function; use it with joinLateral(call("words", ...)) or leftOuterJoinLateral, not as a scalar value`));
  });

  it("explains the lateral join", () => {
    const t = words(env()).joinLateral(call(Words, $("text")).as("w", "n"), $("n").isGreater(1));
    expect(t.explain()).toBe([
      "== Logical Plan ==",
      "Correlate(invocation=[words(text)], joinType=[INNER], condition=[greaterThan(n, 1)], changelogMode=[I]) -> [id: INT NOT NULL, text: STRING, w: STRING NOT NULL, n: INT NOT NULL]",
      "+- Values(rows=4, changelogMode=[I]) -> [id: INT NOT NULL, text: STRING]",
    ].join("\n"));
  });
});
