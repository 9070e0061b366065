/**
 * A seeded Nexmark-style Bid generator (docs/benchmarks.md).
 *
 * It follows Nexmark's generator (Beam/Flink `GeneratorConfig`, `BidGenerator`): events are numbered and
 * interleaved 1:3:46 person/auction/bid, so of every 50 events one is a person, three are auctions and
 * 46 are bids; only the bids are kept. A bid goes to the hot auction (the latest even auction id) with
 * probability 1/2, otherwise to one of the ~100 auctions in flight (plus 10 ids of lead); its bidder is
 * the hot bidder (latest person id rounded down to a multiple of 4, plus 1) with probability 3/4,
 * otherwise one of the last 1000 active people (plus 10 of lead). Prices are log-uniform in [100, 1e8]
 * and integral (`round(10^(6u) * 100)`), channels are one of four hot names half the time and
 * `channel-<n>` (n < 10,000) otherwise. Event time advances at 10,000 events/s (0.1 ms per event, so
 * 1M bids span ~109 s) plus a jitter of 0–99 ms: nearly ordered, out of order by less than 100 ms.
 */
import { DataTypes } from "../src/index.js";

/** One bid as the baseline loops see it (a plain row object). */
export interface Bid {
  auction: number;
  bidder: number;
  price: number;
  channel: string;
  dateTime: Date;
}

/** The Table API schema of the bids: {auction INT, bidder INT, price DOUBLE, channel STRING, dateTime TIMESTAMP_LTZ(3)}. */
export const BID_TYPE = DataTypes.ROW(
  DataTypes.FIELD("auction", DataTypes.INT().notNull()),
  DataTypes.FIELD("bidder", DataTypes.INT().notNull()),
  DataTypes.FIELD("price", DataTypes.DOUBLE().notNull()),
  DataTypes.FIELD("channel", DataTypes.STRING().notNull()),
  DataTypes.FIELD("dateTime", DataTypes.TIMESTAMP_LTZ(3).notNull()),
);

/** The same bids twice: as row objects (baselines) and as positional records (the Table API source). */
export interface BidData {
  readonly objects: readonly Bid[];
  readonly rows: readonly (readonly unknown[])[];
  readonly seed: number;
}

// Nexmark's generator constants
const PERSON_PROPORTION = 1;
const AUCTION_PROPORTION = 3;
const BID_PROPORTION = 46;
const TOTAL_PROPORTION = PERSON_PROPORTION + AUCTION_PROPORTION + BID_PROPORTION;
const HOT_AUCTION_RATIO = 2;
const HOT_BIDDER_RATIO = 4;
const NUM_IN_FLIGHT_AUCTIONS = 100;
const AUCTION_ID_LEAD = 10;
const NUM_ACTIVE_PEOPLE = 1000;
const PERSON_ID_LEAD = 10;
const FIRST_AUCTION_ID = 1000;
const FIRST_PERSON_ID = 1000;
const HOT_CHANNELS = ["Google", "Facebook", "Baidu", "Apple"];
const CHANNELS_NUMBER = 10_000;
/** Event time of event 0: 2015-07-15T00:00:00Z (Nexmark's era; any fixed instant keeps runs identical). */
const BASE_TIME = Date.UTC(2015, 6, 15);
/** 10,000 events per second. */
const EVENTS_PER_MS = 10;
const MAX_JITTER_MS = 100;

/** sfc32: a small, fast, well-distributed 32-bit PRNG; returns a float in [0, 1). */
export function sfc32(seed: number): () => number {
  let a = 0x9e3779b9, b = 0x243f6a88, c = 0xb7e15162, d = seed >>> 0;
  const next = () => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (a + b + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 16; i++) next(); // mix the seed in
  return next;
}

function lastBase0AuctionId(eventId: number): number {
  let epoch = Math.floor(eventId / TOTAL_PROPORTION);
  let offset = eventId % TOTAL_PROPORTION;
  if (offset < PERSON_PROPORTION) {
    epoch--; // about to generate a person: the last auction of the previous epoch
    offset = AUCTION_PROPORTION - 1;
  } else if (offset >= PERSON_PROPORTION + AUCTION_PROPORTION) {
    offset = AUCTION_PROPORTION - 1; // a bid: the last auction of this epoch
  } else {
    offset -= PERSON_PROPORTION;
  }
  return epoch * AUCTION_PROPORTION + offset;
}

function lastBase0PersonId(eventId: number): number {
  const epoch = Math.floor(eventId / TOTAL_PROPORTION);
  let offset = eventId % TOTAL_PROPORTION;
  if (offset >= PERSON_PROPORTION) offset = PERSON_PROPORTION - 1;
  return epoch * PERSON_PROPORTION + offset;
}

/**
 * Generates `count` bids from `seed`. Deterministic: the same (count, seed) gives the same bids, and a
 * shorter run is a prefix of a longer one. Both views share the channel strings and Date objects.
 */
export function generateBids(count: number, seed = 42): BidData {
  const rnd = sfc32(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const channels = Array.from({ length: CHANNELS_NUMBER }, (_, i) => `channel-${i}`);
  const objects = new Array<Bid>(count);
  const rows = new Array<readonly unknown[]>(count);
  let eventId = 0;
  for (let i = 0; i < count; i++) {
    // skip the person and auction events of the 1:3:46 interleaving
    while (eventId % TOTAL_PROPORTION < PERSON_PROPORTION + AUCTION_PROPORTION) eventId++;
    const lastAuction = lastBase0AuctionId(eventId);
    let auction: number;
    if (int(HOT_AUCTION_RATIO) > 0) {
      auction = Math.floor(lastAuction / HOT_AUCTION_RATIO) * HOT_AUCTION_RATIO;
    } else {
      const min = Math.max(lastAuction - NUM_IN_FLIGHT_AUCTIONS, 0);
      auction = min + int(lastAuction - min + 1 + AUCTION_ID_LEAD);
    }
    const lastPerson = lastBase0PersonId(eventId);
    let bidder: number;
    if (int(HOT_BIDDER_RATIO) > 0) {
      bidder = Math.floor(lastPerson / HOT_BIDDER_RATIO) * HOT_BIDDER_RATIO + 1;
    } else {
      const people = lastPerson + 1;
      const active = Math.min(people, NUM_ACTIVE_PEOPLE);
      bidder = people - active + int(active + PERSON_ID_LEAD);
    }
    const price = Math.round(Math.pow(10, rnd() * 6) * 100);
    const channel = int(2) > 0 ? HOT_CHANNELS[int(HOT_CHANNELS.length)]! : channels[int(CHANNELS_NUMBER)]!;
    const dateTime = new Date(BASE_TIME + Math.floor(eventId / EVENTS_PER_MS) + int(MAX_JITTER_MS));
    const bid: Bid = { auction: auction + FIRST_AUCTION_ID, bidder: bidder + FIRST_PERSON_ID, price, channel, dateTime };
    objects[i] = bid;
    rows[i] = [bid.auction, bid.bidder, price, channel, dateTime];
    eventId++;
  }
  return { objects, rows, seed };
}

/** Summary figures of a data set, printed with the results so that a run can be checked against docs/benchmarks.md. */
export function describeBids(data: BidData): { rows: number; auctions: number; bidders: number; eventSeconds: number; maxDisorderMs: number } {
  const auctions = new Set<number>();
  const bidders = new Set<number>();
  let max = -Infinity;
  let disorder = 0;
  let first = Infinity;
  for (const b of data.objects) {
    auctions.add(b.auction);
    bidders.add(b.bidder);
    const t = b.dateTime.getTime();
    if (t < first) first = t;
    if (t > max) max = t;
    else if (max - t > disorder) disorder = max - t;
  }
  return { rows: data.objects.length, auctions: auctions.size, bidders: bidders.size, eventSeconds: (max - first) / 1000, maxDisorderMs: disorder };
}
