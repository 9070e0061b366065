import { describe, expect, it } from "vitest";
import { type DataType, DataTypes, Decimal, Row, ValidationError } from "../../src/index.js";
import { env, thrown, values } from "./support.js";

const F = DataTypes.FIELD;

/** The ValidationError fromValues raises for one bad value in the second row of a one-column table. */
function rejected(type: DataType, good: unknown, bad: unknown): Error {
  const e = thrown(() => env().fromValues(DataTypes.ROW(F("c", type)), Row.of(good), Row.of(bad)));
  expect(e).toBeInstanceOf(ValidationError);
  return e;
}

describe("fromValues rejects values that do not fit their declared type, naming the row and the column", () => {
  it("a value of the wrong JS type", () => {
    expect(rejected(DataTypes.INT(), 1, "12").message).toBe("fromValues row 2, column 'c': value '12' (string) does not fit type INT");
    expect(rejected(DataTypes.STRING(), "a", 12).message).toBe("fromValues row 2, column 'c': value 12 (number) does not fit type STRING");
    expect(rejected(DataTypes.BOOLEAN(), true, "true").message).toBe("fromValues row 2, column 'c': value 'true' (string) does not fit type BOOLEAN");
    expect(rejected(DataTypes.INT(), 1, 1.5).message).toBe("fromValues row 2, column 'c': value 1.5 (number) does not fit type INT");
  });

  it("an integer outside its type's range, and a BIGINT outside ±(2^53-1)", () => {
    expect(rejected(DataTypes.INT(), 1, 3000000000).message).toBe("fromValues row 2, column 'c': value 3000000000 is outside the range of INT [-2147483648, 2147483647]");
    expect(rejected(DataTypes.TINYINT(), 1, -129).message).toBe("fromValues row 2, column 'c': value -129 is outside the range of TINYINT [-128, 127]");
    expect(rejected(DataTypes.BIGINT(), 1, 2 ** 53).message)
      .toBe("fromValues row 2, column 'c': value 9007199254740992 is outside the exactly representable BIGINT range [-(2^53-1), 2^53-1]");
    expect(rejected(DataTypes.BIGINT(), 1, 9007199254740993n).message)
      .toBe("fromValues row 2, column 'c': value 9007199254740993 is outside the exactly representable BIGINT range [-(2^53-1), 2^53-1]");
  });

  it("a null in a NOT NULL column", () => {
    expect(rejected(DataTypes.STRING().notNull(), "a", null).message).toBe("fromValues row 2, column 'c': null value for NOT NULL type STRING NOT NULL");
    // a compile error too (the NOT NULL column is required); the run-time check guards untyped callers
    // @ts-expect-error column 'b' is missing
    const e = thrown(() => env().fromValues(DataTypes.ROW(F("a", DataTypes.INT()), F("b", DataTypes.INT().notNull())), { a: 1, b: 2 }, { a: 3 }));
    expect(e.message).toBe("fromValues row 2, column 'b': null value for NOT NULL type INT NOT NULL");
  });

  it("a string longer than its VARCHAR(n) / CHAR(n), counted in characters", async () => {
    expect(rejected(DataTypes.VARCHAR(3), "abc", "abcd").message)
      .toBe("fromValues row 2, column 'c': string 'abcd' is longer than VARCHAR(3) allows (4 > 3 characters)");
    expect(rejected(DataTypes.CHAR(2), "ab", "abc").message).toBe("fromValues row 2, column 'c': string 'abc' is longer than CHAR(2) allows (3 > 2 characters)");
    // an emoji is one character, though two UTF-16 units
    expect(await values(env().fromValues(DataTypes.ROW(F("c", DataTypes.VARCHAR(3))), Row.of("a😀b")))).toEqual([["a😀b"]]);
  });

  it("a DECIMAL with too many digits before or after the decimal point (no silent rounding)", () => {
    expect(rejected(DataTypes.DECIMAL(5, 2), "1.5", "1234.5").message)
      .toBe("fromValues row 2, column 'c': value 1234.5 has more than 3 digits before the decimal point allowed by DECIMAL(5, 2)");
    expect(rejected(DataTypes.DECIMAL(5, 2), "1.5", "1.005").message)
      .toBe("fromValues row 2, column 'c': value 1.005 has 3 digits after the decimal point but DECIMAL(5, 2) allows 2");
    expect(rejected(DataTypes.DECIMAL(5, 2), "1.5", 0.1 + 0.2).message)
      .toBe("fromValues row 2, column 'c': value 0.30000000000000004 has 17 digits after the decimal point but DECIMAL(5, 2) allows 2");
    expect(rejected(DataTypes.DECIMAL(5, 2), "1.5", "1.2.3").message).toBe("fromValues row 2, column 'c': value '1.2.3' (string) does not fit type DECIMAL(5, 2)");
  });

  it("DECIMAL values may be given as Decimal, string, number or bigint", async () => {
    const t = env().fromValues(DataTypes.ROW(F("c", DataTypes.DECIMAL(20, 2))), Row.of(new Decimal("1.25")), Row.of("-3.5"), Row.of(7), Row.of(123456789012345678n));
    expect((await values(t)).map(([v]) => (v as Decimal).toFixed(2))).toEqual(["1.25", "-3.50", "7.00", "123456789012345678.00"]);
  });

  it("a timestamp with sub-millisecond digits, or more digits than its precision", () => {
    expect(rejected(DataTypes.TIMESTAMP(3), "2024-01-01 10:00:00", "2024-01-01 10:00:00.1234").message).toBe(
      "fromValues row 2, column 'c': '2024-01-01 10:00:00.1234' is not a timestamp of the form 'YYYY-MM-DD HH:mm:ss[.SSS]' (sub-millisecond digits cannot be represented)",
    );
    expect(rejected(DataTypes.TIMESTAMP(0), "2024-01-01 10:00:00", "2024-01-01 10:00:00.5").message)
      .toBe("fromValues row 2, column 'c': timestamp 2024-01-01T10:00:00.500Z has more fractional digits than TIMESTAMP(0) allows");
    expect(rejected(DataTypes.TIMESTAMP_LTZ(3), new Date(0), new Date(NaN)).message)
      .toBe("fromValues row 2, column 'c': value Invalid Date (Date) does not fit type TIMESTAMP_LTZ(3)");
  });

  it("a DATE or TIME that does not exist", () => {
    expect(rejected(DataTypes.DATE(), "2024-02-29", "2023-02-29").message).toBe("fromValues row 2, column 'c': '2023-02-29' is not a date 'YYYY-MM-DD': day 29 is not in 1..28 of 2023-02");
    expect(rejected(DataTypes.DATE(), "2024-02-29", "2024/02/29").message).toBe("fromValues row 2, column 'c': '2024/02/29' is not a date 'YYYY-MM-DD': expected 'yyyy-MM-dd[ HH:mm[:ss[.fraction]]]'");
    expect(rejected(DataTypes.TIME(), "10:00", "25:00").message).toBe("fromValues row 2, column 'c': '25:00' is not a time 'HH:mm:ss[.SSS]': hour 25 is not in 0..23");
    expect(rejected(DataTypes.TIME(0), "10:00", "10:00:00.5").message).toBe("fromValues row 2, column 'c': time '10:00:00.5' has more fractional digits than TIME(0) allows");
  });

  it("a FLOAT outside the range of a float", () => {
    expect(rejected(DataTypes.FLOAT(), 1.5, 1e39).message).toBe("fromValues row 2, column 'c': value 1e+39 is outside the range of FLOAT (±3.4028235E38)");
  });

  it("inferred columns whose values have no common type name the row", () => {
    const e = thrown(() => env().fromValues(1, "two"));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe("fromValues row 2, column 'f0': types INT NOT NULL and CHAR(3) NOT NULL have no common type");
  });
});
