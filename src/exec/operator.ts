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
  /** A source's whole slice in one call (OperatorOutput, RecordLoop); optional. */
  readonly recordLoop?: RecordLoop;
}

/**
 * Delivers `rows[start..end)` as `record(kinds?.[i] ?? 0, rows[i])`, each followed (with `wm`) by the
 * watermark `wm.onEvent(time of rows[i][rowtime])` returns, if any. On a throw, `at[0]` is the index of
 * the failing row. Generated per edge (OperatorOutput): a source's loop then calls one operator class.
 */
export type RecordLoop = (
  rows: readonly unknown[][], kinds: readonly number[] | undefined, start: number, end: number,
  wm: { onEvent(t: number): number | undefined } | undefined, rowtime: number, at: number[],
) => void;

/** The RecordLoop of any output, record by record through `out` (outputs without a loop of their own). */
export function recordEach(
  out: Output, rows: readonly unknown[][], kinds: readonly number[] | undefined, start: number, end: number,
  wm: { onEvent(t: number): number | undefined } | undefined, rowtime: number, at: number[],
): void {
  let i = start;
  try {
    for (; i < end; i++) {
      const row = rows[i]!;
      out.record(kinds === undefined ? 0 : kinds[i]!, row as unknown[]);
      if (wm !== undefined) {
        const t = row[rowtime] as Date | null;
        if (t !== null) {
          const w = wm.onEvent(t.getTime());
          if (w !== undefined) out.watermark(w);
        }
      }
    }
  } catch (e) {
    at[0] = i;
    throw e;
  }
}

/**
 * A receiver of ready-made row objects in place of positional records (the result sink of `batches()`,
 * collect-sink.ts): `Ck` builds a row of kind k from the record's values as arguments (`new R.C2(v0, v1)`
 * is the row of `record(2, [v0, v1])`), `add` takes it in place of that record, in order with records
 * that arrive the usual way. Generated output code that knows its downstream builds the row object once
 * instead of a record that the sink then copies into a row object (aggregates/downstream.ts).
 */
export interface RowObjectReceiver {
  readonly C0: RowObjectConstructor;
  readonly C1: RowObjectConstructor;
  readonly C2: RowObjectConstructor;
  readonly C3: RowObjectConstructor;
  add(row: object): void;
}

/** Builds one row object from the values of a record, as arguments in column order. */
export type RowObjectConstructor = new (...values: unknown[]) => object;

export interface Operator {
  /** Called once before the first record. */
  open(): void;
  processElement(input: number, kind: number, row: unknown[]): void;
  processWatermark(input: number, wm: number): void;
  endInput(input: number): void;
  /** Releases what the operator holds back before a snapshot (see BaseOperator); whether it emitted. */
  prepareSnapshotPreBarrier(): boolean;
  /**
   * State for checkpoints: plain data (exec/snapshot-codec.ts), null for an operator without state. Called
   * between two records; `restoreState` is called after `open` and before the first record.
   */
  snapshotState(): unknown;
  restoreState(state: unknown): void;
  /** The checkpoint that holds `state` (this operator's snapshot) is durable (sinks commit). Optional. */
  notifyCheckpointComplete?(state: unknown): void;
  /** Field → type of the state, checked against a snapshot's when restoring (checkpoint/job-state.ts). Optional. */
  stateSchema?(): Readonly<Record<string, string>>;
  close(): void;
  /**
   * Receives the operator's metric group when the job graph is built (before open); an operator that
   * counts something registers it there (exec/metrics.ts). Optional: most operators count nothing.
   */
  setMetrics?(group: MetricGroup): void;
  /**
   * Keys this operator holds state for, if it can say so cheaply (no walk over the state): read by a
   * progress display between slices. Optional.
   */
  stateKeys?(): number;
  /**
   * Row objects in place of records on this input, when the operator takes them (RowObjectReceiver);
   * asked once per edge when the graph is built. Optional: only the result sink has one.
   */
  rowObjectReceiver?(input: number): RowObjectReceiver | null;
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
 * an edge does nothing but forward, so calling `target` directly is the same as calling the edge. `rows` is
 * the target's RowObjectReceiver on this input (null when it takes records only): generated output code
 * may hand it a row object instead of calling `record`.
 */
export class OperatorOutput implements Output {
  readonly record: (kind: number, row: unknown[]) => void;
  readonly watermark: (wm: number) => void;
  readonly recordLoop: RecordLoop;
  readonly rows: RowObjectReceiver | null;

  constructor(readonly target: Operator, readonly input: number) {
    if (!Number.isInteger(input) || input < 0) throw new RangeError(`edge input must be a non-negative integer, got ${input}`);
    const edge = edgeFunctions(target, input);
    this.record = edge.record;
    this.watermark = edge.watermark;
    this.recordLoop = edge.recordLoop;
    this.rows = target.rowObjectReceiver?.(input) ?? null;
  }

  endInput(): void { this.target.endInput(this.input); }
}

function edgeFunctions(op: Operator, input: number): Pick<OperatorOutput, "record" | "watermark" | "recordLoop"> {
  // numbered within the job being built (expressions/codegen.ts): identical plans, identical texts
  // the target's class is part of the text: edges of the same text share compiled code and type feedback,
  // which stays monomorphic only if they all call the same operator class
  const id = `${nextGeneratedName("edge")}_${op.constructor.name.replace(/[^A-Za-z0-9_$]/g, "_")}`;
  const src = `"use strict";return {`
    + `record:function ${id}_record(kind,row){op.processElement(${input},kind,row);},`
    + `watermark:function ${id}_watermark(wm){op.processWatermark(${input},wm);},`
    // a source's slice: the per-row loop lives here, not in the source, for the same reason as record's call
    // (the source's own loop would be one call site for every first operator of every job)
    + `recordLoop:function ${id}_records(rows,kinds,start,end,wm,rt,at){let i=start;try{`
    + `if(wm===undefined&&kinds===undefined){for(;i<end;i++)op.processElement(${input},0,rows[i]);return;}`
    + `for(;i<end;i++){const row=rows[i];op.processElement(${input},kinds===undefined?0:kinds[i],row);`
    + `if(wm!==undefined){const t=row[rt];if(t!==null){const w=wm.onEvent(t.getTime());if(w!==undefined)op.processWatermark(${input},w);}}}`
    + `}catch(e){at[0]=i;throw e;}}};`;
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

  /**
   * Called on every operator, upstream first, before a snapshot is taken (Flink's prepareSnapshotPreBarrier):
   * an operator holding records back (a mini-batch bundle) emits them now, so that the snapshot cut lies
   * between records that have fully passed through. Returns whether it emitted anything.
   */
  prepareSnapshotPreBarrier(): boolean { return false; }

  snapshotState(): unknown { return null; }
  restoreState(_state: unknown): void {}
  close(): void {}
}

/**
 * Runs `prepareSnapshotPreBarrier` on a job's operators until none emits any more: what an upstream operator
 * releases may fill a downstream bundle, which the next pass releases (a plan is acyclic, so this ends).
 */
export function prepareSnapshot(operators: readonly Operator[]): void {
  for (let emitted = true; emitted;) {
    emitted = false;
    for (let i = operators.length - 1; i >= 0; i--) if (operators[i]!.prepareSnapshotPreBarrier()) emitted = true;
  }
}
