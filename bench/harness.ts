/**
 * Timing, checking and state measurement for the workloads of bench/workloads/.
 *
 * The headline is the public API a user has: `execute().batches()`, every typed row of every batch handed
 * to the sink (timed from `execute()` to the end of the job). Two more columns: `execute().collect()`
 * (one row per `next()`), and the internal path — the job driven synchronously through the exec layer
 * (`job.step()` in a loop, positional records into the sink, no row objects), which bounds what the
 * public API can reach. Plans are built before the clock starts.
 */
import { EnvironmentSettings, Row, type Table, TableEnvironment } from "../src/index.js";
import { getExecutor, type Job, type JobSettings, type JobSink } from "../src/table/executor.js";
import { KIND_SHORT } from "../src/types/row.js";
import type { BidData } from "./data.js";
import { type BaselineSink, ColumnRing, type ColumnSink, RingSink } from "./sink.js";
import { bidsTable } from "./source.js";
import type { Workload } from "./workload.js";
import { keep, usedMemory } from "./memory.js";

/** Source records per `job.step()`: the slice TableResult uses. */
export const SLICE = 4096;

/** The collect() column is for information and slow: fewer samples keep the run short. */
export const COLLECT_SAMPLES = 3;

/**
 * Sink index of a row kind ("+I" -> 0 ...): a switch over the four kind strings, the way docs/benchmarks.md
 * tells users to branch on a kind (a keyed lookup in a table of the strings costs a polymorphic keyed load
 * per row, most of the consumer loop on cheap workloads).
 */
function kindIndex(kind: string): number {
  switch (kind) {
    case "+I": return 0;
    case "-U": return 1;
    case "+U": return 2;
    default: return 3;
  }
}

export interface BenchOptions {
  readonly runs: number;
  readonly warmups: number;
  /** Also time the public `execute().collect()` path. */
  readonly collect: boolean;
  /** A sample repeats the pass until the baseline's part lasts about this long. */
  readonly minSampleSeconds: number;
}

export interface WorkloadResult {
  readonly workload: Workload;
  /** Outputs of one pass. */
  readonly outputs: number;
  /** Passes over the data per sample. */
  readonly passes: number;
  /** Seconds per pass, one entry per sample: the baseline, the public batches() path, the internal path. */
  readonly baseline: number[];
  readonly table: number[];
  readonly internal: number[];
  /** Seconds per pass of the internal path spent in the job's last step (end of input). */
  readonly end: number[];
  /** Seconds per pass of the public collect() path (at most COLLECT_SAMPLES samples). */
  readonly collect: number[];
  /**
   * Workloads with a columnar baseline: seconds per pass of that baseline and of `execute().columnBatches()`,
   * sampled side by side (empty otherwise).
   */
  readonly columnarBaseline: number[];
  readonly columnar: number[];
  readonly state?: { readonly entries: number; readonly tableBytes: number; readonly baselineBytes: number };
}

type AnyTable = Table<object, "append" | "retract" | "upsert">;

/** A workload's plan, built once per environment (planning is outside the timed region). */
export interface Prepared {
  readonly workload: Workload;
  readonly table: AnyTable;
}

export function prepare(workload: Workload, data: BidData): Prepared {
  const env = TableEnvironment.create(workload.batch ? EnvironmentSettings.inBatchMode() : EnvironmentSettings.inStreamingMode());
  return { workload, table: workload.plan(bidsTable(env, data), env, data) };
}

/** The settings `TableEnvironment.executeNode` gives its jobs. */
function settingsOf(env: TableEnvironment): JobSettings {
  return { batch: env.isBatch(), config: env.getConfig().options, clock: Date.now, resolveFunction: env.planContext().resolveFunction };
}

/** Where runJob reports how long the job's last step (the rest of the input, then end of input) took. */
export interface EndTiming {
  seconds: number;
}

/**
 * Runs the plan to the end through the exec layer; returns the finished job (it still holds its state).
 * With `end`, adds the duration of the last step to `end.seconds`: that step reads the last (partial)
 * slice and runs end of input (batch results, the final windows), so it bounds end-of-input work.
 */
export function runJob(table: AnyTable, sink: JobSink, end?: EndTiming): Job {
  const job = getExecutor().createJob(table.node, settingsOf(table.env), sink);
  for (;;) {
    const t0 = end === undefined ? 0 : performance.now();
    const s = job.step(SLICE);
    if (s === "done") {
      if (end !== undefined) end.seconds += (performance.now() - t0) / 1000;
      return job;
    }
    if (s !== "more") throw new Error("bench sources never wait; a job returned a Promise");
  }
}

/** Runs the plan through the public API: `execute().collect()`, every row handed to the sink. */
export async function runCollect(table: AnyTable, sink: RingSink): Promise<void> {
  for await (const r of table.execute().collect()) sink.push(kindIndex(Row.kindOf(r)), r);
}

/** Runs the plan through the public batch consumer: `execute().batches()`, every row of every batch handed to the sink. */
export async function runBatches(table: AnyTable, sink: BaselineSink): Promise<void> {
  for await (const batch of table.execute().batches()) {
    for (let i = 0; i < batch.length; i++) {
      const r = batch[i]!;
      sink.push(kindIndex(Row.kindOf(r)), r);
    }
  }
}

/** Runs the plan through the public columnar consumer: `execute().columnBatches()`, every batch handed to the sink. */
export async function runColumns(table: AnyTable, sink: ColumnSink): Promise<void> {
  for await (const b of table.execute().columnBatches()) sink.batch(b.length, b.kinds, b.columns as Record<string, ArrayLike<unknown>>);
}

const gc: (() => void) | undefined = (globalThis as { gc?: () => void }).gc;

function collectGarbage(): void {
  if (gc) { gc(); gc(); }
}

/**
 * Collects garbage before a timed run (when node runs with --expose-gc) so runs start alike, then
 * lets the GC's background threads finish their sweeping before the clock starts (2 cores: they would
 * compete with the run).
 */
async function settle(): Promise<void> {
  gc?.();
  await new Promise((resolve) => setTimeout(resolve, 25));
}

function time(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return (performance.now() - t0) / 1000;
}

async function timeAsync(fn: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return (performance.now() - t0) / 1000;
}

/**
 * Runs every side of a workload once; throws if the two sides disagree. Used as warm-up. Returns the
 * baseline's time for one pass (seconds).
 */
export async function warmUp(p: Prepared, data: BidData, options: BenchOptions): Promise<number> {
  const base = new RingSink();
  const t = time(() => { p.workload.baseline(data.objects, base); });
  const tab = new RingSink();
  runJob(p.table, tab);
  check(p.workload, "internal path", base, tab);
  const bat = new RingSink();
  await runBatches(p.table, bat);
  check(p.workload, "batches()", base, bat);
  if (options.collect) {
    const col = new RingSink();
    await runCollect(p.table, col);
    check(p.workload, "collect()", base, col);
  }
  if (p.workload.columnarBaseline) {
    const cb = new ColumnRing();
    p.workload.columnarBaseline(data.objects, cb);
    checkColumns(p.workload, "columnar baseline", base, cb);
    const ct = new ColumnRing();
    await runColumns(p.table, ct);
    checkColumns(p.workload, "columnBatches()", base, ct);
  }
  return t;
}

/**
 * How many passes over the data one sample takes: enough that the baseline's sample lasts about
 * `minSampleSeconds`. A 10 ms sample on a 2-core machine is at the mercy of one GC or JIT thread;
 * a 100 ms one is not. Both sides use the same count.
 */
export function passesFor(baselinePassSeconds: number, options: BenchOptions): number {
  return Math.max(1, Math.min(50, Math.ceil(options.minSampleSeconds / baselinePassSeconds)));
}

/** Timed samples, baseline and Table API interleaved so that drift in the machine hits both alike. */
export async function measure(p: Prepared, data: BidData, options: BenchOptions, passes: number): Promise<WorkloadResult> {
  const { workload, table } = p;
  const baseline: number[] = [];
  const tableTimes: number[] = [];
  const internalTimes: number[] = [];
  const endTimes: number[] = [];
  const collectTimes: number[] = [];
  const columnarBaseline: number[] = [];
  const columnar: number[] = [];
  let outputs = 0;
  for (let r = 0; r < options.runs; r++) {
    const base = new RingSink();
    await settle();
    baseline.push(time(() => { for (let i = 0; i < passes; i++) workload.baseline(data.objects, base); }) / passes);
    const bat = new RingSink();
    await settle();
    tableTimes.push(await timeAsync(async () => { for (let i = 0; i < passes; i++) await runBatches(table, bat); }) / passes);
    check(workload, "batches()", base, bat);
    const tab = new RingSink();
    await settle();
    const end: EndTiming = { seconds: 0 };
    internalTimes.push(time(() => { for (let i = 0; i < passes; i++) runJob(table, tab, end); }) / passes);
    endTimes.push(end.seconds / passes);
    check(workload, "internal path", base, tab);
    outputs = base.count / passes;
    if (options.collect && r < COLLECT_SAMPLES) {
      // the public path is slow enough that one pass makes a long sample, and a few samples do
      const col = new RingSink();
      await settle();
      collectTimes.push(await timeAsync(() => runCollect(table, col)));
      if (col.count !== outputs) throw new Error(`${workload.id}: the baseline emitted ${outputs} rows, collect() ${col.count}`);
    }
    if (workload.columnarBaseline) {
      const cb = new ColumnRing();
      await settle();
      columnarBaseline.push(time(() => { for (let i = 0; i < passes; i++) workload.columnarBaseline!(data.objects, cb); }) / passes);
      const ct = new ColumnRing();
      await settle();
      columnar.push(await timeAsync(async () => { for (let i = 0; i < passes; i++) await runColumns(table, ct); }) / passes);
      if (cb.count !== ct.count) throw new Error(`${workload.id}: the columnar baseline emitted ${cb.count} rows, columnBatches() ${ct.count}`);
    }
  }
  const state = !gc ? undefined : workload.peakState ? workload.peakState(table, data) : workload.stateEntries ? measureState(p, data) : undefined;
  return { workload, outputs, passes, baseline, table: tableTimes, internal: internalTimes, end: endTimes, collect: collectTimes, columnarBaseline, columnar, state };
}

/**
 * Bytes per keyed entry at the end of a run: heap plus external memory (typed arrays) after minus
 * before (both after a full GC), with the job (or the baseline's Map) still reachable, divided by the number of entries. The
 * sinks are pre-filled so that the ring's 1024 outputs do not count.
 */
function measureState(p: Prepared, data: BidData): WorkloadResult["state"] {
  const entries = p.workload.stateEntries!(data.objects);
  const heldBy = (fn: (sink: RingSink) => unknown): number => {
    const sink = new RingSink();
    p.workload.baseline(data.objects, sink); // fills the ring
    collectGarbage();
    const before = usedMemory();
    const held = fn(sink);
    collectGarbage();
    const after = usedMemory();
    keep(held);
    return (after - before) / entries;
  };
  const tableBytes = heldBy((sink) => runJob(p.table, sink));
  const baselineBytes = heldBy((sink) => p.workload.baseline(data.objects, sink));
  return { entries, tableBytes, baselineBytes };
}


/** Both sides must emit the same number of outputs and the same last output (kind and values in column order). */
function check(w: Workload, side: string, base: RingSink, other: RingSink): void {
  if (base.count !== other.count) throw new Error(`${w.id}: the baseline emitted ${base.count} rows, the ${side} ${other.count}`);
  const a = base.last(), b = other.last();
  if (a && b) sameLast(w, side, a, b);
}

function sameLast(w: Workload, side: string, a: { kind: number; row: unknown }, b: { kind: number; row: unknown }): void {
  const av = Object.values(a.row as object);
  const bv = Array.isArray(b.row) ? b.row : Object.values(b.row as object);
  const same = a.kind === b.kind && av.length === bv.length && av.every((x, i) => {
    const y = bv[i];
    return x instanceof Date && y instanceof Date ? x.getTime() === y.getTime() : Object.is(x, y);
  });
  if (!same) throw new Error(`${w.id}: last output differs: baseline ${KIND_SHORT[a.kind]}${JSON.stringify(av)}, ${side} ${KIND_SHORT[b.kind]}${JSON.stringify(bv)}`);
}

/** A columnar side must emit as many rows as the row baseline, and the same last row. */
function checkColumns(w: Workload, side: string, base: RingSink, other: ColumnRing): void {
  if (base.count !== other.count) throw new Error(`${w.id}: the baseline emitted ${base.count} rows, the ${side} ${other.count}`);
  const a = base.last(), b = other.last();
  if (a && b) sameLast(w, side, a, b);
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
