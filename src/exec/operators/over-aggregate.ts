import type { FunctionResolver } from "../../expressions/compile.js";
import { ExecutionError } from "../../types/errors.js";
import type { OverAggregateNode } from "../../plan/nodes.js";
import { Kind } from "../../types/row.js";
import { type GroupKeys, createGroupKeys } from "../aggregates/group-keys.js";
import { errorWithRow } from "./row-error.js";
import { AggregateSet, type ArgumentReader, argumentReader } from "../windows/aggregate-set.js";
import { EventTimeOperator } from "../windows/event-time-operator.js";
import { TimeQueue } from "../windows/time-queue.js";

/** One partition: its accumulator group, rows waiting for the watermark, and the rows of a bounded frame. */
interface Partition {
  readonly gid: number;
  /** A row of the partition: addresses it in the key index again after a restore. */
  readonly keyRow: unknown[];
  /** Rows not yet released, by event time (each list in arrival order). */
  readonly pending: Map<number, unknown[][]>;
  /** Bounded frames: times and arguments (`argCount` per row) of the rows in the frame, oldest first. */
  frameTimes: number[];
  frameArgs: unknown[];
  frameHead: number;
}

/**
 * OVER aggregation ordered by an event-time attribute (Flink's RowTime{Range,Rows}{Unbounded,Bounded}PrecedingFunction):
 * - a row with time <= the current watermark is late: dropped, counted in `numLateRecordsDropped`;
 * - other rows wait until the watermark reaches their time, then are released in time order (rows of one
 *   time in arrival order), each emitted once (`+I`) with the aggregates over its frame appended;
 * - RANGE frames: all rows of one time (peers) get the same value, which includes all of them; a bounded
 *   RANGE of P covers times in [t - P, t];
 * - ROWS frames: each row's frame ends at itself; a bounded ROWS frame of n holds the n previous rows too;
 * - end of input releases every waiting row.
 * Partitions are released in time order across the whole operator (ties: the order the times arrived).
 * A partition key or argument expression that fails on a row fails the job with the row named (row-error.ts).
 */
export class OverAggregateOperator extends EventTimeOperator {
  private readonly keys: GroupKeys;
  private readonly partitions: Partition[] = [];
  private readonly queue = new TimeQueue<Partition>();
  private readonly aggs: AggregateSet;
  private readonly readArgs: ArgumentReader;
  private readonly args: unknown[];
  private readonly retracted: unknown[];
  private readonly argCount: number;
  private readonly range: boolean;
  private readonly preceding: number | undefined;
  private readonly inputWidth: number;

  constructor(private readonly node: OverAggregateNode, resolveFunction?: FunctionResolver) {
    super(node.input.schema.indexOf(node.window.orderBy), `over window '${node.window.alias}' on column '${node.window.orderBy}'`);
    const w = node.window;
    if (!w.timeBased) throw new ExecutionError("OverAggregateOperator runs event-time over windows only");
    this.keys = createGroupKeys(w.partitionBy, node.input.schema, resolveFunction);
    this.preceding = w.preceding;
    this.range = w.frame === "RANGE";
    this.aggs = new AggregateSet(node.aggCalls, w.preceding !== undefined);
    this.readArgs = argumentReader(node.aggCalls, node.input.schema, resolveFunction);
    this.argCount = node.aggCalls.length;
    this.args = new Array<unknown>(this.argCount).fill(null);
    this.retracted = new Array<unknown>(this.argCount).fill(null);
    this.inputWidth = node.input.schema.size;
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    const ts = this.rowtime(row);
    if (ts <= this.currentWatermark) {
      this.numLateRecordsDropped++;
      return;
    }
    let gid: number;
    try {
      gid = this.keys.find(row);
    } catch (e) {
      throw errorWithRow(e, kind, row, this.node.input.schema);
    }
    const p = gid < 0 ? this.newPartition(row) : this.partitions[gid]!;
    const rows = p.pending.get(ts);
    if (rows) rows.push(row);
    else {
      p.pending.set(ts, [row]);
      this.queue.push(ts, p);
    }
  }

  private newPartition(row: unknown[]): Partition {
    const gid = this.partitions.length;
    this.keys.add(gid);
    this.aggs.grow(gid + 1);
    this.aggs.reset(gid);
    const p: Partition = { gid, keyRow: row, pending: new Map(), frameTimes: [], frameArgs: [], frameHead: 0 };
    this.partitions.push(p);
    return p;
  }

  protected override onWatermark(wm: number): void {
    const q = this.queue;
    while (q.size > 0 && q.peekTime() <= wm) {
      const ts = q.peekTime();
      const p = q.pop();
      const rows = p.pending.get(ts)!;
      p.pending.delete(ts);
      if (this.range) this.releaseRange(p, ts, rows);
      else this.releaseRows(p, ts, rows);
    }
    this.out.watermark(wm);
  }

  private releaseRange(p: Partition, ts: number, rows: unknown[][]): void {
    const args = this.args;
    if (this.preceding !== undefined) this.expire(p, ts - this.preceding);
    for (let i = 0; i < rows.length; i++) {
      this.read(rows[i]!, args);
      this.accumulate(p.gid, rows[i]!);
      if (this.preceding !== undefined) this.keep(p, ts);
    }
    for (let i = 0; i < rows.length; i++) this.emit(rows[i]!, p.gid);
  }

  private releaseRows(p: Partition, ts: number, rows: unknown[][]): void {
    const args = this.args;
    const n = this.preceding;
    for (let i = 0; i < rows.length; i++) {
      this.read(rows[i]!, args);
      this.accumulate(p.gid, rows[i]!);
      if (n !== undefined) {
        this.keep(p, ts);
        if (p.frameTimes.length - p.frameHead > n + 1) this.retractOldest(p);
      }
      this.emit(rows[i]!, p.gid);
    }
  }

  /** Reads a released row's aggregate arguments into `args` (rows of an event-time over window are inserts). */
  private read(row: unknown[], args: unknown[]): void {
    try {
      this.readArgs(row, args);
    } catch (e) {
      throw errorWithRow(e, Kind.INSERT, row, this.node.input.schema);
    }
  }

  /** Accumulates the arguments just read (in `args`); a failing user aggregate function names the row. */
  private accumulate(gid: number, row: unknown[]): void {
    try {
      this.aggs.accumulate(gid, this.args);
    } catch (e) {
      throw errorWithRow(e, Kind.INSERT, row, this.node.input.schema);
    }
  }

  /** Remembers the arguments just accumulated (in `args`) for a later retraction. */
  private keep(p: Partition, ts: number): void {
    p.frameTimes.push(ts);
    const a = this.args;
    for (let i = 0; i < a.length; i++) p.frameArgs.push(a[i]);
  }

  /** RANGE: retracts the frame's rows older than `from`. */
  private expire(p: Partition, from: number): void {
    while (p.frameHead < p.frameTimes.length && p.frameTimes[p.frameHead]! < from) this.retractOldest(p);
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

  override snapshotState(): unknown {
    const pending: [number, number][] = this.queue.entries().map(([t, p]) => [t, p.gid]);
    return {
      numLateRecordsDropped: this.numLateRecordsDropped,
      pending,
      partitions: this.partitions.map((p) => ({
        keyRow: p.keyRow, acc: this.aggs.snapshot(p.gid), rows: [...p.pending],
        frameTimes: p.frameTimes.slice(p.frameHead), frameArgs: p.frameArgs.slice(p.frameHead * this.argCount),
      })),
    };
  }

  override restoreState(state: unknown): void {
    const s = state as {
      numLateRecordsDropped: number; pending: [number, number][];
      partitions: { keyRow: unknown[]; acc: unknown; rows: [number, unknown[][]][]; frameTimes: number[]; frameArgs: unknown[] }[];
    };
    this.numLateRecordsDropped = s.numLateRecordsDropped;
    for (const sp of s.partitions) {
      this.keys.find(sp.keyRow);
      const p = this.newPartition(sp.keyRow);
      this.aggs.restore(p.gid, sp.acc);
      for (const [t, rows] of sp.rows) p.pending.set(t, rows);
      p.frameTimes = sp.frameTimes.slice();
      p.frameArgs = sp.frameArgs.slice();
    }
    for (const [t, gid] of s.pending) this.queue.push(t, this.partitions[gid]!);
  }
}
