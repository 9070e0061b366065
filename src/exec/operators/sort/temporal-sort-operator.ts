import type { SortKey } from "../../../plan/nodes/sort.js";
import { Kind } from "../../../types/row.js";
import { BaseOperator } from "../../operator.js";
import type { ProcessingTimeService, ProcessingTimeTarget, UsesProcessingTime } from "../../time/processing-time-service.js";
import { type RowComparator, insertSorted, rowComparator } from "./row-comparator.js";

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
 */
export class TemporalSortOperator extends BaseOperator implements UsesProcessingTime, ProcessingTimeTarget {
  /** Pending rows, sorted; rows before `head` have been emitted. */
  private rows: unknown[][] = [];
  private head = 0;
  private readonly compare: RowComparator;
  private readonly time: number;
  private late = 0;
  /** Time released up to: the watermark, or in processing-time mode the processing time. */
  private released = -Infinity;
  private timers: ProcessingTimeService | undefined;
  /** Processing-time mode: the latest time a timer was registered for (rows arrive in time order). */
  private timerFor = -Infinity;

  constructor(keys: readonly SortKey[], private readonly procTime = false) {
    super(1);
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
    insertSorted(this.rows, this.head, row, this.compare);
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
    const wm = upTo;
    const rows = this.rows;
    let h = this.head;
    while (h < rows.length && timeOf(rows[h]![this.time]) <= wm) this.out.record(Kind.INSERT, rows[h++]!);
    if (h === rows.length) {
      this.rows = [];
      h = 0;
    } else if (h > 1024 && h > rows.length >>> 1) {
      this.rows = rows.slice(h);
      h = 0;
    }
    this.head = h;
  }

  /** Rows dropped as late. */
  lateRecords(): number {
    return this.late;
  }

  override snapshotState(): unknown {
    return this.rows.slice(this.head).map((r) => r.slice());
  }

  override restoreState(state: unknown): void {
    this.rows = (state as unknown[][]).map((r) => r.slice());
    this.head = 0;
    // the timers of the restored rows: one per distinct time (the rows are sorted by time first)
    for (const r of this.rows) {
      const t = timeOf(r[this.time]);
      if (t > this.timerFor) this.registerTimer(t);
    }
  }
}

function timeOf(v: unknown): number {
  return v instanceof Date ? v.getTime() : typeof v === "number" ? v : -Infinity;
}
