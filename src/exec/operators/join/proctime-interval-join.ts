import type { FunctionResolver } from "../../../expressions/compile.js";
import type { IntervalJoinNode } from "../../../plan/nodes/interval-join.js";
import { Kind } from "../../../types/row.js";
import { BaseOperator } from "../../operator.js";
import type { ProcessingTimeService, ProcessingTimeTarget, UsesProcessingTime } from "../../time/processing-time-service.js";
import { millis } from "./interval-join.js";
import { compileCombine, compileJoinKey, compilePad, compileResidual } from "./join-code.js";
import { joinWithBucket, type TimedBucket } from "./timed-bucket.js";


/** One input's cleanups, in time order (rows arrive in processing-time order, so a FIFO): at `times[i]` look at `keys[i]`. */
interface Cleanups {
  times: number[];
  keys: unknown[];
  head: number;
  /** The latest time a processing-time timer was registered for. */
  registered: number;
}

/**
 * A processing-time interval join (Flink's ProcTimeIntervalJoin over TimeIntervalJoin):
 * `lower <= left.proc - right.proc <= upper`, each row's processing time being its `PROCTIME()` value (never
 * less than the rows before it: the operator's time only moves on).
 *
 * A row arriving at t is joined with the other side's cached rows in its range — a left row with right rows
 * at [t - upper, t - lower], a right row with left rows at [t + lower, t + upper] — and is cached only while a
 * partner can still come: a left row when lower < 0 (until t - lower), a right row when upper > 0 (until
 * t + upper). As in Flink, a partner in the same millisecond is not awaited: with lower = 0 a left row is not
 * cached, so a right row of the same millisecond does not find it. A cached row leaves at t - lower + 1 (left) or
 * t + upper + 1 (right) on a processing-time timer (one per time); an outer side's row that never matched is then
 * emitted padded (a row not cached at all, at once). The end of input expires every cached row. Event-time
 * watermarks pass through. Every output row is an insert.
 */
export class ProcTimeIntervalJoinOperator extends BaseOperator implements UsesProcessingTime, ProcessingTimeTarget {
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
  private readonly negative: boolean;
  private leftState = new Map<unknown, TimedBucket>();
  private rightState = new Map<unknown, TimedBucket>();
  private leftCleanups: Cleanups = emptyCleanups();
  private rightCleanups: Cleanups = emptyCleanups();
  private timers: ProcessingTimeService | undefined;
  /** The operator's processing time: the latest row's, or the latest timer's. */
  private now = -Infinity;

  constructor(node: IntervalJoinNode, resolve?: FunctionResolver) {
    super(2);
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
  }

  bindProcessingTime(service: ProcessingTimeService): void {
    this.timers = service;
  }

  processElement(input: number, _kind: number, row: unknown[]): void {
    const isLeft = input === 0;
    const outer = isLeft ? this.leftOuter : this.rightOuter;
    const rt = millis(row[isLeft ? this.leftTime : this.rightTime]);
    // what expired before this row's time goes first, as a due timer would
    if (rt !== null && rt > this.now) this.advance(rt);
    const t = this.now;
    const key = isLeft ? this.leftKey(row) : this.rightKey(row);
    if (this.negative || key === null) {
      if (outer) this.out.record(Kind.INSERT, isLeft ? this.padLeftRow(row) : this.padRightRow(row));
      return;
    }
    const from = isLeft ? t - this.upper : t + this.lower;
    const to = isLeft ? t - this.lower : t + this.upper;
    const other = (isLeft ? this.rightState : this.leftState).get(key);
    const found = other !== undefined && joinWithBucket(other, from, to, row, isLeft, this.combine, this.residual, this.out);
    // a partner can still arrive only at a later time: strictly inside the window ahead of now
    const size = isLeft ? -this.lower : this.upper;
    if (size > 0) {
      const state = isLeft ? this.leftState : this.rightState;
      let b = state.get(key);
      if (b === undefined) state.set(key, b = { rows: [], times: [], matched: [] });
      b.rows.push(row);
      b.times.push(t);
      b.matched.push(found);
      this.schedule(isLeft ? this.leftCleanups : this.rightCleanups, t + size + 1, key);
    } else if (outer && !found) {
      this.out.record(Kind.INSERT, isLeft ? this.padLeftRow(row) : this.padRightRow(row));
    }
  }

  private schedule(c: Cleanups, time: number, key: unknown): void {
    c.times.push(time);
    c.keys.push(key);
    if (time > c.registered) {
      c.registered = time;
      this.timers?.register(this, time);
    }
  }

  onProcessingTime(now: number): void {
    if (now > this.now) this.advance(now);
  }

  private advance(now: number): void {
    this.now = now;
    this.expire(now, true);
    this.expire(now, false);
  }

  protected override onWatermark(wm: number): void {
    if (wm === Infinity) {
      this.expire(Infinity, true);
      this.expire(Infinity, false);
    }
    this.out.watermark(wm);
  }

  /** Removes the cached rows of one side no partner can reach at `now`; an outer side's unmatched ones are padded. */
  private expire(now: number, isLeft: boolean): void {
    const c = isLeft ? this.leftCleanups : this.rightCleanups;
    const state = isLeft ? this.leftState : this.rightState;
    const outer = isLeft ? this.leftOuter : this.rightOuter;
    const shift = (isLeft ? -this.lower : this.upper) + 1;
    let h = c.head;
    while (h < c.times.length && c.times[h]! <= now) {
      const key = c.keys[h++];
      const b = state.get(key);
      if (b === undefined) continue;
      let keep = 0;
      for (let i = 0; i < b.rows.length; i++) {
        if (b.times[i]! + shift <= now) {
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
    if (h === c.times.length) {
      c.times = [];
      c.keys = [];
      h = 0;
    } else if (h > 1024 && h * 2 > c.times.length) {
      c.times = c.times.slice(h);
      c.keys = c.keys.slice(h);
      h = 0;
    }
    c.head = h;
  }

  override snapshotState(): unknown {
    const copy = (m: Map<unknown, TimedBucket>) => Array.from(m, ([k, b]) => [k, b.rows.slice(), b.times.slice(), b.matched.slice()] as const);
    const cleanups = (c: Cleanups) => ({ times: c.times.slice(c.head), keys: c.keys.slice(c.head) });
    return { left: copy(this.leftState), right: copy(this.rightState), leftCleanups: cleanups(this.leftCleanups), rightCleanups: cleanups(this.rightCleanups), now: this.now };
  }

  override restoreState(state: unknown): void {
    if (state === null || state === undefined) return;
    type Entry = readonly [unknown, unknown[][], number[], boolean[]];
    type SavedCleanups = { times: number[]; keys: unknown[] };
    const s = state as { left: Entry[]; right: Entry[]; leftCleanups: SavedCleanups; rightCleanups: SavedCleanups; now: number };
    this.now = s.now;
    const load = (entries: Entry[]) => new Map(entries.map(([k, rows, times, matched]) => [k, { rows: rows.slice(), times: times.slice(), matched: matched.slice() }]));
    this.leftState = load(s.left);
    this.rightState = load(s.right);
    // the timers of the restored rows: one per distinct cleanup time
    const reschedule = (saved: SavedCleanups): Cleanups => {
      const c = emptyCleanups();
      for (let i = 0; i < saved.times.length; i++) this.schedule(c, saved.times[i]!, saved.keys[i]);
      return c;
    };
    this.leftCleanups = reschedule(s.leftCleanups);
    this.rightCleanups = reschedule(s.rightCleanups);
  }
}

function emptyCleanups(): Cleanups {
  return { times: [], keys: [], head: 0, registered: -Infinity };
}
