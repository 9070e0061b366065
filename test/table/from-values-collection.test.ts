import { describe, expect, it } from "vitest";
import { $, DataTypes, Row, TableEnvironment, ValidationError } from "../../src/index.js";

const rowType = DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT().notNull()), DataTypes.FIELD("b", DataTypes.STRING()));

describe("fromValues(type, rows) with the rows as one collection", () => {
  it("takes an array of objects or Row.of(...) rows, like Flink's Iterable overload", async () => {
    const env = TableEnvironment.create();
    const t = env.fromValues(rowType, [{ a: 1, b: "x" }, Row.of(2, null)]);
    expect(await t.execute().toChangelog()).toEqual(["+I[1, x]", "+I[2, null]"]);
  });

  it("handles more rows than fit into a function call's arguments", async () => {
    const env = TableEnvironment.create();
    const rows = Array.from({ length: 200_000 }, (_, i) => ({ a: i, b: null }));
    const t = env.fromValues(rowType, rows).select($("a").count().as("n"), $("a").max().as("m"));
    const out = await t.execute().toChangelog();
    expect(out.at(-1)).toBe("+U[200000, 199999]");
  }, 30_000); // ~4.5 s of work: the default 5 s fails on a loaded machine

  it("checks every row and names the failing one", () => {
    const env = TableEnvironment.create();
    // NOT NULL columns are also checked by the compiler; the casts model untyped callers
    const rows = [{ a: 1, b: "x" }, { a: null, b: "y" }] as unknown as { a: number; b: string }[];
    expect(() => env.fromValues(rowType, rows)).toThrow(ValidationError);
    expect(() => env.fromValues(rowType, rows)).toThrow(/fromValues row 2, column 'a'/);
  });
});
