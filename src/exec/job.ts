import { ExecutionError, TableError } from "../types/errors.js";
import type { Job, JobSettings, JobSink, MetricsSnapshot, StepResult } from "./job-contract.js";
import type { PlanNode } from "../plan/nodes.js";
import type { FunctionResolver } from "../expressions/compile.js";
import { buildJobGraph, type JobGraph, type SourceEntry } from "./job-graph.js";
import { describeThrown, thrownIs } from "../types/describe-thrown.js";
import { CheckpointCoordinator } from "./checkpoint/coordinator.js";
import type { OperatorTable } from "./operator-table.js";
import { prepareSnapshot } from "./operator.js";
import type { StateBackend } from "./state/keyed-store.js";
import { stateBackendFor } from "./state/backend-options.js";
import { ProcessingTimeService, usesProcessingTime } from "./time/processing-time-service.js";
import { wakeAt } from "./time/clock.js";

/**
 * A running job: sources are polled one slice at a time and their records pushed synchronously
 * through the operators. Several sources are interleaved record by record (round robin, whole rounds
 * only, so the interleaving does not depend on where slices end), which is deterministic and lets
 * multi-input operators see their inputs side by side. A source with nothing to give right now is
 * passed over until the next step; the job waits (returns a Promise) only when every source that has
 * not ended is waiting.
 *
 * Processing-time timers (time/processing-time-service.ts) fire at the start of every step once the job
 * clock has reached them; while every source waits, the job also wakes at the earliest timer (time/clock.ts).
 */
export class LocalJob implements Job {
  private readonly graph: JobGraph;
  /** Sources that have not ended, in graph order. */
  private active: SourceEntry[];
  private opened = false;
  private finished = false;
  private failed: unknown;
  private readonly checkpoints: CheckpointCoordinator;
  /** Where keyed state lives (state.backend.type); removed when the job ends. */
  private readonly backend: StateBackend;
  /** The processing-time timers of the job's operators; `clock` is what they are due by. */
  private readonly timers = new ProcessingTimeService();
  private readonly clock: () => number;
  /** Cancels the wake-up requested for the earliest timer while the sources were idle. */
  private cancelWake: (() => void) | undefined;

  constructor(plan: PlanNode, settings: JobSettings, sink: JobSink, operators: OperatorTable, resolveFunction?: FunctionResolver) {
    this.backend = settings.stateBackend ?? stateBackendFor(settings.config);
    try {
      this.graph = buildJobGraph(plan, { ...settings, stateBackend: this.backend }, sink, operators, resolveFunction);
      // reads the snapshot to start from (execution.savepoint.path) now, so a bad path fails the submission
      this.checkpoints = new CheckpointCoordinator(this.graph, settings.config, settings.clock, settings.batch, this.backend);
    } catch (e) {
      this.backend.dispose();
      throw e;
    }
    this.active = this.graph.sources.filter((s) => !s.done);
    this.clock = settings.clock;
    for (const op of this.graph.operators) if (usesProcessingTime(op)) op.bindProcessingTime(this.timers);
  }

  /** Opens the operators and restores the snapshot the job starts from (once, before the first record). */
  private ensureOpen(): void {
    if (this.opened) return;
    this.opened = true;
    for (const op of this.graph.operators) op.open();
    this.checkpoints.restore();
    // restored sources that had ended are done again
    this.active = this.graph.sources.filter((s) => !s.done);
  }

  step(budget: number): StepResult {
    if (this.failed) throw this.failed;
    if (this.finished) return "done";
    try {
      this.ensureOpen();
      if (this.cancelWake !== undefined) { this.cancelWake(); this.cancelWake = undefined; }
      if (this.timers.size > 0) this.timers.fireDue(this.clock());
      const checkpoints = this.checkpoints;
      if (checkpoints.periodic) {
        if (checkpoints.due()) {
          const barrier = this.barrier();
          if (barrier !== undefined) return barrier;
          checkpoints.checkpoint();
        }
        budget = checkpoints.budget(budget);
      }
      const wait = this.asyncWait();
      if (wait !== undefined) return wait;
      const active = this.active;
      if (active.length === 0) return this.finishWhenDrained();
      if (this.graph.sinkEnded()) return this.stopSources();
      if (active.length === 1) {
        // one source: the whole slice in one call
        const s = active[0]!;
        const r = s.reader.poll(s.emitter.out, budget);
        this.endOfStep();
        if (r !== "end") return this.graph.sinkEnded() ? this.stopSources() : this.orAsyncResult(r);
        s.done = true;
        this.active = [];
        return this.finishWhenDrained();
      }
      const r = this.interleave(active, budget);
      this.endOfStep();
      return r !== "done" && this.graph.sinkEnded() ? this.stopSources() : this.orAsyncResult(r);
    } catch (e) {
      this.failed = thrownIs(e, TableError) ? e : new ExecutionError(`job failed: ${describeThrown(e)}`, { cause: e });
      this.cancel();
      throw this.failed;
    }
  }

  /**
   * Takes a savepoint now, between two records (the caller calls it between steps): every operator's state,
   * every source's position and every sink's prepared transaction, written atomically into a new directory
   * under `dir`, whose path is returned. The job continues; `cancel()` after it is Flink's stop-with-savepoint.
   */
  triggerSavepoint(dir: string): string | Promise<string> {
    if (this.failed) throw new ExecutionError("cannot take a savepoint: the job has failed", { cause: this.failed });
    if (this.finished) throw new ExecutionError("cannot take a savepoint: the job has already finished");
    try {
      this.ensureOpen();
      const barrier = this.barrier();
      // the caller takes no step before the Promise settles: the savepoint still falls where it was requested
      if (barrier !== undefined) return barrier.then(() => this.triggerSavepoint(dir));
      return this.checkpoints.savepoint(dir);
    } catch (e) {
      if (thrownIs(e, TableError)) throw e;
      throw new ExecutionError(`savepoint into '${dir}' failed: ${describeThrown(e)}`, { cause: e });
    }
  }

  /**
   * The barrier of the next checkpoint (Flink's flush and prepareCommit before the snapshot): a Promise while an
   * asynchronous sink is still writing or preparing what it received; undefined once every one is ready.
   */
  private barrier(): Promise<void> | undefined {
    const id = this.checkpoints.nextId;
    // what operators hold back (mini-batch bundles) reaches the sinks before they prepare
    prepareSnapshot(this.graph.operators);
    const waits: Promise<void>[] = [];
    for (const w of this.graph.asyncWork) {
      const p = w.barrier?.(id);
      if (p !== undefined) waits.push(p);
    }
    return waits.length === 0 ? undefined : Promise.all(waits).then(() => undefined);
  }

  /**
   * After `cancel()`: a Promise until the asynchronous sinks have committed, aborted and closed (undefined when
   * nothing is pending). Rejects with a sink's failure unless the job had already failed.
   */
  stopped(): Promise<void> | undefined {
    const waits: Promise<void>[] = [];
    for (const w of this.graph.asyncWork) {
      try {
        const p = w.drain();
        if (p !== undefined) waits.push(p);
      } catch (e) {
        if (!this.failed) return Promise.reject(e);
      }
    }
    if (waits.length === 0) return undefined;
    return Promise.all(waits).then(() => {
      if (this.failed) return;
      for (const w of this.graph.asyncWork) w.drain();
    }, (e) => { if (!this.failed) throw e; });
  }

  /** Paths of the checkpoints this job completed, oldest first (only the retained ones are still on disk). */
  completedCheckpoints(): readonly string[] {
    return this.checkpoints.completed;
  }

  /** Round robin over several sources, one record each per round, until `budget` records or nothing is ready. */
  private interleave(active: SourceEntry[], budget: number): StepResult {
    // sources that ended or are waiting drop out of the rounds of this step
    const skip = new Array<boolean>(active.length).fill(false);
    const waits: Promise<void>[] = [];
    let ready = active.length;
    let ended = false;
    for (let n = 0; n < budget && ready > 0;) {
      for (let i = 0; i < active.length; i++) {
        if (skip[i]) continue;
        const s = active[i]!;
        const r = s.reader.poll(s.emitter.out, 1);
        n++;
        if (r === "more") continue;
        skip[i] = true;
        ready--;
        if (r === "end") { s.done = true; ended = true; } else waits.push(r);
      }
    }
    if (ended) this.active = active.filter((s) => !s.done);
    if (this.active.length === 0) return this.finishWhenDrained();
    if (ready === 0) return waits.length === 1 ? waits[0]! : Promise.race(waits);
    return "more";
  }

  /** The sink has everything it will get (a satisfied LIMIT): the sources still running are cancelled. */
  private stopSources(): StepResult {
    for (const s of this.active) {
      s.done = true;
      s.reader.close();
    }
    this.active = [];
    return this.finishWhenDrained();
  }

  /**
   * Asynchronous work first (exec/source.ts AsyncWork): results that completed are emitted, and while an
   * async sink or call has as much in flight as it may, the job reads no source (backpressure).
   */
  private asyncWait(): Promise<void> | undefined {
    const work = this.graph.asyncWork;
    for (let i = 0; i < work.length; i++) {
      const w = work[i]!;
      w.emitCompleted?.();
      const p = w.backpressure();
      if (p !== undefined) return p;
    }
    return undefined;
  }

  /** The step's records were pushed: the asynchronous work that hands them on per step does so now. */
  private endOfStep(): void {
    const work = this.graph.asyncWork;
    for (let i = 0; i < work.length; i++) work[i]!.endOfStep?.();
  }

  /**
   * While the sources wait (a Promise), the job also wakes when an asynchronous call in flight completes, so
   * its result goes out then rather than with the next record (an idle source must not hold results back).
   */
  private orAsyncResult(r: StepResult): StepResult {
    if (typeof r === "string") return r;
    const work = this.graph.asyncWork;
    let wakes: Promise<void>[] | undefined;
    for (let i = 0; i < work.length; i++) {
      const p = work[i]!.inFlight?.();
      if (p !== undefined) (wakes ??= [r]).push(p);
    }
    // an idle source must not hold back a due processing-time window either: wake at the earliest timer
    if (this.timers.size > 0) {
      let wake!: () => void;
      const timer = new Promise<void>((resolve) => { wake = resolve; });
      this.cancelWake = wakeAt(this.clock, this.timers.next(), wake);
      if (this.cancelWake !== undefined) (wakes ??= [r]).push(timer);
    }
    return wakes === undefined ? r : Promise.race(wakes);
  }

  /** The job ends: no timer fires and no wake-up is pending any more. */
  private stopTimers(): void {
    if (this.cancelWake !== undefined) { this.cancelWake(); this.cancelWake = undefined; }
    this.timers.clear();
  }

  /** Every source ended: the job ends once the asynchronous work in flight has settled (async sinks flushed and closed). */
  private finishWhenDrained(): StepResult {
    const work = this.graph.asyncWork;
    for (let i = 0; i < work.length; i++) {
      const w = work[i]!;
      w.emitCompleted?.();
      const p = w.drain();
      if (p !== undefined) return p;
    }
    return this.finish();
  }

  private finish(): "done" {
    this.finished = true;
    this.stopTimers();
    for (const op of this.graph.operators) op.close();
    this.backend.dispose();
    return "done";
  }

  /** The job's metrics (docs/metrics.md): readable while it runs, after it ended, failed or was cancelled. */
  metrics(): MetricsSnapshot {
    return this.graph.metrics.snapshot();
  }

  /** The watermark that reached the sink (the last operator) and the keys held by operators that count them. */
  progress(): { readonly watermark: number; readonly stateKeys: number } {
    const ops = this.graph.operators;
    let keys = 0;
    for (const op of ops) if (op.stateKeys !== undefined) keys += op.stateKeys();
    const sink = ops[ops.length - 1] as { currentWatermark?: number } | undefined;
    return { watermark: sink?.currentWatermark ?? -Infinity, stateKeys: keys };
  }

  cancel(): void {
    if (this.finished) return;
    this.finished = true;
    this.stopTimers();
    // a job that failed, or takes part in checkpoints (periodic ones, a savepoint taken, or restored from
    // one), is restarted from its last checkpoint: sinks drop what came after it (Flink's exactly-once sinks)
    if (this.failed !== undefined || this.checkpoints.periodic || this.checkpoints.participating) for (const op of this.graph.operators) (op as { discardUncommitted?: () => void }).discardUncommitted?.();
    // a job that did not finish commits nothing of an INSERT OVERWRITE: the table keeps its old contents
    for (const op of this.graph.operators) (op as { jobUnfinished?: () => void }).jobUnfinished?.();
    for (const s of this.graph.sources) s.reader.close();
    for (const op of this.graph.operators) {
      try { op.close(); } catch { /* closing after a failure must not hide the failure */ }
    }
    this.backend.dispose();
  }
}
