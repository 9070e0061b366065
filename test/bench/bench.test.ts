import { describe, expect, it } from "vitest";
import { describeBids, generateBids } from "../../bench/data.js";
import { prepare, runBatches, runColumns, runJob } from "../../bench/harness.js";
import type { BaselineSink, ColumnSink } from "../../bench/sink.js";
import { WORKLOADS } from "../../bench/workloads/index.js";
import type { JobSink } from "../../src/table/executor.js";

/** Keeps every output, values in column order, for an exact comparison of the two sides. */
class AllOutputs implements JobSink, BaselineSink {
  readonly out: string[] = [];
  record(kind: number, values: readonly unknown[]): void { this.out.push(render(kind, values)); }
  push(kind: number, row: object): void { this.out.push(render(kind, Object.values(row))); }
}

/** Keeps every row of every batch, values in column order, rendered as AllOutputs renders them. */
class AllColumns implements ColumnSink {
  readonly out: string[] = [];
  readonly types = new Set<string>();
  batch(length: number, kinds: Uint8Array, columns: Readonly<Record<string, ArrayLike<unknown>>>): void {
    const names = Object.keys(columns);
    for (const n of names) this.types.add(`${n}: ${columns[n]!.constructor.name}`);
    for (let i = 0; i < length; i++) this.out.push(render(kinds[i]!, names.map((n) => columns[n]![i])));
  }
}

function render(kind: number, values: readonly unknown[]): string {
  return `${["+I", "-U", "+U", "-D"][kind]}[${values.map((v) => (v instanceof Date ? v.toISOString() : String(v))).join(", ")}]`;
}

describe("bench data: Nexmark-style bids", () => {
  const data = generateBids(100_000, 7);

  it("is deterministic per seed, and a shorter run is a prefix of a longer one", () => {
    const again = generateBids(1_000, 7);
    expect(again.objects).toEqual(data.objects.slice(0, 1_000));
    expect(generateBids(1_000, 8).objects).not.toEqual(again.objects);
  });

  it("has Nexmark's shape: 1:3:46 interleaving, 10,000 events/s, jitter below 100 ms", () => {
    const d = describeBids(data);
    // 100k bids are 100k * 50/46 events: 3/50 of them auctions, 1/50 people, 0.1 ms apart
    const events = (100_000 * 50) / 46;
    expect(d.auctions / (events * 3 / 50)).toBeCloseTo(1, 1);
    expect(d.bidders / (events / 50)).toBeCloseTo(1, 1);
    expect(d.eventSeconds).toBeGreaterThan(events / 10_000 - 0.1);
    expect(d.eventSeconds).toBeLessThan(events / 10_000 + 0.1);
    expect(d.maxDisorderMs).toBeLessThan(100);
    expect(d.maxDisorderMs).toBeGreaterThan(50);
  });

  it("sends half the bids to the hot auction and three quarters to the hot bidder", () => {
    // bid i belongs to epoch e = floor(i / 46) of 50 events (1 person, 3 auctions, 46 bids); Nexmark's hot
    // auction is the epoch's last auction (3e + 2) rounded down to even, its hot bidder the epoch's person
    // rounded down to a multiple of 4, plus 1; ids start at 1000
    let hotAuction = 0, hotBidder = 0;
    data.objects.forEach((b, i) => {
      const e = Math.floor(i / 46);
      if (b.auction === 1000 + Math.floor((3 * e + 2) / 2) * 2) hotAuction++;
      if (b.bidder === 1000 + Math.floor(e / 4) * 4 + 1) hotBidder++;
    });
    // plus the rare random pick that lands on the hot id (1 in ~110 auctions, ~1010 people)
    expect(hotAuction / data.objects.length).toBeCloseTo(0.5 + 0.5 / 111, 2);
    expect(hotBidder / data.objects.length).toBeCloseTo(0.75 + 0.25 / 1010, 2);
  });

  it("prices are integral and log-uniform in [100, 1e8]", () => {
    const prices = data.objects.map((b) => b.price);
    expect(prices.filter((p) => !Number.isInteger(p))).toEqual([]);
    expect(prices.reduce((a, b) => Math.min(a, b))).toBeGreaterThanOrEqual(100);
    expect(prices.reduce((a, b) => Math.max(a, b))).toBeLessThanOrEqual(1e8);
    // log10(price / 100) / 6 is uniform on [0, 1]: mean 1/2, and each tenth of the range holds a tenth of the prices
    const u = prices.map((p) => Math.log10(p / 100) / 6);
    expect(u.reduce((a, b) => a + b, 0) / u.length).toBeCloseTo(0.5, 2);
    for (let d = 0; d < 10; d++) {
      expect(u.filter((x) => x >= d / 10 && x < (d + 1) / 10).length / u.length).toBeCloseTo(0.1, 2);
    }
  });
});

describe("bench workloads: the Table API plan and the baseline loop do the same work", () => {
  const data = generateBids(30_000, 3);
  for (const w of WORKLOADS) {
    it(`${w.id}: ${w.description}`, async () => {
      const base = new AllOutputs();
      w.baseline(data.objects, base);
      const p = prepare(w, data);
      const table = new AllOutputs();
      runJob(p.table, table);
      expect(table.out.length).toBeGreaterThan(0);
      expect(table.out).toEqual(base.out);
      // the public batch consumer the bench's headline column times
      const batches = new AllOutputs();
      await runBatches(p.table, batches);
      expect(batches.out).toEqual(base.out);
    });
  }
});

describe("bench workloads: columnBatches() and the columnar baseline write exactly the rows of the row baseline", () => {
  const data = generateBids(30_000, 3);
  for (const w of WORKLOADS.filter((x) => x.columnarBaseline !== undefined)) {
    it(`${w.id}: ${w.description}`, async () => {
      const base = new AllOutputs();
      w.baseline(data.objects, base);
      const columnarBase = new AllColumns();
      w.columnarBaseline!(data.objects, columnarBase);
      expect(columnarBase.out).toEqual(base.out);
      const table = new AllColumns();
      await runColumns(prepare(w, data).table, table);
      expect(table.out.length).toBeGreaterThan(0);
      expect(table.out).toEqual(base.out);
      // the same storage on both sides: typed arrays for the INT and DOUBLE columns, an array of Dates
      expect([...table.types]).toEqual(["auction: Int32Array", "bidder: Int32Array", "price: Float64Array", "dateTime: Array"]);
      expect([...columnarBase.types]).toEqual([...table.types]);
    });
  }
});
