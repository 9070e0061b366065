import { generate, nextGeneratedName } from "../expressions/codegen.js";
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

/**
 * Delivers to one input of a downstream operator: one edge of the job graph.
 *
 * `record` and `watermark` are generated for each edge when the graph is built (never per record), so the
 * call `target.processElement(...)` inside them has a call site of its own that only ever sees one operator
 * class. A single shared method would be one call site for every edge of every job in the process, which goes
 * megamorphic as soon as a few queries have run, and every record would pay that dispatch (docs/benchmarks.md).
 * The source text carries the edge's number within its job: V8 caches compiled `new Function` sources, and two
 * edges of a job with the same source would share their type feedback again.
 *
 * `target` and `input` are public for code that calls the downstream operator itself (aggregates/downstream.ts);
 * an edge does nothing but forward, so calling `target` directly is the same as calling the edge.
 */
export class OperatorOutput implements Output {
  readonly record: (kind: number, row: unknown[]) => void;
  readonly watermark: (wm: number) => void;

  constructor(readonly target: Operator, readonly input: number) {
    if (!Number.isInteger(input) || input < 0) throw new RangeError(`edge input must be a non-negative integer, got ${input}`);
    const edge = edgeFunctions(target, input);
    this.record = edge.record;
    this.watermark = edge.watermark;
  }

  endInput(): void { this.target.endInput(this.input); }
}

function edgeFunctions(op: Operator, input: number): Pick<Output, "record" | "watermark"> {
  // numbered within the job being built (expressions/codegen.ts): identical plans, identical texts
  // the target's class is part of the text: edges of the same text share compiled code and type feedback,
  // which stays monomorphic only if they all call the same operator class
  const id = `${nextGeneratedName("edge")}_${op.constructor.name.replace(/[^A-Za-z0-9_$]/g, "_")}`;
  const src = `"use strict";return {`
    + `record:function ${id}_record(kind,row){op.processElement(${input},kind,row);},`
    + `watermark:function ${id}_watermark(wm){op.processWatermark(${input},wm);}};`;
  return generate("edge", id, ["op"], src, [op]);
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
