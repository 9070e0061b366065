import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { $, DataTypes, EnvironmentSettings, TableEnvironment } from "../../src/index.js";
import { diffTables, expectTable, formatTable, fromTable, parseTable, tableOf } from "../../src/testing/index.js";

const scores = DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("score", DataTypes.INT()));

describe("table literals", () => {
  it("parse with and without an op column, skipping separators, <NULL> as null", () => {
    expect(parseTable(`
      +----+-------+-------+
      | op | name  | score |
      +----+-------+-------+
      | +I | Alice |    12 |
      | -D | Bob   | <NULL> |
      +----+-------+-------+`)).toEqual({
      columns: ["name", "score"], withKinds: true,
      rows: [{ kind: "+I", cells: ["Alice", "12"] }, { kind: "-D", cells: ["Bob", null] }],
    });
    expect(parseTable("| a | b |\n|---|---|\n| 1 | x \\| y |")).toEqual({ columns: ["a", "b"], withKinds: false, rows: [{ kind: "+I", cells: ["1", "x | y"] }] });
  });

  it("say where a literal is malformed", () => {
    expect(() => parseTable("| op | a |\n| +X | 1 |")).toThrow("table literal line 2: '+X' is not a row kind (+I, -U, +U, -D)");
    expect(() => parseTable("| a | b |\n| 1 |")).toThrow("table literal line 2: 1 cells, but the header has 2 (a, b)");
    expect(() => fromTable(TableEnvironment.create(), scores, "| name |\n| Bob |")).toThrow("table literal has no column 'score' (it has name)");
    expect(() => fromTable(TableEnvironment.create(), scores, "| name | score |\n| Bob | ten |")).toThrow("table literal row 1, column 'score': cannot parse 'ten' as INT");
  });

  it("format aligned, numbers to the right", () => {
    expect(formatTable(["name", "score"], [{ kind: "+I", cells: ["Alice", "12"] }, { kind: "-U", cells: ["Bo", null] }])).toBe(
      "| op | name  |  score |\n| +I | Alice |     12 |\n| -U | Bo    | <NULL> |");
  });

  it("feed a changelog into a program and check its output, kinds and order included", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const input = fromTable(env, scores, `
      | op | name  | score |
      | +I | Alice | 12    |
      | +I | Bob   | 3     |
      | -D | Alice | 12    |
      | +I | Alice | 5     |`);
    const totals = input.groupBy($("name")).select($("name"), $("score").sum().as("total"));
    await expectTable(totals, `
      | op | name  | total |
      | +I | Alice | 12    |
      | +I | Bob   | 3     |
      | -D | Alice | 12    |
      | +I | Alice | 5     |`);
    expect(await tableOf(input.filter($("score").isGreater(4)))).toBe(
      "| op | name  | score |\n| +I | Alice |    12 |\n| -D | Alice |    12 |\n| +I | Alice |     5 |");
  });

  it("fail with a diff that marks what is missing and what came instead", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    const t = fromTable(env, scores, "| name | score |\n| Alice | 12 |\n| Bob | 3 |");
    await expect(expectTable(t, "| name | score |\n| Alice | 12 |\n| Bob | 4 |")).rejects.toThrow(
      "the changelog differs from the expected table (- expected, + actual):\n"
      + "  | name  | score |\n  | Alice |    12 |\n+ | Bob   |     3 |\n- | Bob   |     4 |");
    expect(diffTables("| a |\n| 1 |", "| a |\n|  1 |")).toBe("");
  });
});

describe("table literals round trip", () => {
  it("any cells survive formatTable then parseTable (pipes, backslashes, <NULL>-looking text aside)", () => {
    const cell = fc.option(fc.string({ unit: fc.constantFrom("a", "|", "\\", " x", "é", "1", "-") }).map((s) => s.trim()).filter((s) => s !== "<NULL>"), { nil: null });
    fc.assert(fc.property(fc.array(fc.tuple(fc.constantFrom<"+I" | "-U" | "+U" | "-D">("+I", "-U", "+U", "-D"), cell, cell)), (rows) => {
      const text = formatTable(["a", "b"], rows.map(([kind, x, y]) => ({ kind, cells: [x, y] })));
      expect(parseTable(text).rows).toEqual(rows.map(([kind, x, y]) => ({ kind, cells: [x, y] })));
    }));
  });
});
