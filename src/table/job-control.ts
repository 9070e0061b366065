import { ExecutionError } from "../types/errors.js";
import type { Job } from "./executor.js";

interface SavepointRequest {
  readonly dir: string;
  readonly stop: boolean;
  readonly resolve: (path: string) => void;
  readonly reject: (e: unknown) => void;
}

/**
 * The savepoint requests of one running job (`JobClient.triggerSavepoint` / `stopWithSavepoint`), served by
 * the loop that drives the job between two of its steps — so a savepoint always falls between two records,
 * also while the job waits for a source (the wait is cut short by a request).
 */
export class JobControl {
  private requests: SavepointRequest[] = [];
  private wake: (() => void) | undefined;
  private ended: string | undefined;

  request(dir: string, stop: boolean): Promise<string> {
    if (this.ended !== undefined) return Promise.reject(new ExecutionError(`cannot take a savepoint: ${this.ended}`));
    return new Promise<string>((resolve, reject) => {
      this.requests.push({ dir, stop, resolve, reject });
      this.wake?.();
    });
  }

  /**
   * Serves the pending requests; true when one of them stops the job (the caller then cancels it). A Promise
   * of that while a savepoint waits for asynchronous sinks: the caller takes no step before it settles.
   */
  serve(job: Job): boolean | Promise<boolean> {
    if (this.requests.length === 0) return false;
    const pending = this.requests;
    this.requests = [];
    return this.serveFrom(job, pending, 0, false);
  }

  private serveFrom(job: Job, pending: readonly SavepointRequest[], from: number, stopped: boolean): boolean | Promise<boolean> {
    let stop = stopped;
    for (let i = from; i < pending.length; i++) {
      const r = pending[i]!;
      if (stop) { r.reject(new ExecutionError("cannot take a savepoint: the job was stopped with a savepoint")); continue; }
      try {
        if (job.triggerSavepoint === undefined) throw new ExecutionError("this job cannot take savepoints");
        const path = job.triggerSavepoint(r.dir);
        if (typeof path !== "string") {
          return path.then(
            (p) => { r.resolve(p); return this.serveFrom(job, pending, i + 1, r.stop); },
            (e: unknown) => { r.reject(e); return this.serveFrom(job, pending, i + 1, false); },
          );
        }
        r.resolve(path);
        stop = r.stop;
      } catch (e) {
        r.reject(e);
      }
    }
    return stop;
  }

  /** Waits for `p` (a waiting source), or until a savepoint is requested. */
  waitFor(p: Promise<void>): Promise<void> {
    if (this.requests.length > 0) return Promise.resolve();
    return Promise.race([p, new Promise<void>((resolve) => { this.wake = resolve; })]).finally(() => { this.wake = undefined; });
  }

  /** Cuts a wait short (the job is being cancelled). */
  interrupt(): void {
    this.wake?.();
  }

  /** The job ended (`why`): pending and later requests fail with that reason. */
  end(why: string): void {
    this.ended = why;
    for (const r of this.requests) r.reject(new ExecutionError(`cannot take a savepoint: ${why}`));
    this.requests = [];
  }
}
