import { ExecutionError, TableError } from "../table/errors.js";
import type { Job, JobSettings, JobSink, StepResult } from "../table/executor.js";
import type { PlanNode } from "../table/plan/nodes.js";
import type { FunctionResolver } from "../expressions/compile.js";
import { buildJobGraph, type JobGraph } from "./job-graph.js";

/**
 * A running job: sources are polled one slice at a time and their records pushed synchronously
 * through the operators. Several sources are interleaved record by record (round robin), which is
 * deterministic and lets multi-input operators see their inputs side by side.
 */
export class LocalJob implements Job {
  private readonly graph: JobGraph;
  private opened = false;
  private finished = false;
  private failed: unknown;

  constructor(plan: PlanNode, settings: JobSettings, sink: JobSink, resolveFunction?: FunctionResolver) {
    this.graph = buildJobGraph(plan, settings, sink, resolveFunction);
  }

  step(budget: number): StepResult {
    if (this.failed) throw this.failed;
    if (this.finished) return "done";
    try {
      if (!this.opened) {
        for (const op of this.graph.operators) op.open();
        this.opened = true;
      }
      const active = this.graph.sources.filter((s) => !s.done);
      if (active.length === 0) return this.finish();
      if (active.length === 1) {
        const s = active[0]!;
        const r = s.reader.poll(s.emitter.out, budget);
        if (r === "end") { s.done = true; return this.graph.sources.every((x) => x.done) ? this.finish() : "more"; }
        return r;
      }
      const waits: Promise<void>[] = [];
      for (let n = 0; n < budget; ) {
        let progressed = false;
        for (const s of active) {
          if (s.done) continue;
          const r = s.reader.poll(s.emitter.out, 1);
          n++;
          if (r === "end") s.done = true;
          else if (r !== "more") { waits.push(r); continue; }
          progressed = true;
        }
        if (!progressed || active.every((s) => s.done)) break;
      }
      if (this.graph.sources.every((x) => x.done)) return this.finish();
      if (waits.length > 0 && !active.some((s) => !s.done && !waits.length)) return Promise.race(waits);
      return "more";
    } catch (e) {
      this.failed = e instanceof TableError ? e : new ExecutionError(`job failed: ${(e as Error)?.message ?? String(e)}`, { cause: e });
      this.cancel();
      throw this.failed;
    }
  }

  private finish(): "done" {
    this.finished = true;
    for (const op of this.graph.operators) op.close();
    return "done";
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
