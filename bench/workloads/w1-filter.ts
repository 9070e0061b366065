/** W1 (Nexmark q2): keep the bids with `auction % 123 = 0`, projected as in W0. */
import { $ } from "../../src/index.js";
import type { Bid } from "../data.js";
import type { BaselineSink, ColumnSink } from "../sink.js";
import type { Workload } from "../workload.js";

export const W1: Workload = {
  id: "W1",
  like: "q2",
  description: "auction % 123 = 0, then the W0 projection",
  batch: false,
  gate: 0.35,
  plan: (bids) => bids
    .filter($("auction").mod(123).isEqual(0))
    .select($("auction"), $("bidder"), $("price").times(0.908).as("price"), $("dateTime")),
  baseline(bids: readonly Bid[], sink: BaselineSink): void {
    for (let i = 0; i < bids.length; i++) {
      const b = bids[i]!;
      if (b.auction % 123 !== 0) continue;
      sink.push(0, { auction: b.auction, bidder: b.bidder, price: b.price * 0.908, dateTime: b.dateTime });
    }
  },
  columnarBaseline(bids: readonly Bid[], sink: ColumnSink): void {
    // the matches of a chunk first (their count sizes the columns), then the columns from them
    const sel = new Int32Array(4096);
    for (let s = 0; s < bids.length; s += 4096) {
      const end = Math.min(bids.length, s + 4096);
      let n = 0;
      for (let i = s; i < end; i++) if (bids[i]!.auction % 123 === 0) sel[n++] = i;
      if (n === 0) continue;
      const auction = new Int32Array(n), bidder = new Int32Array(n), price = new Float64Array(n), dateTime = new Array<Date>(n);
      for (let k = 0; k < n; k++) {
        const b = bids[sel[k]!]!;
        auction[k] = b.auction;
        bidder[k] = b.bidder;
        price[k] = b.price * 0.908;
        dateTime[k] = b.dateTime;
      }
      sink.batch(n, new Uint8Array(n), { auction, bidder, price, dateTime });
    }
  },
};
