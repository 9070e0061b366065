import { ExecutionError } from "./errors.js";
import type { Job, JobSink, StepResult } from "./executor.js";
import { TableauPrinter } from "./print.js";
import { type KeyedRow, KIND_SHORT } from "./row.js";
import { rowConverter } from "./row-converter.js";
import type { ResolvedSchema } from "./types/resolved-schema.js";
import { toJavaString } from "./types/format.js";

/** How many source records a job processes before results are handed to the consumer. */
const SLICE = 4096;

/** Cancels a running job (Flink's JobClient). */
export interface JobClient {
  cancel(): Promise<void>;
}

/**
 * The result of `execute()`: a job that has been planned and starts when consumed. Rows come with their
 * kind (`Row.kindOf(row)`); `print()` renders Flink's tableau; `toArray()` collects a bounded result.
 * A job that fails rejects `collect()` / `toArray()` / `print()` with the job's error.
 */
export class TableResult<R extends object = Record<string, unknown>> {
  private started = false;
  private cancelled = false;

  constructor(
    private readonly schema: ResolvedSchema,
    private readonly makeJob: (sink: JobSink) => Job,
    private readonly batch: boolean,
    private readonly signal?: AbortSignal,
  ) {}

  getResolvedSchema(): ResolvedSchema {
    return this.schema;
  }

  private claim(): void {
    if (this.started) throw new ExecutionError("this TableResult has already been consumed; call execute() again for a new job");
    this.started = true;
  }

  /** The positional records with their kinds, as an async iterable; the job advances as it is read. */
  private async *records(): AsyncGenerator<[number, readonly unknown[]]> {
    this.claim();
    const buffer: [number, readonly unknown[]][] = [];
    const job = this.makeJob({ record: (k, v) => { buffer.push([k, v]); } });
    const onAbort = () => { this.cancelled = true; };
    this.signal?.addEventListener("abort", onAbort);
    try {
      for (;;) {
        if (this.cancelled || this.signal?.aborted) { job.cancel(); return; }
        let status: StepResult;
        try {
          status = job.step(SLICE);
        } catch (e) {
          job.cancel();
          throw e;
        }
        if (buffer.length > 0) {
          const batch = buffer.splice(0, buffer.length);
          for (const r of batch) yield r;
        }
        if (status === "done") return;
        if (status !== "more") await status;
        else await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      this.signal?.removeEventListener("abort", onAbort);
      job.cancel();
    }
  }

  /** Typed rows as they are produced; `Row.kindOf(row)` gives each row's kind. Breaking out cancels the job. */
  async *collect(): AsyncGenerator<KeyedRow<R>> {
    const convert = rowConverter<KeyedRow<R>>(this.schema);
    for await (const [k, v] of this.records()) yield convert(k, v);
  }

  /** All rows of a bounded job. */
  async toArray(): Promise<KeyedRow<R>[]> {
    const out: KeyedRow<R>[] = [];
    for await (const r of this.collect()) out.push(r);
    return out;
  }

  /** The changelog in Flink's test notation: `+I[Alice, 35]` (Java rendering of values), one string per row. */
  async toChangelog(): Promise<string[]> {
    const out: string[] = [];
    const types = this.schema.types;
    for await (const [k, v] of this.records()) {
      out.push(`${KIND_SHORT[k]}[${v.map((x, i) => toJavaString(types[i], x)).join(", ")}]`);
    }
    return out;
  }

  /**
   * Prints Flink's tableau form. In streaming mode rows print as they arrive (column widths from the
   * types); in batch mode the widths come from the data. If the job fails, a line says so before the
   * promise rejects, so a partial table is never mistaken for a complete one.
   */
  async print(out: (line: string) => void = (l) => process.stdout.write(l + "\n")): Promise<void> {
    const printer = new TableauPrinter(this.schema, out, !this.batch);
    const pending: string[][] = [];
    let headerPrinted = false;
    try {
      for await (const [k, v] of this.records()) {
        const cells = printer.cells(k, v);
        if (this.batch) { pending.push(cells); continue; }
        if (!headerPrinted) { printer.header(); headerPrinted = true; }
        printer.row(cells);
      }
    } catch (e) {
      if (headerPrinted) printer.border();
      out(`Job failed after ${printer.rows} ${printer.rows === 1 ? "row" : "rows"}: ${(e as Error).message}`);
      throw e;
    }
    if (this.cancelled || this.signal?.aborted) {
      if (headerPrinted) printer.border();
      out(`Job cancelled after ${printer.rows} ${printer.rows === 1 ? "row" : "rows"}`);
      return;
    }
    if (this.batch) {
      if (pending.length === 0) { out("Empty set"); return; }
      printer.measure(pending);
      printer.header();
      for (const c of pending) printer.row(c);
      printer.footer();
      return;
    }
    if (!headerPrinted) { out("Empty set"); return; }
    printer.footer();
  }

  /** Cancels the job (Flink's `getJobClient().cancel()`). */
  getJobClient(): JobClient {
    return { cancel: async () => { this.cancelled = true; } };
  }
}
