// Window top-N and window deduplication in SQL (ROW_NUMBER() partitioned by window_start, window_end over a window
// TVF), with the rows of Flink's programs R-097 .. R-111.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DataTypes, EnvironmentSettings, Row, Schema, TableEnvironment } from "../../src/index.js";
import { BACKENDS, BACKEND_NAMES, type BackendName } from "../windows/support.js";

const sorted = (rows: readonly string[]) => [...rows].sort();
type Bid = [string, string, string, string];

/** The state backend the environments of the running describe block use (BACKENDS). */
let backend: BackendName = "hashmap";

function bidEnv(rows: readonly Bid[], make = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode())): TableEnvironment {
  const env = make();
  for (const [k, v] of Object.entries(BACKENDS[backend])) env.getConfig().set(k, v);
  const schema = Schema.newBuilder().column("ts", DataTypes.STRING()).column("price", DataTypes.DECIMAL(10, 2)).column("item", DataTypes.STRING())
    .column("supplier_id", DataTypes.STRING()).columnByExpression("bid_time", "TO_TIMESTAMP(`ts`)").watermark("bid_time", "`bid_time` - INTERVAL '1' SECOND").build();
  env.createTemporaryView("bid_t", env.fromValues(schema, ...rows.map((r) => Row.of(...r))) as never);
  return env;
}
const T = (s: string) => `2020-04-15 08:00:${s}`;
const RANK_ROWS: Bid[] = [
  [T("05"), "4.00", "A", "supplier1"], [T("06"), "4.00", "C", "supplier2"], [T("07"), "2.00", "G", "supplier1"], [T("08"), "2.00", "B", "supplier3"],
  [T("09"), "5.00", "D", "supplier4"], [T("11"), "2.00", "B", "supplier3"], [T("13"), "1.00", "E", "supplier1"], [T("15"), "3.00", "H", "supplier2"],
  [T("17"), "6.00", "F", "supplier5"], [T("21"), "2.00", "B", "supplier7"], [T("23"), "1.00", "A", "supplier4"], [T("25"), "3.00", "C", "supplier3"],
  [T("28"), "6.00", "A", "supplier8"],
];
const DEDUP_ROWS: Bid[] = [
  [T("05"), "4.00", "A", "supplier1"], [T("06"), "4.00", "A", "supplier2"], [T("07"), "2.00", "G", "supplier1"], [T("08"), "2.00", "A", "supplier3"],
  [T("09"), "5.00", "D", "supplier4"], [T("11"), "2.00", "B", "supplier3"], [T("13"), "1.00", "E", "supplier1"], [T("15"), "3.00", "B", "supplier2"],
  [T("17"), "6.00", "D", "supplier5"], [T("21"), "2.00", "B", "supplier7"], [T("23"), "1.00", "A", "supplier4"], [T("25"), "3.00", "C", "supplier3"],
  [T("28"), "6.00", "A", "supplier8"],
];
const TUMBLE = "TABLE(TUMBLE(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '10' SECOND))";
const HOP = "TABLE(HOP(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '5' SECOND, INTERVAL '10' SECOND))";
const CUMULATE = "TABLE(CUMULATE(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '5' SECOND, INTERVAL '10' SECOND))";
const TOP_N = (order: string, tvf: string) => `SELECT * FROM (SELECT window_start, window_end, bid_time, supplier_id, price, item,
  ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price ${order}) AS row_num FROM ${tvf}) WHERE row_num <= 3`;
const DEDUP = (partition: string, order: string, tvf: string, condition: string) => `SELECT * FROM (SELECT bid_time, price, item, supplier_id, window_start, window_end,
  ROW_NUMBER() OVER (PARTITION BY ${partition} ORDER BY bid_time ${order}) AS row_num FROM ${tvf}) WHERE ${condition}`;
const W = (a: string, b: string) => `2020-04-15T08:00${a === "00" ? "" : `:${a}`}, 2020-04-15T08:00:${b}`;

describe.each(BACKEND_NAMES)("window top-N (state.backend.type = %s)", (b) => {
  beforeEach(() => { backend = b; });
  afterEach(() => { backend = "hashmap"; });
  it("R-097 window-rank-tumble-tvf-min-top-n: ranked once per window at its end, ties in arrival order, append-only", async () => {
    const env = bidEnv(RANK_ROWS);
    const t = env.sqlQuery(TOP_N("ASC", TUMBLE));
    expect(t.changelogMode()).toBe("[I]");
    expect(t.explain()).toContain("WindowRank(window=[window_start, window_end], partitionBy=[], orderBy=[price ASC NULLS FIRST], rankRange=[1..3], rowNumber=[$rn]");
    expect(await t.execute().toChangelog()).toEqual([
      `+I[${W("00", "10")}, 2020-04-15T08:00:07, supplier1, 2.00, G, 1]`, `+I[${W("00", "10")}, 2020-04-15T08:00:08, supplier3, 2.00, B, 2]`,
      `+I[${W("00", "10")}, 2020-04-15T08:00:05, supplier1, 4.00, A, 3]`,
      `+I[${W("10", "20")}, 2020-04-15T08:00:13, supplier1, 1.00, E, 1]`, `+I[${W("10", "20")}, 2020-04-15T08:00:11, supplier3, 2.00, B, 2]`,
      `+I[${W("10", "20")}, 2020-04-15T08:00:15, supplier2, 3.00, H, 3]`,
      `+I[${W("20", "30")}, 2020-04-15T08:00:23, supplier4, 1.00, A, 1]`, `+I[${W("20", "30")}, 2020-04-15T08:00:21, supplier7, 2.00, B, 2]`,
      `+I[${W("20", "30")}, 2020-04-15T08:00:25, supplier3, 3.00, C, 3]`,
    ]);
  });

  it("R-099 window-rank-tumble-tvf-max-top-n", async () => {
    expect(await bidEnv(RANK_ROWS).executeSql(TOP_N("DESC", TUMBLE)).toChangelog()).toEqual([
      `+I[${W("00", "10")}, 2020-04-15T08:00:09, supplier4, 5.00, D, 1]`, `+I[${W("00", "10")}, 2020-04-15T08:00:05, supplier1, 4.00, A, 2]`,
      `+I[${W("00", "10")}, 2020-04-15T08:00:06, supplier2, 4.00, C, 3]`,
      `+I[${W("10", "20")}, 2020-04-15T08:00:17, supplier5, 6.00, F, 1]`, `+I[${W("10", "20")}, 2020-04-15T08:00:15, supplier2, 3.00, H, 2]`,
      `+I[${W("10", "20")}, 2020-04-15T08:00:11, supplier3, 2.00, B, 3]`,
      `+I[${W("20", "30")}, 2020-04-15T08:00:28, supplier8, 6.00, A, 1]`, `+I[${W("20", "30")}, 2020-04-15T08:00:25, supplier3, 3.00, C, 2]`,
      `+I[${W("20", "30")}, 2020-04-15T08:00:21, supplier7, 2.00, B, 3]`,
    ]);
  });

  it("R-101 window-rank-hop-tvf-min-top-n", async () => {
    expect(sorted(await bidEnv(RANK_ROWS).executeSql(TOP_N("ASC", HOP)).toChangelog())).toEqual(sorted([
      `+I[${W("00", "10")}, 2020-04-15T08:00:07, supplier1, 2.00, G, 1]`, `+I[${W("00", "10")}, 2020-04-15T08:00:08, supplier3, 2.00, B, 2]`,
      `+I[${W("00", "10")}, 2020-04-15T08:00:05, supplier1, 4.00, A, 3]`,
      `+I[${W("05", "15")}, 2020-04-15T08:00:13, supplier1, 1.00, E, 1]`, `+I[${W("05", "15")}, 2020-04-15T08:00:07, supplier1, 2.00, G, 2]`,
      `+I[${W("05", "15")}, 2020-04-15T08:00:08, supplier3, 2.00, B, 3]`,
      `+I[${W("10", "20")}, 2020-04-15T08:00:13, supplier1, 1.00, E, 1]`, `+I[${W("10", "20")}, 2020-04-15T08:00:11, supplier3, 2.00, B, 2]`,
      `+I[${W("10", "20")}, 2020-04-15T08:00:15, supplier2, 3.00, H, 3]`,
      `+I[${W("15", "25")}, 2020-04-15T08:00:23, supplier4, 1.00, A, 1]`, `+I[${W("15", "25")}, 2020-04-15T08:00:21, supplier7, 2.00, B, 2]`,
      `+I[${W("15", "25")}, 2020-04-15T08:00:15, supplier2, 3.00, H, 3]`,
      `+I[${W("20", "30")}, 2020-04-15T08:00:23, supplier4, 1.00, A, 1]`, `+I[${W("20", "30")}, 2020-04-15T08:00:21, supplier7, 2.00, B, 2]`,
      `+I[${W("20", "30")}, 2020-04-15T08:00:25, supplier3, 3.00, C, 3]`,
      `+I[${W("25", "35")}, 2020-04-15T08:00:25, supplier3, 3.00, C, 1]`, `+I[${W("25", "35")}, 2020-04-15T08:00:28, supplier8, 6.00, A, 2]`,
    ]));
  });

  it("R-103 window-rank-cumulate-tvf-min-top-n", async () => {
    expect(sorted(await bidEnv(RANK_ROWS).executeSql(TOP_N("ASC", CUMULATE)).toChangelog())).toEqual(sorted([
      `+I[${W("00", "10")}, 2020-04-15T08:00:07, supplier1, 2.00, G, 1]`, `+I[${W("00", "10")}, 2020-04-15T08:00:08, supplier3, 2.00, B, 2]`,
      `+I[${W("00", "10")}, 2020-04-15T08:00:05, supplier1, 4.00, A, 3]`,
      `+I[${W("10", "15")}, 2020-04-15T08:00:13, supplier1, 1.00, E, 1]`, `+I[${W("10", "15")}, 2020-04-15T08:00:11, supplier3, 2.00, B, 2]`,
      `+I[${W("10", "20")}, 2020-04-15T08:00:13, supplier1, 1.00, E, 1]`, `+I[${W("10", "20")}, 2020-04-15T08:00:11, supplier3, 2.00, B, 2]`,
      `+I[${W("10", "20")}, 2020-04-15T08:00:15, supplier2, 3.00, H, 3]`,
      `+I[${W("20", "25")}, 2020-04-15T08:00:23, supplier4, 1.00, A, 1]`, `+I[${W("20", "25")}, 2020-04-15T08:00:21, supplier7, 2.00, B, 2]`,
      `+I[${W("20", "30")}, 2020-04-15T08:00:23, supplier4, 1.00, A, 1]`, `+I[${W("20", "30")}, 2020-04-15T08:00:21, supplier7, 2.00, B, 2]`,
      `+I[${W("20", "30")}, 2020-04-15T08:00:25, supplier3, 3.00, C, 3]`,
    ]));
  });

  it("over a window aggregate: the top suppliers per window by their total", async () => {
    const sql = `SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) AS row_num FROM (
      SELECT window_start, window_end, supplier_id, SUM(price) AS price, COUNT(*) AS cnt FROM ${TUMBLE} GROUP BY window_start, window_end, supplier_id)) WHERE row_num <= 1`;
    const t = bidEnv(RANK_ROWS).sqlQuery(sql);
    expect(t.changelogMode()).toBe("[I]");
    expect(await t.execute().toChangelog()).toEqual([
      `+I[${W("00", "10")}, supplier1, 6.00, 2, 1]`, `+I[${W("10", "20")}, supplier5, 6.00, 1, 1]`, `+I[${W("20", "30")}, supplier8, 6.00, 1, 1]`,
    ]);
  });
});

describe.each(BACKEND_NAMES)("window deduplication (state.backend.type = %s)", (b) => {
  beforeEach(() => { backend = b; });
  afterEach(() => { backend = "hashmap"; });
  it("R-104 / R-105 window-deduplicate-asc-tumble-first-row: row_num <= 1 and row_num = 1 (and < 2) keep each window's first row", async () => {
    const expected = [
      `+I[2020-04-15T08:00:05, 4.00, A, supplier1, ${W("00", "10")}, 1]`, `+I[2020-04-15T08:00:11, 2.00, B, supplier3, ${W("10", "20")}, 1]`,
      `+I[2020-04-15T08:00:21, 2.00, B, supplier7, ${W("20", "30")}, 1]`,
    ];
    for (const c of ["row_num <= 1", "row_num = 1", "row_num < 2"]) {
      expect(await bidEnv(DEDUP_ROWS).executeSql(DEDUP("window_start, window_end", "ASC", TUMBLE, c)).toChangelog()).toEqual(expected);
    }
  });

  it("R-107 window-deduplicate-asc-partition-by-item-tumble-first-row", async () => {
    expect(sorted(await bidEnv(DEDUP_ROWS).executeSql(DEDUP("window_start, window_end, item", "ASC", TUMBLE, "row_num <= 1")).toChangelog())).toEqual(sorted([
      `+I[2020-04-15T08:00:05, 4.00, A, supplier1, ${W("00", "10")}, 1]`, `+I[2020-04-15T08:00:07, 2.00, G, supplier1, ${W("00", "10")}, 1]`,
      `+I[2020-04-15T08:00:09, 5.00, D, supplier4, ${W("00", "10")}, 1]`,
      `+I[2020-04-15T08:00:11, 2.00, B, supplier3, ${W("10", "20")}, 1]`, `+I[2020-04-15T08:00:13, 1.00, E, supplier1, ${W("10", "20")}, 1]`,
      `+I[2020-04-15T08:00:17, 6.00, D, supplier5, ${W("10", "20")}, 1]`,
      `+I[2020-04-15T08:00:21, 2.00, B, supplier7, ${W("20", "30")}, 1]`, `+I[2020-04-15T08:00:23, 1.00, A, supplier4, ${W("20", "30")}, 1]`,
      `+I[2020-04-15T08:00:25, 3.00, C, supplier3, ${W("20", "30")}, 1]`,
    ]));
  });

  it("R-109 window-deduplicate-desc-partition-by-item-tumble-first-row: DESC keeps the last row", async () => {
    expect(sorted(await bidEnv(DEDUP_ROWS).executeSql(DEDUP("window_start, window_end, item", "DESC", TUMBLE, "row_num <= 1")).toChangelog())).toEqual(sorted([
      `+I[2020-04-15T08:00:08, 2.00, A, supplier3, ${W("00", "10")}, 1]`, `+I[2020-04-15T08:00:07, 2.00, G, supplier1, ${W("00", "10")}, 1]`,
      `+I[2020-04-15T08:00:09, 5.00, D, supplier4, ${W("00", "10")}, 1]`,
      `+I[2020-04-15T08:00:17, 6.00, D, supplier5, ${W("10", "20")}, 1]`, `+I[2020-04-15T08:00:13, 1.00, E, supplier1, ${W("10", "20")}, 1]`,
      `+I[2020-04-15T08:00:15, 3.00, B, supplier2, ${W("10", "20")}, 1]`,
      `+I[2020-04-15T08:00:21, 2.00, B, supplier7, ${W("20", "30")}, 1]`, `+I[2020-04-15T08:00:28, 6.00, A, supplier8, ${W("20", "30")}, 1]`,
      `+I[2020-04-15T08:00:25, 3.00, C, supplier3, ${W("20", "30")}, 1]`,
    ]));
  });

  it("R-111 window-deduplicate-asc-cumulate-first-row; batch gives the same rows", async () => {
    const expected = sorted([
      `+I[2020-04-15T08:00:05, 4.00, A, supplier1, ${W("00", "10")}, 1]`, `+I[2020-04-15T08:00:11, 2.00, B, supplier3, ${W("10", "15")}, 1]`,
      `+I[2020-04-15T08:00:11, 2.00, B, supplier3, ${W("10", "20")}, 1]`, `+I[2020-04-15T08:00:21, 2.00, B, supplier7, ${W("20", "25")}, 1]`,
      `+I[2020-04-15T08:00:21, 2.00, B, supplier7, ${W("20", "30")}, 1]`,
    ]);
    const sql = DEDUP("window_start, window_end", "ASC", CUMULATE, "row_num <= 1");
    expect(sorted(await bidEnv(DEDUP_ROWS).executeSql(sql).toChangelog())).toEqual(expected);
    expect(sorted(await bidEnv(DEDUP_ROWS, () => TableEnvironment.create(EnvironmentSettings.inBatchMode())).executeSql(sql).toChangelog())).toEqual(expected);
  });

  it("a late row is dropped from a window that was already ranked", async () => {
    const rows: Bid[] = [[T("05"), "4.00", "A", "s1"], [T("12"), "1.00", "B", "s2"], [T("03"), "0.50", "late", "s3"], [T("14"), "2.00", "C", "s4"]];
    const sql = `SELECT item, row_num FROM (SELECT item, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price) AS row_num FROM ${TUMBLE}) WHERE row_num <= 2`;
    expect(await bidEnv(rows).executeSql(sql).toChangelog()).toEqual(["+I[A, 1]", "+I[B, 1]", "+I[C, 2]"]);
  });
});
