import { describe, expect, it } from "vitest";
import { $, DataTypes, Row, ValidationError, lit } from "../../src/index.js";
import { changelog, env, jobError, thrown, types, values } from "./support.js";

const F = DataTypes.FIELD;
const nums = () => env().fromValues(
  DataTypes.ROW(F("x", DataTypes.DOUBLE().notNull()), F("m", DataTypes.DECIMAL(5, 2).notNull()), F("i", DataTypes.INT().notNull()), F("f", DataTypes.FLOAT())),
  Row.of(2.675, "12.34", 125, 1.25),
  Row.of(-2.5, "-12.35", -125, null),
  Row.of(1.005, "99.99", -124, -0.5),
);

describe("round (HALF_UP, away from zero on ties, as Flink)", () => {
  it("rounds DOUBLE by its shortest decimal digits, like BigDecimal.valueOf", async () => {
    const t = nums().select($("x").round(2), $("x").round(0), $("x").round(), $("x").round(-1), $("f").round(1));
    expect(types(t)).toEqual(["DOUBLE NOT NULL", "DOUBLE NOT NULL", "DOUBLE NOT NULL", "DOUBLE NOT NULL", "FLOAT"]);
    expect(await values(t)).toEqual([[2.68, 3, 3, 0, 1.3], [-2.5, -3, -3, 0, null], [1.01, 1, 1, 0, -0.5]]);
    expect(await changelog(nums().select($("x").round(0)))).toEqual(["+I[3.0]", "+I[-3.0]", "+I[1.0]"]);
  });

  it("rounds DECIMAL with Flink's result type (findRoundDecimalType)", async () => {
    const t = nums().select($("m").round(1), $("m").round(0), $("m").round(-1), $("m").round(3));
    expect(types(t)).toEqual(["DECIMAL(5, 1) NOT NULL", "DECIMAL(4, 0) NOT NULL", "DECIMAL(4, 0) NOT NULL", "DECIMAL(5, 2) NOT NULL"]);
    expect(await changelog(t)).toEqual(["+I[12.3, 12, 10, 12.34]", "+I[-12.4, -12, -10, -12.35]", "+I[100.0, 100, 100, 99.99]"]);
  });

  it("rounds integers to tens, hundreds, ... for negative places; their type stays", async () => {
    const t = nums().select($("i").round(-1), $("i").round(-2), $("i").round(2), $("i").round(-3));
    expect(types(t)).toEqual(Array(4).fill("INT NOT NULL"));
    expect(await values(t)).toEqual([[130, 100, 125, 0], [-130, -100, -125, 0], [-120, -100, -124, 0]]);
  });

  it("an INT result out of range fails the job (Flink wraps around)", async () => {
    const t = env().fromValues(DataTypes.ROW(F("i", DataTypes.INT().notNull())), Row.of(2147483647));
    expect((await jobError(t.select($("i").round(-1)))).message).toBe("integer overflow in `round(i, -1)`: 2147483650 does not fit INT (row +I[2147483647])");
  });

  it("needs whole places", () => {
    const e = thrown(() => nums().select($("x").round(1.5)));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe("round expects an INT for argument 2, got DOUBLE NOT NULL in round(x, 1.5)");
  });
});

describe("abs, floor, ceil", () => {
  it("abs keeps the type; abs of the smallest INT overflows", async () => {
    const t = nums().select($("x").abs(), $("m").abs(), $("i").abs());
    expect(types(t)).toEqual(["DOUBLE NOT NULL", "DECIMAL(5, 2) NOT NULL", "INT NOT NULL"]);
    expect(await changelog(t)).toEqual(["+I[2.675, 12.34, 125]", "+I[2.5, 12.35, 125]", "+I[1.005, 99.99, 124]"]);
    const min = env().fromValues(DataTypes.ROW(F("i", DataTypes.INT().notNull())), Row.of(-2147483648));
    expect((await jobError(min.select($("i").abs()))).message).toBe("integer overflow in `abs(i)`: 2147483648 does not fit INT (row +I[-2147483648])");
  });

  it("floor and ceil: DOUBLE stays DOUBLE, DECIMAL(p, s) becomes DECIMAL(p, 0), integers are unchanged", async () => {
    const t = nums().select($("x").floor(), $("x").ceil(), $("m").floor(), $("m").ceil(), $("i").floor());
    expect(types(t)).toEqual(["DOUBLE NOT NULL", "DOUBLE NOT NULL", "DECIMAL(5, 0) NOT NULL", "DECIMAL(5, 0) NOT NULL", "INT NOT NULL"]);
    expect(await changelog(t)).toEqual(["+I[2.0, 3.0, 12, 13, 125]", "+I[-3.0, -2.0, -13, -12, -125]", "+I[1.0, 2.0, 99, 100, -124]"]);
  });
});

describe("power, sqrt, exp, ln, log10", () => {
  it("are DOUBLE, with Java's results for edge cases", async () => {
    const t = nums().select(
      lit(2).power(10), $("m").power(2), lit(2).sqrt(), $("x").sqrt(), lit(1).exp(), lit(1).exp().ln(), lit(1000).log10(), lit(0).ln(),
    );
    expect(types(t)).toEqual(Array(8).fill("DOUBLE NOT NULL"));
    expect(await changelog(t.filter($("_c3").isNotNull().and($("_c1").isGreater(200))))).toEqual([
      "+I[1024.0, 9998.0001, 1.4142135623730951, 1.002496882788171, 2.718281828459045, 1.0, 3.0, -Infinity]",
    ]);
    expect(await values(nums().select($("x").sqrt()))).toEqual([[Math.sqrt(2.675)], [NaN], [Math.sqrt(1.005)]]);
  });
});
