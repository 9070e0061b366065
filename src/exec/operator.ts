/**
 * The operator contract of the interpreter. Records are positional arrays passed with a numeric row
 * kind (0 +I, 1 -U, 2 +U, 3 -D) — no wrapper object per record. A record is immutable once emitted:
 * no operator writes into an input array, so sources hand out their stored rows without copying.
 * Watermarks are epoch milliseconds; end of input is a watermark of +Infinity followed by endInput.
 */
import type { MetricGroup } from "./metrics.js";

export interface Output {
  record(kind: number, row: unknown[]): void;
  watermark(wm: number): void;
  endInput(): void;
}

export interface Operator {
  /** Called once before the first record. */
  open(): void;
  processElement(input: number, kind: number, row: unknown[]): void;
  processWatermark(input: number, wm: number): void;
  endInput(input: number): void;
  /** State for checkpoints (plain data; immer snapshots at the job level). */
  snapshotState(): unknown;
  restoreState(state: unknown): void;
  close(): void;
  /**
   * Receives the operator's metric group when the job graph is built (before open); an operator that
   * counts something registers it there (exec/metrics.ts). Optional: most operators count nothing.
   */
  setMetrics?(group: MetricGroup): void;
}

/** Delivers to one input of a downstream operator. */
export class OperatorOutput implements Output {
  constructor(private readonly op: Operator, private readonly input: number) {}
  record(kind: number, row: unknown[]): void { this.op.processElement(this.input, kind, row); }
  watermark(wm: number): void { this.op.processWatermark(this.input, wm); }
  endInput(): void { this.op.endInput(this.input); }
}

/** Fans one operator's output out to several consumers (a shared plan node). */
export class BroadcastOutput implements Output {
  constructor(private readonly outs: readonly Output[]) {}
  record(kind: number, row: unknown[]): void {
    const outs = this.outs;
    for (let i = 0; i < outs.length; i++) outs[i]!.record(kind, row);
  }
  watermark(wm: number): void { for (const o of this.outs) o.watermark(wm); }
  endInput(): void { for (const o of this.outs) o.endInput(); }
}

/** Base for operators: watermark = minimum over inputs, end of input once all inputs ended. */
export abstract class BaseOperator implements Operator {
  out!: Output;
  private readonly inputWatermarks: number[];
  private endedInputs = 0;
  currentWatermark = -Infinity;

  constructor(readonly inputCount = 1) {
    this.inputWatermarks = new Array<number>(inputCount).fill(-Infinity);
  }

  open(): void {}
  abstract processElement(input: number, kind: number, row: unknown[]): void;

  processWatermark(input: number, wm: number): void {
    const ws = this.inputWatermarks;
    if (wm <= ws[input]!) return;
    ws[input] = wm;
    let min = ws[0]!;
    for (let i = 1; i < ws.length; i++) if (ws[i]! < min) min = ws[i]!;
    if (min > this.currentWatermark) {
      this.currentWatermark = min;
      this.onWatermark(min);
    }
  }

  /** Override to fire timers / windows; must forward the watermark. */
  protected onWatermark(wm: number): void {
    this.out.watermark(wm);
  }

  /** Watermark of one input (PTF table watermarks). */
  inputWatermark(input: number): number {
    return this.inputWatermarks[input]!;
  }

  endInput(input: number): void {
    this.processWatermark(input, Infinity);
    if (++this.endedInputs === this.inputCount) this.onEndOfInput();
  }

  /** All inputs ended: flush and forward. */
  protected onEndOfInput(): void {
    this.out.endInput();
  }

  snapshotState(): unknown { return null; }
  restoreState(_state: unknown): void {}
  close(): void {}
}
