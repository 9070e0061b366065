// Progress display of long jobs (src/table/progress.ts, src/notebook/progress.ts): opt-in, from the job's
// metrics, driven here by an injected clock and writer (no real time is measured or asserted).
import { afterEach, describe, expect, it, vi } from "vitest";
import { $, DataTypes, EnvironmentSettings, Row, Schema, TableEnvironment, Tumble, lit, progressLine, terminalProgress, type ProgressReport } from "../../src/index.js";
import { notebookProgress } from "../../src/notebook/index.js";

const Events = Schema.newBuilder()
  .column("k", DataTypes.INT().notNull()).column("ts", DataTypes.TIMESTAMP_LTZ(3).notNull())
  .watermark("ts", "ts - INTERVAL '1' SECOND")
  .build();

/** 10,000 rows over 10 keys, one per 10 ms, and one late row at the end. */
const events = (env: TableEnvironment) => env.fromValues(Events, [
  ...Array.from({ length: 10_000 }, (_, i) => Row.of(i % 10, new Date(i * 10))),
  Row.of(1, new Date(0)),
]);

/** A clock that moves 250 ms each time it is read. */
const steppingClock = () => {
  let t = 1_000_000;
  return () => (t += 250);
};

const recorder = () => {
  const updates: ProgressReport[] = [];
  const ends: [ProgressReport, string][] = [];
  return { updates, ends, renderer: { update: (r: ProgressReport) => { updates.push(r); }, end: (r: ProgressReport, o: string) => { ends.push([r, o]); } } };
};

afterEach(() => { vi.restoreAllMocks(); });

describe("progress of a long job", () => {
  it("reports rows in and out, the watermark, state keys and late rows from the job", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const rec = recorder();
    const counts = events(env).groupBy($("k")).select($("k"), lit(1).count().as("n"));
    await counts.execute({ progress: { renderer: rec.renderer, clock: steppingClock(), intervalMs: 200 } }).await();
    expect(rec.updates.length).toBeGreaterThan(0);
    expect(rec.updates.every((u, i) => i === 0 || u.rowsIn >= rec.updates[i - 1]!.rowsIn)).toBe(true);
    expect(rec.ends).toHaveLength(1);
    const [final, outcome] = rec.ends[0]!;
    expect(outcome).toBe("finished");
    expect(final.rowsIn).toBe(10_001);
    // one +I per key, then -U/+U for every further row
    expect(final.rowsOut).toBe(10 + 2 * (10_001 - 10));
    expect(final.stateKeys).toBe(10);
    expect(final.watermark).toBe(Infinity);
    expect(final.watermarkLagMs).toBeUndefined();
    expect(final.rowsInPerSecond).toBeCloseTo(10_001 / (final.elapsedMs / 1000), 6);
  });

  it("counts late rows and shows the lag of a finite watermark against the clock", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const windows = events(env).window(Tumble.over(lit(1).seconds()).on($("ts")).as("w")).groupBy($("w")).select(lit(1).count().as("n"));
    const rec = recorder();
    const result = windows.execute({ progress: { renderer: rec.renderer, clock: () => 200_000, intervalMs: 0 } });
    let seen = 0;
    for await (const _ of result.collect()) if (++seen === 3) break; // stop early: cancelled
    const [final, outcome] = rec.ends[0]!;
    expect(outcome).toBe("cancelled");
    expect(Number.isFinite(final.watermark)).toBe(true);
    expect(final.watermarkLagMs).toBe(200_000 - final.watermark);
    const full = recorder();
    await events(env).window(Tumble.over(lit(1).seconds()).on($("ts")).as("w")).groupBy($("w")).select(lit(1).count().as("n"))
      .execute({ progress: { renderer: full.renderer, clock: steppingClock() } }).await();
    expect(full.ends[0]![0].lateRows).toBe(1);
  });

  it("the terminal display rewrites one line and ends it with the outcome", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const written: string[] = [];
    await events(env).execute({ progress: { renderer: terminalProgress((t) => written.push(t)), clock: steppingClock(), intervalMs: 200 } }).await();
    expect(written.length).toBeGreaterThan(1);
    expect(written.slice(0, -1).every((t) => t.startsWith("\r") && t.endsWith("\x1b[K") && !t.includes("\n"))).toBe(true);
    const last = written[written.length - 1]!;
    expect(last).toMatch(/^\r10,001 rows in \([\d,]+\/s\) · 10,001 out \([\d,]+\/s\) · watermark end of input · state 0 keys · 0 late · finished after [\d.]+ s\x1b\[K\n$/);
  });

  it("is off unless asked for: a job without the option writes nothing", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const err = vi.spyOn(process.stderr, "write");
    const out = vi.spyOn(process.stdout, "write");
    await events(env).groupBy($("k")).select($("k"), lit(1).count().as("n")).execute().await();
    expect(err).not.toHaveBeenCalled();
    expect(out).not.toHaveBeenCalled();
  });

  it("progressLine renders a report", () => {
    expect(progressLine({
      elapsedMs: 2000, rowsIn: 12_000, rowsOut: 3000, rowsInPerSecond: 6000, rowsOutPerSecond: 1500,
      watermark: Date.UTC(2026, 0, 1, 12, 0, 5), watermarkLagMs: 3200, stateKeys: 42, lateRows: 3,
    })).toBe("12,000 rows in (6,000/s) · 3,000 out (1,500/s) · watermark 2026-01-01 12:00:05.000 (lag 3.2 s) · state 42 keys · 3 late");
  });

  it("the notebook display replaces one output with each update, the last one saying how the job ended", async () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const shown: string[] = [];
    await events(env).execute({ progress: { renderer: notebookProgress({ html: (h) => shown.push(h) }), clock: steppingClock(), intervalMs: 200 } }).await();
    expect(shown.length).toBeGreaterThan(1);
    expect(shown.slice(0, -1).every((h) => h.includes('data-state="running"'))).toBe(true);
    expect(shown[shown.length - 1]).toMatch(/^<div class="tablestream-progress" data-state="finished" style="font-family:monospace">10,001 rows in .* · <b>finished<\/b><\/div>$/);
  });
});
