import type { FunctionResolver } from "../../expressions/compile.js";
import { ExecutionError } from "../../types/errors.js";
import type { OverAggregateNode } from "../../plan/nodes.js";
import { Kind } from "../../types/row.js";
import { type GroupKeys, createGroupKeys } from "../aggregates/group-keys.js";
import { errorWithRow } from "./row-error.js";
import { AggregateSet, type ArgumentReader, argumentReader } from "../windows/aggregate-set.js";
import { EventTimeOperator } from "../windows/event-time-operator.js";
import { TimeQueue } from "../windows/time-queue.js";
import { type KeyedStore, type StateBackend, type StoreFiles, isStoreFiles } from "../state/keyed-store.js";
import { restoreStore, storeSnapshot } from "../state/snapshot-store.js";

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

/** A partition on a disk backend, as one store entry: its key row, accumulators (the aggregate set's snapshot form), waiting rows and frame. */
interface StoredPartition {
  keyRow: unknown[];
  acc: unknown;
  pending: Map<number, unknown[][]>;
  frameTimes: number[];
  frameArgs: unknown[];
}

/** A snapshot: the partitions (by position) and the pending times `[time, partition position]`. */
interface OverSnapshot {
  numLateRecordsDropped: number;
  pending: [number, number][];
  partitions: { keyRow: unknown[]; acc: unknown; rows: [number, unknown[][]][]; frameTimes: number[]; frameArgs: unknown[] }[];
}

/** A disk backend's snapshot during a checkpoint: its store's files and the pending times by partition probe. */
interface OverStoreSnapshot {
  numLateRecordsDropped: number;
  files: StoreFiles;
  timers: [number, unknown][];
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
 *
 * State: on the hashmap backend the partitions are objects by gid, their accumulators columns of the aggregate
 * set. On a disk backend (a backend with a bounded cache, state/keyed-store.ts) each partition is one store
 * entry by its key's probe (`StoredPartition`); a release loads its accumulators into a scratch group, runs
 * the same code, and stores them back. The pending times (Flink's timers, one per partition and time) stay
 * in memory on both.
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
  /** Disk backend: the partitions by probe, and their pending times (`queue` then stays empty). */
  private readonly store: KeyedStore<StoredPartition> | undefined;
  private storeQueue = new TimeQueue<unknown>();

  constructor(private readonly node: OverAggregateNode, resolveFunction?: FunctionResolver, backend?: StateBackend) {
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
    if (backend?.cacheSize !== undefined) {
      this.store = backend.createStore<StoredPartition>({ name: "OverAggregate.partitions" });
      this.aggs.grow(1);
    }
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
    if (this.store !== undefined) {
      this.addOnStore(this.store, ts, row);
      return;
    }
    const p = gid < 0 ? this.newPartition(row) : this.partitions[gid]!;
    const rows = p.pending.get(ts);
    if (rows) rows.push(row);
    else {
      p.pending.set(ts, [row]);
      this.queue.push(ts, p);
    }
  }

  /** Disk backend: the row waits in its partition's entry (the key was just found by `keys.find`). */
  private addOnStore(store: KeyedStore<StoredPartition>, ts: number, row: unknown[]): void {
    const probe = this.keys.currentProbe();
    let e = store.get(probe);
    if (e === undefined) store.set(probe, e = { keyRow: row, acc: null, pending: new Map(), frameTimes: [], frameArgs: [] });
    const rows = e.pending.get(ts);
    if (rows) rows.push(row);
    else {
      e.pending.set(ts, [row]);
      this.storeQueue.push(ts, probe);
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
    if (this.store !== undefined) {
      this.releaseOnStore(this.store, wm);
      this.out.watermark(wm);
      return;
    }
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

  /**
   * Disk backend: each due (time, partition) releases as on the hashmap backend, with the partition's
   * accumulators loaded into the scratch group 0 and stored back after.
   */
  private releaseOnStore(store: KeyedStore<StoredPartition>, wm: number): void {
    const q = this.storeQueue;
    while (q.size > 0 && q.peekTime() <= wm) {
      const ts = q.peekTime();
      const probe = q.pop();
      const e = store.get(probe)!;
      const rows = e.pending.get(ts)!;
      e.pending.delete(ts);
      if (e.acc === null) this.aggs.reset(0);
      else this.aggs.restore(0, e.acc);
      const p: Partition = { gid: 0, keyRow: e.keyRow, pending: e.pending, frameTimes: e.frameTimes, frameArgs: e.frameArgs, frameHead: 0 };
      if (this.range) this.releaseRange(p, ts, rows);
      else this.releaseRows(p, ts, rows);
      e.acc = this.aggs.snapshot(0);
      e.frameTimes = p.frameHead === 0 ? p.frameTimes : p.frameTimes.slice(p.frameHead);
      e.frameArgs = p.frameHead === 0 ? p.frameArgs : p.frameArgs.slice(p.frameHead * this.argCount);
    }
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
    const store = this.store;
    if (store !== undefined) {
      const files = storeSnapshot(store);
      if (files !== undefined) {
        const cp: OverStoreSnapshot = { numLateRecordsDropped: this.numLateRecordsDropped, files, timers: this.storeQueue.entries() };
        return cp;
      }
      // outside a checkpoint: the hashmap backend's form, partitions by position
      const at = new Map<unknown, number>();
      const partitions: OverSnapshot["partitions"] = [];
      for (const [probe, e] of store) {
        at.set(probe, partitions.length);
        partitions.push({ keyRow: e.keyRow, acc: e.acc, rows: [...e.pending].map(([t, rows]) => [t, rows.slice()]), frameTimes: e.frameTimes.slice(), frameArgs: e.frameArgs.slice() });
      }
      const snapshot: OverSnapshot = { numLateRecordsDropped: this.numLateRecordsDropped, pending: this.storeQueue.entries().map(([t, probe]) => [t, at.get(probe)!]), partitions };
      return snapshot;
    }
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
    let s = state as OverSnapshot | OverStoreSnapshot;
    const store = this.store;
    if ("files" in s && isStoreFiles(s.files)) {
      if (store !== undefined) {
        this.numLateRecordsDropped = s.numLateRecordsDropped;
        restoreStore(s.files, store, undefined, (e) => e, 0);
        for (const [t, probe] of s.timers) this.storeQueue.push(t, probe);
        return;
      }
      // onto the hashmap backend: the stored partitions in the by-position form
      const read = new Map<unknown, StoredPartition>();
      restoreStore(s.files, read, undefined, (e) => e, 0);
      const at = new Map<unknown, number>();
      const partitions: OverSnapshot["partitions"] = [];
      for (const [probe, e] of read) {
        at.set(probe, partitions.length);
        partitions.push({ keyRow: e.keyRow, acc: e.acc, rows: [...e.pending], frameTimes: e.frameTimes, frameArgs: e.frameArgs });
      }
      s = { numLateRecordsDropped: s.numLateRecordsDropped, pending: s.timers.map(([t, probe]) => [t, at.get(probe)!]), partitions };
    }
    const snap = s as OverSnapshot;
    this.numLateRecordsDropped = snap.numLateRecordsDropped;
    if (store !== undefined) {
      const probes: unknown[] = [];
      for (const sp of snap.partitions) {
        this.keys.find(sp.keyRow);
        const probe = this.keys.currentProbe();
        probes.push(probe);
        store.set(probe, { keyRow: sp.keyRow, acc: sp.acc ?? null, pending: new Map(sp.rows.map(([t, rows]) => [t, rows.slice()])), frameTimes: sp.frameTimes.slice(), frameArgs: sp.frameArgs.slice() });
      }
      for (const [t, gid] of snap.pending) this.storeQueue.push(t, probes[gid]);
      return;
    }
    for (const sp of snap.partitions) {
      this.keys.find(sp.keyRow);
      const p = this.newPartition(sp.keyRow);
      if (sp.acc !== null) this.aggs.restore(p.gid, sp.acc);
      for (const [t, rows] of sp.rows) p.pending.set(t, rows);
      p.frameTimes = sp.frameTimes.slice();
      p.frameArgs = sp.frameArgs.slice();
    }
    for (const [t, gid] of snap.pending) this.queue.push(t, this.partitions[gid]!);
  }
}
