import { describe, expect, it } from "vitest";
import { $, DataTypes, Decimal, ExecutionError, Row, ValidationError, lit } from "../../src/index.js";
import { changelog, env, jobError, thrown, types, values } from "./support.js";

const F = DataTypes.FIELD;

/** INT NOT NULL, INT, BIGINT, SMALLINT NOT NULL, TINYINT NOT NULL, DOUBLE, FLOAT, DECIMAL(5, 2), DECIMAL(10, 4) NOT NULL. */
const nums = () => env().fromValues(
  DataTypes.ROW(
    F("i", DataTypes.INT().notNull()), F("j", DataTypes.INT()), F("b", DataTypes.BIGINT()),
    F("s", DataTypes.SMALLINT().notNull()), F("t", DataTypes.TINYINT().notNull()), F("d", DataTypes.DOUBLE()),
    F("f", DataTypes.FLOAT()), F("m", DataTypes.DECIMAL(5, 2)), F("n", DataTypes.DECIMAL(10, 4).notNull()),
  ),
  Row.of(7, 2, 10000000000, 300, 5, 2.5, 1.5, "12.34", "3.1416"),
  Row.of(-7, null, -3, -1, -2, null, null, null, "-0.0001"),
);

describe("arithmetic: integer types", () => {
  it("plus, minus, times keep the wider integer type; NULL in gives NULL out", async () => {
    const t = nums().select($("i").plus($("j")), $("i").minus($("b")), $("s").plus($("t")), $("i").times($("t")), $("s").minus(1));
    expect(types(t)).toEqual(["INT", "BIGINT", "SMALLINT NOT NULL", "INT NOT NULL", "INT NOT NULL"]);
    expect(await changelog(t)).toEqual(["+I[9, -9999999993, 305, 35, 299]", "+I[null, -4, -3, 14, -2]"]);
  });

  it("dividedBy on integers is integer division truncating toward zero: INT / INT is INT", async () => {
    const t = nums().select($("i").dividedBy(2), $("i").dividedBy($("j")), $("b").dividedBy($("i")));
    expect(types(t)).toEqual(["INT NOT NULL", "INT", "BIGINT"]);
    expect(await changelog(t)).toEqual(["+I[3, 3, 1428571428]", "+I[-3, null, 0]"]);
  });

  it("mod has the sign of the dividend and the type of the divisor (Flink: argument(1))", async () => {
    const t = nums().select($("i").mod(3), $("b").mod($("i")), $("i").mod($("b")), $("t").mod($("s")));
    expect(types(t)).toEqual(["INT NOT NULL", "INT", "BIGINT", "SMALLINT NOT NULL"]);
    expect(await changelog(t)).toEqual(["+I[1, 4, 7, 5]", "+I[-1, -3, -1, 0]"]);
  });

  it("negate keeps the type; zero results are 0, never -0", async () => {
    const t = nums().select($("i").negate(), $("i").times(0), $("i").dividedBy(100), $("i").mod(7));
    expect(types(t)).toEqual(["INT NOT NULL", "INT NOT NULL", "INT NOT NULL", "INT NOT NULL"]);
    const rows = await values(t);
    expect(rows).toEqual([[-7, 0, 0, 0], [7, 0, 0, 0]]);
    expect(rows.flat().some((v) => Object.is(v, -0))).toBe(false);
  });

  it("INT overflow fails the job naming the expression and the row (Flink would wrap around)", async () => {
    const t = env().fromValues(DataTypes.ROW(F("x", DataTypes.INT().notNull())), Row.of(1), Row.of(2147483647));
    const e = await jobError(t.select($("x").plus(1)));
    expect(e).toBeInstanceOf(ExecutionError);
    expect(e.message).toBe("integer overflow in `plus(x, 1)`: 2147483648 does not fit INT (row +I[2147483647])");
    expect((await jobError(t.select($("x").negate().minus(2)))).message)
      .toBe("integer overflow in `minus(negate(x), 2)`: -2147483649 does not fit INT (row +I[2147483647])");
  });

  it("SMALLINT and TINYINT arithmetic is range-checked too", async () => {
    const e = await jobError(nums().select($("s").times($("s"))));
    expect(e.message).toBe("integer overflow in `times(s, s)`: 90000 does not fit SMALLINT (row +I[7, 2, 10000000000, 300, 5, 2.5, 1.5, 12.34, 3.1416])");
    expect((await jobError(nums().select($("t").plus(lit(127, DataTypes.TINYINT().notNull()))))).message)
      .toBe("integer overflow in `plus(t, 127)`: 132 does not fit TINYINT (row +I[7, 2, 10000000000, 300, 5, 2.5, 1.5, 12.34, 3.1416])");
  });

  it("BIGINT arithmetic fails when the result leaves the exactly representable range ±(2^53-1)", async () => {
    const e = await jobError(nums().select($("b").times($("b"))));
    expect(e).toBeInstanceOf(ExecutionError);
    expect(e.message).toBe(
      "integer overflow in `times(b, b)`: the result leaves the exactly representable BIGINT range [-(2^53-1), 2^53-1] "
      + "(row +I[7, 2, 10000000000, 300, 5, 2.5, 1.5, 12.34, 3.1416])",
    );
  });

  it("integer division by zero fails the job naming the expression and the row", async () => {
    const scores = env().fromValues(
      DataTypes.ROW(F("name", DataTypes.STRING()), F("score", DataTypes.INT())), Row.of("Alice", null), Row.of("Bob", 12),
    );
    const e = await jobError(scores.select($("name"), $("score").dividedBy(0)));
    expect(e).toBeInstanceOf(ExecutionError);
    expect(e.message).toBe("Division by zero in `dividedBy(score, 0)` (row +I[Bob, 12])");
    expect((await jobError(scores.select($("score").mod(0)))).message).toBe("Division by zero in `mod(score, 0)` (row +I[Bob, 12])");
  });

  it("a failed job rejects print() after saying so, and nothing half-printed passes for complete", async () => {
    const t = env().fromValues(DataTypes.ROW(F("x", DataTypes.INT().notNull())), Row.of(4), Row.of(0)).select(lit(8).dividedBy($("x")).as("q"));
    const lines: string[] = [];
    await expect(t.execute().print((l) => lines.push(l))).rejects.toThrow("Division by zero in `dividedBy(8, x)` (row +I[0])");
    expect(lines).toEqual([
      "+----+-------------+",
      "| op |           q |",
      "+----+-------------+",
      "| +I |           2 |",
      "+----+-------------+",
      "Job failed after 1 row: Division by zero in `dividedBy(8, x)` (row +I[0])",
    ]);
  });
});

describe("arithmetic: approximate types", () => {
  it("anything with DOUBLE is DOUBLE; FLOAT with integers is FLOAT", async () => {
    const t = nums().select($("i").times($("d")), $("d").plus($("m")), $("f").plus($("f")), $("f").times($("i")), $("d").dividedBy(4));
    expect(types(t)).toEqual(["DOUBLE", "DOUBLE", "FLOAT", "FLOAT", "DOUBLE"]);
    expect(await changelog(t)).toEqual(["+I[17.5, 14.84, 3.0, 10.5, 0.625]", "+I[null, null, null, null, null]"]);
  });

  it("DOUBLE division by zero is Infinity or NaN, as in Java", async () => {
    const t = nums().select($("d").dividedBy(0), $("d").negate().dividedBy(0), $("d").minus($("d")).dividedBy(0));
    expect(await changelog(t)).toEqual(["+I[Infinity, -Infinity, NaN]", "+I[null, null, null]"]);
  });

  it("mod needs exact numeric operands", () => {
    const e = thrown(() => nums().select($("d").mod(2)));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe("mod needs exact numeric operands (TINYINT, SMALLINT, INT, BIGINT, DECIMAL), got DOUBLE and INT NOT NULL in mod(d, 2); cast DOUBLE/FLOAT operands first");
  });
});

describe("arithmetic: DECIMAL", () => {
  it("follows Flink's precision and scale rules (LogicalTypeMerging)", async () => {
    const t = nums().select(
      $("m").plus($("i")), // max(3, 10) + 2 + 1 = 13, scale 2
      $("m").times($("n")), // 5 + 10 + 1 = 16, scale 2 + 4
      $("n").dividedBy($("m")), // scale max(6, 4 + 5 + 1) = 10, precision 10 - 4 + 2 + 10 = 18
      $("m").mod(5), // min(3, 10) + 2 = 5, scale 2
      $("n").minus($("n")), // 6 + 4 + 1 = 11, scale 4
      $("m").negate(),
    );
    expect(types(t)).toEqual(["DECIMAL(13, 2)", "DECIMAL(16, 6)", "DECIMAL(18, 10)", "DECIMAL(5, 2)", "DECIMAL(11, 4) NOT NULL", "DECIMAL(5, 2)"]);
    expect(await changelog(t)).toEqual([
      "+I[19.34, 38.767344, 0.2545867099, 2.34, 0.0000, -12.34]",
      "+I[null, null, null, null, 0.0000, null]",
    ]);
  });

  it("is exact beyond double precision, and results are decimal.js Decimals", async () => {
    const big = env().fromValues(
      DataTypes.ROW(F("a", DataTypes.DECIMAL(38, 10).notNull()), F("b", DataTypes.DECIMAL(20, 0).notNull())),
      Row.of("1234567890123456789012345678.0123456789", "9999999999"),
    );
    const t = big.select($("a").plus($("a")), $("b").times($("b")), $("a").dividedBy(3));
    // plus: 39 digits are adjusted to DECIMAL(38, 9) (the scale gives way); times: 41 digits give DECIMAL(38, 0);
    // divide: scale 21, precision 49, adjusted to DECIMAL(38, 10)
    expect(types(t)).toEqual(["DECIMAL(38, 9) NOT NULL", "DECIMAL(38, 0) NOT NULL", "DECIMAL(38, 10) NOT NULL"]);
    const [row] = await values(t);
    expect(row!.map((v) => (v as Decimal).toFixed())).toEqual([
      "2469135780246913578024691356.024691358", "99999999980000000001", "411522630041152263004115226.0041152263",
    ]);
    expect(row![0]).toBeInstanceOf(Decimal);
  });

  it("a result too large for its DECIMAL type fails the job (Flink would give NULL)", async () => {
    const t = env().fromValues(DataTypes.ROW(F("a", DataTypes.DECIMAL(38, 0).notNull())), Row.of("99999999999999999999999999999999999999"));
    const e = await jobError(t.select($("a").plus(1)));
    expect(e.message).toBe(
      "numeric overflow in `plus(a, 1)`: 100000000000000000000000000000000000000 does not fit DECIMAL(38, 0) (row +I[99999999999999999999999999999999999999])",
    );
  });

  it("DECIMAL division by zero fails the job", async () => {
    expect((await jobError(nums().select($("m").dividedBy(0)))).message)
      .toBe("Division by zero in `dividedBy(m, 0)` (row +I[7, 2, 10000000000, 300, 5, 2.5, 1.5, 12.34, 3.1416])");
    expect((await jobError(nums().select($("n").mod($("i").minus($("i")))))).message).toContain("Division by zero in `mod(n, minus(i, i))`");
  });
});

describe("arithmetic: validation", () => {
  it("rejects non-numeric operands at the API call", () => {
    const t = env().fromValues(DataTypes.ROW(F("name", DataTypes.STRING()), F("ok", DataTypes.BOOLEAN())), Row.of("a", true));
    // @ts-expect-error a STRING is not a NUMERIC operand
    const e = thrown(() => t.select($("name").plus(1)));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe("plus needs NUMERIC operands, got STRING and NUMERIC in plus(name, 1)");
    // @ts-expect-error a BOOLEAN cannot be negated
    expect(thrown(() => t.select($("ok").negate())).message).toBe("negate expects a NUMERIC or INTERVAL value for argument 1, got BOOLEAN in negate(ok)");
  });
});
