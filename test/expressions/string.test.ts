import { describe, expect, it } from "vitest";
import { $, DataTypes, Row, ValidationError, concat, lit } from "../../src/index.js";
import { changelog, env, jobError, thrown, types, values } from "./support.js";

const F = DataTypes.FIELD;
const words = (e = env()) => e.fromValues(
  DataTypes.ROW(F("s", DataTypes.STRING()), F("v", DataTypes.VARCHAR(10).notNull())),
  Row.of("hello wORLD 2nd-place", "hello"),
  Row.of(null, "a😀b"),
);
/** One row, for functions of literals. */
const one = () => env().fromValues(DataTypes.ROW(F("k", DataTypes.INT().notNull())), Row.of(1));

describe("case and length", () => {
  it("upperCase, lowerCase and initCap keep the argument's type", async () => {
    const t = words().select($("s").upperCase(), $("s").lowerCase(), $("s").initCap(), $("v").upperCase(), lit("ab").upperCase());
    expect(types(t)).toEqual(["STRING", "STRING", "STRING", "VARCHAR(10) NOT NULL", "CHAR(2) NOT NULL"]);
    expect(await changelog(t)).toEqual([
      "+I[HELLO WORLD 2ND-PLACE, hello world 2nd-place, Hello World 2nd-Place, HELLO, AB]",
      "+I[null, null, null, A😀B, AB]",
    ]);
  });

  it("charLength counts characters (code points) and is INT", async () => {
    const t = words().select($("s").charLength(), $("v").charLength());
    expect(types(t)).toEqual(["INT", "INT NOT NULL"]);
    expect(await values(t)).toEqual([[21, 5], [null, 3]]);
  });
});

describe("reverse (added through the built-in registry: one entry, one method)", () => {
  it("reverses code points, keeps the length as VARCHAR and NULL as NULL, in the Table API and SQL alike", async () => {
    const t = words().select($("s").reverse(), $("v").reverse(), lit("ab").reverse());
    expect(types(t)).toEqual(["STRING", "VARCHAR(10) NOT NULL", "VARCHAR(2) NOT NULL"]);
    expect(await values(t)).toEqual([["ecalp-dn2 DLROw olleh", "olleh", "ba"], [null, "b😀a", "ba"]]);
    const e = env();
    e.createTemporaryView("w", words(e));
    const sql = e.sqlQuery("SELECT REVERSE(s), reverse(v) FROM w");
    expect(types(sql)).toEqual(["STRING", "VARCHAR(10) NOT NULL"]);
    expect(await values(sql)).toEqual([["ecalp-dn2 DLROw olleh", "olleh"], [null, "b😀a"]]);
  });

  it("is checked like every built-in: arity in SQL, a STRING argument", () => {
    const e = env();
    e.createTemporaryView("w", words(e));
    expect(() => e.sqlQuery("SELECT REVERSE(s, v) FROM w")).toThrow(/REVERSE/);
    expect(thrown(() => one().select(($("k") as unknown as ReturnType<typeof lit>).reverse())).message).toBe("reverse expects a STRING for argument 1, got INT NOT NULL in reverse(k)");
  });
});

describe("substring (SQL 1-based positions, as Flink's substringSQL)", () => {
  it("handles positive, zero and negative starts, lengths past the end, and emoji", async () => {
    const h = lit("hello");
    const t = one().select(
      h.substring(2), h.substring(2, 3), h.substring(0, 2), h.substring(-3), h.substring(-3, 2),
      h.substring(-7, 3), h.substring(10), h.substring(1, 100), lit("a😀b").substring(2, 1),
    );
    expect(await values(t)).toEqual([["ello", "ell", "he", "llo", "ll", "", "", "hello", "😀"]]);
  });

  it("is VARCHAR of the argument's length, and NULL for a negative length", async () => {
    const t = words().select($("v").substring(2, 2), lit("hello").substring(2), lit("hello").substring(2, -1), $("s").substr(1, 5));
    expect(types(t)).toEqual(["VARCHAR(10) NOT NULL", "VARCHAR(5) NOT NULL", "VARCHAR(5)", "STRING"]);
    expect(await values(t)).toEqual([["el", "ello", null, "hello"], ["😀b", "ello", null, null]]);
  });

  it("needs INT positions", () => {
    // (the type level checks only the string argument)
    const e = thrown(() => words().select($("s").substring("1")));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe("substring expects an INT for argument 2, got CHAR(1) NOT NULL in substring(s, '1')");
  });
});

describe("trim", () => {
  it("removes spaces (only U+0020) or any of the given characters", async () => {
    const t = one().select(
      lit("  hi  ").trim(), lit("  hi  ").trimLeading(), lit("  hi  ").trimTrailing(), lit("\thi ").trim(),
      lit("xxhixx").trim("x"), lit("xyhiyx").trim("xy"), lit("xxxx").trim("x"),
    );
    expect(types(t).slice(0, 2)).toEqual(["VARCHAR(6) NOT NULL", "VARCHAR(6) NOT NULL"]);
    expect(await values(t)).toEqual([["hi", "hi  ", "  hi", "\thi", "hi", "hi", ""]]);
  });
});

describe("like", () => {
  it("% matches any sequence and _ one character", async () => {
    const t = words().select($("v").like("h%o"), $("v").like("h_llo"), $("v").like("h_o"), $("v").like("%"), $("v").like("a_b"), $("s").like("%2nd%"));
    expect(types(t)).toEqual(["BOOLEAN NOT NULL", "BOOLEAN NOT NULL", "BOOLEAN NOT NULL", "BOOLEAN NOT NULL", "BOOLEAN NOT NULL", "BOOLEAN"]);
    expect(await values(t)).toEqual([[true, true, false, true, false, true], [false, false, false, true, true, null]]);
  });

  it("without an escape character, backslash and regex characters are ordinary characters", async () => {
    const t = one().select(lit("a\\xc").like("a\\_c"), lit("a_c").like("a\\_c"), lit("a.c").like("a.c"), lit("abc").like("a.c"), lit("(x)").like("(%)"));
    expect(await values(t)).toEqual([[true, false, true, false, true]]);
  });

  it("an escape character makes %, _ and itself literal", async () => {
    const t = one().select(lit("a_c").like("a!_c", "!"), lit("abc").like("a!_c", "!"), lit("100%").like("100!%", "!"), lit("1000").like("100!%", "!"), lit("a!").like("a!!", "!"));
    expect(await values(t)).toEqual([[true, false, true, false, true]]);
  });

  it("rejects invalid escape sequences at the API call", () => {
    const e = thrown(() => one().select(lit("ab").like("a!b", "!")));
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.message).toBe("invalid escape sequence in LIKE pattern 'a!b': '!b' (the escape character may precede only %, _ or itself) in like('ab', 'a!b', '!')");
    expect(thrown(() => one().select(lit("ab").like("ab!", "!"))).message).toBe("invalid escape sequence in LIKE pattern 'ab!': '!' at the end in like('ab', 'ab!', '!')");
    expect(thrown(() => one().select(lit("ab").like("ab", "!!"))).message).toBe("like: the escape character must be a single-character string literal, got '!!' in like('ab', 'ab', '!!')");
  });

  it("takes patterns from columns; a bad one fails the job with the row", async () => {
    const t = env().fromValues(DataTypes.ROW(F("s", DataTypes.STRING()), F("p", DataTypes.STRING())), Row.of("abc", "a%"), Row.of("abc", null), Row.of("a_", "a#_"));
    expect(await values(t.select($("s").like($("p"))))).toEqual([[true], [null], [false]]);
    expect(await values(t.select($("s").like($("p"), "#")))).toEqual([[true], [null], [true]]);
    const bad = env().fromValues(DataTypes.ROW(F("s", DataTypes.STRING()), F("p", DataTypes.STRING())), Row.of("ab", "a#b"));
    expect((await jobError(bad.select($("s").like($("p"), "#")))).message)
      .toBe("invalid escape sequence in LIKE pattern 'a#b': '#b' (the escape character may precede only %, _ or itself) in `like(s, p, '#')` (row +I[ab, a#b])");
  });
});

describe("concat, replace, repeat, lpad, rpad, position", () => {
  it("concat is NULL if any argument is; VARCHAR of the summed lengths", async () => {
    const t = words().select(concat($("v"), "-", $("v")), concat($("s"), "!"), concat("ab", "cde"));
    expect(types(t)).toEqual(["VARCHAR(21) NOT NULL", "STRING", "VARCHAR(5) NOT NULL"]);
    expect(await values(t)).toEqual([["hello-hello", "hello wORLD 2nd-place!", "abcde"], ["a😀b-a😀b", null, "abcde"]]);
  });

  it("replace replaces every occurrence, left to right, as Java's String.replace", async () => {
    const t = one().select(lit("hello").replace("l", "L"), lit("aaa").replace("aa", "b"), lit("abc").replace("", "-"), lit("abc").replace("x", "y"));
    expect(types(t)).toEqual(Array(4).fill("STRING NOT NULL"));
    expect(await values(t)).toEqual([["heLLo", "ba", "-a-b-c-", "abc"]]);
  });

  it("repeat gives '' for counts <= 0", async () => {
    expect(await values(one().select(lit("ab").repeat(3), lit("ab").repeat(0), lit("ab").repeat(-1)))).toEqual([["ababab", "", ""]]);
  });

  it("lpad / rpad pad or shorten to the length; NULL for a negative length or an empty pad (as Flink)", async () => {
    const t = one().select(
      lit("hi").lpad(5, "??"), lit("hello").lpad(3, "x"), lit("hi").lpad(0, "x"), lit("hi").rpad(5, "ab"), lit("hello").rpad(2, "x"),
      lit("hi").lpad(-1, "x"), lit("hi").rpad(4, ""),
    );
    expect(types(t)).toEqual([...Array(5).fill("STRING NOT NULL"), "STRING", "STRING"]);
    expect(await values(t)).toEqual([["???hi", "hel", "", "hiaba", "he", null, null]]);
  });

  it("position is 1-based in characters, 0 when absent, 1 for an empty needle", async () => {
    const t = one().select(lit("lo").position("hello"), lit("z").position("hello"), lit("").position("hello"), lit("b").position("a😀b"));
    expect(types(t)).toEqual(Array(4).fill("INT NOT NULL"));
    expect(await values(t)).toEqual([[4, 0, 1, 3]]);
  });

  it("string functions need STRING arguments", () => {
    // @ts-expect-error upperCase of an INT
    expect(thrown(() => one().select($("k").upperCase())).message).toBe("upper expects a STRING for argument 1, got INT NOT NULL in upper(k)");
  });
});
