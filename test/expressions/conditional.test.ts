import { describe, expect, it } from "vitest";
import { $, DataTypes, Decimal, Row, ValidationError, coalesce, ifThenElse, lit, nullOf } from "../../src/index.js";
import { changelog, env, thrown, types, unchecked, values } from "./support.js";

const F = DataTypes.FIELD;

const t = () => env().fromValues(
  DataTypes.ROW(
    F("id", DataTypes.INT().notNull()), F("n", DataTypes.INT()), F("d", DataTypes.DECIMAL(5, 2)),
    F("s", DataTypes.STRING()), F("flag", DataTypes.BOOLEAN()),
  ),
  Row.of(1, 10, "1.50", "x", true),
  Row.of(2, null, null, null, null),
  Row.of(3, 30, "2.25", "z", false),
);

describe("ifThenElse", () => {
  it("takes the else branch when the condition is FALSE or NULL", async () => {
    const r = t().select(ifThenElse($("flag"), "yes", "no"), ifThenElse($("n").isGreater(15), $("n"), 0));
    expect(types(r)).toEqual(["VARCHAR(3) NOT NULL", "INT"]);
    expect(await changelog(r)).toEqual(["+I[yes, 0]", "+I[no, 0]", "+I[no, 30]"]);
  });

  it("has the common type of its branches, and converts the values to it", async () => {
    const r = t().select(ifThenElse($("flag"), $("d"), $("id")), ifThenElse($("flag"), $("id"), 0.5));
    // DECIMAL(5, 2) with INT: 10 integer digits and scale 2; INT with DOUBLE: DOUBLE
    expect(types(r)).toEqual(["DECIMAL(12, 2)", "DOUBLE NOT NULL"]);
    const rows = await values(r);
    expect(rows.map((x) => [(x[0] as Decimal | null)?.toFixed(2) ?? null, x[1]])).toEqual([["1.50", 1], ["2.00", 0.5], ["3.00", 0.5]]);
    expect(rows[1]![0]).toBeInstanceOf(Decimal);
  });

  it("rejects branches without a common type and a non-BOOLEAN condition", () => {
    // @ts-expect-error branches of different families
    const e = thrown(() => t().select(ifThenElse($("flag"), $("s"), $("n"))));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe("the branches of ifThenElse(flag, s, n): types STRING and INT have no common type");
    // @ts-expect-error the condition must be BOOLEAN
    expect(thrown(() => t().select(ifThenElse($("n"), 1, 2))).message).toBe("ifThenElse expects a BOOLEAN for argument 1, got INT in ifThenElse(n, 1, 2)");
  });
});

describe("coalesce and ifNull", () => {
  it("coalesce returns the first non-NULL argument; NOT NULL as soon as one argument is", async () => {
    const r = t().select(coalesce($("n"), $("id")), coalesce($("n"), nullOf(DataTypes.INT())), coalesce($("s"), "none"));
    expect(types(r)).toEqual(["INT NOT NULL", "INT", "STRING NOT NULL"]);
    expect(await changelog(r)).toEqual(["+I[10, 10, x]", "+I[2, null, none]", "+I[30, 30, z]"]);
  });

  it("coalesce converts to the common type", async () => {
    // (the type level does not model DECIMAL/INT mixes in coalesce yet)
    const r = t().select(unchecked(coalesce($("d"), $("n"), 0)));
    expect(types(r)).toEqual(["DECIMAL(12, 2) NOT NULL"]);
    expect(await changelog(r)).toEqual(["+I[1.50]", "+I[0.00]", "+I[2.25]"]);
    expect((await values(r)).every(([v]) => v instanceof Decimal)).toBe(true);
  });

  it("ifNull follows Flink's IfNullTypeStrategy", async () => {
    const r = t().select($("n").ifNull(-1), $("id").ifNull(0.5), $("n").ifNull($("n")), $("d").ifNull(0));
    // a NOT NULL input keeps its own type; otherwise the common type, NOT NULL when the replacement is
    expect(types(r)).toEqual(["INT NOT NULL", "INT NOT NULL", "INT", "DECIMAL(12, 2) NOT NULL"]);
    expect(await changelog(r)).toEqual(["+I[10, 1, 10, 1.50]", "+I[-1, 2, null, 0.00]", "+I[30, 3, 30, 2.25]"]);
  });

  it("does not evaluate arguments after the first non-NULL one", async () => {
    // `id` is NOT NULL, so the division by zero after it never runs
    const r = t().select(coalesce($("n"), $("id"), $("id").dividedBy(0)));
    expect(await changelog(r)).toEqual(["+I[10]", "+I[2]", "+I[30]"]);
  });

  it("rejects arguments without a common type", () => {
    // @ts-expect-error a STRING default for an INT
    const e = thrown(() => t().select($("n").ifNull("zero")));
    expect(e.message).toBe("the arguments of ifNull(n, 'zero'): types INT and CHAR(4) NOT NULL have no common type");
  });
});

describe("literals", () => {
  it("are typed from the JS value, or by an explicit type", async () => {
    const r = t().select(
      lit(1), lit(10000000000), lit(1.5), lit("abc"), lit(true), lit(new Decimal("12.50")), lit(new Date(0)),
      lit(1, DataTypes.BIGINT()), lit("2.50", DataTypes.DECIMAL(4, 2)), lit("2024-02-29", DataTypes.DATE()), nullOf(DataTypes.STRING()),
    ).filter($("_c0").isEqual(1).and(lit(true)));
    expect(types(r)).toEqual([
      "INT NOT NULL", "BIGINT NOT NULL", "DOUBLE NOT NULL", "CHAR(3) NOT NULL", "BOOLEAN NOT NULL", "DECIMAL(3, 1) NOT NULL",
      "TIMESTAMP_LTZ(3) NOT NULL", "BIGINT", "DECIMAL(4, 2)", "DATE", "STRING",
    ]);
    const row = "+I[1, 10000000000, 1.5, abc, true, 12.5, 1970-01-01T00:00:00Z, 1, 2.50, 2024-02-29, null]";
    expect(await changelog(r)).toEqual([row, row, row]); // one per input row
  });

  it("a literal that does not fit its explicit type is a ValidationError", () => {
    const e = thrown(() => t().select(lit(300, DataTypes.TINYINT())));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe("literal 300: value 300 is outside the range of TINYINT [-128, 127]");
  });
});
