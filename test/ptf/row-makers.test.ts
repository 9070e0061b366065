// The row objects eval receives (exec/operators/ptf/rows.ts): made by classes shared across jobs.
import { describe, expect, it } from "vitest";
import { DataTypes, Row } from "../../src/index.js";
import { Kind } from "../../src/types/row.js";
import { ResolvedSchema } from "../../src/types/resolved-schema.js";
import { nullRowMaker, rowMakerFor, typedRowMaker } from "../../src/exec/operators/ptf/rows.js";

const schema = () => new ResolvedSchema([{ name: "name", type: DataTypes.STRING() }, { name: "price", type: DataTypes.DOUBLE() }]);

describe("PTF row makers", () => {
  it("two schemas with the same columns (two jobs of one plan) make rows of one class per kind", () => {
    const a = rowMakerFor(schema());
    const b = rowMakerFor(schema());
    const r1 = a(Kind.INSERT, ["Bob", 1.5]);
    const r2 = b(Kind.INSERT, ["Ann", 2]);
    expect(Object.getPrototypeOf(r1)).toBe(Object.getPrototypeOf(r2));
    expect(Object.getPrototypeOf(b(Kind.UPDATE_AFTER, ["Ann", 2]))).not.toBe(Object.getPrototypeOf(r2));
    expect(r1).toEqual({ name: "Bob", price: 1.5 });
    expect(r2).toEqual({ name: "Ann", price: 2 });
    expect(String(r1)).toBe("+I[Bob, 1.5]");
    expect(Row.kindOf(b(Kind.DELETE, ["Ann", 2]))).toBe("-D");
    expect(String(b(Kind.UPDATE_BEFORE, [null, 3]))).toBe("-U[null, 3.0]");
  });

  it("another column type is another class (its toString prints by type)", () => {
    const ints = rowMakerFor(new ResolvedSchema([{ name: "name", type: DataTypes.STRING() }, { name: "price", type: DataTypes.INT() }]));
    const doubles = rowMakerFor(schema());
    const i = ints(Kind.INSERT, ["Bob", 3]);
    expect(Object.getPrototypeOf(i)).not.toBe(Object.getPrototypeOf(doubles(Kind.INSERT, ["Bob", 3])));
    expect(String(i)).toBe("+I[Bob, 3]");
  });

  it("fresh ROW state is all null each time, and a row written to does not change the next one", () => {
    const fresh = nullRowMaker(DataTypes.ROW(DataTypes.FIELD("n", DataTypes.INT()), DataTypes.FIELD("s", DataTypes.STRING())));
    const s = fresh() as { n: number | null; s: string | null };
    s.n = 4;
    s.s = "x";
    expect(fresh()).toEqual({ n: null, s: null });
    expect(s).toEqual({ n: 4, s: "x" });
  });

  it("rows with conversions convert each value (a typed argument: INT to DECIMAL)", () => {
    const make = typedRowMaker(DataTypes.ROW(DataTypes.FIELD("d", DataTypes.DECIMAL(10, 2))), [DataTypes.INT()]);
    const r = make(Kind.INSERT, [7]) as { d: { toFixed(n: number): string } };
    expect(r.d.toFixed(2)).toBe("7.00");
  });
});
