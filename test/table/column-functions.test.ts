import { describe, expect, it } from "vitest";
import { $, DataTypes, Row, TableEnvironment, ValidationError, concat, range, withColumns, withoutColumns } from "../../src/index.js";

const t = () => TableEnvironment.create().fromValues(
  DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.STRING()), DataTypes.FIELD("c", DataTypes.STRING()), DataTypes.FIELD("d", DataTypes.INT())),
  Row.of(1, "x", "y", 4), Row.of(2, "p", "q", 5),
);

describe("column functions: $(\"*\"), withColumns, withoutColumns, range", () => {
  it("$(\"*\") is every column in order", async () => {
    expect(t().select($("*")).getResolvedSchema().names).toEqual(["a", "b", "c", "d"]);
    expect(await t().select($("*")).execute().toChangelog()).toEqual(["+I[1, x, y, 4]", "+I[2, p, q, 5]"]);
  });

  it("withColumns: selectors in the order given; ranges by 1-based positions or by names, inclusive", async () => {
    expect(t().select(withColumns(range(2, 3))).getResolvedSchema().names).toEqual(["b", "c"]);
    expect(t().select(withColumns($("d"), range("a", "b"), 3)).getResolvedSchema().names).toEqual(["d", "a", "b", "c"]);
    expect(await t().select(withColumns($("d"), range("a", "b"))).execute().toChangelog()).toEqual(["+I[4, 1, x]", "+I[5, 2, p]"]);
  });

  it("withoutColumns: every other column, in schema order; mixed with other items", async () => {
    const s = t().select(withoutColumns(range("b", "c")), $("a").plus(10).as("a10"));
    expect(s.getResolvedSchema().names).toEqual(["a", "d", "a10"]);
    expect(await s.execute().toChangelog()).toEqual(["+I[1, 4, 11]", "+I[2, 5, 12]"]);
  });

  it("inside a function call the columns become its arguments; in groupBy the keys", async () => {
    expect(await t().select(concat(withColumns(range(2, 3))).as("bc")).execute().toChangelog()).toEqual(["+I[xy]", "+I[pq]"]);
    const g = t().groupBy(withColumns(range(1, 2))).select(withColumns($("a"), $("b")), $("d").sum().as("s"));
    expect(await g.execute().toChangelog()).toEqual(["+I[1, x, 4]", "+I[2, p, 5]"]);
  });

  it("bad selectors are ValidationErrors naming the column, position or range", () => {
    expect(() => t().select(withColumns(range(0, 2)) as never)).toThrow(/column position 0 in range\(0, 2\) is out of range 1\.\.4 of \[a, b, c, d\]/);
    expect(() => t().select(withColumns(range("c", "a")) as never)).toThrow(/range\('c', 'a'\) is empty: 'c' comes after 'a'/);
    expect(() => t().select(withColumns($("zz") as never))).toThrow(ValidationError);
    expect(() => t().select(withColumns($("zz") as never))).toThrow(/withColumns: column 'zz' is not in \[a, b, c, d\]/);
    expect(() => range("a", 2 as never)).toThrow(/give two column names or two 1-based column positions/);
    expect(() => t().select(withColumns(range(1, 2)).as("x") as never)).toThrow(/cannot be renamed/);
  });
});
