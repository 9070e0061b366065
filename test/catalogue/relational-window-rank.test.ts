// §16 window top-N and §17 window deduplication (WindowRankTestPrograms, WindowDeduplicateTestPrograms):
// two-phase restore form through SQL, Flink's exact rows (multisets). The programs' `proc_time AS PROCTIME()`
// column is left out of the source: no query reads it (PROCTIME() is another engineer's work).
import { describe, expect, it } from "vitest";
import { type CatalogueSource, runRestore, sorted } from "./restore-runner.js";

const BID = "ts STRING, price DECIMAL(10,2), item STRING, supplier_id STRING, `bid_time` AS TO_TIMESTAMP(`ts`), WATERMARK for `bid_time` AS `bid_time` - INTERVAL '1' SECOND";
const ts = (s: number) => `2020-04-15 08:00:${String(s).padStart(2, "0")}`;
const RANK_BIDS: CatalogueSource = {
  name: "bid_t", columns: BID,
  before: [[ts(5), "4.00", "A", "supplier1"], [ts(6), "4.00", "C", "supplier2"], [ts(7), "2.00", "G", "supplier1"], [ts(8), "2.00", "B", "supplier3"],
    [ts(9), "5.00", "D", "supplier4"], [ts(11), "2.00", "B", "supplier3"], [ts(13), "1.00", "E", "supplier1"], [ts(15), "3.00", "H", "supplier2"], [ts(17), "6.00", "F", "supplier5"]],
  after: [[ts(21), "2.00", "B", "supplier7"], [ts(23), "1.00", "A", "supplier4"], [ts(25), "3.00", "C", "supplier3"], [ts(28), "6.00", "A", "supplier8"]],
};
const DEDUP_BIDS: CatalogueSource = {
  name: "bid_t", columns: BID,
  before: [[ts(5), "4.00", "A", "supplier1"], [ts(6), "4.00", "A", "supplier2"], [ts(7), "2.00", "G", "supplier1"], [ts(8), "2.00", "A", "supplier3"],
    [ts(9), "5.00", "D", "supplier4"], [ts(11), "2.00", "B", "supplier3"], [ts(13), "1.00", "E", "supplier1"], [ts(15), "3.00", "B", "supplier2"], [ts(17), "6.00", "D", "supplier5"]],
  after: [[ts(21), "2.00", "B", "supplier7"], [ts(23), "1.00", "A", "supplier4"], [ts(25), "3.00", "C", "supplier3"], [ts(28), "6.00", "A", "supplier8"]],
};
const TUMBLE = "TABLE(TUMBLE(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '10' SECOND))";
const HOP = "TABLE(HOP(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '5' SECOND, INTERVAL '10' SECOND))";
const CUMULATE = "TABLE(CUMULATE(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '5' SECOND, INTERVAL '10' SECOND))";
const RANK_SINK = { name: "sink_t", columns: "window_start TIMESTAMP(3), window_end TIMESTAMP(3), bid_time TIMESTAMP(3), supplier_id STRING, price DECIMAL(10,2), item STRING, row_num BIGINT" };
const topN = (order: string, tvf: string) => `INSERT INTO sink_t SELECT *
  FROM (
    SELECT
         window_start,
         window_end, 
         bid_time,
         supplier_id,
         price,
         item,
         ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price ${order}) AS row_num
    FROM ${tvf}
  ) WHERE row_num <= 3`;
/** `+I[window_start, window_end, bid_time, supplier, price, item, n]` with times given as seconds after 08:00. */
const w = (start: number, end: number) => `2020-04-15T08:00${start === 0 ? "" : `:${String(start).padStart(2, "0")}`}, 2020-04-15T08:00:${String(end).padStart(2, "0")}`;
const at = (s: number) => `2020-04-15T08:00:${String(s).padStart(2, "0")}`;
const rank = (start: number, end: number, bid: number, rest: string) => `+I[${w(start, end)}, ${at(bid)}, ${rest}]`;

describe("§16 window top-N, restored from a savepoint", () => {
  it("R-097 window-rank-tumble-tvf-min-top-n", async () => {
    const r = await runRestore({ sources: [RANK_BIDS], sink: RANK_SINK, sql: topN("ASC", TUMBLE) });
    expect(sorted(r.before)).toEqual(sorted([rank(0, 10, 7, "supplier1, 2.00, G, 1"), rank(0, 10, 8, "supplier3, 2.00, B, 2"), rank(0, 10, 5, "supplier1, 4.00, A, 3")]));
    expect(sorted(r.after)).toEqual(sorted([
      rank(10, 20, 13, "supplier1, 1.00, E, 1"), rank(10, 20, 11, "supplier3, 2.00, B, 2"), rank(10, 20, 15, "supplier2, 3.00, H, 3"),
      rank(20, 30, 23, "supplier4, 1.00, A, 1"), rank(20, 30, 21, "supplier7, 2.00, B, 2"), rank(20, 30, 25, "supplier3, 3.00, C, 3"),
    ]));
  });

  it("R-099 window-rank-tumble-tvf-max-top-n", async () => {
    const r = await runRestore({ sources: [RANK_BIDS], sink: RANK_SINK, sql: topN("DESC", TUMBLE) });
    expect(sorted(r.before)).toEqual(sorted([rank(0, 10, 9, "supplier4, 5.00, D, 1"), rank(0, 10, 5, "supplier1, 4.00, A, 2"), rank(0, 10, 6, "supplier2, 4.00, C, 3")]));
    expect(sorted(r.after)).toEqual(sorted([
      rank(10, 20, 17, "supplier5, 6.00, F, 1"), rank(10, 20, 15, "supplier2, 3.00, H, 2"), rank(10, 20, 11, "supplier3, 2.00, B, 3"),
      rank(20, 30, 28, "supplier8, 6.00, A, 1"), rank(20, 30, 25, "supplier3, 3.00, C, 2"), rank(20, 30, 21, "supplier7, 2.00, B, 3"),
    ]));
  });

  it("R-101 window-rank-hop-tvf-min-top-n", async () => {
    const r = await runRestore({ sources: [RANK_BIDS], sink: RANK_SINK, sql: topN("ASC", HOP) });
    expect(sorted(r.before)).toEqual(sorted([
      rank(0, 10, 7, "supplier1, 2.00, G, 1"), rank(0, 10, 8, "supplier3, 2.00, B, 2"), rank(0, 10, 5, "supplier1, 4.00, A, 3"),
      rank(5, 15, 13, "supplier1, 1.00, E, 1"), rank(5, 15, 7, "supplier1, 2.00, G, 2"), rank(5, 15, 8, "supplier3, 2.00, B, 3"),
    ]));
    expect(sorted(r.after)).toEqual(sorted([
      rank(10, 20, 13, "supplier1, 1.00, E, 1"), rank(10, 20, 11, "supplier3, 2.00, B, 2"), rank(10, 20, 15, "supplier2, 3.00, H, 3"),
      rank(15, 25, 23, "supplier4, 1.00, A, 1"), rank(15, 25, 21, "supplier7, 2.00, B, 2"), rank(15, 25, 15, "supplier2, 3.00, H, 3"),
      rank(20, 30, 23, "supplier4, 1.00, A, 1"), rank(20, 30, 21, "supplier7, 2.00, B, 2"), rank(20, 30, 25, "supplier3, 3.00, C, 3"),
      rank(25, 35, 25, "supplier3, 3.00, C, 1"), rank(25, 35, 28, "supplier8, 6.00, A, 2"),
    ]));
  });

  it("R-103 window-rank-cumulate-tvf-min-top-n", async () => {
    const r = await runRestore({ sources: [RANK_BIDS], sink: RANK_SINK, sql: topN("ASC", CUMULATE) });
    expect(sorted(r.before)).toEqual(sorted([
      rank(0, 10, 7, "supplier1, 2.00, G, 1"), rank(0, 10, 8, "supplier3, 2.00, B, 2"), rank(0, 10, 5, "supplier1, 4.00, A, 3"),
      rank(10, 15, 13, "supplier1, 1.00, E, 1"), rank(10, 15, 11, "supplier3, 2.00, B, 2"),
    ]));
    expect(sorted(r.after)).toEqual(sorted([
      rank(10, 20, 13, "supplier1, 1.00, E, 1"), rank(10, 20, 11, "supplier3, 2.00, B, 2"), rank(10, 20, 15, "supplier2, 3.00, H, 3"),
      rank(20, 25, 23, "supplier4, 1.00, A, 1"), rank(20, 25, 21, "supplier7, 2.00, B, 2"),
      rank(20, 30, 23, "supplier4, 1.00, A, 1"), rank(20, 30, 21, "supplier7, 2.00, B, 2"), rank(20, 30, 25, "supplier3, 3.00, C, 3"),
    ]));
  });
});

const DEDUP_SINK = { name: "sink_t", columns: "bid_time TIMESTAMP(3), price DECIMAL(10,2), item STRING, supplier_id STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), row_num BIGINT" };
const dedup = (partitionBy: string, order: string, tvf: string, condition: string) => `INSERT INTO sink_t SELECT *
  FROM (
    SELECT
         bid_time,
         price,
         item,
         supplier_id,
         window_start,
         window_end, 
         ROW_NUMBER() OVER (PARTITION BY ${partitionBy} ORDER BY bid_time ${order}) AS row_num
    FROM ${tvf}
  ) WHERE ${condition}`;
const first = (bid: number, rest: string, start: number, end: number) => `+I[${at(bid)}, ${rest}, ${w(start, end)}, 1]`;

describe("§17 window deduplication, restored from a savepoint", () => {
  const R104 = {
    before: [first(5, "4.00, A, supplier1", 0, 10)],
    after: [first(11, "2.00, B, supplier3", 10, 20), first(21, "2.00, B, supplier7", 20, 30)],
  };
  for (const [id, condition] of [["R-104", "row_num <= 1"], ["R-105", "row_num = 1"], ["CONDITION_THREE", "row_num < 2"]] as const) {
    it(`${id} window-deduplicate-asc-tumble-first-row (${condition})`, async () => {
      const r = await runRestore({ sources: [DEDUP_BIDS], sink: DEDUP_SINK, sql: dedup("window_start, window_end", "ASC", TUMBLE, condition) });
      expect(sorted(r.before)).toEqual(R104.before);
      expect(sorted(r.after)).toEqual(sorted(R104.after));
    });
  }

  it("R-107 window-deduplicate-asc-partition-by-item-tumble-first-row", async () => {
    const r = await runRestore({ sources: [DEDUP_BIDS], sink: DEDUP_SINK, sql: dedup("window_start, window_end, item", "ASC", TUMBLE, "row_num <= 1") });
    expect(sorted(r.before)).toEqual(sorted([first(5, "4.00, A, supplier1", 0, 10), first(7, "2.00, G, supplier1", 0, 10), first(9, "5.00, D, supplier4", 0, 10)]));
    expect(sorted(r.after)).toEqual(sorted([
      first(11, "2.00, B, supplier3", 10, 20), first(13, "1.00, E, supplier1", 10, 20), first(17, "6.00, D, supplier5", 10, 20),
      first(21, "2.00, B, supplier7", 20, 30), first(23, "1.00, A, supplier4", 20, 30), first(25, "3.00, C, supplier3", 20, 30),
    ]));
  });

  it("R-109 window-deduplicate-desc-partition-by-item-tumble-first-row: the last row per item", async () => {
    const r = await runRestore({ sources: [DEDUP_BIDS], sink: DEDUP_SINK, sql: dedup("window_start, window_end, item", "DESC", TUMBLE, "row_num <= 1") });
    expect(sorted(r.before)).toEqual(sorted([first(8, "2.00, A, supplier3", 0, 10), first(7, "2.00, G, supplier1", 0, 10), first(9, "5.00, D, supplier4", 0, 10)]));
    expect(sorted(r.after)).toEqual(sorted([
      first(17, "6.00, D, supplier5", 10, 20), first(13, "1.00, E, supplier1", 10, 20), first(15, "3.00, B, supplier2", 10, 20),
      first(21, "2.00, B, supplier7", 20, 30), first(28, "6.00, A, supplier8", 20, 30), first(25, "3.00, C, supplier3", 20, 30),
    ]));
  });

  it("R-111 window-deduplicate-asc-cumulate-first-row", async () => {
    const r = await runRestore({ sources: [DEDUP_BIDS], sink: DEDUP_SINK, sql: dedup("window_start, window_end", "ASC", CUMULATE, "row_num <= 1") });
    expect(sorted(r.before)).toEqual(sorted([first(5, "4.00, A, supplier1", 0, 10), first(11, "2.00, B, supplier3", 10, 15)]));
    expect(sorted(r.after)).toEqual(sorted([first(11, "2.00, B, supplier3", 10, 20), first(21, "2.00, B, supplier7", 20, 25), first(21, "2.00, B, supplier7", 20, 30)]));
  });
});
