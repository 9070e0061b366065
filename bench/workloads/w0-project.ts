/** W0 (Nexmark q1): project every bid to `{auction, bidder, price * 0.908, dateTime}`. */
import { $ } from "../../src/index.js";
import type { Bid } from "../data.js";
import type { BaselineSink, ColumnSink } from "../sink.js";
import type { Workload } from "../workload.js";

export const W0: Workload = {
  id: "W0",
  like: "q1",
  description: "project every row to {auction, bidder, price * 0.908, dateTime}",
  batch: false,
  gate: 0.35,
  plan: (bids) => bids.select($("auction"), $("bidder"), $("price").times(0.908).as("price"), $("dateTime")),
  baseline(bids: readonly Bid[], sink: BaselineSink): void {
    for (let i = 0; i < bids.length; i++) {
      const b = bids[i]!;
      sink.push(0, { auction: b.auction, bidder: b.bidder, price: b.price * 0.908, dateTime: b.dateTime });
    }
  },
  columnarBaseline(bids: readonly Bid[], sink: ColumnSink): void {
    for (let s = 0; s < bids.length; s += 4096) {
      const n = Math.min(4096, bids.length - s);
      const auction = new Int32Array(n), bidder = new Int32Array(n), price = new Float64Array(n), dateTime = new Array<Date>(n);
      for (let k = 0; k < n; k++) {
        const b = bids[s + k]!;
        auction[k] = b.auction;
        bidder[k] = b.bidder;
        price[k] = b.price * 0.908;
        dateTime[k] = b.dateTime;
      }
      sink.batch(n, new Uint8Array(n), { auction, bidder, price, dateTime });
    }
  },
};
