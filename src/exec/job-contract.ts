import type { FunctionResolver } from "../expressions/compile.js";
import type { ChangelogMode } from "../plan/changelog-mode.js";
import type { PlanNode } from "../plan/nodes.js";
import type { ColumnarBatch } from "./columnar/column-batch.js";
import type { RowObjectSink } from "./columnar/columnar-job.js";
import type { StateBackend } from "./state/keyed-store.js";

/**
 * The contract between whoever plans a job (the Table API, tests, the bench) and the interpreter: an
 * `Executor` turns a plan into a running `Job` that pushes its rows into a `JobSink`. Declared in exec/ so
 * that exec/ and connectors/ never import the facade; the facade passes its executor explicitly.
 */

/** Receives a job's output: positional records with their numeric row kind. */
export interface JobSink {
  record(kind: number, values: readonly unknown[]): void;
  /** The job's watermark as it reaches the end of the plan (+Infinity at end of input); optional. */
  watermark?(wm: number): void;
  /**
   * A sink that also takes whole batches of columns: a plan the columnar path runs (insert-only Values under
   * Filter/Project, exec/columnar/) hands its output here, a slice at a time, and never calls `record`.
   */
  columns?(batch: ColumnarBatch): void;
  /**
   * A sink that makes its row objects itself (the table's `batches()`): a plan the columnar path runs builds
   * them with `rowObjects.construct` straight from the expressions and hands them over a slice at a time.
   */
  readonly rowObjects?: RowObjectSink;
}

export type StepResult = "more" | "done" | Promise<void>;

/** A running job, driven by its consumer one slice at a time so that results stream. */
export interface Job {
  /** Processes up to `budget` source records. "done" after end of input; a Promise while sources wait. */
  step(budget: number): StepResult;
  /** Stops the job; sources are closed, nothing more is emitted. */
  cancel(): void;
  /** The job's metrics as of now (see docs/metrics.md); still readable after the job ended. */
  metrics?(): MetricsSnapshot;
  /**
   * For a progress display (table/progress.ts), read between slices: the watermark at the end of the plan
   * and the keys held by the operators that count them.
   */
  progress?(): { readonly watermark: number; readonly stateKeys: number };
  /**
   * Takes a savepoint into a new directory under `dir` and returns its path (docs/checkpoints.md), or a Promise
   * of it while asynchronous sinks first write and prepare what they received. Called between two steps only,
   * and no step may run before the Promise settled, so the snapshot falls between two records.
   */
  triggerSavepoint?(dir: string): string | Promise<string>;
  /** After `cancel()`: a Promise until asynchronous sinks have committed, aborted and closed; rejects with their failure. */
  stopped?(): Promise<void> | undefined;
  /** Paths of the checkpoints the job completed so far, oldest first. */
  completedCheckpoints?(): readonly string[];
}

/**
 * A job's metrics at one moment: `<scope>.<name>` → value, e.g.
 * `{ "Values.numRecordsOut": 7, "WindowAggregate[w].numLateRecordsDropped": 1, "Collect.numRecordsIn": 3 }`.
 */
export type MetricsSnapshot = Readonly<Record<string, number>>;

export interface JobSettings {
  readonly batch: boolean;
  readonly config: ReadonlyMap<string, string>;
  /** Processing-time clock (ms); tests replace it. */
  readonly clock: () => number;
  /** Resolves user functions called by name. */
  readonly resolveFunction?: FunctionResolver;
  /**
   * The environment's connectors by name (built-in and registered with `env.registerConnector`); the
   * run-time side of a scan or sink finds its connector here. Absent: the built-in connectors only.
   */
  readonly connectors?: (name: string) => object;
  /**
   * The job's keyed-state backend (`state.backend.type`, state/backend-options.ts), made by the job from
   * `config`; absent: in memory (hashmap).
   */
  readonly stateBackend?: StateBackend;
}

export interface Executor {
  createJob(plan: PlanNode, settings: JobSettings, sink: JobSink, sinkMode?: ChangelogMode): Job;
}

