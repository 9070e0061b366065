// MATCH_RECOGNIZE ordered by a processing-time attribute and secondary keys (Flink's CepOperator with a
// comparator): the rows of one processing time are buffered and match sorted by the other ORDER BY keys once
// time passes theirs (a timer at t + 1 ms, a row of a later time, the end of input); without secondary keys
// rows match in arrival order. Event time sorts by the secondary keys too.
import { expect, it } from "vitest";
import { activeBackendOptions, backendSuite } from "../support/state-backends.js";
import {
  CollectionSink, DataTypes, EnvironmentSettings, type PositionalRow, Row, Schema, TableEnvironment, manualClock,
} from "../../src/index.js";

const T0 = Date.parse("2020-04-15T08:00:00Z");
const settle = () => new Promise<void>((r) => setTimeout(r, 5));

/** Prices in arrival order; a match is a row followed by the one whose price is one more (in the ORDER BY order). */
const matchSql = (order: string) => `SELECT * FROM prices MATCH_RECOGNIZE (
  PARTITION BY sym ORDER BY ${order}
  MEASURES A.price AS a, B.price AS b
  ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
  PATTERN (A B) DEFINE B AS B.price = A.price + 1) AS M`;

const PRICES = Schema.newBuilder().column("sym", DataTypes.STRING()).column("price", DataTypes.INT())
  .columnByExpression("pt", "PROCTIME()").build();

function pricesEnv(clock: ReturnType<typeof manualClock>, rows: readonly PositionalRow[] | AsyncIterable<PositionalRow>): TableEnvironment {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  for (const [k, v] of Object.entries(activeBackendOptions())) env.getConfig().set(k, v);
  env.setClock(clock);
  const t = Array.isArray(rows) ? env.fromValues(PRICES, ...rows) : env.fromAsyncIterable(PRICES, rows as never, { name: "prices" });
  env.createTemporaryView("prices", t as never);
  return env;
}

/** A source that does not end: rows are pushed by the test, and it waits (idle) in between. */
function pushable(): { rows: AsyncIterable<PositionalRow>; push(...values: unknown[]): void } {
  const queue: PositionalRow[] = [];
  let wake: (() => void) | undefined;
  async function* gen(): AsyncGenerator<PositionalRow> {
    for (;;) {
      while (queue.length > 0) yield queue.shift()!;
      await new Promise<void>((r) => { wake = r; });
    }
  }
  return { rows: gen(), push: (...values) => { queue.push(Row.of(...values)); wake?.(); } };
}

backendSuite("MATCH_RECOGNIZE ORDER BY proctime, key", () => {
  const ROWS = [Row.of("x", 2), Row.of("x", 3), Row.of("x", 1)];

  it("rows of the same processing time match sorted by the secondary key; without it in arrival order", async () => {
    // the clock does not move: every row is read at T0
    const sorted = await pricesEnv(manualClock(T0), ROWS).sqlQuery(matchSql("pt, price")).execute().toChangelog();
    expect(sorted).toEqual(["+I[x, 1, 2]"]);
    const arrival = await pricesEnv(manualClock(T0), ROWS).sqlQuery(matchSql("pt")).execute().toChangelog();
    expect(arrival).toEqual(["+I[x, 2, 3]"]);
    // descending secondary key: 3, 2, 1 — no price is followed by price + 1
    expect(await pricesEnv(manualClock(T0), ROWS).sqlQuery(matchSql("pt, price DESC")).execute().toChangelog()).toEqual([]);
  });

  it("the rows of a time wait until the clock passes it (the job's timer at t + 1 ms), then match sorted; later rows are not sorted into them", async () => {
    const clock = manualClock(T0);
    const source = pushable();
    const env = pricesEnv(clock, source.rows);
    const sink = new CollectionSink();
    env.createTemporaryTable("out", sink.descriptor(Schema.newBuilder().column("sym", DataTypes.STRING())
      .column("a", DataTypes.INT()).column("b", DataTypes.INT()).build()));
    const job = env.sqlQuery(matchSql("pt, price")).executeInsert("out");
    source.push("x", 5); source.push("x", 4); source.push("y", 8); source.push("y", 7);
    await settle();
    // the rows of T0 wait: the clock has not passed T0
    expect(sink.changelog()).toEqual([]);
    clock.advanceTo(T0 + 1);
    for (let waited = 0; sink.size < 2 && waited < 2000; waited += 5) await settle();
    // sorted per time: x 4, 5 and y 7, 8 match
    expect(sink.changelog()).toEqual(["+I[x, 4, 5]", "+I[y, 7, 8]"]);
    // a row of a later time comes after the rows of T0 whatever its price: x 3 then x 2 (at T0 + 1) do not match
    // across times, and within T0 + 1 they are sorted to 2, 3
    source.push("x", 3); source.push("x", 2);
    await settle();
    clock.advanceTo(T0 + 2);
    for (let waited = 0; sink.size < 3 && waited < 2000; waited += 5) await settle();
    expect(sink.changelog()).toEqual(["+I[x, 4, 5]", "+I[y, 7, 8]", "+I[x, 2, 3]"]);
    await job.getJobClient().cancel();
  });

  it("event time: rows with the same rowtime match sorted by the secondary key too", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    for (const [k, v] of Object.entries(activeBackendOptions())) env.getConfig().set(k, v);
    const schema = Schema.newBuilder().column("sym", DataTypes.STRING()).column("price", DataTypes.INT())
      .column("ts", DataTypes.TIMESTAMP(3)).watermark("ts", "ts - INTERVAL '1' SECOND").build();
    const ts = new Date(T0);
    env.createTemporaryView("prices", env.fromValues(schema, Row.of("x", 2, ts), Row.of("x", 3, ts), Row.of("x", 1, ts)) as never);
    expect(await env.sqlQuery(matchSql("ts, price")).execute().toChangelog()).toEqual(["+I[x, 1, 2]"]);
    expect(await env.sqlQuery(matchSql("ts")).execute().toChangelog()).toEqual(["+I[x, 2, 3]"]);
  });
});
