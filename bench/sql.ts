/**
 * The SQL half of `npm run bench`: W0–W4 written as SQL (`env.sqlQuery` over the same bids, registered as
 * the view `Bids`) run side by side with their Table API plans through the internal job path, reported as
 * the SQL/Table API ratio (1.0 = the same speed: both bind onto the same plan); and the parser's time for a
 * 1,000-line statement set.
 */
import { EnvironmentSettings, SqlParseError, type Table, TableEnvironment } from "../src/index.js";
import { parseStatement } from "../src/sql/parser.js";
import type { BidData } from "./data.js";
import { median, runJob } from "./harness.js";
import { RingSink } from "./sink.js";
import { bidsTable, withWatermark } from "./source.js";
import type { Workload } from "./workload.js";

type AnyTable = Table<object, "append" | "retract" | "upsert">;

/** Each workload's SQL twin; W3 reads the bids with the watermark of its Table API plan (delay 4 s). */
export const SQL_TWINS: Readonly<Record<string, { sql: string; watermark?: number }>> = {
  W0: { sql: "SELECT auction, bidder, price * 0.908 AS price, dateTime FROM Bids" },
  W1: { sql: "SELECT auction, bidder, price * 0.908 AS price, dateTime FROM Bids WHERE MOD(auction, 123) = 0" },
  W2: { sql: "SELECT auction, COUNT(auction) AS cnt FROM Bids GROUP BY auction" },
  W3: {
    sql: "SELECT auction, window_start, window_end, COUNT(auction) AS cnt, MAX(price) AS max_price "
      + "FROM TABLE(TUMBLE(TABLE Bids, DESCRIPTOR(dateTime), INTERVAL '10' SECOND)) GROUP BY auction, window_start, window_end",
    watermark: 4_000,
  },
  W4: { sql: "SELECT bidder, SUM(price) AS total FROM Bids GROUP BY bidder" },
};

export interface SqlResult {
  readonly id: string;
  /** Undefined when the SQL cannot be planned yet (the reason is in `skipped`). */
  readonly ratio?: number;
  readonly sqlRows?: number;
  readonly apiRows?: number;
  readonly skipped?: string;
}

/** Plans both sides, checks they emit the same number of rows, then times them alternately (median of the pairs' ratios). */
export function measureSql(w: Workload, data: BidData, runs: number): SqlResult {
  const twin = SQL_TWINS[w.id];
  if (twin === undefined) return { id: w.id, skipped: "no SQL twin" };
  const env = TableEnvironment.create(w.batch ? EnvironmentSettings.inBatchMode() : EnvironmentSettings.inStreamingMode());
  const bids = bidsTable(env, data);
  const api = w.plan(bids, env, data) as AnyTable;
  env.createTemporaryView("Bids", (twin.watermark === undefined ? bids : withWatermark(bids, env, twin.watermark)) as never);
  let sql: AnyTable;
  try {
    sql = env.sqlQuery(twin.sql) as unknown as AnyTable;
  } catch (e) {
    if (e instanceof SqlParseError) return { id: w.id, skipped: e.message.replace(/^cannot parse SQL statement '.*' at /s, "") };
    throw e;
  }
  const a = new RingSink();
  const s = new RingSink();
  runJob(api, a);
  runJob(sql, s);
  if (a.count !== s.count) throw new Error(`${w.id}: the Table API plan emitted ${a.count} rows, its SQL twin ${s.count}`);
  const ratios: number[] = [];
  let apiSecs = 0;
  let sqlSecs = 0;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    runJob(api, new RingSink());
    const t1 = performance.now();
    runJob(sql, new RingSink());
    const t2 = performance.now();
    ratios.push((t1 - t0) / (t2 - t1));
    apiSecs += (t1 - t0) / 1000;
    sqlSecs += (t2 - t1) / 1000;
  }
  const rows = data.objects.length;
  return { id: w.id, ratio: median(ratios), apiRows: (rows * runs) / apiSecs / 1e6, sqlRows: (rows * runs) / sqlSecs / 1e6 };
}

/** A statement set of `lines` lines (one INSERT per line) over a view and a sink, as the parser bench reads it. */
export function statementSetText(lines: number): string {
  const out = ["EXECUTE STATEMENT SET", "BEGIN"];
  for (let i = 0; i < lines - 3; i++) {
    out.push(`INSERT INTO sink_${i % 7} SELECT auction, bidder, price * 0.908 AS p, CASE WHEN price > ${i} THEN 'high' ELSE 'low' END FROM Bids WHERE MOD(auction, ${i + 2}) = 0 AND channel <> 'x${i}';`);
  }
  out.push("END;");
  return out.join("\n");
}

/** Milliseconds to parse a 1,000-line statement set: the median of `runs` parses after one warm-up. */
export function parserMillis(runs: number): { lines: number; chars: number; ms: number } {
  const text = statementSetText(1000);
  parseStatement(text);
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    parseStatement(text);
    times.push(performance.now() - t0);
  }
  return { lines: text.split("\n").length, chars: text.length, ms: median(times) };
}
