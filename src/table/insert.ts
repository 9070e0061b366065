import { ExecutionError, TableError } from "../types/errors.js";
import { getExecutor, type Job, type JobSettings, type MetricsSnapshot } from "./executor.js";
import { explainPlan } from "../plan/explain.js";
import type { ConfigReader } from "../plan/agg-phase.js";
import { type PlanNode, type SinkNode, type StatementSetNode, valuesNode } from "../plan/nodes.js";
import { type JobClient, TableResult } from "./table-result.js";
import { DataType } from "../types/data-type.js";
import { ResolvedSchema } from "../types/resolved-schema.js";
import { describeThrown, thrownIs } from "../types/describe-thrown.js";
import { JobControl } from "./job-control.js";

/** Source records per slice of an insert job between two yields to the event loop. */
const SLICE = 4096;

/**
 * Runs an insert job in the background from the moment it is submitted, as Flink's `executeInsert`
 * does: slice by slice, yielding to the event loop between slices (and waiting when a source waits).
 * `cancel()` stops it between two slices — sources are closed and the sink commits the complete records
 * it has — and resolves once the job has stopped.
 */
class InsertRun {
  private cancelRequested = false;
  private observed = false;
  readonly done: Promise<void>;
  /** Savepoint requests, served between slices. */
  readonly control = new JobControl();

  constructor(readonly job: Job, private readonly sinkName: string, signal?: AbortSignal) {
    if (signal) {
      if (signal.aborted) this.cancelRequested = true;
      else signal.addEventListener("abort", () => { this.cancelRequested = true; }, { once: true });
    }
    this.done = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.run());
    // a failure is reported through await(); unobserved, it is written to stderr rather than lost
    this.done.catch((e: unknown) => {
      if (!this.observed) process.stderr.write(`tablestream: the insert job into '${this.sinkName}' failed: ${describeThrown(e)}\n`);
    });
  }

  private async run(): Promise<void> {
    let failure: unknown;
    try {
      for (;;) {
        if (this.cancelRequested) break;
        const served = this.control.serve(this.job);
        if (served === true || (served !== false && await served)) break;
        const status = this.job.step(SLICE);
        if (status === "done") break;
        if (status === "more") await new Promise<void>((resolve) => setImmediate(resolve));
        else await this.control.waitFor(status);
      }
    } catch (e) {
      failure = e;
    }
    this.control.end("the job has ended");
    this.job.cancel();
    // asynchronous sinks finish committing, aborting and closing before the job counts as stopped
    try { await this.job.stopped?.(); } catch (e) { failure ??= e; }
    if (failure !== undefined) {
      throw thrownIs(failure, TableError) ? failure : new ExecutionError(`insert into '${this.sinkName}' failed: ${describeThrown(failure)}`, { cause: failure });
    }
  }

  wait(): Promise<void> {
    this.observed = true;
    return this.done;
  }

  cancel(): Promise<void> {
    this.cancelRequested = true;
    this.control.interrupt();
    return this.done.catch(() => undefined);
  }
}

/**
 * The result of an insert: as in Flink, one row with one BIGINT column named after the sink
 * (`default_catalog.default_database.<table>`) holding -1, available at once; `await()` waits for the
 * job to finish and `getJobClient().cancel()` stops it.
 */
export class InsertTableResult extends TableResult<Record<string, number>> {
  constructor(private readonly run: InsertRun, schema: ResolvedSchema, settings: JobSettings) {
    const row = valuesNode({ schema, rows: [schema.columns.map(() => -1)] });
    // printed as Flink prints an insert result: no op column, widths from the data
    // the result row is no part of the insert job: it neither checkpoints nor restores
    const config = new Map([...settings.config].filter(([k]) => !k.startsWith("execution.checkpointing.") && !k.startsWith("execution.savepoint.")));
    super(schema, (sink) => getExecutor().createJob(row, { ...settings, config }, sink), true);
  }

  /** Waits until the insert job has finished; rejects with its error. */
  override await(): Promise<void> {
    return this.run.wait();
  }

  override getJobClient(): JobClient {
    return {
      cancel: () => this.run.cancel(),
      triggerSavepoint: (dir) => this.run.control.request(dir, false),
      stopWithSavepoint: async (dir) => {
        const path = await this.run.control.request(dir, true);
        await this.run.done.catch(() => undefined);
        return path;
      },
    };
  }

  /**
   * The insert job's metrics (not those of this result's one row): readable from submission on, while
   * the job runs and after it ended — e.g. `{ "filesystem[orders].numRecordsOut": 3,
   * "filesystem[orders].numSkippedRecords": 1, "Sink[out].numRecordsIn": 3, "Sink[out].numRecordsOut": 3 }`.
   */
  override getMetrics(): MetricsSnapshot {
    return this.run.job.metrics?.() ?? {};
  }
}

/**
 * Starts an insert job for a planned Sink node, or one job for all sinks of a statement set (its result
 * has one BIGINT column per sink, as Flink's). Planning errors are thrown here, synchronously.
 */
export function startInsert(node: SinkNode | StatementSetNode, settings: JobSettings, signal?: AbortSignal): InsertTableResult {
  const job = getExecutor().createJob(node, settings, { record() { /* a sink emits nothing */ } });
  const sinks = node.kind === "Sink" ? [node] : node.sinks;
  // one column per sink; a table written twice gets Flink's `_1`-style suffix so the names stay distinct
  const names: string[] = [];
  for (const s of sinks) {
    const base = `default_catalog.default_database.${s.tableName}`;
    let name = base;
    for (let i = 1; names.includes(name); i++) name = `${base}_${i}`;
    names.push(name);
  }
  const schema = new ResolvedSchema(names.map((name) => ({ name, type: new DataType("BIGINT", false) })));
  return new InsertTableResult(new InsertRun(job, sinks.map((s) => s.tableName).join(", "), signal), schema, settings);
}

/**
 * A table bound to a sink, not yet running (Flink's TablePipeline): `table.insertInto("out").execute()`.
 */
export class TablePipeline {
  /** @internal */
  constructor(
    private readonly node: SinkNode, private readonly start: (node: SinkNode, signal?: AbortSignal) => InsertTableResult, private readonly batch: boolean,
    /** The plan as the job runs it (changelog negotiation), for explain(). */
    private readonly planned: (node: PlanNode) => PlanNode = (n) => n,
    /** The options explain() reads (a two-phase GROUP BY shows as Local/GlobalGroupAggregate). */
    private readonly config?: ConfigReader,
  ) {}

  /** Submits the insert job; see `Table.executeInsert`. */
  execute(options: { signal?: AbortSignal } = {}): InsertTableResult {
    return this.start(this.node, options.signal);
  }

  /** The plan, with the Sink node on top. */
  explain(): string {
    return explainPlan(this.planned(this.node), this.batch, this.config);
  }

  /** @internal The planned Sink node (a statement set collects these). */
  get sinkNode(): SinkNode {
    return this.node;
  }

  /** The name of the sink table. */
  getSinkIdentifier(): string {
    return `default_catalog.default_database.${this.node.tableName}`;
  }
}
