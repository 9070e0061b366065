import { ExecutionError } from "../../types/errors.js";
import type { JobGraph } from "../job-graph.js";
import type { Output } from "../operator.js";
import type { JobSnapshot } from "./format.js";
import { notifyComplete, restoreJob, snapshotJob } from "./job-state.js";
import { type CheckpointOptions, checkpointOptions } from "./options.js";
import { abortDirectory, beginSavepoint, commitSavepoint, readSnapshot, sharedDirOf, writeCheckpoint } from "./storage.js";
import { HASHMAP_BACKEND, type StateBackend } from "../state/keyed-store.js";

/** A backend whose stores write files into checkpoints (the disk backend). */
interface FileCheckpointing {
  beginCheckpoint(sharedDir: string, id: number): void;
  /** The stores write full files into `dir` (the savepoint's own directory), named relative to it. */
  beginSavepoint(dir: string, id: number): void;
  endCheckpoint(): string[];
}

/**
 * The checkpoints of one job (Flink's checkpoint coordinator, for a job that runs in one thread): restores
 * the snapshot the job starts from, decides when a periodic checkpoint is due (by processing time, or every
 * N source records), takes checkpoints and savepoints between two records, writes them, and then lets the
 * sinks commit. The job calls it only between records, which is what makes each snapshot a consistent cut.
 */
export class CheckpointCoordinator {
  readonly options: CheckpointOptions;
  private readonly restoreFrom: { snapshot: JobSnapshot; path: string } | undefined;
  private lastId = 0;
  private lastTime = 0;
  /** Source records since the last checkpoint (counted only with a record interval). */
  private records = 0;
  /** Completed checkpoints' paths, oldest first (the retained ones are on disk). */
  readonly completed: string[] = [];

  constructor(
    private readonly graph: JobGraph, config: ReadonlyMap<string, string>, private readonly clock: () => number, batch: boolean,
    private readonly backend: StateBackend = HASHMAP_BACKEND,
  ) {
    this.options = checkpointOptions(config);
    if (batch && this.options.restorePath !== undefined) {
      throw new ExecutionError("execution.savepoint.path: a batch job cannot start from a savepoint (batch jobs keep no checkpoints, as in Flink)");
    }
    this.restoreFrom = this.options.restorePath === undefined ? undefined : readSnapshot(this.options.restorePath);
    if (this.restoreFrom !== undefined) this.lastId = this.restoreFrom.snapshot.checkpointId;
    // periodic checkpoints in batch mode are ignored, as Flink's batch execution does
    if (batch) this.options = { ...this.options, intervalMs: undefined, intervalRecords: undefined };
    // the clock is read only for time intervals: it is the job's processing-time clock, which tests script
    this.lastTime = this.options.intervalMs === undefined ? 0 : clock();
    if (this.options.intervalRecords !== undefined) {
      for (const s of graph.sources) s.emitter.out = new CountingOutput(s.emitter.out, this);
    }
  }

  /** Whether periodic checkpoints are on (sinks then discard uncheckpointed records on cancel). */
  get periodic(): boolean {
    return this.options.intervalMs !== undefined || this.options.intervalRecords !== undefined;
  }

  /** Called once the operators are open, before the first record. */
  restore(): void {
    const r = this.restoreFrom;
    if (r !== undefined) restoreJob(this.graph, r.snapshot, r.path, this.options.ignoreUnclaimedState);
  }

  /** @internal counted by the sources' outputs */
  countRecord(): void {
    this.records++;
  }

  /** The most records the next step may read so that a record-count checkpoint falls on its boundary. */
  budget(budget: number): number {
    const every = this.options.intervalRecords;
    return every === undefined ? budget : Math.max(1, Math.min(budget, every - this.records));
  }

  /** Whether a periodic checkpoint is due. */
  due(): boolean {
    const o = this.options;
    const byRecords = o.intervalRecords !== undefined && this.records >= o.intervalRecords;
    const byTime = o.intervalMs !== undefined && this.clock() - this.lastTime >= o.intervalMs;
    return byRecords || byTime;
  }

  /** The id the next checkpoint or savepoint gets (sinks prepare their transaction for it at the barrier). */
  get nextId(): number {
    return this.lastId + 1;
  }

  /** Whether this job takes part in checkpointing: restored from a snapshot, or has taken one. */
  get participating(): boolean {
    return this.restoreFrom !== undefined || this.lastId > 0;
  }

  /** Takes a checkpoint into the checkpoint directory now; returns its path. */
  checkpoint(): string {
    const dir = this.options.dir;
    if (dir === undefined) throw new ExecutionError("no checkpoint directory: set 'execution.checkpointing.dir'");
    const id = ++this.lastId;
    // a disk backend's stores write their files into the checkpoint directory's shared/ folder while the
    // operators snapshot; the snapshot lists them, and retention keeps a file while a checkpoint lists it
    const files = this.backend as Partial<FileCheckpointing>;
    files.beginCheckpoint?.(sharedDirOf(dir), id);
    let taken: ReturnType<typeof snapshotJob>;
    let shared: string[] | undefined;
    try {
      taken = snapshotJob(this.graph, "checkpoint", id);
    } finally {
      shared = files.endCheckpoint?.();
    }
    const { raw } = taken;
    const snapshot = shared !== undefined && shared.length > 0 ? { ...taken.snapshot, sharedFiles: shared } : taken.snapshot;
    const path = writeCheckpoint(dir, snapshot, this.options.numRetained);
    this.completed.push(path);
    this.records = 0;
    if (this.options.intervalMs !== undefined) this.lastTime = this.clock();
    notifyComplete(this.graph, raw);
    return path;
  }

  /** Takes a savepoint into a new directory under `dir`; returns its path. */
  savepoint(dir: string): string {
    if (typeof dir !== "string" || dir.length === 0) throw new ExecutionError("triggerSavepoint: a target directory is required");
    const id = ++this.lastId;
    const pending = beginSavepoint(dir);
    const files = this.backend as Partial<FileCheckpointing>;
    let path: string;
    let raw: ReturnType<typeof snapshotJob>["raw"];
    try {
      // a disk backend's stores stream their entries into files of the savepoint (never all in memory)
      files.beginSavepoint?.(pending.tmp, id);
      let taken: ReturnType<typeof snapshotJob>;
      try {
        taken = snapshotJob(this.graph, "savepoint", id);
      } finally {
        files.endCheckpoint?.();
      }
      raw = taken.raw;
      path = commitSavepoint(pending, taken.snapshot);
    } catch (e) {
      abortDirectory(pending);
      throw e;
    }
    notifyComplete(this.graph, raw);
    return path;
  }
}

/** Counts the records a source emits, for record-count checkpoints. */
class CountingOutput implements Output {
  constructor(private readonly out: Output, private readonly coordinator: CheckpointCoordinator) {}
  record(kind: number, row: unknown[]): void {
    this.coordinator.countRecord();
    this.out.record(kind, row);
  }
  watermark(wm: number): void { this.out.watermark(wm); }
  endInput(): void { this.out.endInput(); }
}
