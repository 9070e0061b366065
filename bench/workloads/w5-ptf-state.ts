/**
 * W5 (PTF state): a set-semantics PTF partitioned by auction keeps a counter in value state and collects
 * one row per input: `(auction, count)`. The baseline is the same loop with a Map of counters.
 */
import { $, ArgumentTrait, DataTypes, ProcessTableFunction, tableArg, valueState } from "../../src/index.js";
import type { Bid } from "../data.js";
import type { BaselineSink } from "../sink.js";
import type { Workload } from "../workload.js";

export const CountPerAuction = ProcessTableFunction.define({
  name: "CountPerAuction",
  args: { bid: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { counter: valueState({ count: 0 }) },
  output: DataTypes.BIGINT().notNull(),
  eval(ctx, { counter }) {
    ctx.collect(++counter.count);
  },
});

export const W5: Workload = {
  id: "W5",
  like: "PTF state",
  description: "set-semantics PTF partitioned by auction, a value-state counter, one row (auction, count) per input",
  batch: false,
  gate: 0.3,
  plan: (bids) => bids.partitionBy($("auction")).process(CountPerAuction),
  baseline(bids: readonly Bid[], sink: BaselineSink): Map<number, { count: number }> {
    const counters = new Map<number, { count: number }>();
    for (let i = 0; i < bids.length; i++) {
      const b = bids[i]!;
      let c = counters.get(b.auction);
      if (c === undefined) counters.set(b.auction, (c = { count: 0 }));
      c.count++;
      sink.push(0, { auction: b.auction, EXPR$0: c.count });
    }
    return counters;
  },
  stateEntries(bids) {
    const s = new Set<number>();
    for (const b of bids) s.add(b.auction);
    return s.size;
  },
};
