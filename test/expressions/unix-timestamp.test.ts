import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { $, DataTypes, ExecutionError, type PositionalRow, Row, ValidationError, fromUnixtime, unixTimestamp } from "../../src/index.js";
import { changelog, env, jobError, thrown, types, unchecked } from "./support.js";

const F = DataTypes.FIELD;
const setup = (...rows: PositionalRow[]) => {
  const e = env();
  const t = e.fromValues(DataTypes.ROW(F("s", DataTypes.STRING()), F("fmt", DataTypes.STRING()), F("n", DataTypes.STRING().notNull())), ...rows);
  e.createTemporaryView("T", t);
  return { e, t };
};

describe("UNIX_TIMESTAMP([text [, format]])", () => {
  it("reads 'yyyy-MM-dd HH:mm:ss' in UTC by default, a Java pattern otherwise; seconds as BIGINT, NULL in, NULL out (SQL)", async () => {
    const { e } = setup(
      Row.of("1970-01-01 08:00:01", "yyyy-MM-dd HH:mm:ss.SSS", "1970-01-01 08:00:01.001"),
      Row.of(null, "yyyyMMdd", "20240229"),
      Row.of("2020-09-11 13:14:29.153", null, "1969-12-31 23:59:59.500"),
    );
    const r = e.sqlQuery("SELECT UNIX_TIMESTAMP(s), UNIX_TIMESTAMP(n, fmt), UNIX_TIMESTAMP(n, 'yyyy-MM-dd HH:mm:ss.SSS') FROM T WHERE n <> '20240229'");
    expect(types(r)).toEqual(["BIGINT", "BIGINT", "BIGINT NOT NULL"]);
    expect(await changelog(r)).toEqual([
      // the pattern's fields; text after them is ignored (SimpleDateFormat.parse)
      "+I[28801, 28801, 28801]",
      // 1969-12-31 23:59:59.500 is -0.5 s: truncated towards zero, as Java's long division
      "+I[1599830069, null, 0]",
    ]);
  });

  it("follows SimpleDateFormat's lenient rules: abutting fields by width, rolled-over fields, h with AM/PM", async () => {
    const { e } = setup(Row.of("2023-13-01", "yyyy-MM-dd", "20240229"), Row.of("2000-01-01 12:30 AM", "yyyy-MM-dd hh:mm a", "2000-01-01 12:30 pm"));
    const r = e.sqlQuery("SELECT UNIX_TIMESTAMP(s, fmt), UNIX_TIMESTAMP(n, 'yyyyMMdd'), UNIX_TIMESTAMP(n, 'yyyy-MM-dd hh:mm a') FROM T");
    // month 13 of 2023 is January 2024; 12:30 AM is 00:30
    await expect(changelog(e.sqlQuery("SELECT UNIX_TIMESTAMP(s, fmt) FROM T"))).resolves.toEqual(["+I[1704067200]", "+I[946686600]"]);
    const rows = await changelog(e.sqlQuery("SELECT UNIX_TIMESTAMP(n, 'yyyyMMdd') FROM T WHERE n = '20240229'"));
    expect(rows).toEqual(["+I[1709164800]"]);
    expect(await changelog(e.sqlQuery("SELECT UNIX_TIMESTAMP(n, 'yyyy-MM-dd hh:mm a') FROM T WHERE n <> '20240229'"))).toEqual(["+I[946729800]"]);
    expect(types(r)).toEqual(["BIGINT", "BIGINT NOT NULL", "BIGINT NOT NULL"]);
  });

  it("UNIX_TIMESTAMP() is the job clock in whole seconds, BIGINT NOT NULL; FROM_UNIXTIME inverts it", async () => {
    const { e } = setup(Row.of("a", null, "x"));
    e.setClock(() => 1_505_404_800_999);
    const r = e.sqlQuery("SELECT UNIX_TIMESTAMP(), FROM_UNIXTIME(UNIX_TIMESTAMP()), UNIX_TIMESTAMP(FROM_UNIXTIME(UNIX_TIMESTAMP())) FROM T");
    expect(types(r)).toEqual(["BIGINT NOT NULL", "STRING NOT NULL", "BIGINT NOT NULL"]);
    expect(await changelog(r)).toEqual(["+I[1505404800, 2017-09-14 16:00:00, 1505404800]"]);
  });

  it("is the Table API's unixTimestamp(), and prints as UNIX_TIMESTAMP in toSql()", async () => {
    const { e, t } = setup(Row.of("2017-09-14 16:00:00", "yyyy-MM-dd", "2017-09-14"));
    e.setClock(() => 42_000);
    const r = t.select(unixTimestamp().as("now"), unixTimestamp($("s")).as("a"), unixTimestamp($("n"), $("fmt")).as("b"), unixTimestamp($("n"), "yyyy").as("c"),
      fromUnixtime(unixTimestamp($("s"))).as("d"));
    expect(await changelog(r)).toEqual(["+I[42, 1505404800, 1505347200, 1483228800, 2017-09-14 16:00:00]"]);
    expect(r.toSql()).toContain("UNIX_TIMESTAMP(`s`)");
    expect(r.toSql()).toContain("UNIX_TIMESTAMP()");
  });

  it("property: UNIX_TIMESTAMP(FROM_UNIXTIME(s, p), p) is s for the patterns that keep every field", async () => {
    const patterns = ["yyyy-MM-dd HH:mm:ss", "yyyyMMddHHmmss", "dd/MM/yyyy hh:mm:ss a", "'at' HH:mm:ss 'on' yyyy.M.d"];
    await fc.assert(fc.asyncProperty(fc.array(fc.integer({ min: -2_000_000_000, max: 4_000_000_000 }), { minLength: 1, maxLength: 20 }),
      fc.constantFrom(...patterns), async (seconds, pattern) => {
        const e = env();
        const t = e.fromValues(DataTypes.ROW(F("s", DataTypes.BIGINT())), ...seconds.map((x) => Row.of(x)));
        const back = await changelog(t.select(unixTimestamp(fromUnixtime($("s"), pattern), pattern).as("b")));
        expect(back).toEqual(seconds.map((x) => `+I[${x}]`));
      }), { numRuns: 30 });
  });

  it("a text the pattern does not match fails the job naming the text, the pattern and the position", async () => {
    const { e } = setup(Row.of("2025-04-30T19:20:17Z", "yyyy", "x"));
    const err = await jobError(e.sqlQuery("SELECT UNIX_TIMESTAMP(s) FROM T"));
    expect(err).toBeInstanceOf(ExecutionError);
    expect(err.message).toContain("cannot parse '2025-04-30T19:20:17Z' with the pattern 'yyyy-MM-dd HH:mm:ss' (it stops matching at position 11) in `unixTimestamp(s)`");
    expect(err.message).toContain("Long.MIN_VALUE");
    const col = await jobError(e.sqlQuery("SELECT UNIX_TIMESTAMP(n, fmt) FROM T"));
    expect(col.message).toContain("cannot parse 'x' with the pattern 'yyyy' (it stops matching at position 1)");
  });

  it("rejects a non-string argument, a bad literal pattern and a wrong arity by name", () => {
    const { e, t } = setup(Row.of("a", "b", "c"));
    const notText = thrown(() => e.sqlQuery("SELECT UNIX_TIMESTAMP(1) FROM T"));
    expect(notText).toBeInstanceOf(ValidationError);
    expect(notText.message).toMatch(/At line 1, column 8: unixTimestamp expects a STRING date-time text for argument 1, got INT NOT NULL in unixTimestamp\(1\)/);
    expect(thrown(() => t.select(unchecked(unixTimestamp($("s"), 3)))).message).toMatch(/expects a STRING format for argument 2/);
    const bad = thrown(() => e.sqlQuery("SELECT UNIX_TIMESTAMP(s, 'yyyy-QQ') FROM T"));
    expect(bad).toBeInstanceOf(ValidationError);
    expect(bad.message).toMatch(/uses the letter 'Q' at position 6/);
    expect(() => e.sqlQuery("SELECT UNIX_TIMESTAMP(s, s, s) FROM T")).toThrow(/UNIX_TIMESTAMP/);
  });
});
