import type { FunctionResolver } from "../../../expressions/compile.js";
import type { IntervalJoinNode } from "../../../plan/nodes/interval-join.js";
import type { JobSettings } from "../../job-contract.js";
import { Kind } from "../../../types/row.js";
import { BaseOperator } from "../../operator.js";
import { HASHMAP_BACKEND, type KeyedStore, type StoreFiles, isStoreFiles } from "../../state/keyed-store.js";
import { restoreStore, storeSnapshot } from "../../state/snapshot-store.js";
import { heapPop, heapPush } from "../ptf/heap.js";
import { compileCombine, compileJoinKey, compilePad, compileResidual } from "./join-code.js";
import { joinWithBucket, type TimedBucket } from "./timed-bucket.js";


/** A side's rows in a snapshot: its entries, or (disk backend, in a checkpoint) the files of its store. */
type SideEntries = readonly (readonly [unknown, unknown[][], number[], boolean[]])[];

/** A cleanup timer: at watermark `time`, look at `key`'s rows of one side. */
type Timer = readonly [time: number, key: unknown];
const earlier = (a: Timer, b: Timer) => a[0] < b[0];

/**
 * An event-time interval join (Flink's RowTimeIntervalJoin): `lower <= left.t - right.t <= upper`.
 *
 * A left row at t pairs with right rows at [t - upper, t - lower], a right row at t with left rows at
 * [t + lower, t + upper]. A row is matched against the other side's waiting rows when it arrives, and waits
 * itself while a partner can still come: a left row until the watermark reaches t - lower, a right row until it
 * reaches t + upper (a row at or below the watermark is late and comes no more). When a row leaves state without
 * ever having matched, an outer join emits its padded row then. Every output row is an insert.
 *
 * The output watermark is held back by the larger of the bounds' extents, so that joined rows (which carry
 * both time attributes) are not late downstream. A negative window (lower > upper) never matches: rows are not
 * kept, outer rows are padded at once (as Flink plans it).
 *
 * State: each side's buckets by key are in a store of the job's state backend (state/keyed-store.ts; a
 * `Map` on the hashmap backend). A bucket read is changed in place right after the read (the store's
 * contract). The cleanup timers — one per row that waits, `[expiry, key]` — stay in memory (as Flink's heap
 * timers): the watermark visits only the keys whose timers are due, never all keys.
 */
export class IntervalJoinOperator extends BaseOperator {
  private readonly leftKey: (r: unknown[]) => unknown;
  private readonly rightKey: (r: unknown[]) => unknown;
  private readonly combine: (l: unknown[], r: unknown[]) => unknown[];
  private readonly padLeftRow: (l: unknown[]) => unknown[];
  private readonly padRightRow: (r: unknown[]) => unknown[];
  private readonly residual: ((row: unknown[]) => boolean) | undefined;
  private readonly leftOuter: boolean;
  private readonly rightOuter: boolean;
  private readonly lower: number;
  private readonly upper: number;
  private readonly leftTime: number;
  private readonly rightTime: number;
  private readonly delay: number;
  private readonly negative: boolean;
  private readonly leftState: KeyedStore<TimedBucket>;
  private readonly rightState: KeyedStore<TimedBucket>;
  private leftTimers: Timer[] = [];
  private rightTimers: Timer[] = [];
  /** The watermark the state was last cleaned at; part of the snapshot, so late rows are judged alike after a restore. */
  private time = -Infinity;

  constructor(node: IntervalJoinNode, settings: JobSettings, resolve?: FunctionResolver) {
    super(2);
    const backend = (settings.batch ? undefined : settings.stateBackend) ?? HASHMAP_BACKEND;
    this.leftState = backend.createStore<TimedBucket>({ name: "IntervalJoin.left" });
    this.rightState = backend.createStore<TimedBucket>({ name: "IntervalJoin.right" });
    const ls = node.left.schema.size;
    const rs = node.right.schema.size;
    this.leftKey = compileJoinKey(node.leftKeys, node.left.schema, resolve);
    this.rightKey = compileJoinKey(node.rightKeys, node.right.schema, resolve);
    this.combine = compileCombine(ls, rs);
    this.padLeftRow = compilePad(ls, rs, true);
    this.padRightRow = compilePad(ls, rs, false);
    this.residual = compileResidual(node.residual, node.schema, resolve);
    this.leftOuter = node.joinType === "LEFT" || node.joinType === "FULL";
    this.rightOuter = node.joinType === "RIGHT" || node.joinType === "FULL";
    this.lower = node.lower;
    this.upper = node.upper;
    this.leftTime = node.leftTime;
    this.rightTime = node.rightTime;
    this.negative = node.lower > node.upper;
    this.delay = Math.max(0, -node.lower, node.upper);
  }

  processElement(input: number, _kind: number, row: unknown[]): void {
    const isLeft = input === 0;
    const outer = isLeft ? this.leftOuter : this.rightOuter;
    const t = millis(row[isLeft ? this.leftTime : this.rightTime]);
    const key = isLeft ? this.leftKey(row) : this.rightKey(row);
    if (this.negative || key === null || t === null) {
      if (outer) this.out.record(Kind.INSERT, isLeft ? this.padLeftRow(row) : this.padRightRow(row));
      return;
    }
    // the partner's time range
    const from = isLeft ? t - this.upper : t + this.lower;
    const to = isLeft ? t - this.lower : t + this.upper;
    const other = (isLeft ? this.rightState : this.leftState).get(key);
    const found = other !== undefined && joinWithBucket(other, from, to, row, isLeft, this.combine, this.residual, this.out);
    // wait while a partner can still arrive (above the watermark)
    const expiry = isLeft ? t - this.lower : t + this.upper;
    if (this.time < expiry) {
      const state = isLeft ? this.leftState : this.rightState;
      let b = state.get(key);
      if (b === undefined) state.set(key, b = { rows: [], times: [], matched: [] });
      // one timer per key and time: the previous row of this key at the same time has it already
      const n = b.times.length;
      if (n === 0 || b.times[n - 1] !== t) heapPush(isLeft ? this.leftTimers : this.rightTimers, [expiry, key], earlier);
      b.rows.push(row);
      b.times.push(t);
      b.matched.push(found);
    } else if (outer && !found) {
      this.out.record(Kind.INSERT, isLeft ? this.padLeftRow(row) : this.padRightRow(row));
    }
  }

  protected override onWatermark(wm: number): void {
    if (wm > this.time) this.time = wm;
    this.expire(wm, true);
    this.expire(wm, false);
    this.out.watermark(wm - this.delay);
  }

  /** Removes the rows no partner can reach any more; an outer side's unmatched ones are padded. */
  private expire(wm: number, isLeft: boolean): void {
    const timers = isLeft ? this.leftTimers : this.rightTimers;
    const state = isLeft ? this.leftState : this.rightState;
    const outer = isLeft ? this.leftOuter : this.rightOuter;
    const shift = isLeft ? -this.lower : this.upper;
    while (timers.length > 0 && timers[0]![0] <= wm) {
      const [, key] = heapPop(timers, earlier);
      const b = state.get(key);
      if (b === undefined) continue;
      let keep = 0;
      for (let i = 0; i < b.rows.length; i++) {
        if (b.times[i]! + shift <= wm) {
          if (outer && !b.matched[i]) this.out.record(Kind.INSERT, isLeft ? this.padLeftRow(b.rows[i]!) : this.padRightRow(b.rows[i]!));
          continue;
        }
        b.rows[keep] = b.rows[i]!;
        b.times[keep] = b.times[i]!;
        b.matched[keep] = b.matched[i]!;
        keep++;
      }
      if (keep === 0) state.delete(key);
      else { b.rows.length = keep; b.times.length = keep; b.matched.length = keep; }
    }
  }

  override snapshotState(): unknown {
    return { left: sideSnapshot(this.leftState), right: sideSnapshot(this.rightState), leftTimers: this.leftTimers.slice(), rightTimers: this.rightTimers.slice(), time: this.time };
  }

  override restoreState(state: unknown): void {
    if (state === null || state === undefined) return;
    const s = state as { left: SideEntries | StoreFiles; right: SideEntries | StoreFiles; leftTimers: Timer[]; rightTimers: Timer[]; time?: number };
    this.time = s.time ?? -Infinity;
    restoreSide(s.left, this.leftState);
    restoreSide(s.right, this.rightState);
    this.leftTimers = s.leftTimers.slice();
    this.rightTimers = s.rightTimers.slice();
  }
}

/** A side's entries (the hashmap form, also of a disk store outside a checkpoint), or its store's files in one. */
function sideSnapshot(store: KeyedStore<TimedBucket>): unknown {
  const files = storeSnapshot(store);
  if (files !== undefined) return files;
  return Array.from(store, ([k, b]) => [k, b.rows.slice(), b.times.slice(), b.matched.slice()] as const);
}

/** Into a fresh store of either backend: a side's entries, or the files a disk backend's checkpoint wrote. */
function restoreSide(s: SideEntries | StoreFiles, store: KeyedStore<TimedBucket>): void {
  if (isStoreFiles(s)) {
    restoreStore(s, store, undefined, (b) => b, 0);
    return;
  }
  for (const [k, rows, times, matched] of s as SideEntries) store.set(k, { rows: rows.slice(), times: times.slice(), matched: matched.slice() });
}

/** Epoch milliseconds of a time attribute value (a Date, or a number for TIMESTAMP_LTZ from epoch); null when NULL. */
export function millis(v: unknown): number | null {
  if (v instanceof Date) return v.getTime();
  if (typeof v === "number") return v;
  return null;
}
