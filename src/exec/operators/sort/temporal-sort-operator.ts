import type { SortKey } from "../../../plan/nodes/sort.js";
import { Kind } from "../../../types/row.js";
import { BaseOperator } from "../../operator.js";
import { HASHMAP_BACKEND, type KeyedStore, type StateBackend, isStoreFiles } from "../../state/keyed-store.js";
import { restoreStore, storeSnapshot } from "../../state/snapshot-store.js";
import { TimeQueue } from "../../windows/time-queue.js";
import type { ProcessingTimeService, ProcessingTimeTarget, UsesProcessingTime } from "../../time/processing-time-service.js";
import { type RowComparator, rowComparator } from "./row-comparator.js";

/**
 * ORDER BY an ascending event-time attribute (then other keys) over an insert-only stream, as Flink's
 * RowTimeSortOperator: rows wait until the watermark passes their rowtime and go out sorted. A row whose
 * rowtime is not after the current watermark is late and dropped.
 *
 * On a processing-time attribute (`ORDER BY proctime`, Flink's ProcTimeSortOperator) the axis is the
 * rows' processing time: a row at time t releases the rows of earlier times (sorted by the other keys),
 * and the end of input (+∞ watermark) releases the rest; other watermarks release nothing. As Flink's
 * operator, each processing time t rows arrive at registers one timer at t + 1 ms, so the rows of t are
 * released once the job clock passes t even while no later row comes.
 *
 * State, as Flink's: the waiting rows by time (arrival order) in a store of the job's state backend
 * (state/keyed-store.ts), and the times that have rows in a queue in memory (Flink's timers, one per
 * time). A release takes the due times in order and sorts each time's rows by the other keys (stably: ties
 * in arrival order).
 */
export class TemporalSortOperator extends BaseOperator implements UsesProcessingTime, ProcessingTimeTarget {
  /** Pending rows by time, each list in arrival order. */
  private readonly rows: KeyedStore<unknown[][]>;
  /** The times `rows` holds, earliest first. */
  private times = new TimeQueue<number>();
  private readonly compare: RowComparator;
  private readonly time: number;
  private late = 0;
  /** Time released up to: the watermark, or in processing-time mode the processing time. */
  private released = -Infinity;
  private timers: ProcessingTimeService | undefined;
  /** Processing-time mode: the latest time a timer was registered for (rows arrive in time order). */
  private timerFor = -Infinity;

  constructor(keys: readonly SortKey[], private readonly procTime = false, backend: StateBackend = HASHMAP_BACKEND) {
    super(1);
    this.rows = backend.createStore<unknown[][]>({ name: "TemporalSort.rows" });
    this.compare = rowComparator(keys);
    this.time = keys[0]!.column;
  }

  processElement(_input: number, _kind: number, row: unknown[]): void {
    const t = timeOf(row[this.time]);
    if (this.procTime && t - 1 > this.released) this.release(t - 1);
    if (t <= this.released) {
      this.late++;
      return;
    }
    const waiting = this.rows.get(t);
    if (waiting !== undefined) waiting.push(row);
    else {
      this.rows.set(t, [row]);
      this.times.push(t, t);
    }
    if (this.procTime && t > this.timerFor) this.registerTimer(t);
  }

  bindProcessingTime(service: ProcessingTimeService): void {
    if (this.procTime) this.timers = service;
  }

  /** The job clock passed a time rows wait at: release every row of an earlier time. */
  onProcessingTime(now: number): void {
    if (now - 1 > this.released) this.release(now - 1);
  }

  private registerTimer(t: number): void {
    const timers = this.timers;
    if (timers === undefined) return;
    this.timerFor = t;
    timers.register(this, t + 1);
  }

  protected override onWatermark(wm: number): void {
    if (!this.procTime || wm === Infinity) this.release(wm);
    this.out.watermark(wm);
  }

  /** Emits the pending rows with a time at or before `upTo`, in order. */
  private release(upTo: number): void {
    this.released = upTo;
    const times = this.times;
    while (times.size > 0 && times.peekTime() <= upTo) {
      const t = times.pop();
      const rows = this.rows.get(t)!;
      this.rows.delete(t);
      if (rows.length > 1) rows.sort(this.compare);
      for (let i = 0; i < rows.length; i++) this.out.record(Kind.INSERT, rows[i]!);
    }
  }

  /** Rows dropped as late. */
  lateRecords(): number {
    return this.late;
  }

  /** The waiting rows in release order (both backends), or on a disk backend during a checkpoint its store's files. */
  override snapshotState(): unknown {
    const files = storeSnapshot(this.rows);
    if (files !== undefined) return files;
    const out: unknown[][] = [];
    for (const [t] of this.times.entries()) {
      const rows = this.rows.get(t)!.slice().sort(this.compare);
      for (const r of rows) out.push(r.slice());
    }
    return out;
  }

  override restoreState(state: unknown): void {
    if (isStoreFiles(state)) {
      restoreStore(state, this.rows, undefined, (rows) => rows, 0);
      const times: number[] = [];
      for (const t of this.rows.keys()) times.push(t as number);
      times.sort((a, b) => a - b);
      for (const t of times) this.times.push(t, t);
    } else {
      for (const r of state as unknown[][]) {
        const t = timeOf(r[this.time]);
        const waiting = this.rows.get(t);
        if (waiting !== undefined) waiting.push(r.slice());
        else {
          this.rows.set(t, [r.slice()]);
          this.times.push(t, t);
        }
      }
    }
    // the timers of the restored rows: one per distinct time
    for (const [t] of this.times.entries()) if (t > this.timerFor) this.registerTimer(t);
  }
}

function timeOf(v: unknown): number {
  return v instanceof Date ? v.getTime() : typeof v === "number" ? v : -Infinity;
}
