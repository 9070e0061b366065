/** W0 (Nexmark q1): project every bid to `{auction, bidder, price * 0.908, dateTime}`. */
import { $ } from "../../src/index.js";
import type { Bid } from "../data.js";
import type { BaselineSink } from "../sink.js";
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
};
