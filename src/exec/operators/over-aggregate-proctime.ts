import type { FunctionResolver } from "../../expressions/compile.js";
import type { OverAggregateNode } from "../../plan/nodes.js";
import { ExecutionError } from "../../types/errors.js";
import { Kind } from "../../types/row.js";
import { type GroupKeys, createGroupKeys } from "../aggregates/group-keys.js";
import type { GroupTtl } from "../aggregates/group-aggregate-code.js";
import { BaseOperator } from "../operator.js";
import { KeyedStateTtl } from "../state-ttl.js";
import type { ProcessingTimeService, ProcessingTimeTarget, UsesProcessingTime } from "../time/processing-time-service.js";
import { errorWithRow } from "./row-error.js";
import { AggregateSet, type ArgumentReader, argumentReader } from "../windows/aggregate-set.js";

/** One partition: its accumulator group and, for bounded frames, the times and arguments of its frame rows. */
interface Partition {
  gid: number;
  /** A row of the partition: addresses it in the key index again after a restore. */
  keyRow: unknown[];
  /** The key index's probe of the partition, to remove it when its state is cleaned up. */
  probe: unknown;
  /** Frame rows, oldest first: their processing times and arguments (`argCount` per row); before `frameHead` retracted. */
  frameTimes: number[];
  frameArgs: unknown[];
  frameHead: number;
  /** RANGE: rows of the current processing time, waiting for its timer. */
  pending: unknown[][];
  /** RANGE: when the partition's state may be dropped (Flink's cleanupTsState); -Infinity when not set. */
  cleanupAt: number;
}

/**
 * OVER aggregation ordered by a processing-time attribute, as Flink runs it:
 * - the processing time of a row is its `PROCTIME()` value (the job clock when it was read), never less than
 *   the time of the rows before it: rows are taken in arrival order, there is no late row;
 * - UNBOUNDED PRECEDING, ROWS or RANGE (Flink's ProcTimeUnboundedPrecedingFunction for both): each row is
 *   emitted at once (`+I`) with the running aggregate over the rows of its partition up to it, in arrival
 *   order — rows of one millisecond are not peers;
 * - ROWS BETWEEN n PRECEDING (ProcTimeRowsBoundedPrecedingFunction): emitted at once, the frame is the row and
 *   the n rows that arrived before it in the partition;
 * - RANGE BETWEEN P PRECEDING (ProcTimeRangeBoundedPrecedingFunction): the rows of one processing time t wait
 *   for a timer at t + 1 (one per time), then all get the same value over the rows of times [t - P, t]; rows
 *   older than t - P are retracted then. A partition whose last rows are at t registers a cleanup at
 *   t + 1.5·P + 1 (re-set only when a row comes past t + P + 1 − that bound): if no row came in between, its
 *   accumulators and rows are dropped — no later frame could reach them.
 * A row at a later processing time first releases what is due before it, so timers never fire late.
 * With `table.exec.state.ttl`, ROWS and UNBOUNDED partitions idle for the TTL are forgotten (Flink's state
 * retention for these functions); their next row starts afresh. The end of input releases waiting rows.
 */
export class ProcTimeOverAggregateOperator extends BaseOperator implements UsesProcessingTime, ProcessingTimeTarget {
  private readonly keys: GroupKeys;
  private partitions: (Partition | undefined)[] = [];
  private readonly freeGids: number[] = [];
  private readonly aggs: AggregateSet;
  private readonly readArgs: ArgumentReader;
  private readonly args: unknown[];
  private readonly retracted: unknown[];
  private readonly argCount: number;
  private readonly timeIndex: number;
  private readonly inputWidth: number;
  private readonly range: boolean;
  private readonly preceding: number | undefined;
  private readonly ttl: KeyedStateTtl | undefined;
  private timers: ProcessingTimeService | undefined;
  /** The processing time of the latest row or fired timer (the operator's "now"). */
  private now = -Infinity;
  /** RANGE: the time of the waiting rows, and their partitions in order of their first waiting row. */
  private pendingTime = -Infinity;
  private pendingParts: Partition[] = [];
  /** RANGE: cleanups by time (registered in time order, so a FIFO), with the partition each is for. */
  private cleanupTimes: number[] = [];
  private cleanupParts: Partition[] = [];
  private cleanupHead = 0;
  private lastTimer = -Infinity;

  constructor(private readonly node: OverAggregateNode, resolveFunction?: FunctionResolver, ttl?: GroupTtl) {
    super(1);
    const w = node.window;
    if (w.procTime !== true) throw new ExecutionError("ProcTimeOverAggregateOperator runs processing-time over windows only");
    this.keys = createGroupKeys(w.partitionBy, node.input.schema, resolveFunction);
    this.preceding = w.preceding;
    this.range = w.frame === "RANGE" && w.preceding !== undefined;
    this.aggs = new AggregateSet(node.aggCalls, w.preceding !== undefined);
    this.readArgs = argumentReader(node.aggCalls, node.input.schema, resolveFunction);
    this.argCount = node.aggCalls.length;
    this.args = new Array<unknown>(this.argCount).fill(null);
    this.retracted = new Array<unknown>(this.argCount).fill(null);
    this.timeIndex = node.input.schema.indexOf(w.orderBy);
    this.inputWidth = node.input.schema.size;
    // RANGE frames clean up on their own timers, as Flink's function does; the others use the state TTL
    if (ttl !== undefined && ttl.ttl > 0 && !this.range) {
      this.ttl = new KeyedStateTtl(ttl.ttl, ttl.clock, (gid) => this.drop(this.partitions[gid]!));
    }
  }

  bindProcessingTime(service: ProcessingTimeService): void {
    this.timers = service;
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    const v = row[this.timeIndex];
    const t = Math.max(this.now, v instanceof Date ? v.getTime() : (v as number));
    if (t > this.now) {
      this.now = t;
      if (this.range) this.advance(t - 1, t);
    }
    const ttl = this.ttl;
    const wall = ttl === undefined ? 0 : ttl.now();
    if (ttl !== undefined) ttl.step(wall);
    let gid: number;
    try {
      gid = this.keys.find(row);
    } catch (e) {
      throw errorWithRow(e, kind, row, this.node.input.schema);
    }
    if (ttl !== undefined && gid >= 0 && ttl.expireIfIdle(gid, wall)) gid = -1;
    let p: Partition;
    if (gid < 0) {
      p = this.newPartition(row);
      ttl?.created(p.gid, p.probe, wall);
    } else {
      p = this.partitions[gid]!;
      ttl?.touched(gid, wall);
    }
    if (this.range) this.wait(p, t, row);
    else this.emitNow(p, t, row, kind);
  }

  private newPartition(row: unknown[]): Partition {
    const gid = this.freeGids.pop() ?? this.partitions.length;
    this.keys.add(gid);
    this.aggs.grow(gid + 1);
    this.aggs.reset(gid);
    const p: Partition = {
      gid, keyRow: row, probe: this.keys.currentProbe(), frameTimes: [], frameArgs: [], frameHead: 0, pending: [], cleanupAt: -Infinity,
    };
    this.partitions[gid] = p;
    return p;
  }

  /** Forgets a partition (cleanup timer or TTL): its key, accumulators and rows. */
  private drop(p: Partition): void {
    this.keys.removeProbe(p.probe, p.gid);
    this.partitions[p.gid] = undefined;
    this.freeGids.push(p.gid);
  }

  /** ROWS and UNBOUNDED frames: the row is emitted on arrival. */
  private emitNow(p: Partition, t: number, row: unknown[], kind: number): void {
    this.read(row, kind);
    this.accumulate(p.gid, row);
    const n = this.preceding;
    if (n !== undefined) {
      this.keep(p, t);
      if (p.frameTimes.length - p.frameHead > n + 1) this.retractOldest(p);
    }
    this.emit(row, p.gid);
  }

  /** RANGE: the row waits for its time's timer; the first row of a time registers it (and the cleanup). */
  private wait(p: Partition, t: number, row: unknown[]): void {
    this.pendingTime = t;
    if (p.pending.length === 0) {
      this.pendingParts.push(p);
      const P = this.preceding!;
      if (p.cleanupAt < t + P + 1) {
        p.cleanupAt = t + Math.floor(P * 1.5) + 1;
        this.cleanupTimes.push(p.cleanupAt);
        this.cleanupParts.push(p);
        this.timers?.register(this, p.cleanupAt);
      }
    }
    p.pending.push(row);
    if (t + 1 > this.lastTimer) {
      this.lastTimer = t + 1;
      this.timers?.register(this, t + 1);
    }
  }

  onProcessingTime(now: number): void {
    // the operator's time moves on with the clock too: a row stamped before this timer but arriving after it
    // counts at its arrival, as Flink's function reads the current processing time (and finds a timer again)
    if (now > this.now) this.now = now;
    if (this.range) this.advance(now - 1, now);
  }

  /** RANGE: releases the rows of a time at or before `upTo`, then runs the cleanups due at `now`. */
  private advance(upTo: number, now: number): void {
    if (this.pendingParts.length > 0 && this.pendingTime <= upTo) this.release();
    const times = this.cleanupTimes;
    let h = this.cleanupHead;
    while (h < times.length && times[h]! <= now) {
      const p = this.cleanupParts[h]!;
      // a later row moved the partition's cleanup on; and a dropped gid may already hold another partition
      if (p.cleanupAt === times[h] && this.partitions[p.gid] === p && p.pending.length === 0) this.drop(p);
      h++;
    }
    if (h === times.length) {
      this.cleanupTimes = [];
      this.cleanupParts = [];
      h = 0;
    }
    this.cleanupHead = h;
  }

  /** RANGE: every waiting partition retracts the rows older than the frame, accumulates its rows of the time and emits them. */
  private release(): void {
    const t = this.pendingTime;
    const parts = this.pendingParts;
    this.pendingParts = [];
    const from = t - this.preceding!;
    for (const p of parts) {
      while (p.frameHead < p.frameTimes.length && p.frameTimes[p.frameHead]! < from) this.retractOldest(p);
      const rows = p.pending;
      p.pending = [];
      for (let i = 0; i < rows.length; i++) {
        this.read(rows[i]!, Kind.INSERT);
        this.accumulate(p.gid, rows[i]!);
        this.keep(p, t);
      }
      for (let i = 0; i < rows.length; i++) this.emit(rows[i]!, p.gid);
    }
  }

  protected override onWatermark(wm: number): void {
    // event-time watermarks release nothing here; the end of input releases the waiting rows
    if (wm === Infinity && this.pendingParts.length > 0) this.release();
    this.out.watermark(wm);
  }

  /** Reads a row's aggregate arguments into `args`. */
  private read(row: unknown[], kind: number): void {
    try {
      this.readArgs(row, this.args);
    } catch (e) {
      throw errorWithRow(e, kind, row, this.node.input.schema);
    }
  }

  private accumulate(gid: number, row: unknown[]): void {
    try {
      this.aggs.accumulate(gid, this.args);
    } catch (e) {
      throw errorWithRow(e, Kind.INSERT, row, this.node.input.schema);
    }
  }

  /** Remembers the arguments just accumulated (in `args`) for a later retraction. */
  private keep(p: Partition, t: number): void {
    p.frameTimes.push(t);
    const a = this.args;
    for (let i = 0; i < a.length; i++) p.frameArgs.push(a[i]);
  }

  private retractOldest(p: Partition): void {
    const n = this.argCount;
    const a = this.retracted;
    const base = p.frameHead * n;
    for (let i = 0; i < n; i++) a[i] = p.frameArgs[base + i];
    this.aggs.retract(p.gid, a);
    p.frameHead++;
    // compact now and then so that the arrays do not grow without bound
    if (p.frameHead > 1024 && p.frameHead * 2 > p.frameTimes.length) {
      p.frameTimes = p.frameTimes.slice(p.frameHead);
      p.frameArgs = p.frameArgs.slice(p.frameHead * n);
      p.frameHead = 0;
    }
  }

  private emit(row: unknown[], gid: number): void {
    const w = this.inputWidth;
    const out = new Array<unknown>(w + this.argCount);
    for (let i = 0; i < w; i++) out[i] = row[i];
    this.aggs.write(gid, out, w);
    this.out.record(Kind.INSERT, out);
  }

  /** Partitions holding state. */
  groupCount(): number {
    let n = 0;
    for (const p of this.partitions) if (p !== undefined) n++;
    return n;
  }

  override snapshotState(): unknown {
    const live = this.partitions.filter((p): p is Partition => p !== undefined);
    const n = this.argCount;
    return {
      now: this.now,
      pendingTime: this.pendingTime,
      pending: this.pendingParts.map((p) => live.indexOf(p)),
      partitions: live.map((p) => ({
        keyRow: p.keyRow, acc: this.aggs.snapshot(p.gid), rows: p.pending.slice(), cleanupAt: p.cleanupAt,
        frameTimes: p.frameTimes.slice(p.frameHead), frameArgs: p.frameArgs.slice(p.frameHead * n),
      })),
    };
  }

  override restoreState(state: unknown): void {
    const s = state as {
      now: number; pendingTime: number; pending: number[];
      partitions: { keyRow: unknown[]; acc: unknown; rows: unknown[][]; cleanupAt: number; frameTimes: number[]; frameArgs: unknown[] }[];
    };
    this.now = s.now;
    this.pendingTime = s.pendingTime;
    const restored: Partition[] = [];
    for (const sp of s.partitions) {
      this.keys.find(sp.keyRow);
      const p = this.newPartition(sp.keyRow);
      // with TTL, restored partitions count as written at the restore
      this.ttl?.created(p.gid, p.probe, this.ttl.now());
      this.aggs.restore(p.gid, sp.acc);
      p.pending = sp.rows.slice();
      p.cleanupAt = sp.cleanupAt;
      p.frameTimes = sp.frameTimes.slice();
      p.frameArgs = sp.frameArgs.slice();
      restored.push(p);
    }
    this.pendingParts = s.pending.map((i) => restored[i]!);
    // the timers of what was restored: the waiting rows' time, and each partition's cleanup (in time order)
    if (this.pendingParts.length > 0) {
      this.lastTimer = this.pendingTime + 1;
      this.timers?.register(this, this.lastTimer);
    }
    const cleanups = restored.filter((p) => p.cleanupAt > -Infinity).sort((a, b) => a.cleanupAt - b.cleanupAt);
    for (const p of cleanups) {
      this.cleanupTimes.push(p.cleanupAt);
      this.cleanupParts.push(p);
      this.timers?.register(this, p.cleanupAt);
    }
  }
}
