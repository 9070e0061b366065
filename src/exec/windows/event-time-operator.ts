import { ExecutionError } from "../../types/errors.js";
import type { WindowProperty } from "../../plan/nodes.js";
import type { MetricGroup } from "../metrics.js";
import { BaseOperator } from "../operator.js";

/**
 * Base of the operators that place rows on the event-time axis (group windows, over windows): the row's
 * rowtime, Flink's error for a NULL one, and the count of rows dropped as late (Flink's
 * `numLateRecordsDropped`, kept in the operator's checkpointed state).
 */
export abstract class EventTimeOperator extends BaseOperator {
  /** Rows dropped because they were late (every window they belong to had fired; an over row at or behind the watermark). */
  numLateRecordsDropped = 0;

  /**
   * @param timeIndex position of the rowtime column in the input
   * @param what how the error for a NULL rowtime names the window, e.g. `window 'w' on column 'ts'`
   */
  protected constructor(private readonly timeIndex: number, private readonly what: string) {
    super(1);
  }

  /** Publishes the late-row count as `<scope>.numLateRecordsDropped` (read only when a snapshot is taken). */
  setMetrics(group: MetricGroup): void {
    group.gauge("numLateRecordsDropped", () => this.numLateRecordsDropped);
  }

  /**
   * One input, so the operator's watermark is its input's: BaseOperator's minimum over the inputs without
   * the loop. With per-record watermarks (Flink's on-event generation) this runs once per record.
   */
  override processWatermark(_input: number, wm: number): void {
    if (wm <= this.currentWatermark) return;
    this.currentWatermark = wm;
    this.onWatermark(wm);
  }

  override inputWatermark(): number {
    return this.currentWatermark;
  }

  /** The record's event time in epoch millis; a NULL rowtime fails the job with Flink's message. */
  rowtime(row: readonly unknown[]): number {
    const t = row[this.timeIndex] as Date | null;
    if (t === null) throw new ExecutionError(`RowTime field should not be null, please convert it to a non-null long value (${this.what})`);
    return t.getTime();
  }
}

/** The value of a window property for the window [start, end): `rowtime()` is end - 1 ms. */
export function windowProperty(p: WindowProperty, start: number, end: number): Date {
  return new Date(p === "start" ? start : p === "end" ? end : end - 1);
}
