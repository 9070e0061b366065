/**
 * W7 (Nexmark q3-like join): a regular inner equi-join of the bids with the auctions on the auction id, both
 * append-only, projecting bid and auction columns. The auctions come from the same seeded generator: one
 * auction row per auction id the bids use, in id order (as Nexmark numbers them), each with a seller, a
 * category and a reserve price. The job reads both sources side by side (one record of each per round), so
 * the baseline does the same: a symmetric hash join with one Map per side, bids first in every round.
 */
import { $, DataTypes, Row, type TableEnvironment } from "../../src/index.js";
import { type Bid, type BidData, sfc32 } from "../data.js";
import type { BaselineSink } from "../sink.js";
import type { BidTable, Workload } from "../workload.js";

interface Auction {
  id: number;
  seller: number;
  category: number;
  reserve: number;
}

const AUCTION_TYPE = DataTypes.ROW(
  DataTypes.FIELD("id", DataTypes.INT().notNull()),
  DataTypes.FIELD("seller", DataTypes.INT().notNull()),
  DataTypes.FIELD("category", DataTypes.INT().notNull()),
  DataTypes.FIELD("reserve", DataTypes.DOUBLE().notNull()),
);

const auctionsOf = new WeakMap<readonly Bid[], { objects: Auction[]; rows: ReturnType<typeof Row.of<readonly [number, number, number, number]>>[] }>();

/** The auctions of a bid set (made once per data set, outside the timed region of the Table API side). */
function auctions(bids: readonly Bid[]): { objects: Auction[]; rows: ReturnType<typeof Row.of<readonly [number, number, number, number]>>[] } {
  let a = auctionsOf.get(bids);
  if (a !== undefined) return a;
  let min = Infinity;
  let max = -Infinity;
  for (const b of bids) {
    if (b.auction < min) min = b.auction;
    if (b.auction > max) max = b.auction;
  }
  const rnd = sfc32(7);
  const objects: Auction[] = [];
  for (let id = min; id <= max; id++) {
    objects.push({ id, seller: 1000 + Math.floor(rnd() * 5000), category: 10 + Math.floor(rnd() * 5), reserve: Math.round(rnd() * 1e6) });
  }
  a = { objects, rows: objects.map((x) => Row.of(x.id, x.seller, x.category, x.reserve)) };
  auctionsOf.set(bids, a);
  return a;
}

const INSERT = 0;

export const W7: Workload = {
  id: "W7",
  like: "q3 join",
  description: "inner equi-join of bids with auctions on the auction id (both append-only), bid and auction columns",
  batch: false,
  gate: 0.6,
  plan: (bids: BidTable, env: TableEnvironment, data: BidData) => {
    const auctionTable = env.fromValues(AUCTION_TYPE, auctions(data.objects).rows);
    return bids.join(auctionTable, $("auction").isEqual($("id")))
      .select($("auction"), $("bidder"), $("price"), $("seller"), $("category"));
  },
  baseline(bids: readonly Bid[], sink: BaselineSink): unknown {
    const as = auctions(bids).objects;
    const bidsBy = new Map<number, Bid[]>();
    const auctionsBy = new Map<number, Auction[]>();
    const n = Math.max(bids.length, as.length);
    for (let i = 0; i < n; i++) {
      if (i < bids.length) {
        const b = bids[i]!;
        const list = bidsBy.get(b.auction);
        if (list === undefined) bidsBy.set(b.auction, [b]);
        else list.push(b);
        const partners = auctionsBy.get(b.auction);
        if (partners !== undefined) {
          for (let j = 0; j < partners.length; j++) {
            const a = partners[j]!;
            sink.push(INSERT, { auction: b.auction, bidder: b.bidder, price: b.price, seller: a.seller, category: a.category });
          }
        }
      }
      if (i < as.length) {
        const a = as[i]!;
        const list = auctionsBy.get(a.id);
        if (list === undefined) auctionsBy.set(a.id, [a]);
        else list.push(a);
        const partners = bidsBy.get(a.id);
        if (partners !== undefined) {
          for (let j = 0; j < partners.length; j++) {
            const b = partners[j]!;
            sink.push(INSERT, { auction: b.auction, bidder: b.bidder, price: b.price, seller: a.seller, category: a.category });
          }
        }
      }
    }
    return [bidsBy, auctionsBy];
  },
  /** Keyed entries: auction ids in state (each holds its auction and all of its bids). */
  stateEntries(bids) {
    return auctions(bids).objects.length;
  },
};
