/** W1 (Nexmark q2): keep the bids with `auction % 123 = 0`, projected as in W0. */
import { $ } from "../../src/index.js";
import type { Bid } from "../data.js";
import type { BaselineSink } from "../sink.js";
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
};
