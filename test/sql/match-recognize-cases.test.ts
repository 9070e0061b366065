// MATCH_RECOGNIZE semantics beyond Flink's test programs: the pattern recognition docs' ticker example, quantifiers
// (greedy, reluctant, bounded, groups, alternation), skip strategies, WITHIN, MEASURES navigations and aggregates,
// explain and toSql, and the errors (each names the variable or column and the position).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { activeBackendOptions, backendSuite } from "../support/state-backends.js";
import { DataTypes, EnvironmentSettings, ExecutionError, Row, Schema, SqlParseError, TableEnvironment, ValidationError } from "../../src/index.js";

/** A streaming environment on the backend of the suite that runs (test/support/state-backends.ts). */
const streaming = (() => { const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode()); for (const [k, v] of Object.entries(activeBackendOptions())) e.getConfig().set(k, v); return e; });

/** `Ticker (symbol, rowtime, price, tax)` of Flink's pattern recognition docs, a zero-delay watermark. */
function tickerEnv(): TableEnvironment {
  const env = streaming();
  const schema = Schema.newBuilder().column("symbol", DataTypes.STRING()).column("rowtime", DataTypes.TIMESTAMP(3))
    .column("price", DataTypes.INT()).column("tax", DataTypes.INT()).watermark("rowtime", "rowtime").build();
  const prices = [12, 17, 19, 21, 25, 18, 15, 14, 24, 25, 19];
  const taxes = [1, 2, 1, 3, 2, 1, 1, 2, 2, 2, 1];
  env.createTemporaryView("Ticker", env.fromValues(schema, ...prices.map((p, i) => Row.of("ACME", new Date(Date.UTC(2011, 3, 1, 10, 0, i)), p, taxes[i]))) as never);
  return env;
}

const TICKER_SQL = `SELECT *
FROM Ticker
    MATCH_RECOGNIZE (
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            START_ROW.rowtime AS start_tstamp,
            LAST(PRICE_DOWN.rowtime) AS bottom_tstamp,
            LAST(PRICE_UP.rowtime) AS end_tstamp
        ONE ROW PER MATCH
        AFTER MATCH SKIP TO LAST PRICE_UP
        PATTERN (START_ROW PRICE_DOWN+ PRICE_UP)
        DEFINE
            PRICE_DOWN AS
                (LAST(PRICE_DOWN.price, 1) IS NULL AND PRICE_DOWN.price < START_ROW.price) OR
                    PRICE_DOWN.price < LAST(PRICE_DOWN.price, 1),
            PRICE_UP AS
                PRICE_UP.price > LAST(PRICE_DOWN.price, 1)
    ) MR`;

backendSuite("MATCH_RECOGNIZE: Flink's pattern recognition docs", () => {
  it("the V-shape ticker example: one match from 10:00:04 down to 10:00:07 and up at 10:00:08", async () => {
    const env = tickerEnv();
    expect(env.sqlQuery(TICKER_SQL).getResolvedSchema().names).toEqual(["symbol", "start_tstamp", "bottom_tstamp", "end_tstamp"]);
    expect(await env.executeSql(TICKER_SQL).toChangelog()).toEqual(["+I[ACME, 2011-04-01T10:00:04, 2011-04-01T10:00:07, 2011-04-01T10:00:08]"]);
  });

  it("aggregations over a variable, MATCH_ROWTIME() and the match's last row in MEASURES", async () => {
    const env = tickerEnv();
    const sql = `SELECT * FROM Ticker MATCH_RECOGNIZE (
      PARTITION BY symbol ORDER BY rowtime
      MEASURES FIRST(A.rowtime) AS start_tstamp, AVG(A.price) AS avgPrice, SUM(A.price) AS total, COUNT(A.price) AS n,
        MIN(A.price) AS lo, MAX(A.price) AS hi, MATCH_ROWTIME() AS matchTime, price AS lastPrice, LAST(A.price, 1) AS beforeLast
      ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
      PATTERN (A+ B)
      DEFINE A AS AVG(A.price) < 15, B AS TRUE) AS T`;
    const t = env.sqlQuery(sql);
    expect(t.getResolvedSchema().columns.map((c) => `${c.name} ${c.type}`)).toEqual([
      "symbol STRING", "start_tstamp TIMESTAMP(3) *ROWTIME*", "avgPrice INT", "total INT", "n BIGINT NOT NULL", "lo INT", "hi INT",
      "matchTime TIMESTAMP(3) *ROWTIME*", "lastPrice INT", "beforeLast INT",
    ].map((s) => s.replace("matchTime TIMESTAMP(3) *ROWTIME*", "matchTime TIMESTAMP(3) NOT NULL *ROWTIME*").replace("start_tstamp TIMESTAMP(3) *ROWTIME*", "start_tstamp TIMESTAMP(3)")));
    // A+ greedy: 12 (avg 12), 17 (avg 14), 19 would make 16 -> B = 19; then only 14 alone averages below 15 (B = 24)
    expect(await env.executeSql(sql).toChangelog()).toEqual([
      "+I[ACME, 2011-04-01T10:00, 14, 29, 2, 12, 17, 2011-04-01T10:00:02, 19, 12]",
      "+I[ACME, 2011-04-01T10:00:07, 14, 14, 1, 14, 14, 2011-04-01T10:00:08, 24, null]",
    ]);
  });
});

/** `T (id INT, v STRING, ts)`: the letters of `word` in order, one second apart. */
function lettersEnv(word: string): TableEnvironment {
  const env = streaming();
  const schema = Schema.newBuilder().column("id", DataTypes.INT()).column("v", DataTypes.STRING()).column("ts", DataTypes.TIMESTAMP(3)).watermark("ts", "ts").build();
  env.createTemporaryView("T", env.fromValues(schema, ...[...word].map((ch, i) => Row.of(i + 1, ch, new Date(i * 1000)))) as never);
  return env;
}

async function matches(word: string, pattern: string, define: string, extra = ""): Promise<string[]> {
  const env = lettersEnv(word);
  return env.executeSql(`SELECT * FROM T MATCH_RECOGNIZE (ORDER BY ts MEASURES FIRST(id) AS s, LAST(id) AS e ${extra}
    PATTERN (${pattern}) DEFINE ${define}) AS M`).toChangelog();
}

backendSuite("MATCH_RECOGNIZE: quantifiers and skip strategies", () => {
  const ABC = "A AS v = 'a', B AS v <> 'a', C AS v = 'c'";
  it("greedy B+ takes every row it can: a B that also matches C never lets C match", async () => {
    expect(await matches("abcbcd", "A B+ C", ABC)).toEqual([]);
  });
  it("reluctant B+? leaves the row to C as soon as C matches", async () => {
    expect(await matches("abcbcd", "A B+? C", ABC)).toEqual(["+I[1, 3]"]);
  });
  it("a greedy loop ends on the first row it cannot take", async () => {
    expect(await matches("abbbcabc", "A B+ C", "A AS v = 'a', B AS v = 'b', C AS v = 'c'")).toEqual(["+I[1, 5]", "+I[6, 8]"]);
  });
  it("B* may take no row; {n} takes exactly n", async () => {
    expect(await matches("acabbc", "A B* C", "A AS v = 'a', B AS v = 'b', C AS v = 'c'")).toEqual(["+I[1, 2]", "+I[3, 6]"]);
    expect(await matches("aaaaa", "A{2}", "A AS v = 'a'")).toEqual(["+I[1, 2]", "+I[3, 4]"]);
  });
  it("A{2,3} B: a greedy bounded loop; the earliest start wins and SKIP PAST LAST ROW discards the later one", async () => {
    // start 1 takes a a a, then needs B at the 4th a and dies; starts 2 and 3 both end at b: 2 began first
    expect(await matches("aaaab", "A{2,3} B", "A AS v = 'a', B AS v = 'b'", ", COUNT(A.id) AS n")).toEqual(["+I[2, 5, 3]"]);
    expect(await matches("aaaab", "A{2,3} B", "A AS v = 'a', B AS v = 'b'", ", COUNT(A.id) AS n AFTER MATCH SKIP TO NEXT ROW")).toEqual(["+I[2, 5, 3]", "+I[3, 5, 2]"]);
  });
  it("A{,2}? B and A{2,}: other bounds", async () => {
    expect(await matches("aab", "X A{,2}? B", "X AS v = 'a', A AS v = 'a', B AS v = 'b'")).toEqual(["+I[1, 3]"]);
    expect(await matches("aaab", "A{2,} B", "A AS v = 'a', B AS v = 'b'")).toEqual(["+I[1, 4]"]);
  });
  it("alternation and a quantified group", async () => {
    expect(await matches("acbc", "(A | B) C", "A AS v = 'a', B AS v = 'b', C AS v = 'c'")).toEqual(["+I[1, 2]", "+I[3, 4]"]);
    // greedy: the group takes the third a too (its A matches), so the outer A never sees it
    expect(await matches("ababac", "(A B)+ A C", "A AS v = 'a', B AS v = 'b', C AS v = 'c'")).toEqual([]);
    expect(await matches("ababac", "(A B)+? A C", "A AS v = 'a', B AS v = 'b', C AS v = 'c'")).toEqual(["+I[1, 6]"]);
  });
  it("a variable without DEFINE matches every row", async () => {
    expect(await matches("xyz", "A B", "B AS v = 'y'")).toEqual(["+I[1, 2]"]);
  });
  it("AFTER MATCH SKIP TO FIRST of the first variable would loop: Flink's runtime error", async () => {
    await expect(matches("ab", "A B", "A AS v = 'a', B AS v = 'b'", "AFTER MATCH SKIP TO FIRST A")).rejects.toThrow(ExecutionError);
    await expect(matches("ab", "A B", "A AS v = 'a', B AS v = 'b'", "AFTER MATCH SKIP TO FIRST A")).rejects.toThrow(/Could not skip to first element of a match/);
  });
  it("WITHIN: a partial match older than the interval is dropped", async () => {
    // rows are one second apart: a..c spans 2 s, so it completes within 3 s but not within 2 s
    const env = lettersEnv("abcabxc");
    const sql = (w: string) => `SELECT * FROM T MATCH_RECOGNIZE (ORDER BY ts MEASURES FIRST(id) AS s, LAST(id) AS e
      PATTERN (A B C) WITHIN INTERVAL '${w}' SECOND DEFINE A AS v = 'a', B AS v = 'b', C AS v = 'c') AS M`;
    expect(await env.executeSql(sql("3")).toChangelog()).toEqual(["+I[1, 3]"]);
    expect(await env.executeSql(sql("2")).toChangelog()).toEqual([]);
  });
  it("PREV reads the previous row of the match", async () => {
    const env = tickerEnv();
    const sql = `SELECT * FROM Ticker MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime
      MEASURES FIRST(UP.price) AS a, LAST(UP.price) AS b PATTERN (S UP{3}) DEFINE UP AS price > PREV(price)) AS M`;
    expect(await env.executeSql(sql).toChangelog()).toEqual(["+I[ACME, 17, 21]"]);
  });
});

describe("MATCH_RECOGNIZE: plan", () => {
  it("explain prints the node in Flink's style; the changelog is insert-only", () => {
    const t = tickerEnv().sqlQuery(TICKER_SQL);
    expect(t.changelogMode()).toBe("[I]");
    expect(t.explain()).toContain("MatchRecognize(partitionBy=[symbol], orderBy=[rowtime ASC NULLS FIRST], measures=[LAST(START_ROW.rowtime) AS start_tstamp, "
      + "LAST(PRICE_DOWN.rowtime) AS bottom_tstamp, LAST(PRICE_UP.rowtime) AS end_tstamp], rowsPerMatch=[ONE ROW PER MATCH], "
      + "after=[SKIP TO LAST PRICE_UP], pattern=[START_ROW PRICE_DOWN+ PRICE_UP], define=[{PRICE_DOWN=or(and(isNull(LAST(PRICE_DOWN.price, 1)), "
      + "lessThan(price, LAST(START_ROW.price))), lessThan(price, LAST(PRICE_DOWN.price, 1))), PRICE_UP=greaterThan(price, LAST(PRICE_DOWN.price, 1))}], "
      + "changelogMode=[I]) -> [symbol: STRING, start_tstamp: TIMESTAMP(3), bottom_tstamp: TIMESTAMP(3), end_tstamp: TIMESTAMP(3)]");
  });

  it("toSql() writes MATCH_RECOGNIZE back; the text gives the same rows", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ts-match-"));
    try {
      const file = join(dir, "ticker.csv");
      const prices = [12, 17, 19, 21, 25, 18, 15, 14, 24, 25, 19];
      writeFileSync(file, prices.map((p, i) => `ACME,2011-04-01 10:00:${String(i).padStart(2, "0")},${p},1`).join("\n") + "\n");
      const env = streaming();
      env.executeSql(`CREATE TABLE Ticker (symbol STRING, rowtime TIMESTAMP(3), price INT, tax INT, WATERMARK FOR rowtime AS rowtime)
        WITH ('connector' = 'filesystem', 'path' = '${file}', 'format' = 'csv')`);
      const t = env.sqlQuery(TICKER_SQL);
      const text = t.toSql();
      expect(text).toContain("MATCH_RECOGNIZE (");
      expect(text).toContain("PATTERN (START_ROW PRICE_DOWN+ PRICE_UP)");
      const expected = ["+I[ACME, 2011-04-01T10:00:04, 2011-04-01T10:00:07, 2011-04-01T10:00:08]"];
      expect(await t.execute().toChangelog()).toEqual(expected);
      expect(await env.executeSql(text).toChangelog()).toEqual(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("MATCH_RECOGNIZE: errors", () => {
  const q = (body: string) => `SELECT * FROM Ticker MATCH_RECOGNIZE (${body}) AS M`;
  const fails = (body: string) => () => tickerEnv().sqlQuery(q(body));

  it("an unknown variable in DEFINE or MEASURES names it, the known ones and the position", () => {
    expect(fails("ORDER BY rowtime MEASURES A.price AS p PATTERN (A B) DEFINE X AS price > 1")).toThrow(
      "SQL validation failed. At line 1, column 99: unknown pattern variable 'X' in DEFINE; the pattern's variables are [A, B]");
    expect(fails("ORDER BY rowtime MEASURES C.price AS p PATTERN (A B) DEFINE A AS price > 1")).toThrow(
      /At line 1, column 65: unknown pattern variable 'C' in MEASURES; the pattern's variables are \[A, B\]/);
  });
  it("an unknown column suggests the closest", () => {
    expect(fails("ORDER BY rowtime MEASURES A.prise AS p PATTERN (A B) DEFINE A AS price > 1")).toThrow(
      /unknown column 'prise' in MEASURES; available columns: \[symbol, rowtime, price, tax\]; did you mean 'price'\?/);
  });
  it("a DEFINE that is not BOOLEAN", () => {
    expect(fails("ORDER BY rowtime PATTERN (A B) DEFINE A AS price + 1")).toThrow(/the condition of pattern variable 'A' in DEFINE must be BOOLEAN, got INT/);
  });
  it("ORDER BY: a time attribute first, ascending (Flink's messages)", () => {
    expect(fails("ORDER BY price PATTERN (A B) DEFINE A AS price > 1")).toThrow(/At line 1, column 48: You must specify either rowtime or proctime for order by as the first one/);
    expect(fails("ORDER BY rowtime DESC PATTERN (A B) DEFINE A AS price > 1")).toThrow(/Primary sort order of a streaming table must be ascending on time\./);
    expect(fails("PATTERN (A B) DEFINE A AS price > 1")).toThrow(/You must specify either rowtime or proctime for order by\./);
  });
  it("a pattern ending in a greedy quantifier, and one that matches no row", () => {
    expect(fails("ORDER BY rowtime PATTERN (A B*) DEFINE A AS price > 1")).toThrow(/Greedy quantifiers are not allowed as the last element of a Pattern yet/);
    expect(fails("ORDER BY rowtime PATTERN (A*?) DEFINE A AS price > 1")).toThrow(/matches an empty sequence of rows/);
  });
  it("NEXT, MATCH_PROCTIME, CLASSIFIER; MATCH_ROWTIME only in MEASURES", () => {
    expect(fails("ORDER BY rowtime PATTERN (A B) DEFINE A AS price > NEXT(price)")).toThrow(/NEXT is not supported/);
    expect(fails("ORDER BY rowtime MEASURES MATCH_PROCTIME() AS p PATTERN (A B) DEFINE A AS price > 1")).toThrow(/MATCH_PROCTIME\(\) needs a processing-time attribute/);
    expect(fails("ORDER BY rowtime MEASURES CLASSIFIER() AS c PATTERN (A B) DEFINE A AS price > 1")).toThrow(/CLASSIFIER\(\) is not supported/);
    expect(fails("ORDER BY rowtime PATTERN (A B) DEFINE A AS MATCH_ROWTIME() IS NULL")).toThrow(/MATCH_ROWTIME\(\) can only be used in MEASURES/);
  });
  it("a measure needs a name; duplicate output names", () => {
    expect(fails("ORDER BY rowtime MEASURES A.price + 1 PATTERN (A B) DEFINE A AS price > 1")).toThrow(/a measure needs a name/);
    expect(fails("PARTITION BY symbol ORDER BY rowtime MEASURES A.price AS symbol PATTERN (A B) DEFINE A AS price > 1")).toThrow(/has column 'symbol' twice/);
  });
  it("parse errors name line, column and token: PERMUTE, ALL ROWS PER MATCH, a bad quantifier", () => {
    expect(fails("ORDER BY rowtime PATTERN (PERMUTE(A, B)) DEFINE A AS price > 1")).toThrow(SqlParseError);
    expect(fails("ORDER BY rowtime PATTERN (PERMUTE(A, B)) DEFINE A AS price > 1")).toThrow(/column 65: PERMUTE is not supported/);
    expect(fails("ORDER BY rowtime ALL ROWS PER MATCH PATTERN (A B) DEFINE A AS price > 1")).toThrow(/ALL ROWS PER MATCH is not supported/);
    expect(fails("ORDER BY rowtime PATTERN (A{3,2} B) DEFINE A AS price > 1")).toThrow(/has a maximum below its minimum/);
    expect(fails("ORDER BY rowtime PATTERN (A B) DEFINE A AS price > 1 B AS TRUE")).toThrow(SqlParseError);
  });
  it("an updating input is rejected with Flink's message", () => {
    const env = tickerEnv();
    const schema = Schema.newBuilder().column("k", DataTypes.STRING()).column("ts", DataTypes.TIMESTAMP(3)).watermark("ts", "ts").build();
    env.createTemporaryView("U", env.fromValues(schema, Row.ofKind("+U", "a", new Date(0))) as never);
    expect(() => env.sqlQuery("SELECT * FROM U MATCH_RECOGNIZE (ORDER BY ts PATTERN (A) DEFINE A AS TRUE) AS M").explain()).toThrow(
      /MATCH_RECOGNIZE doesn't support consuming update and delete changes/);
    void ValidationError;
  });
});
