import { ExecutionError, TableError } from "../../types/errors.js";
import { describeThrown, thrownIs } from "../../types/describe-thrown.js";
import type { ValuesNode } from "../../plan/nodes.js";
import type { Job, JobSink, MetricsSnapshot, StepResult } from "../job-contract.js";
import { errorWithRow } from "../operators/row-error.js";
import { COLLECT_SCOPE } from "../metric-scope.js";
import { type ColumnarBatch, allocateColumn } from "./column-batch.js";
import type { ColumnarCalc, InsertRowConstructor } from "./columnar-calc.js";

/**
 * A consumer of row objects that makes them itself: `construct` builds an insert row from the column values
 * (as arguments, in column order); `batch` receives a slice's rows. The columnar path calls the constructor
 * from its own generated loop, so a row costs one object, as a hand-written loop's does.
 *
 * A row job uses the same constructors: `constructors[k]` builds a row of kind k; the result sink
 * (collect-sink.ts) lets the operator in front of it build its output rows with them and hand each to
 * `add`, in order with the records that reach `record`.
 */
export interface RowObjectSink {
  readonly construct: InsertRowConstructor;
  readonly constructors: readonly [InsertRowConstructor, InsertRowConstructor, InsertRowConstructor, InsertRowConstructor];
  batch(rows: object[]): void;
  add(row: object): void;
}

/**
 * Where a columnar job hands its output: batches of columns, or (with `rowObjects`) batches of row objects;
 * `record` once the job has become a row job (a savepoint, below).
 */
export interface ColumnarSink extends JobSink {
  columns?(batch: ColumnarBatch): void;
  readonly rowObjects?: RowObjectSink;
}

/**
 * Values → Filter/Project → a columnar consumer, run a slice at a time without records, operators or edges:
 * the filters write a selection vector over the slice's rows, then every output column is computed by its
 * own loop into a fresh typed array (or plain array), and the slice goes to the sink as one batch. Only
 * insert-only Values without a watermark declaration, outside checkpointing, come here (`columnarPlan`), so
 * the output is the same changelog a row job produces: the same rows, in the same order, all `+I`.
 *
 * Failures keep the row job's contract: when an expression throws on a slice, the slice is evaluated again
 * row by row, the rows before the failing one go to the sink, and the job fails with the error annotated
 * with that row (row-error.ts), as Calc does. The metrics are those of the row job's Values and Collect
 * (`Values.numRecordsOut`, `Collect.numRecordsIn`).
 *
 * A savepoint needs the row job's operators and positions, so `triggerSavepoint` turns this job into the row
 * job of the same plan: a new one is run over the rows already read with its output discarded (they were
 * delivered), then it takes the savepoint and runs the rest of the job, records into the sink's `record`.
 *
 * With a row-object sink the same chain runs as one fused loop per slice (`ColumnarCalc.objects`): filters,
 * then the sink's constructor called with the projected values — no positional record, no operator.
 */
export class ColumnarValuesJob implements Job {
  private next = 0;
  private emitted = 0;
  private delivered = 0;
  private finished = false;
  private failed: unknown;
  private sel = new Int32Array(0);

  /** The row job this one became (savepoints); every call goes there from then on. */
  private row: Job | undefined;

  constructor(
    private readonly node: ValuesNode, private readonly calc: ColumnarCalc, private readonly sink: ColumnarSink,
    /** Makes the row job of the same plan, writing into `sink`. */
    private readonly rowJob: (sink: JobSink) => Job,
  ) {}

  step(budget: number): StepResult {
    if (this.row !== undefined) return this.row.step(budget);
    if (this.failed !== undefined) throw this.failed;
    if (this.finished) return "done";
    const rows = this.node.rows;
    const start = this.next;
    const end = Math.min(rows.length, start + Math.max(1, budget));
    const objects = this.calc.objects;
    const target = this.sink.rowObjects;
    if (objects !== undefined && target !== undefined) this.objectSlice(objects, target, start, end);
    else {
      try {
        this.runSlice(start, end);
      } catch (e) {
        this.failSlice(start, end, e);
      }
    }
    this.next = end;
    this.emitted += end - start;
    if (end < rows.length) return "more";
    this.finished = true;
    this.sink.watermark?.(Infinity);
    return "done";
  }

  private readonly at = new Int32Array(1);

  private objectSlice(objects: NonNullable<ColumnarCalc["objects"]>, target: RowObjectSink, start: number, end: number): void {
    // allocated at its size when every input row is an output row (see ObjectsFn)
    const out: object[] = this.calc.select === undefined ? new Array<object>(end - start) : [];
    let n: number;
    try {
      n = objects(this.node.rows, start, end, out, this.at);
    } catch (e) {
      // the rows before the failing one were built: they go out before the job fails
      if (out.length > 0) { this.delivered += out.length; target.batch(out); }
      this.fail(e, start, this.at[0]!);
    }
    if (n > 0) { this.delivered += n; target.batch(out); }
  }

  private runSlice(start: number, end: number): void {
    const { select, columns, types } = this.calc;
    const rows = this.node.rows;
    let n = end - start;
    if (select !== undefined) {
      if (this.sel.length < n) this.sel = new Int32Array(n);
      n = select(rows, start, end, this.sel);
    }
    if (n === 0) return;
    const out: (Int32Array | Float64Array | unknown[])[] = [];
    for (let j = 0; j < columns.length; j++) {
      const c = allocateColumn(types[j]!, n);
      columns[j]!(rows, this.sel, start, n, c);
      out.push(c);
    }
    this.deliver(n, out);
  }

  private deliver(n: number, columns: (Int32Array | Float64Array | unknown[])[]): void {
    this.delivered += n;
    this.sink.columns!({ length: n, kinds: new Uint8Array(n), columns });
  }

  /** Re-runs a slice that threw row by row: delivers the rows before the failing one, then fails the job. */
  private failSlice(start: number, end: number, first: unknown): never {
    const { select, columns, types } = this.calc;
    const rows = this.node.rows;
    const one = new Int32Array(1);
    const scratch = types.map((t) => allocateColumn(t, 1));
    const gathered: unknown[][] = types.map(() => []);
    let cause: unknown = first;
    let at = end - 1;
    for (let i = start; i < end; i++) {
      try {
        one[0] = i;
        if (select !== undefined && select(rows, i, i + 1, one) === 0) continue;
        one[0] = i;
        for (let j = 0; j < columns.length; j++) columns[j]!(rows, one, i, 1, scratch[j]!);
      } catch (e) {
        cause = e;
        at = i;
        break;
      }
      for (let j = 0; j < columns.length; j++) gathered[j]!.push(scratch[j]![0]);
    }
    const n = gathered[0]?.length ?? 0;
    if (n > 0) this.deliver(n, gathered.map((g, j) => types[j] === "any" ? g : types[j] === "int32" ? Int32Array.from(g as number[]) : Float64Array.from(g as number[])));
    this.fail(cause, start, at);
  }

  /** Fails the job on row `at` of the slice that started at `start` (counted as read, as the row job counts it). */
  private fail(cause: unknown, start: number, at: number): never {
    const rows = this.node.rows;
    this.emitted += at - start + 1;
    const annotated = errorWithRow(cause, 0, rows[at]!, this.node.schema);
    this.failed = thrownIs(annotated, TableError) ? annotated : new ExecutionError(`job failed: ${describeThrown(annotated)}`, { cause: annotated });
    this.finished = true;
    throw this.failed;
  }

  triggerSavepoint(dir: string): string | Promise<string> {
    return this.becomeRowJob().triggerSavepoint!(dir);
  }

  completedCheckpoints(): readonly string[] {
    return this.row?.completedCheckpoints?.() ?? [];
  }

  private becomeRowJob(): Job {
    if (this.row !== undefined) return this.row;
    if (this.failed !== undefined) throw new ExecutionError("cannot take a savepoint: the job has failed", { cause: this.failed });
    if (this.finished) throw new ExecutionError("cannot take a savepoint: the job has already finished");
    const sink = this.sink;
    let live = false;
    const job = this.rowJob({
      record: (kind, values) => { if (live) sink.record(kind, values); },
      ...(sink.watermark !== undefined ? { watermark: (wm: number) => { if (live) sink.watermark!(wm); } } : {}),
    });
    // the rows read so far (fewer than all: the job has not finished) again, their output already delivered
    if (this.next > 0 && job.step(this.next) !== "more") throw new ExecutionError("internal: the row job ended before the columnar job's position");
    live = true;
    this.row = job;
    return job;
  }

  cancel(): void {
    this.finished = true;
    this.row?.cancel();
  }

  metrics(): MetricsSnapshot {
    if (this.row !== undefined) return this.row.metrics?.() ?? {};
    return { "Values.numRecordsOut": this.emitted, [`${COLLECT_SCOPE}.numRecordsIn`]: this.delivered };
  }

  progress(): { readonly watermark: number; readonly stateKeys: number } {
    if (this.row?.progress !== undefined) return this.row.progress();
    return { watermark: this.finished && this.failed === undefined ? Infinity : -Infinity, stateKeys: 0 };
  }
}
