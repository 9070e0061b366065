/**
 * W2-MB: W2's `COUNT(*)` per auction with mini-batch (`table.exec.mini-batch.size = 1000`): records fold into
 * their groups as they come; per bundle of 1000 records each touched auction emits one change (`+I` when new,
 * else `-U old` / `+U new`), in order of first touch. The baseline folds the same way by hand. One phase
 * (`table.optimizer.agg-phase-strategy = ONE_PHASE`): COUNT can merge, so the default would plan a local and
 * a global aggregate, whose bundles end elsewhere (docs/semantics.md, "Two phases").
 */
import { $ } from "../../src/index.js";
import type { Bid } from "../data.js";
import type { BaselineSink } from "../sink.js";
import type { Workload } from "../workload.js";

const INSERT = 0, UPDATE_BEFORE = 1, UPDATE_AFTER = 2;
const BUNDLE = 1000;

export const W2MB: Workload = {
  id: "W2-MB",
  like: "GROUP BY",
  description: "W2 with mini-batch (size 1000): one change per auction per bundle",
  batch: false,
  gate: 0.35,
  plan: (bids, env) => {
    env.getConfig().set("table.exec.mini-batch.enabled", "true");
    env.getConfig().set("table.exec.mini-batch.allow-latency", "1 h");
    env.getConfig().set("table.exec.mini-batch.size", String(BUNDLE));
    env.getConfig().set("table.optimizer.agg-phase-strategy", "ONE_PHASE");
    return bids.groupBy($("auction")).select($("auction"), $("auction").count().as("cnt"));
  },
  baseline(bids: readonly Bid[], sink: BaselineSink): Map<number, { cnt: number }> {
    const groups = new Map<number, { cnt: number }>();
    // the bundle: auctions in order of first touch, with their count before the bundle (0: new)
    const touched: number[] = [];
    const before = new Map<number, number>();
    const flush = () => {
      for (const auction of touched) {
        const was = before.get(auction)!;
        const cnt = groups.get(auction)!.cnt;
        if (was === 0) sink.push(INSERT, { auction, cnt });
        else {
          sink.push(UPDATE_BEFORE, { auction, cnt: was });
          sink.push(UPDATE_AFTER, { auction, cnt });
        }
      }
      touched.length = 0;
      before.clear();
    };
    let records = 0;
    for (let i = 0; i < bids.length; i++) {
      const b = bids[i]!;
      let acc = groups.get(b.auction);
      if (acc === undefined) groups.set(b.auction, (acc = { cnt: 0 }));
      if (!before.has(b.auction)) {
        before.set(b.auction, acc.cnt);
        touched.push(b.auction);
      }
      acc.cnt++;
      if (++records === BUNDLE) {
        flush();
        records = 0;
      }
    }
    flush();
    return groups;
  },
  stateEntries(bids) {
    const s = new Set<number>();
    for (const b of bids) s.add(b.auction);
    return s.size;
  },
};
