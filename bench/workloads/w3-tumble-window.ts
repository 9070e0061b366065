/**
 * W3 (Nexmark q5/q7 inner): a 10 s tumbling window on dateTime with `WATERMARK FOR dateTime AS dateTime -
 * INTERVAL '4' SECOND` (per-record watermarks), `COUNT(*)` and `MAX(price)` per (window, auction). A window
 * fires when the watermark passes its end; end of input fires the rest. Rows later than the watermark
 * are dropped (the bids are out of order by < 100 ms, so none are).
 *
 * State is measured mid-run (`peakState`): at the end of the job every window has fired and released it.
 */
import { buildJobGraph } from "../../src/exec/job-graph.js";
import { OPERATORS } from "../../src/table/wiring.js";
import { WindowAggregateOperator } from "../../src/exec/operators/window-aggregate.js";
import { $, lit, type Table, Tumble } from "../../src/index.js";
import type { Bid, BidData } from "../data.js";
import { withWatermark } from "../source.js";
import { type BaselineSink, RingSink } from "../sink.js";
import { keep, usedBytesAfterGc } from "../memory.js";
import type { BidTable, Workload } from "../workload.js";

const SIZE = 10_000;
const DELAY = 4_000;

interface Acc { cnt: number; max: number }
type Windows = Map<number, Map<number, Acc>>;

export const W3: Workload = {
  id: "W3",
  like: "q5/q7 inner",
  description: "10 s tumbling window, watermark max - 4 s, COUNT(*) and MAX(price) per (window, auction)",
  batch: false,
  gate: 0.35,
  plan: (bids, env) => withWatermark(bids, env, DELAY)
    .window(Tumble.over(lit(10).seconds()).on($("dateTime")).as("w"))
    .groupBy($("auction"), $("w"))
    .select($("auction"), $("w").start().as("window_start"), $("w").end().as("window_end"),
      $("auction").count().as("cnt"), $("price").max().as("max_price")),
  baseline: (bids, sink) => baselineLoop(bids, bids.length, sink, true),
  peakState(table, data) {
    // the first probe also measures the JIT settling in; the median of three is stable to a byte or two
    const runs = [0, 1, 2].map(() => stateProbe(table, data));
    const median = (f: (r: typeof runs[number]) => number) => runs.map(f).sort((a, b) => a - b)[1]!;
    return { entries: runs[0]!.entries, tableBytes: median((r) => r.tableBytes), baselineBytes: median((r) => r.baselineBytes) };
  },
};

/**
 * The state of one window, grown from its first rows to its last: measured in the same job (so the job's
 * fixed cost, generated and optimised code included, cancels out) right after the last-but-one window
 * fired and just before the end of input, when the last window holds all its entries.
 */
function stateProbe(table: Table<object, "append" | "retract" | "upsert">, data: BidData): { entries: number; tableBytes: number; baselineBytes: number } {
  const n = data.rows.length - 1;
  const job = (sink: RingSink) => {
    const graph = buildJobGraph(table.node, { batch: false, config: new Map(), clock: Date.now }, sink, OPERATORS);
    for (const op of graph.operators) op.open();
    const op = graph.operators.find((o): o is WindowAggregateOperator => o instanceof WindowAggregateOperator)!;
    const source = graph.sources[0]!;
    const poll = (rows: number) => {
      if (source.reader.poll(source.emitter.out, rows) !== "more") throw new Error("W3 state probe: the source ended early");
    };
    return { graph, op, poll };
  };
  // where the last window starts: the last drop of the entry count
  const scout = job(new RingSink());
  let from = 0;
  let prev = 0;
  for (let at = 0; at < n; ) {
    const step = Math.min(1000, n - at);
    scout.poll(step);
    at += step;
    const e = scout.op.entryCount();
    if (e < prev) from = at;
    prev = e;
  }
  // sinks filled beforehand, so that the outputs they keep (a ring of 1024) do not count as state
  const sink = new RingSink();
  { const j = job(sink); j.poll(n); }
  const probe = job(sink);
  probe.poll(from);
  const e1 = probe.op.entryCount();
  const b1 = usedBytesAfterGc();
  probe.poll(n - from);
  const e2 = probe.op.entryCount();
  const b2 = usedBytesAfterGc();
  keep(probe.graph);
  const base = (rows: number) => {
    const bsink = new RingSink();
    baselineLoop(data.objects, data.objects.length, bsink, true);
    const before = usedBytesAfterGc();
    const windows = baselineLoop(data.objects, rows, bsink, false);
    const bytes = usedBytesAfterGc() - before;
    let entries = 0;
    for (const w of windows.values()) entries += w.size;
    return { bytes, entries };
  };
  const x1 = base(from);
  const x2 = base(n);
  if (x1.entries !== e1 || x2.entries !== e2) {
    throw new Error(`W3 state probe: the baseline holds ${x1.entries} / ${x2.entries} entries, the table ${e1} / ${e2}`);
  }
  return { entries: e2, tableBytes: (b2 - b1) / (e2 - e1), baselineBytes: (x2.bytes - x1.bytes) / (e2 - e1) };
}

/** The hand-written loop over the first `n` bids; `flush` fires the windows still open at the end. */
function baselineLoop(bids: readonly Bid[], n: number, sink: BaselineSink, flush: boolean): Windows {
  const windows: Windows = new Map();
  const ends: number[] = [];
  let lastEnd = NaN;
  let last: Map<number, Acc> | undefined;
  let maxTs = -Infinity;
  let wm = -Infinity;
  const fire = (end: number) => {
    const start = new Date(end - SIZE);
    const stop = new Date(end);
    for (const [auction, a] of windows.get(end)!) {
      sink.push(0, { auction, window_start: start, window_end: stop, cnt: a.cnt, max_price: a.max });
    }
    windows.delete(end);
    if (end === lastEnd) { last = undefined; lastEnd = NaN; }
  };
  for (let i = 0; i < n; i++) {
    const b = bids[i]!;
    const t = b.dateTime.getTime();
    const end = t - (t % SIZE) + SIZE;
    if (end - 1 > wm) {
      let w = end === lastEnd ? last : windows.get(end);
      if (w === undefined) {
        w = new Map();
        windows.set(end, w);
        let j = ends.length;
        while (j > 0 && ends[j - 1]! > end) j--;
        ends.splice(j, 0, end);
      }
      last = w;
      lastEnd = end;
      const a = w.get(b.auction);
      if (a === undefined) w.set(b.auction, { cnt: 1, max: b.price });
      else {
        a.cnt++;
        if (b.price > a.max) a.max = b.price;
      }
    }
    if (t > maxTs) {
      maxTs = t;
      if (t - DELAY > wm) {
        wm = t - DELAY;
        while (ends.length > 0 && ends[0]! - 1 <= wm) fire(ends.shift()!);
      }
    }
  }
  if (flush) while (ends.length > 0) fire(ends.shift()!);
  return windows;
}

const gc = (globalThis as { gc?: () => void }).gc;

