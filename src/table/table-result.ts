import { ExecutionError } from "../types/errors.js";
import type { Job, JobSink, MetricsSnapshot, StepResult } from "./executor.js";
import { TableauPrinter } from "../types/print.js";
import { type KeyedRow, KIND_SHORT } from "../types/row.js";
import { RowBatchSink } from "./row-batch-sink.js";
import { RowIterator, type Slice } from "./row-iterator.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";
import { toJavaString } from "../types/format.js";
import { describeThrown } from "../types/describe-thrown.js";
import { type RowsReadable, rowsReadable } from "./result-readable.js";
import { type ProgressOptions, ProgressTracker } from "./progress.js";
import { JobControl } from "./job-control.js";
import type { ColumnBatch } from "./column-batch-typing.js";
import { ColumnBatchSink } from "./column-batches.js";

/** How many source records a job processes before results are handed to the consumer. */
const SLICE = 4096;

/**
 * How long slices run back to back (each handed to the consumer, which may await) before the job yields to
 * the event loop (`setImmediate`): timers, I/O and `cancel()` from other tasks get their turn at least this
 * often, and a fast job does not pay a macrotask hop per 4096 records (~250 per million).
 */
const YIELD_EVERY_MS = 8;

/** Controls a running job (Flink's JobClient): cancel it, take savepoints (docs/checkpoints.md). */
export interface JobClient {
  cancel(): Promise<void>;
  /**
   * Takes a savepoint between two records and resolves to its directory (a new `savepoint-<id>` under `dir`);
   * the job runs on. Start a job from it with `execution.savepoint.path`. Rejects when the job has ended.
   */
  triggerSavepoint(dir: string): Promise<string>;
  /** Takes a savepoint and stops the job right after it (no end of input, no final watermark); resolves to its path. */
  stopWithSavepoint(dir: string): Promise<string>;
}

/**
 * The result of `execute()`: a job that has been planned and starts when consumed. Rows come with their
 * kind (`Row.kindOf(row)`); `print()` renders Flink's tableau; `toArray()` collects a bounded result.
 * A job that fails rejects `batches()` / `forEachBatch()` / `collect()` / `toArray()` / `toChangelog()` /
 * `print()` with the job's error, after the rows it produced before failing. A result can be consumed once.
 * `batches()` and `forEachBatch()` are the fast way to consume a large result: one await per batch of rows
 * rather than one per row.
 *
 * ```ts
 * const rows = await t.execute().toArray();          // [{ name: "Alice", age: 35 }, ...]
 * for await (const r of t.execute().collect()) { Row.kindOf(r); }   // "+I", "-U", "+U", "-D"
 * for await (const batch of t.execute().batches()) { for (const r of batch) Row.kindOf(r); }
 * await t.execute().forEachBatch((batch) => { total += batch.length; });
 * ```
 */
export class TableResult<R extends object = Record<string, unknown>> {
  private started = false;
  private cancelled = false;
  /** Set when the job was cancelled before its end (JobClient.cancel, an abort signal). */
  private stoppedEarly = false;
  /** The job, once consumption started (its metrics stay readable after it ended). */
  private job: Job | undefined;
  /** Savepoint requests, served between slices. */
  private readonly control = new JobControl();

  constructor(
    private readonly schema: ResolvedSchema,
    private readonly makeJob: (sink: JobSink) => Job,
    private readonly batch: boolean,
    private readonly signal?: AbortSignal,
    /** Set with `execute({ progress })`: a progress display while the job runs (progress.ts). */
    private readonly progress?: ProgressOptions,
  ) {}

  getResolvedSchema(): ResolvedSchema {
    return this.schema;
  }

  /** Whether the job runs in batch mode (final rows only, no `op` column when printed). */
  isBatch(): boolean {
    return this.batch;
  }

  /**
   * @internal Starts the job with a sink of the caller's: the caller drives `step` itself (the notebook
   * timeline steps one source record at a time). The result counts as consumed.
   */
  startJob(sink: JobSink): Job {
    this.claim();
    this.job = this.makeJob(sink);
    return this.job;
  }

  private claim(): void {
    if (this.started) throw new ExecutionError("this TableResult has already been consumed; call execute() again for a new job");
    this.started = true;
  }

  /** Runs the job slice by slice and yields the positional records each slice produced. */
  private slices(): AsyncGenerator<Slice> {
    let kinds: number[] = [];
    let rows: (readonly unknown[])[] = [];
    return this.runSlices(
      { record: (k, v) => { kinds.push(k); rows.push(v); } },
      () => {
        if (rows.length === 0) return undefined;
        const slice = { kinds, rows };
        kinds = [];
        rows = [];
        return slice;
      },
    );
  }

  /**
   * Runs the job slice by slice; after each slice `take()` hands over what `sink` gathered (undefined when
   * the slice produced nothing), which is yielded. Async only between slices (no Promise per record); the
   * job is cancelled when the consumer stops early, and a failure is thrown after what the failing slice
   * produced.
   */
  private async *runSlices<B>(sink: JobSink, take: () => B | undefined): AsyncGenerator<B> {
    this.claim();
    const job = this.makeJob(sink);
    this.job = job;
    const onAbort = () => { this.cancelled = true; };
    this.signal?.addEventListener("abort", onAbort);
    let lastYield = performance.now();
    const tracker = this.progress === undefined ? undefined
      : new ProgressTracker({ metrics: () => job.metrics?.() ?? {}, progress: () => job.progress?.() ?? { watermark: -Infinity, stateKeys: 0 } }, this.progress);
    let outcome: "finished" | "failed" | "cancelled" = "cancelled";
    try {
      for (;;) {
        if (this.cancelled || this.signal?.aborted) { this.stoppedEarly = true; return; }
        const served = this.control.serve(job);
        if (served === true || (served !== false && await served)) { this.stoppedEarly = true; return; }
        let status: StepResult | undefined;
        let failure: { error: unknown } | undefined;
        try {
          status = job.step(SLICE);
        } catch (e) {
          failure = { error: e };
        }
        tracker?.tick();
        const out = take();
        if (out !== undefined) yield out;
        if (failure) { outcome = "failed"; throw failure.error; }
        if (status === "done") { outcome = "finished"; return; }
        if (status !== "more") {
          await this.control.waitFor(status as Promise<void>);
          lastYield = performance.now();
        } else if (performance.now() - lastYield >= YIELD_EVERY_MS) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          lastYield = performance.now();
        }
      }
    } finally {
      this.signal?.removeEventListener("abort", onAbort);
      this.control.end("the job has ended");
      job.cancel();
      tracker?.end(outcome);
    }
  }

  /**
   * Typed rows as they are produced; `Row.kindOf(row)` gives each row's kind. Breaking out cancels the job.
   * The job starts on the first `next()`. It runs the job of `batches()` and hands out each batch's rows
   * one by one (an already-resolved promise per row, no generator step per row).
   */
  collect(): AsyncGenerator<KeyedRow<R>, void, undefined> {
    return new RowIterator(this.rowBatches());
  }

  /**
   * The rows in batches, as the job produces them: each batch is an array of typed rows (`Row.kindOf(row)`
   * gives a row's kind), in changelog order, never empty; one batch per slice of the job (up to 4096 source
   * records). No promise per row: the fast way to consume a large result. Breaking out cancels the job; a
   * failure is thrown after the batch the failing slice produced. The job starts on the first `next()`.
   * A batch array belongs to the consumer (it is not reused).
   */
  batches(): AsyncGenerator<KeyedRow<R>[], void, undefined> {
    // the generator of the slices itself (lazy as well: nothing runs before the first `next()`); an
    // `async *` delegating to it with `yield*` cost a second generator step per batch
    return this.rowBatches();
  }

  /**
   * The job's slices as arrays of row objects, each made as its record arrives (the positional record
   * dies young; no kinds / records arrays in between). A projection / filter over `fromValues` makes them
   * without any record: the columnar path calls the rows' constructor from its generated loop.
   */
  private rowBatches(): AsyncGenerator<KeyedRow<R>[]> {
    const sink = new RowBatchSink<KeyedRow<R>>(this.schema);
    return this.runSlices(sink, () => sink.take());
  }

  /**
   * The rows in columns, a batch per slice of the job (up to 4096 source records), never empty: each batch
   * has `length` rows, their kinds (`kinds[i]`: 0 `+I`, 1 `-U`, 2 `+U`, 3 `-D`) and one array per column
   * (`columns.price[i]`), a typed array for NOT NULL numbers (`Int32Array` for TINYINT/SMALLINT/INT,
   * `Float64Array` for BIGINT/FLOAT/DOUBLE/intervals). No row objects at all. A projection / filter over
   * `fromValues` runs columnar (filters as a selection vector, each output column computed by its own loop);
   * any other plan runs row by row and its records are gathered into columns. Breaking out cancels the job.
   *
   * ```ts
   * for await (const b of t.execute().columnBatches()) for (let i = 0; i < b.length; i++) total += b.columns.price[i]!;
   * ```
   */
  columnBatches(): AsyncGenerator<ColumnBatch<R>, void, undefined> {
    const sink = new ColumnBatchSink<R>(this.schema);
    return this.runSlices(sink, () => sink.take());
  }

  /**
   * Calls `fn` with each batch of rows (see `batches()`) and resolves when the job has ended. When `fn`
   * returns a promise, the job waits for it before it produces the next batch (backpressure). A throw or a
   * rejection of `fn` cancels the job and rejects the returned promise with that error; a job failure
   * rejects it after the batches produced before.
   *
   * ```ts
   * let total = 0;
   * await t.execute().forEachBatch((rows) => { for (const r of rows) total += r.amount; });
   * ```
   */
  async forEachBatch(fn: (rows: KeyedRow<R>[]) => void | PromiseLike<void>): Promise<void> {
    for await (const batch of this.rowBatches()) {
      const r = fn(batch);
      if (r !== undefined && r !== null && typeof (r as PromiseLike<void>).then === "function") await r;
    }
  }

  /**
   * The rows as a Node `Readable` in object mode (typed rows with their kind, `Row.kindOf`), with
   * backpressure: the job runs only while the stream wants data (`highWaterMark` rows buffered, 16 by
   * default); `destroy()` cancels the job; a failing job errors the stream. `pipeline(result.toReadable(), sink)`.
   */
  toReadable(options?: { highWaterMark?: number }): RowsReadable<KeyedRow<R>> {
    return rowsReadable(this.collect(), options?.highWaterMark);
  }

  /** @internal the raw slices (positional records and their kinds), for columnar converters (toArrow). */
  rawSlices(): AsyncGenerator<Slice> {
    return this.slices();
  }

  /** All rows of a bounded job, with their kinds (`Row.kindOf`). */
  async toArray(): Promise<KeyedRow<R>[]> {
    const out: KeyedRow<R>[] = [];
    for await (const batch of this.rowBatches()) {
      for (let i = 0; i < batch.length; i++) out.push(batch[i]!);
    }
    return out;
  }

  /** The changelog in Flink's test notation: `+I[Alice, 35]` (Java rendering of values), one string per row. */
  async toChangelog(): Promise<string[]> {
    const out: string[] = [];
    const types = this.schema.types;
    for await (const { kinds, rows } of this.slices()) {
      for (let i = 0; i < rows.length; i++) {
        out.push(`${KIND_SHORT[kinds[i]!]}[${rows[i]!.map((x, j) => toJavaString(types[j], x)).join(", ")}]`);
      }
    }
    return out;
  }

  /**
   * Prints Flink's tableau form. Streaming: an `op` column with each row's kind, column widths from the
   * types (STRING 30, INT 11, ...), rows printed as they arrive. Batch: no `op` column, widths from the
   * data. `<NULL>` for null, cut values end in `...`, a footer `N rows in set`; no rows print `Empty set`.
   * If the job fails, a final line says so (after the rows printed so far) and the promise rejects, so a
   * partial table is never mistaken for a complete one.
   *
   * ```
   * +----+--------------------------------+-------------+
   * | op |                           name |         age |
   * +----+--------------------------------+-------------+
   * | +I |                          Alice |          35 |
   * +----+--------------------------------+-------------+
   * 1 row in set
   * ```
   */
  async print(out: (line: string) => void = (l) => process.stdout.write(l + "\n")): Promise<void> {
    const streaming = !this.batch;
    const printer = new TableauPrinter(this.schema, out, streaming);
    const pending: string[][] = [];
    let received = 0;
    try {
      for await (const { kinds, rows } of this.slices()) {
        for (let i = 0; i < rows.length; i++) {
          const cells = printer.cells(kinds[i]!, rows[i]!);
          received++;
          if (!streaming) {
            pending.push(cells);
            continue;
          }
          if (received === 1) printer.header();
          printer.row(cells);
        }
      }
    } catch (e) {
      if (printer.rows > 0) printer.border();
      const message = describeThrown(e);
      out(streaming ? `Job failed after ${plural(received, "row")}: ${message}` : `Job failed: ${message}`);
      throw e;
    }
    if (this.stoppedEarly) {
      if (printer.rows > 0) printer.border();
      out(`Job cancelled after ${plural(received, "row")}`);
      return;
    }
    if (received === 0) {
      out("Empty set");
      return;
    }
    if (!streaming) {
      printer.measure(pending);
      printer.header();
      for (const c of pending) printer.row(c);
    }
    printer.footer();
  }

  /**
   * Waits until the job has finished (Flink's `TableResult.await()`): runs it to its end, discarding the
   * rows; rejects with the job's error. Insert results (`executeInsert`) wait for their running job.
   */
  async await(): Promise<void> {
    for await (const _slice of this.slices()) { /* rows are not kept */ }
  }

  /**
   * The job's metrics now: a plain object `{ "<scope>.<metric>": number }`, e.g.
   * `{ "Values.numRecordsOut": 7, "WindowAggregate[w].numLateRecordsDropped": 1, "Collect.numRecordsIn": 3 }`
   * (docs/metrics.md lists every scope and metric). Readable while the result is consumed (counts up to
   * the last slice the job processed) and after the job ended, failed or was cancelled; empty before
   * consumption has started, since the job starts then.
   */
  getMetrics(): MetricsSnapshot {
    return this.job?.metrics?.() ?? {};
  }

  /** Cancels the job (Flink's `getJobClient().cancel()`); a consumer in progress stops after the current slice. */
  getJobClient(): JobClient {
    return {
      cancel: async () => { this.cancelled = true; this.control.interrupt(); },
      triggerSavepoint: (dir) => this.control.request(dir, false),
      stopWithSavepoint: (dir) => this.control.request(dir, true),
    };
  }
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;
