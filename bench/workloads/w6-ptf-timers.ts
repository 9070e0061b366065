/**
 * W6 (PTF timers): a set-semantics PTF partitioned by auction with `on_time` = dateTime (watermark
 * `dateTime - 4 s`, per record, as in W3) (re)registers the named timer "idle" 10 s after each row and
 * collects one row `(auction, "idle", rowtime)` when it fires: an auction that received no bid for 10 s of
 * event time. Every row moves its auction's timer; end of input fires the rest.
 *
 * The baseline is the same loop with an indexed min-heap of one timer entry per auction (each entry
 * knows its heap position, re-registering moves it in place), fired by the watermark after each row, in
 * (time, registration order) — the order the engine fires timers of one name in.
 */
import { $, ArgumentTrait, DataTypes, descriptor, ProcessTableFunction, tableArg } from "../../src/index.js";
import type { Bid } from "../data.js";
import type { BaselineSink } from "../sink.js";
import { withWatermark } from "../source.js";
import type { Workload } from "../workload.js";

const IDLE = 10_000;
const DELAY = 4_000;

export const IdleAuction = ProcessTableFunction.define({
  name: "IdleAuction",
  args: { bid: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.REQUIRE_ON_TIME) },
  output: DataTypes.STRING(),
  eval(ctx) {
    const time = ctx.timeContext("millis");
    time.registerOnTime("idle", time.time()! + IDLE);
  },
  onTimer(ctx) {
    ctx.collect("idle");
  },
});

export const W6: Workload = {
  id: "W6",
  like: "PTF timers",
  description: "set-semantics PTF partitioned by auction, on_time, named timer 10 s after each row re-registered per row, one row when it fires",
  batch: false,
  gate: 0.3,
  plan: (bids, env) => withWatermark(bids, env, DELAY).partitionBy($("auction")).process(IdleAuction, descriptor("dateTime").asArgument("on_time")),
  baseline: (bids, sink) => baselineLoop(bids, sink),
};

/** One auction's timer; `pos` is its place in the heap, -1 while it is not scheduled. */
interface Entry { auction: number; time: number; seq: number; pos: number }

const before = (a: Entry, b: Entry) => a.time < b.time || (a.time === b.time && a.seq < b.seq);

function up(heap: Entry[], i: number): void {
  const x = heap[i]!;
  while (i > 0) {
    const p = (i - 1) >> 1;
    const parent = heap[p]!;
    if (!before(x, parent)) break;
    heap[i] = parent;
    parent.pos = i;
    i = p;
  }
  heap[i] = x;
  x.pos = i;
}

function down(heap: Entry[], i: number): void {
  const n = heap.length;
  const x = heap[i]!;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= n) break;
    const c = l + 1 < n && before(heap[l + 1]!, heap[l]!) ? l + 1 : l;
    const child = heap[c]!;
    if (!before(child, x)) break;
    heap[i] = child;
    child.pos = i;
    i = c;
  }
  heap[i] = x;
  x.pos = i;
}

function fireDue(heap: Entry[], wm: number, sink: BaselineSink): void {
  while (heap.length > 0 && heap[0]!.time <= wm) {
    const top = heap[0]!;
    const last = heap.pop()!;
    top.pos = -1;
    if (last !== top) {
      heap[0] = last;
      last.pos = 0;
      down(heap, 0);
    }
    sink.push(0, { auction: top.auction, EXPR$0: "idle", rowtime: new Date(top.time) });
  }
}

function baselineLoop(bids: readonly Bid[], sink: BaselineSink): Map<number, Entry> {
  const timers = new Map<number, Entry>();
  const heap: Entry[] = [];
  let seq = 0;
  let maxTs = -Infinity;
  let wm = -Infinity;
  for (let i = 0; i < bids.length; i++) {
    const b = bids[i]!;
    const t = b.dateTime.getTime();
    const time = t + IDLE;
    let e = timers.get(b.auction);
    if (e === undefined) timers.set(b.auction, (e = { auction: b.auction, time, seq: seq++, pos: -1 }));
    else { e.time = time; e.seq = seq++; }
    if (e.pos < 0) { heap.push(e); up(heap, heap.length - 1); }
    else if (e.pos > 0 && before(e, heap[(e.pos - 1) >> 1]!)) up(heap, e.pos);
    else down(heap, e.pos);
    if (t > maxTs) {
      maxTs = t;
      if (t - DELAY > wm) {
        wm = t - DELAY;
        fireDue(heap, wm, sink);
      }
    }
  }
  fireDue(heap, Infinity, sink);
  return timers;
}
