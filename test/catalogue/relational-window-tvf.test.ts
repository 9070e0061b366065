// §24 window table functions (WindowTableFunctionTestPrograms): the TVF's rows and a window aggregate over
// it, two-phase restore form through SQL, Flink's exact rows (multisets). The source's `proc_time AS
// PROCTIME()` column is left out (no event-time query reads it; the proc-time programs R-161 and R-167 wait
// for PROCTIME()).
import { describe, expect, it } from "vitest";
import { type CatalogueSource, runRestore, sorted } from "./restore-runner.js";

const ts = (s: number) => `2020-04-15 08:00:${String(s).padStart(2, "0")}`;
const BID: CatalogueSource = {
  name: "bid_t", columns: "ts STRING, price DECIMAL(10,2), item STRING, `bid_time` AS TO_TIMESTAMP(`ts`), WATERMARK for `bid_time` AS `bid_time` - INTERVAL '1' SECOND",
  before: [[ts(5), "4.00", "C"], [ts(7), "2.00", "A"], [ts(9), "5.00", "D"], [ts(11), "3.00", "B"], [ts(13), "1.00", "E"], [ts(17), "6.00", "F"]],
  after: [[ts(21), "4.00", "A"], [ts(27), "5.00", "C"]],
};
const TVF_SINK = { name: "sink_t", columns: "bid_time TIMESTAMP(3), price DECIMAL(10,2), item STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), window_time TIMESTAMP_LTZ" };
const AGG_SINK = { name: "sink_t", columns: "window_start TIMESTAMP(3), window_end TIMESTAMP(3), price DECIMAL(10,2)" };
const UTC = { "table.local-time-zone": "UTC" };
const queryTvf = (tvf: string) => `INSERT INTO sink_t SELECT
      bid_time,
     price,
     item,
     window_start,
     window_end,
     window_time
 FROM
     ${tvf}`;
const queryTvfAgg = (tvf: string) => `INSERT INTO sink_t SELECT
     window_start,
     window_end,
     SUM(price)
 FROM
     ${tvf}
 GROUP BY window_start, window_end`;
const at = (s: number) => `2020-04-15T08:00${s === 0 ? "" : `:${String(s).padStart(2, "0")}`}`;
/** A TVF row: the bid, its window [start, end) and window_time = end - 1 ms as an instant. */
const row = (bid: number, rest: string, start: number, end: number) => `+I[${at(bid)}, ${rest}, ${at(start)}, ${at(end)}, ${at(end - 1)}.999Z]`;

describe("§24 window table functions, restored from a savepoint", () => {
  it("R-157 window-table-function-tumble-tvf", async () => {
    const r = await runRestore({ sources: [BID], sink: TVF_SINK, config: UTC, sql: queryTvf("TABLE(TUMBLE(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '10' SECOND))") });
    expect(sorted(r.before)).toEqual(sorted([
      row(5, "4.00, C", 0, 10), row(7, "2.00, A", 0, 10), row(9, "5.00, D", 0, 10), row(11, "3.00, B", 10, 20), row(13, "1.00, E", 10, 20), row(17, "6.00, F", 10, 20),
    ]));
    expect(sorted(r.after)).toEqual(sorted([row(21, "4.00, A", 20, 30), row(27, "5.00, C", 20, 30)]));
  });

  it("R-159 window-table-function-tumble-tvf-negative-offset", async () => {
    const r = await runRestore({ sources: [BID], sink: TVF_SINK, config: UTC, sql: queryTvf("TABLE(TUMBLE(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '10' SECOND, INTERVAL '-6' SECOND))") });
    expect(sorted(r.before)).toEqual(sorted([
      row(5, "4.00, C", 4, 14), row(7, "2.00, A", 4, 14), row(9, "5.00, D", 4, 14), row(11, "3.00, B", 4, 14), row(13, "1.00, E", 4, 14), row(17, "6.00, F", 14, 24),
    ]));
    expect(sorted(r.after)).toEqual(sorted([row(21, "4.00, A", 14, 24), row(27, "5.00, C", 24, 34)]));
  });

  it("R-163 window-table-function-hop-tvf-agg", async () => {
    const r = await runRestore({ sources: [BID], sink: AGG_SINK, sql: queryTvfAgg("TABLE(HOP(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '5' SECOND, INTERVAL '10' SECOND))") });
    expect(sorted(r.before)).toEqual(sorted([`+I[${at(0)}, ${at(10)}, 11.00]`, `+I[${at(5)}, ${at(15)}, 15.00]`]));
    expect(sorted(r.after)).toEqual(sorted([`+I[${at(10)}, ${at(20)}, 10.00]`, `+I[${at(15)}, ${at(25)}, 10.00]`, `+I[${at(20)}, ${at(30)}, 9.00]`, `+I[${at(25)}, ${at(35)}, 5.00]`]));
  });

  it("R-165 window-table-function-cumulate-tvf", async () => {
    const r = await runRestore({ sources: [BID], sink: TVF_SINK, config: UTC, sql: queryTvf("TABLE(CUMULATE(TABLE bid_t, DESCRIPTOR(bid_time), INTERVAL '5' SECOND, INTERVAL '10' SECOND))") });
    expect(sorted(r.before)).toEqual(sorted([
      row(5, "4.00, C", 0, 10), row(7, "2.00, A", 0, 10), row(9, "5.00, D", 0, 10), row(11, "3.00, B", 10, 15), row(11, "3.00, B", 10, 20),
      row(13, "1.00, E", 10, 15), row(13, "1.00, E", 10, 20), row(17, "6.00, F", 10, 20),
    ]));
    expect(sorted(r.after)).toEqual(sorted([row(21, "4.00, A", 20, 25), row(21, "4.00, A", 20, 30), row(27, "5.00, C", 20, 30)]));
  });
});
