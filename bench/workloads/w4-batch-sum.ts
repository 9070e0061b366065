/** W4 (batch): `SUM(price)` per bidder, final results only (batch mode: one +I per bidder at the end). */
import { $ } from "../../src/index.js";
import type { Bid } from "../data.js";
import type { BaselineSink } from "../sink.js";
import type { Workload } from "../workload.js";

export const W4: Workload = {
  id: "W4",
  like: "batch",
  description: "SUM(price) per bidder in batch mode, final result only",
  batch: true,
  gate: 0.3,
  plan: (bids) => bids.groupBy($("bidder")).select($("bidder"), $("price").sum().as("total")),
  baseline(bids: readonly Bid[], sink: BaselineSink): Map<number, { total: number }> {
    const groups = new Map<number, { total: number }>();
    for (let i = 0; i < bids.length; i++) {
      const b = bids[i]!;
      const acc = groups.get(b.bidder);
      if (acc === undefined) groups.set(b.bidder, { total: b.price });
      else acc.total += b.price;
    }
    for (const [bidder, acc] of groups) sink.push(0, { bidder, total: acc.total });
    return groups;
  },
  stateEntries(bids) {
    const s = new Set<number>();
    for (const b of bids) s.add(b.bidder);
    return s.size;
  },
};
