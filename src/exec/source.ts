/**
 * The Source contract shared by every connector: a reader that pushes records into an output when
 * polled, bounded or not, with a position a checkpoint can record.
 */
import type { MetricGroup } from "./metrics.js";
import type { Output } from "./operator.js";

export type PollResult =
  /** More records are available right away. */
  | "more"
  /** The source is exhausted; the reader has emitted +Infinity and endInput. */
  | "end"
  /** Nothing available now; poll again after the promise resolves. */
  | Promise<void>;

export interface SourceReader {
  /** Emits up to `max` records (and the watermarks that follow them) into `out`. */
  poll(out: Output, max: number): PollResult;
  /** Position for checkpoints (e.g. the next row index): plain data (exec/snapshot-codec.ts). */
  position(): unknown;
  /** Continues from a `position()` of an earlier run (called before the first poll of a restored job). */
  seek(position: unknown): void;
  /**
   * False for a source that cannot read its rows again (an async iterable): after a restore it reads what it
   * is given from its start as the rows that follow the checkpoint, and its watermarks start afresh. Absent
   * means true: seeking continues exactly where the checkpoint was taken.
   */
  readonly replayable?: boolean;
  /** The last watermark the source emitted (-Infinity before the first); re-emitted after a restore. */
  currentWatermark?(): number;
  close(): void;
  /**
   * Receives the source's metric group when the job graph is built (before the first poll). A reader
   * registers `numRecordsOut` (records it emitted) and whatever else it counts (`numSkippedRecords`).
   */
  setMetrics?(group: MetricGroup): void;
}

/**
 * The Sink contract shared by every connector: a writer that receives a job's changelog, one record at
 * a time, synchronously inside the job (no Promise per record). A writer buffers as it likes; what it
 * has been given is complete records only, so stopping between two calls never leaves half a record.
 */
export interface SinkWriter {
  /** Called once before the first record. */
  open(): void;
  /** One record (positional values in the sink's column order) with its numeric row kind. */
  write(kind: number, row: readonly unknown[]): void;
  /**
   * Ends the writer: makes every record written so far durable and visible (commits in-progress files)
   * and releases resources. Called at end of input and when the job is cancelled or fails; never twice.
   */
  close(): void;
  /** Number of records written (the insert result reports it). */
  written(): number;
  /**
   * Exactly-once sinks (two-phase commit, optional). At a checkpoint: make every record written so far
   * durable but not yet visible, and return what `commit` needs to make it visible (plain data, stored in the
   * checkpoint). A writer without it gets no guarantee across a restore.
   */
  prepareCommit?(checkpointId: number): unknown;
  /** The checkpoint that holds `committable` is durable: make its records visible. Must be idempotent. */
  commit?(committable: unknown): void;
  /**
   * The job restarts from the checkpoint that prepared `committable`: commit it if that has not happened, and
   * drop whatever the writer's earlier run received after it (so nothing is duplicated).
   */
  restore?(committable: unknown): void;
  /**
   * The job is cancelled or failed while checkpoints are on: discard the records not covered by a completed
   * checkpoint (the restarted job writes them again) instead of committing them as `close` does.
   */
  abort?(): void;
  /**
   * Asynchronous writers, before checkpoint `checkpointId` is taken (Flink's flush and prepareCommit at the
   * barrier): hands everything received so far to the connector, waits until it is written and prepares the
   * checkpoint's transaction. A Promise while that is in progress (the job reads nothing and takes the
   * checkpoint once it settled and `barrier` returns undefined); `prepareCommit` then returns what was prepared.
   */
  barrier?(checkpointId: number): Promise<void> | undefined;
  /**
   * Asynchronous writers (the public connector API's): a Promise while the writer has as much in flight as
   * it may take, undefined when it can take more. The job reads no source until it settles (backpressure).
   * Throws (an ExecutionError) once a write has failed.
   */
  backpressure?(): Promise<void> | undefined;
  /**
   * Asynchronous writers: after `close()`, a Promise until the last write, flush and close settled
   * (undefined once they have); the job ends only then. Throws once any of them failed.
   */
  closing?(): Promise<void> | undefined;
  /**
   * Asynchronous writers whose rows must be visible while the job runs (in-process sinks): called when a job
   * step ends, hands over what the step wrote instead of waiting for a full batch.
   */
  endOfStep?(): void;
}

/**
 * Work a job must wait for outside its records (asynchronous sinks, async function calls in flight):
 * checked by the job before it reads its sources and before it ends.
 */
export interface AsyncWork {
  /** Emits, inside the job's step, results that completed since the last call. Throws a failure. */
  emitCompleted?(): void;
  /** A Promise while the job must not read sources (too much in flight); undefined otherwise. Throws a failure. */
  backpressure(): Promise<void> | undefined;
  /** At end of input: a Promise until everything in flight settled; undefined when nothing is. Throws a failure. */
  drain(): Promise<void> | undefined;
  /** Before checkpoint `checkpointId`: a Promise until the work is ready for it (sinks: written and prepared). */
  barrier?(checkpointId: number): Promise<void> | undefined;
  /** While calls are in flight: a Promise that settles when one completes (the job then emits it); undefined otherwise. */
  inFlight?(): Promise<void> | undefined;
  /** When a step of the job has pushed its records (sinks hand over what must be visible while the job runs). */
  endOfStep?(): void;
}
