// MATCH_RECOGNIZE aggregates over expressions: the arguments may be any expression over the columns of one
// pattern variable (Flink: SUM(A.price * A.tax) is valid, AVG(A.price * B.tax) is not); unqualified columns and
// COUNT(*) aggregate every row of the match. In MEASURES and in DEFINE (where the row under test counts), with
// explain, toSql and Flink's error for two variables.
import { describe, expect, it } from "vitest";
import { AggregateFunction, DataTypes, EnvironmentSettings, Row, Schema, TableEnvironment, ValidationError } from "../../src/index.js";

/** Flink's test aggregate over two columns: the average of `value` weighted by `weight`. */
const WeightedAvg = AggregateFunction.define({
  name: "weighted_avg",
  args: [DataTypes.INT().notNull(), DataTypes.INT().notNull()],
  result: DataTypes.INT(),
  createAccumulator: () => ({ sum: 0, count: 0 }),
  accumulate(acc, value, weight) { acc.sum += value * weight; acc.count += weight; },
  getValue: (acc) => (acc.count === 0 ? null : Math.trunc(acc.sum / acc.count)),
});

/** `Ticker (symbol, rowtime, price, tax)` of Flink's pattern recognition docs, a zero-delay watermark. */
function tickerEnv(): TableEnvironment {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  const schema = Schema.newBuilder().column("symbol", DataTypes.STRING()).column("rowtime", DataTypes.TIMESTAMP(3))
    .column("price", DataTypes.INT()).column("tax", DataTypes.INT()).watermark("rowtime", "rowtime").build();
  const prices = [12, 17, 19, 21, 25, 18, 15, 14, 24, 25, 19];
  const taxes = [1, 2, 1, 3, 2, 1, 1, 2, 2, 2, 1];
  env.createTemporaryView("Ticker", env.fromValues(schema, ...prices.map((p, i) => Row.of("ACME", new Date(Date.UTC(2011, 3, 1, 10, 0, i)), p, taxes[i]))) as never);
  return env;
}

const query = (measures: string, define: string) => `SELECT * FROM Ticker MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY rowtime
  MEASURES ${measures}
  ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
  PATTERN (A+ B)
  DEFINE ${define}) AS T`;

const MEASURES_SQL = query(
  "SUM(A.price * A.tax) AS taxed, AVG(A.price + A.tax) AS gross, COUNT(*) AS n, COUNT(A.price) AS na, SUM(price) AS total, MAX(A.price - A.tax) AS net",
  "A AS A.price < 20, B AS B.price >= 20",
);

describe("MATCH_RECOGNIZE aggregates over expressions", () => {
  it("in MEASURES: one variable's expression, every row's column, COUNT(*)", async () => {
    const env = tickerEnv();
    const t = env.sqlQuery(MEASURES_SQL);
    expect(t.getResolvedSchema().columns.map((c) => `${c.name} ${c.type}`)).toEqual([
      "symbol STRING", "taxed INT", "gross INT", "n BIGINT NOT NULL", "na BIGINT NOT NULL", "total INT", "net INT",
    ]);
    // A = 12, 17, 19 (taxes 1, 2, 1), B = 21; then A = 18, 15, 14 (taxes 1, 1, 2), B = 24
    expect(await t.execute().toChangelog()).toEqual([
      "+I[ACME, 65, 17, 4, 3, 69, 18]",
      "+I[ACME, 61, 17, 4, 3, 71, 17]",
    ]);
  });

  it("in DEFINE: the row under test counts in its variable's aggregate", async () => {
    const env = tickerEnv();
    const sql = query("FIRST(A.price) AS firstA, SUM(A.price * A.tax) AS s, B.price AS b", "A AS SUM(A.price * A.tax) <= 50, B AS TRUE");
    expect(await env.executeSql(sql).toChangelog()).toEqual([
      "+I[ACME, 12, 46, 19]", "+I[ACME, 25, 50, 18]", "+I[ACME, 15, 43, 24]", "+I[ACME, 25, 50, 19]",
    ]);
  });

  it("the same call twice is one navigation; two different expressions are two", () => {
    const t = tickerEnv().sqlQuery(query("SUM(A.price * A.tax) AS x, SUM(A.price * A.tax) + 1 AS y, SUM(A.price + A.tax) AS z", "A AS A.price < 20, B AS TRUE"));
    expect(t.explain()).toContain("measures=[SUM(times(A.price, A.tax)) AS x, plus(SUM(times(A.price, A.tax)), 1) AS y, SUM(plus(A.price, A.tax)) AS z]");
  });

  it("toSql() writes the aggregate with its variable; the text gives the same rows", async () => {
    const env = tickerEnv();
    const t = env.sqlQuery(MEASURES_SQL);
    const text = t.toSql();
    expect(text).toContain("SUM((`A`.`price` * `A`.`tax`)) AS `taxed`");
    expect(text).toContain("COUNT(*) AS `n`");
    expect(await env.executeSql(text).toChangelog()).toEqual(await t.execute().toChangelog());
  });

  it("columns of two variables in one aggregate: Flink's error", () => {
    const env = tickerEnv();
    const fails = (measures: string) => () => env.sqlQuery(query(measures, "A AS A.price < 20, B AS TRUE"));
    expect(fails("SUM(A.price + B.tax) AS s")).toThrow(ValidationError);
    expect(fails("SUM(A.price + B.tax) AS s")).toThrow(/Aggregation must be applied to a single pattern variable\. Malformed expression: SUM\(plus\(A\.price, B\.tax\)\)/);
    // an unqualified column is every row's: not A's alone
    expect(fails("AVG(A.price * tax) AS s")).toThrow(/Aggregation must be applied to a single pattern variable\. Malformed expression: AVG\(times\(A\.price, tax\)\)/);
    expect(() => env.sqlQuery(query("A.price AS p", "A AS SUM(A.price + B.tax) < 10, B AS TRUE"))).toThrow(/Aggregation must be applied to a single pattern variable/);
  });

  it("an unknown variable or column, a navigation or an aggregate inside an aggregate", () => {
    const env = tickerEnv();
    const fails = (measures: string) => () => env.sqlQuery(query(measures, "A AS A.price < 20, B AS TRUE"));
    expect(fails("SUM(C.price * 2) AS s")).toThrow(/unknown pattern variable 'C'/);
    expect(fails("SUM(A.prize * 2) AS s")).toThrow(/unknown column 'prize'.*Did you mean 'price'/i);
    expect(fails("SUM(LAST(A.price) * 2) AS s")).toThrow(/LAST\(\.\.\.\) cannot be used inside an aggregate/);
    expect(fails("SUM(A.price * 2 + COUNT(A.tax)) AS s")).toThrow(/nested aggregates are not allowed/);
  });

  it("a user aggregate over several columns of one variable, by registered name; two variables are Flink's error", async () => {
    const env = tickerEnv();
    env.createTemporaryFunction("wavg", WeightedAvg);
    const sql = query("wavg(A.price, A.tax) AS w, wavg(A.price + 1, 1) AS plain", "A AS A.price < 20, B AS B.price >= 20");
    // (12·1 + 17·2 + 19·1) / 4 = 16, (13 + 18 + 20) / 3 = 17; (18 + 15 + 28) / 4 = 15, (19 + 16 + 15) / 3 = 16
    const t = env.sqlQuery(sql);
    expect(await t.execute().toChangelog()).toEqual(["+I[ACME, 16, 17]", "+I[ACME, 15, 16]"]);
    const text = t.toSql();
    expect(text).toContain("wavg(`A`.`price`, `A`.`tax`) AS `w`");
    expect(await env.executeSql(text).toChangelog()).toEqual(["+I[ACME, 16, 17]", "+I[ACME, 15, 16]"]);
    // in DEFINE, running: the row under test counts. 12 (12), 17 (46/3 = 15), 19 (65/4 = 16) are A, 21 (128/7 = 18)
    // is not; then 15 (15), 14 (43/3 = 14) are A, 24 (91/5 = 18) is not
    expect(await env.executeSql(query("COUNT(A.price) AS n", "A AS wavg(A.price, A.tax) < 17, B AS TRUE")).toChangelog())
      .toEqual(["+I[ACME, 3]", "+I[ACME, 2]"]);
    expect(() => env.sqlQuery(query("wavg(A.price, B.tax) AS w", "A AS A.price < 20, B AS TRUE")))
      .toThrow(/Aggregation must be applied to a single pattern variable\. Malformed expression: wavg\(A\.price, B\.tax\)/);
  });

  it("COUNT(A.*) counts the rows mapped to A, COUNT(*) every row of the match, COUNT(A.col) A's non-null values; in DEFINE the tested row counts", async () => {
    const env = tickerEnv();
    const t = env.sqlQuery(query("COUNT(A.*) AS na, COUNT(B.*) AS nb, COUNT(*) AS n, COUNT(A.price) AS np", "A AS A.price < 20, B AS B.price >= 20"));
    expect(t.getResolvedSchema().columns.map((c) => `${c.name} ${c.type}`)).toEqual([
      "symbol STRING", "na BIGINT NOT NULL", "nb BIGINT NOT NULL", "n BIGINT NOT NULL", "np BIGINT NOT NULL",
    ]);
    // A = 12, 17, 19, B = 21; A = 18, 15, 14, B = 24
    expect(await t.execute().toChangelog()).toEqual(["+I[ACME, 3, 1, 4, 3]", "+I[ACME, 3, 1, 4, 3]"]);
    // at most two rows in A: the third row tested for A sees COUNT(A.*) = 3
    const define = query("FIRST(A.price) AS f, COUNT(A.*) AS na, B.price AS b", "A AS COUNT(A.*) <= 2 AND A.price < 20, B AS B.price >= 20");
    expect(await env.executeSql(define).toChangelog()).toEqual(["+I[ACME, 17, 2, 21]", "+I[ACME, 15, 2, 24]"]);
  });

  it("COUNT(A.*) in explain and toSql(): with its variable, the text gives the same rows", async () => {
    const env = tickerEnv();
    const t = env.sqlQuery(query("COUNT(A.*) AS na, COUNT(*) AS n", "A AS COUNT(A.*) <= 2 AND A.price < 20, B AS B.price >= 20"));
    expect(t.explain()).toContain("measures=[COUNT(A.*) AS na, COUNT(*) AS n]");
    const text = t.toSql();
    expect(text).toContain("COUNT(`A`.*) AS `na`");
    expect(text).toContain("COUNT(*) AS `n`");
    expect(await env.executeSql(text).toChangelog()).toEqual(["+I[ACME, 2, 3]", "+I[ACME, 2, 3]"]);
  });

  it("v.* only in COUNT, of a known variable; outside MATCH_RECOGNIZE no column is called *", () => {
    const env = tickerEnv();
    const fails = (measures: string) => () => env.sqlQuery(query(measures, "A AS A.price < 20, B AS TRUE"));
    expect(fails("SUM(A.*) AS s")).toThrow(/line 3, column 16: A\.\* can only be the argument of COUNT, not of SUM/);
    expect(fails("COUNT(C.*) AS s")).toThrow(/unknown pattern variable 'C' in MEASURES; the pattern's variables are \[A, B\]/);
    expect(() => env.sqlQuery("SELECT COUNT(Ticker.*) FROM Ticker")).toThrow(/column '\*' is not in table 'Ticker'/);
  });
});
