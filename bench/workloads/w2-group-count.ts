/**
 * W2 (unbounded GROUP BY): `COUNT(*)` per auction as a changelog — `+I` for a group's first row, then
 * `-U old` / `+U new` for every further row.
 */
import { $ } from "../../src/index.js";
import type { Bid } from "../data.js";
import type { BaselineSink } from "../sink.js";
import type { Workload } from "../workload.js";

const INSERT = 0, UPDATE_BEFORE = 1, UPDATE_AFTER = 2;

export const W2: Workload = {
  id: "W2",
  like: "GROUP BY",
  description: "COUNT(*) per auction as a retract changelog (+I, then -U/+U per row)",
  batch: false,
  gate: 0.35,
  plan: (bids) => bids.groupBy($("auction")).select($("auction"), $("auction").count().as("cnt")),
  baseline(bids: readonly Bid[], sink: BaselineSink): Map<number, { cnt: number }> {
    const groups = new Map<number, { cnt: number }>();
    for (let i = 0; i < bids.length; i++) {
      const b = bids[i]!;
      const acc = groups.get(b.auction);
      if (acc === undefined) {
        groups.set(b.auction, { cnt: 1 });
        sink.push(INSERT, { auction: b.auction, cnt: 1 });
      } else {
        sink.push(UPDATE_BEFORE, { auction: b.auction, cnt: acc.cnt });
        acc.cnt++;
        sink.push(UPDATE_AFTER, { auction: b.auction, cnt: acc.cnt });
      }
    }
    return groups;
  },
  stateEntries(bids) {
    const s = new Set<number>();
    for (const b of bids) s.add(b.auction);
    return s.size;
  },
};
