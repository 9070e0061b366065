import { BaseOperator } from "../../operator.js";

/**
 * LIMIT [OFFSET] without ORDER BY over an insert-only input: the rows `offset+1 .. offset+fetch` in arrival
 * order; the rows after them are dropped. What happens once the last of them has gone out depends on who
 * reads the result (`endsOutput`, set by the job graph before `open`):
 * - a query the client collects (`execute()`) and a batch job: nothing can change any more, so the operator
 *   ends its output (watermark +Infinity and end of input); when that ends the job's sink, the job stops and
 *   cancels its sources (the client has its whole result, as when Flink's client closes its collect iterator);
 * - a streaming INSERT job: as in Flink, the job keeps running — its sources are read on and their rows
 *   dropped here — so it can be savepointed and restored after the limit was reached (the restored count
 *   keeps dropping rows).
 */
export class LimitOperator extends BaseOperator {
  private seen = 0;
  private done = false;
  /** Set when the output ended before the input: the job may stop its sources (exec/job.ts). */
  endedEarly = false;
  /** Whether a satisfied limit ends its output (see above); false keeps the job running. */
  endsOutput = true;
  private readonly end: number;

  constructor(private readonly offset: number, fetch: number) {
    super(1);
    this.end = offset + fetch;
  }

  override open(): void {
    if (this.seen >= this.end && this.endsOutput) this.finishOutput();
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    if (this.done || this.seen >= this.end) return;
    const n = this.seen++;
    if (n >= this.offset) this.out.record(kind, row);
    if (this.seen >= this.end && this.endsOutput) this.finishOutput();
  }

  private finishOutput(): void {
    if (this.done) return;
    this.done = true;
    this.endedEarly = true;
    this.out.watermark(Infinity);
    this.out.endInput();
  }

  protected override onWatermark(wm: number): void {
    if (!this.done) this.out.watermark(wm);
  }

  protected override onEndOfInput(): void {
    if (!this.done) {
      this.done = true;
      this.out.endInput();
    }
  }

  override snapshotState(): unknown {
    return this.seen;
  }

  override restoreState(state: unknown): void {
    this.seen = state as number;
  }
}
