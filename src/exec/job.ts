import { ExecutionError, TableError } from "../types/errors.js";
import type { Job, JobSettings, JobSink, MetricsSnapshot, StepResult } from "./job-contract.js";
import type { PlanNode } from "../plan/nodes.js";
import type { FunctionResolver } from "../expressions/compile.js";
import { buildJobGraph, type JobGraph, type SourceEntry } from "./job-graph.js";
import { describeThrown, thrownIs } from "../types/describe-thrown.js";
import type { OperatorTable } from "./operator-table.js";

/**
 * A running job: sources are polled one slice at a time and their records pushed synchronously
 * through the operators. Several sources are interleaved record by record (round robin, whole rounds
 * only, so the interleaving does not depend on where slices end), which is deterministic and lets
 * multi-input operators see their inputs side by side. A source with nothing to give right now is
 * passed over until the next step; the job waits (returns a Promise) only when every source that has
 * not ended is waiting.
 */
export class LocalJob implements Job {
  private readonly graph: JobGraph;
  /** Sources that have not ended, in graph order. */
  private active: SourceEntry[];
  private opened = false;
  private finished = false;
  private failed: unknown;

  constructor(plan: PlanNode, settings: JobSettings, sink: JobSink, operators: OperatorTable, resolveFunction?: FunctionResolver) {
    this.graph = buildJobGraph(plan, settings, sink, operators, resolveFunction);
    this.active = this.graph.sources.filter((s) => !s.done);
  }

  step(budget: number): StepResult {
    if (this.failed) throw this.failed;
    if (this.finished) return "done";
    try {
      if (!this.opened) {
        for (const op of this.graph.operators) op.open();
        this.opened = true;
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
        if (r !== "end") return this.graph.sinkEnded() ? this.stopSources() : r;
        s.done = true;
        this.active = [];
        return this.finishWhenDrained();
      }
      const r = this.interleave(active, budget);
      return r !== "done" && this.graph.sinkEnded() ? this.stopSources() : r;
    } catch (e) {
      this.failed = thrownIs(e, TableError) ? e : new ExecutionError(`job failed: ${describeThrown(e)}`, { cause: e });
      this.cancel();
      throw this.failed;
    }
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
    for (const op of this.graph.operators) op.close();
    return "done";
  }

  /** The job's metrics (docs/metrics.md): readable while it runs, after it ended, failed or was cancelled. */
  metrics(): MetricsSnapshot {
    return this.graph.metrics.snapshot();
  }

  cancel(): void {
    if (this.finished) return;
    this.finished = true;
    for (const s of this.graph.sources) s.reader.close();
    for (const op of this.graph.operators) {
      try { op.close(); } catch { /* closing after a failure must not hide the failure */ }
    }
  }
}
