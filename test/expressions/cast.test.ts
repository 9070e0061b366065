import { describe, expect, it } from "vitest";
import { $, DataTypes, Decimal, ExecutionError, Row, ValidationError, lit } from "../../src/index.js";
import { changelog, env, jobError, thrown, types, values } from "./support.js";

const F = DataTypes.FIELD;
const S = DataTypes.STRING();
const one = () => env().fromValues(DataTypes.ROW(F("k", DataTypes.INT().notNull())), Row.of(1));
const text = (...xs: (string | null)[]) => env().fromValues(DataTypes.ROW(F("s", DataTypes.STRING())), ...xs.map((x) => Row.of(x)));

describe("cast to STRING", () => {
  it("renders values as Flink does: Java's Double.toString, TRUE/FALSE, DECIMAL with its scale, timestamps with their precision", async () => {
    const t = env().fromValues(
      DataTypes.ROW(
        F("i", DataTypes.INT()), F("d", DataTypes.DOUBLE()), F("m", DataTypes.DECIMAL(5, 2)), F("b", DataTypes.BOOLEAN()),
        F("ts", DataTypes.TIMESTAMP(3)), F("ts6", DataTypes.TIMESTAMP(6)), F("dt", DataTypes.DATE()), F("tm", DataTypes.TIME(0)),
      ),
      Row.of(42, 42, "1.5", true, "2024-01-31 10:15:30.1", "2024-01-31 10:15:30", "2024-12-30", "08:05"),
      Row.of(-7, 1e7, "-0.25", false, null, null, null, null),
      Row.of(0, 0.0001, "0", null, null, null, null, null),
      Row.of(null, 0.001, null, null, null, null, null, null),
    );
    const r = t.select(
      $("i").cast(S), $("d").cast(S), $("m").cast(S), $("b").cast(S), $("ts").cast(S), $("ts6").cast(S), $("dt").cast(S), $("tm").cast(S),
    );
    expect(types(r)).toEqual(Array(8).fill("STRING"));
    expect(await values(r)).toEqual([
      ["42", "42.0", "1.50", "TRUE", "2024-01-31 10:15:30.100", "2024-01-31 10:15:30.000000", "2024-12-30", "08:05:00"],
      ["-7", "1.0E7", "-0.25", "FALSE", null, null, null, null],
      ["0", "1.0E-4", "0.00", null, null, null, null, null],
      [null, "0.001", null, null, null, null, null, null],
    ]);
  });

  it("to CHAR(n) / VARCHAR(n) cuts to n characters, and CHAR pads with spaces", async () => {
    const r = text("abcdef", "ab").select($("s").cast(DataTypes.VARCHAR(3)), $("s").cast(DataTypes.CHAR(4)));
    expect(types(r)).toEqual(["VARCHAR(3)", "CHAR(4)"]);
    expect(await values(r)).toEqual([["abc", "abcd"], ["ab", "ab  "]]);
  });
});

describe("cast from STRING", () => {
  it("to integers: an optional sign, digits, a fraction that is cut off, surrounding spaces ignored", async () => {
    const r = text(" 42 ", "-12.7", "+7", null).select($("s").cast(DataTypes.INT()), $("s").cast(DataTypes.BIGINT()), $("s").cast(DataTypes.TINYINT()));
    expect(types(r)).toEqual(["INT", "BIGINT", "TINYINT"]);
    expect(await values(r)).toEqual([[42, 42, 42], [-12, -12, -12], [7, 7, 7], [null, null, null]]);
  });

  it("a string that is no number, or out of range, fails the job naming the value, both types and the row", async () => {
    const e = await jobError(text("12", "abc").select($("s").cast(DataTypes.INT())));
    expect(e).toBeInstanceOf(ExecutionError);
    expect(e.message).toBe("cannot cast 'abc' from STRING to INT in `cast(s, INT)`: not an integer (row +I[abc])");
    expect((await jobError(text("3000000000").select($("s").cast(DataTypes.INT())))).message)
      .toBe("cannot cast '3000000000' from STRING to INT in `cast(s, INT)`: out of range of INT [-2147483648, 2147483647] (row +I[3000000000])");
    expect((await jobError(text("99999999999999999").select($("s").cast(DataTypes.BIGINT())))).message)
      .toBe("cannot cast '99999999999999999' from STRING to BIGINT in `cast(s, BIGINT)`: outside the exactly representable BIGINT range [-(2^53-1), 2^53-1] (row +I[99999999999999999])");
  });

  it("to DOUBLE and DECIMAL (rounded HALF_UP to the scale; too many integer digits fail)", async () => {
    const r = text("1e3", " 2.5 ", "12.345", "-0.005").select($("s").cast(DataTypes.DOUBLE()), $("s").cast(DataTypes.DECIMAL(6, 2)));
    expect(types(r)).toEqual(["DOUBLE", "DECIMAL(6, 2)"]);
    expect(await changelog(r)).toEqual(["+I[1000.0, 1000.00]", "+I[2.5, 2.50]", "+I[12.345, 12.35]", "+I[-0.005, -0.01]"]);
    expect((await jobError(text("123456").select($("s").cast(DataTypes.DECIMAL(5, 2))))).message)
      .toBe("cannot cast '123456' from STRING to DECIMAL(5, 2) in `cast(s, DECIMAL(5, 2))`: more than 3 digits before the decimal point for DECIMAL(5, 2) (row +I[123456])");
  });

  it("to BOOLEAN accepts true/false, t/f, yes/no, y/n, 1/0 in any case", async () => {
    const r = text("TRUE", " yes ", "Y", "1", "false", "No", "f", "0").select($("s").cast(DataTypes.BOOLEAN()));
    expect((await values(r)).flat()).toEqual([true, true, true, true, false, false, false, false]);
    expect((await jobError(text("maybe").select($("s").cast(DataTypes.BOOLEAN())))).message)
      .toBe("cannot cast 'maybe' from STRING to BOOLEAN in `cast(s, BOOLEAN)`: not a BOOLEAN (true/false, t/f, yes/no, y/n, 1/0) (row +I[maybe])");
  });

  it("to DATE and TIMESTAMP; digits past the target precision are cut off", async () => {
    const r = text("2024-2-5", "2024-01-31 10:15:30.123456", "2024-01-31T10:15").select(
      $("s").cast(DataTypes.DATE()), $("s").cast(DataTypes.TIMESTAMP(3)), $("s").cast(DataTypes.TIMESTAMP(0)), $("s").cast(DataTypes.TIMESTAMP_LTZ(3)),
    );
    expect(types(r)).toEqual(["DATE", "TIMESTAMP(3)", "TIMESTAMP(0)", "TIMESTAMP_LTZ(3)"]);
    expect(await changelog(r)).toEqual([
      "+I[2024-02-05, 2024-02-05T00:00, 2024-02-05T00:00, 2024-02-05T00:00:00Z]",
      "+I[2024-01-31, 2024-01-31T10:15:30.123, 2024-01-31T10:15:30, 2024-01-31T10:15:30.123Z]",
      "+I[2024-01-31, 2024-01-31T10:15, 2024-01-31T10:15, 2024-01-31T10:15:00Z]",
    ]);
  });

  it("a date that does not exist, or sub-millisecond digits that would be kept, fail", async () => {
    expect((await jobError(text("2023-02-29").select($("s").cast(DataTypes.DATE())))).message)
      .toBe("cannot cast '2023-02-29' from STRING to DATE in `cast(s, DATE)`: not a date 'YYYY-MM-DD': day 29 is not in 1..28 of 2023-02 (row +I[2023-02-29])");
    expect((await jobError(text("2024-01-31 10:15:30.123456").select($("s").cast(DataTypes.TIMESTAMP(6))))).message).toBe(
      "cannot cast '2024-01-31 10:15:30.123456' from STRING to TIMESTAMP(6) in `cast(s, TIMESTAMP(6))`: sub-millisecond digits cannot be represented "
      + "(timestamps have millisecond precision); cast to TIMESTAMP(3) (row +I[2024-01-31 10:15:30.123456])",
    );
  });
});

describe("casts between numbers, times and booleans", () => {
  it("DOUBLE and DECIMAL to integers truncate toward zero; out of range fails (Flink would wrap)", async () => {
    const t = env().fromValues(DataTypes.ROW(F("d", DataTypes.DOUBLE().notNull()), F("m", DataTypes.DECIMAL(5, 2).notNull())),
      Row.of(2.9, "12.99"), Row.of(-2.9, "-12.99"));
    const r = t.select($("d").cast(DataTypes.INT()), $("m").cast(DataTypes.INT()), $("m").cast(DataTypes.DOUBLE()), $("d").cast(DataTypes.DECIMAL(3, 1)));
    expect(types(r)).toEqual(["INT NOT NULL", "INT NOT NULL", "DOUBLE NOT NULL", "DECIMAL(3, 1) NOT NULL"]);
    expect(await changelog(r)).toEqual(["+I[2, 12, 12.99, 2.9]", "+I[-2, -12, -12.99, -2.9]"]);
    const big = env().fromValues(DataTypes.ROW(F("d", DataTypes.DOUBLE().notNull())), Row.of(3e9));
    expect((await jobError(big.select($("d").cast(DataTypes.INT())))).message)
      .toBe("cannot cast 3000000000 from DOUBLE to INT in `cast(d, INT)`: out of range of INT [-2147483648, 2147483647] (row +I[3.0E9])");
  });

  it("integers to DECIMAL keep the value exactly; numbers to BOOLEAN are <> 0", async () => {
    const r = one().select(lit(12).cast(DataTypes.DECIMAL(3, 1)), lit(0).cast(DataTypes.BOOLEAN()), lit(2).cast(DataTypes.BOOLEAN()), lit(true).cast(DataTypes.INT()));
    expect(await changelog(r)).toEqual(["+I[12.0, false, true, 1]"]);
    expect((await values(r))[0]![0]).toBeInstanceOf(Decimal);
  });

  it("timestamps to DATE / TIME / numbers, DATE to TIMESTAMP, epoch seconds to TIMESTAMP_LTZ", async () => {
    const t = env().fromValues(DataTypes.ROW(F("ts", DataTypes.TIMESTAMP_LTZ(3).notNull()), F("d", DataTypes.DATE().notNull())),
      Row.of(new Date(Date.UTC(2024, 0, 31, 10, 15, 30, 500)), "2024-12-30"));
    const r = t.select(
      $("ts").cast(DataTypes.DATE()), $("ts").cast(DataTypes.TIME(3)), $("ts").cast(DataTypes.BIGINT()), $("d").cast(DataTypes.TIMESTAMP(3)),
      lit(1700000000).cast(DataTypes.TIMESTAMP_LTZ(3)), $("ts").cast(DataTypes.TIMESTAMP(0)),
    );
    expect(await changelog(r)).toEqual(["+I[2024-01-31, 10:15:30.500, 1706696130, 2024-12-30T00:00, 2023-11-14T22:13:20Z, 2024-01-31T10:15:30]"]);
  });

  it("widening casts only relabel the value", async () => {
    const r = one().select($("k").cast(DataTypes.BIGINT()), $("k").cast(DataTypes.DOUBLE()), $("k").cast(DataTypes.BIGINT().notNull()));
    expect(types(r)).toEqual(["BIGINT NOT NULL", "DOUBLE NOT NULL", "BIGINT NOT NULL"]);
    expect(await changelog(r)).toEqual(["+I[1, 1.0, 1]"]);
  });

  it("unsupported conversions are ValidationErrors at the API call", () => {
    const e = thrown(() => one().select(lit(true).cast(DataTypes.DATE())));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe("cast from BOOLEAN to DATE is not supported in `cast(true, DATE)`");
    expect(thrown(() => one().select($("k").cast(DataTypes.TIMESTAMP(3)))).message)
      .toBe("cast from INT to TIMESTAMP(3) is not supported in `cast(k, TIMESTAMP(3))`");
  });
});

describe("tryCast", () => {
  it("gives NULL where cast would fail, and is always nullable", async () => {
    const r = text("12", "abc", null, "3000000000").select($("s").tryCast(DataTypes.INT()), lit("x").tryCast(DataTypes.DOUBLE()), $("s").tryCast(DataTypes.DATE()));
    expect(types(r)).toEqual(["INT", "DOUBLE", "DATE"]);
    expect(await values(r)).toEqual([[12, null, null], [null, null, null], [null, null, null], [null, null, null]]);
  });
});
