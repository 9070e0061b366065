import type { MetricsSnapshot } from "./executor.js";

/**
 * Progress of a long job, opt-in with `execute({ progress: true })`: a display updated at most every
 * `intervalMs` while the job runs, from its metrics (docs/metrics.md) — rows in and out per second, the
 * watermark at the end of the plan and how far it is behind the clock, the keys held in state and the late
 * rows dropped. Nothing is computed per record: the job is looked at between its slices, and only when the
 * interval has passed.
 */

/** What a progress display shows at one moment. */
export interface ProgressReport {
  /** Milliseconds since the job started. */
  readonly elapsedMs: number;
  /** Records the job's sources emitted (every `<source>.numRecordsOut`). */
  readonly rowsIn: number;
  /** Records that reached its sinks (`Collect.numRecordsIn`, every `Sink[..].numRecordsOut`). */
  readonly rowsOut: number;
  /** Rates over the time since the previous report (per second; over the whole run in the final one). */
  readonly rowsInPerSecond: number;
  readonly rowsOutPerSecond: number;
  /** The watermark at the end of the plan (epoch ms; -Infinity before the first, +Infinity at the end). */
  readonly watermark: number;
  /** Clock minus watermark (ms); undefined while there is no finite watermark. */
  readonly watermarkLagMs: number | undefined;
  /** Keys held in keyed state by the operators that count them (group aggregates, PTF calls). */
  readonly stateKeys: number;
  /** Late rows dropped (every `*.numLateRecordsDropped`). */
  readonly lateRows: number;
}

/** Where a progress display goes: updated while the job runs, then once more when it ended. */
export interface ProgressRenderer {
  update(report: ProgressReport): void;
  end(report: ProgressReport, outcome: "finished" | "failed" | "cancelled"): void;
}

export interface ProgressOptions {
  /** Where it goes; default a single updating line on stderr (`terminalProgress()`). */
  readonly renderer?: ProgressRenderer;
  /** Least time between two updates (ms); default 500. */
  readonly intervalMs?: number;
  /** The clock rates, lag and the interval are measured with (epoch ms); default `Date.now`. */
  readonly clock?: () => number;
}

/** What a job tells a progress display besides its metrics. */
export interface ProgressSource {
  metrics(): MetricsSnapshot;
  progress?(): { readonly watermark: number; readonly stateKeys: number };
}

/** Follows one job: `tick()` between slices (cheap unless the interval passed), `end()` once. */
export class ProgressTracker {
  private readonly renderer: ProgressRenderer;
  private readonly clock: () => number;
  private readonly interval: number;
  private readonly start: number;
  private last: number;
  private lastIn = 0;
  private lastOut = 0;
  private ended = false;

  constructor(private readonly job: ProgressSource, options: ProgressOptions) {
    this.renderer = options.renderer ?? terminalProgress();
    this.clock = options.clock ?? Date.now;
    this.interval = options.intervalMs ?? 500;
    this.start = this.clock();
    this.last = this.start;
  }

  tick(): void {
    const now = this.clock();
    if (now - this.last < this.interval) return;
    this.renderer.update(this.report(now, false));
  }

  end(outcome: "finished" | "failed" | "cancelled"): void {
    if (this.ended) return;
    this.ended = true;
    this.renderer.end(this.report(this.clock(), true), outcome);
  }

  private report(now: number, final: boolean): ProgressReport {
    const m = this.job.metrics();
    let rowsIn = 0;
    let rowsOut = 0;
    let late = 0;
    for (const key in m) {
      const v = m[key]!;
      if (key.endsWith(".numLateRecordsDropped")) late += v;
      else if (key.startsWith("Sink[")) { if (key.endsWith(".numRecordsOut")) rowsOut += v; }
      else if (key === "Collect.numRecordsIn") rowsOut += v;
      else if (key.endsWith(".numRecordsOut")) rowsIn += v;
    }
    const p = this.job.progress?.() ?? { watermark: -Infinity, stateKeys: 0 };
    const since = final ? this.start : this.last;
    const seconds = Math.max(now - since, 1) / 1000;
    const report: ProgressReport = {
      elapsedMs: now - this.start,
      rowsIn, rowsOut,
      rowsInPerSecond: ((final ? rowsIn : rowsIn - this.lastIn) / seconds),
      rowsOutPerSecond: ((final ? rowsOut : rowsOut - this.lastOut) / seconds),
      watermark: p.watermark,
      watermarkLagMs: Number.isFinite(p.watermark) ? now - p.watermark : undefined,
      stateKeys: p.stateKeys,
      lateRows: late,
    };
    this.last = now;
    this.lastIn = rowsIn;
    this.lastOut = rowsOut;
    return report;
  }
}

/** One line of text for a report: `12,000 rows in (4,000/s) · 3,000 out (1,000/s) · watermark ... · state 12 keys · 0 late`. */
export function progressLine(r: ProgressReport): string {
  const n = (x: number) => Math.round(x).toLocaleString("en-US");
  const wm = r.watermark === -Infinity ? "no watermark yet"
    : r.watermark === Infinity ? "watermark end of input"
    : `watermark ${new Date(r.watermark).toISOString().replace("T", " ").replace("Z", "")}${r.watermarkLagMs === undefined ? "" : ` (lag ${duration(r.watermarkLagMs)})`}`;
  return `${n(r.rowsIn)} rows in (${n(r.rowsInPerSecond)}/s) · ${n(r.rowsOut)} out (${n(r.rowsOutPerSecond)}/s) · ${wm} · state ${n(r.stateKeys)} keys · ${n(r.lateRows)} late`;
}

function duration(ms: number): string {
  const a = Math.abs(ms);
  const sign = ms < 0 ? "-" : "";
  if (a < 1000) return `${sign}${Math.round(a)} ms`;
  if (a < 120_000) return `${sign}${(a / 1000).toFixed(1)} s`;
  if (a < 7_200_000) return `${sign}${(a / 60_000).toFixed(1)} min`;
  if (a < 172_800_000) return `${sign}${(a / 3_600_000).toFixed(1)} h`;
  return `${sign}${(a / 86_400_000).toFixed(1)} d`;
}

/**
 * A single line on a terminal, rewritten in place (carriage return, erase to the end of the line) at each
 * update, and ended with a newline and the outcome when the job ends. `write` defaults to stderr, so the
 * rows a job prints on stdout stay clean.
 */
export function terminalProgress(write: (text: string) => void = (t) => { process.stderr.write(t); }): ProgressRenderer {
  return {
    update(r) { write(`\r${progressLine(r)}\x1b[K`); },
    end(r, outcome) { write(`\r${progressLine(r)} · ${outcome} after ${duration(r.elapsedMs)}\x1b[K\n`); },
  };
}
