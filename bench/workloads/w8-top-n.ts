/**
 * W8 (Nexmark q19-like): the top 3 bids by price per auction as a changelog, `ROW_NUMBER() OVER (PARTITION BY
 * auction ORDER BY price DESC) <= 3` with the row number: a new bid entering the top moves the bids after it
 * down one rank (`-U` / `+U` per changed rank, `+I` for a rank filled the first time); ties keep arrival order.
 * State: the (at most) 3 bids kept per auction.
 */
import { $ } from "../../src/index.js";
import type { Bid } from "../data.js";
import type { BaselineSink } from "../sink.js";
import type { Workload } from "../workload.js";

const INSERT = 0, UPDATE_BEFORE = 1, UPDATE_AFTER = 2;
const N = 3;

const ranked = (b: Bid, rn: number) => ({ auction: b.auction, bidder: b.bidder, price: b.price, channel: b.channel, dateTime: b.dateTime, rn });

export const W8: Workload = {
  id: "W8",
  like: "q19",
  description: "top 3 bids by price per auction with ROW_NUMBER, as a retract changelog",
  batch: false,
  gate: 0.6,
  plan: (bids) => bids.topN(N, { partitionBy: [$("auction")], orderBy: [$("price").desc()], rowNumber: "rn" }),
  baseline(bids: readonly Bid[], sink: BaselineSink): Map<number, Bid[]> {
    const tops = new Map<number, Bid[]>();
    for (let n = 0; n < bids.length; n++) {
      const b = bids[n]!;
      let top = tops.get(b.auction);
      if (top === undefined) {
        top = [];
        tops.set(b.auction, top);
      }
      let i = top.length;
      while (i > 0 && top[i - 1]!.price < b.price) i--;
      if (i >= N) continue;
      const before = top.length;
      top.splice(i, 0, b);
      const dropped = top.length > N ? top.pop() : undefined;
      const last = Math.min(before, N - 1);
      for (let p = i; p <= last; p++) {
        if (p < before) {
          const old = p + 1 < top.length ? top[p + 1]! : dropped!;
          sink.push(UPDATE_BEFORE, ranked(old, p + 1));
          sink.push(UPDATE_AFTER, ranked(top[p]!, p + 1));
        } else sink.push(INSERT, ranked(top[p]!, p + 1));
      }
    }
    return tops;
  },
  stateEntries(bids) {
    const s = new Set<number>();
    for (const b of bids) s.add(b.auction);
    return s.size;
  },
};
