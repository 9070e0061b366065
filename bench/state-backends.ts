/**
 * State backends (part of `npm run bench`; `--state-only` runs just this):
 *
 * 1. W5's ratio on the disk backend: the W5 plan with `state.backend.type = disk` against W5's hand-written
 *    loop, over the same bids, through the internal job path (median of the ratios of side-by-side samples).
 * 2. W5's checkpoints at 1M keys: a datagen sequence keyed by `id mod 1,000,000` through W5's PTF (1M keys
 *    of value state), a checkpoint, then 10,000 more rows over 10,000 of the keys and a second checkpoint —
 *    duration and bytes written of each, for the hashmap backend (always full), and the disk backend with
 *    full and with incremental checkpoints, and the time a new job takes to restore the second one (its
 *    first step). The job's clock is scripted so the checkpoints fall exactly there.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { $, DataTypes, EnvironmentSettings, Schema, TableDescriptor, TableEnvironment } from "../src/index.js";
import { sharedFilesOf } from "../src/exec/checkpoint/storage.js";
import { getExecutor } from "../src/table/executor.js";
import type { BidData } from "./data.js";
import { median, SLICE } from "./harness.js";
import { RingSink } from "./sink.js";
import { bidsTable } from "./source.js";
import { CountPerAuction, W5 } from "./workloads/w5-ptf-state.js";
import type { Workload } from "./workload.js";

const KEYS = 1_000_000;
const DELTA = 10_000;

function runToEnd(env: TableEnvironment, table: ReturnType<typeof W5.plan>, sink: RingSink): void {
  const job = getExecutor().createJob(table.node, { batch: false, config: env.getConfig().options, clock: Date.now, resolveFunction: env.planContext().resolveFunction }, sink);
  for (let s = job.step(SLICE); s !== "done"; s = job.step(SLICE)) if (s !== "more") throw new Error("bench sources never wait");
}

/** W5 on the disk backend against the baseline loop: rows/s of each and their ratio. */
export function diskW5Ratio(data: BidData, runs: number): { baseline: number; table: number; ratio: number } {
  return diskRatio(W5, data, runs);
}

/**
 * A workload on the disk backend (`state.backend.type = disk`, default cache) against its hand-written loop:
 * rows/s of each and their ratio (`npm run bench -- --only W3 --disk [--cache-size N]` runs it for the chosen workloads).
 */
export function diskRatio(w: Workload, data: BidData, runs: number, cacheSize?: number): { baseline: number; table: number; ratio: number } {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  env.getConfig().set("state.backend.type", "disk");
  if (cacheSize !== undefined) env.getConfig().set("state.backend.cache-size", String(cacheSize));
  const table = w.plan(bidsTable(env, data), env, data);
  const b: number[] = [];
  const t: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const s0 = performance.now();
    w.baseline(data.objects, new RingSink());
    const s1 = performance.now();
    runToEnd(env, table, new RingSink());
    const s2 = performance.now();
    // the first round warms up both
    if (i > 0) { b.push((s1 - s0) / 1000); t.push((s2 - s1) / 1000); }
  }
  const rows = data.rows.length;
  return { baseline: rows / median(b) / 1e6, table: rows / median(t) / 1e6, ratio: median(t.map((x, i) => b[i]! / x)) };
}

/**
 * Durations in wall-clock and in CPU milliseconds (user + system of the process, garbage-collector threads
 * included): on a machine shared with other work the wall clock stretches with the load, the CPU time much less.
 */
interface CheckpointFigures {
  readonly label: string;
  readonly firstMs: number; readonly firstCpuMs: number; readonly firstBytes: number;
  readonly secondMs: number; readonly secondCpuMs: number; readonly secondBytes: number;
  /** A new job started from the second checkpoint: its first step, which restores the 1M keys. */
  readonly restoreMs: number; readonly restoreCpuMs: number;
}

function timed(f: () => unknown): [wallMs: number, cpuMs: number] {
  const c = process.cpuUsage();
  const t = performance.now();
  f();
  const wall = performance.now() - t;
  const d = process.cpuUsage(c);
  return [wall, (d.user + d.system) / 1000];
}

/** Bytes a checkpoint added: its _metadata and the shared files it lists that the previous one did not. */
function bytesOf(chk: string, before: ReadonlySet<string>): { bytes: number; files: Set<string> } {
  const meta = join(chk, "_metadata");
  const files = new Set(sharedFilesOf(chk));
  let bytes = statSync(meta).size;
  for (const f of files) if (!before.has(f)) bytes += statSync(f).size;
  return { bytes, files };
}

function checkpointRun(label: string, options: Record<string, string>): CheckpointFigures {
  const dir = mkdtempSync(join(tmpdir(), "tablestream-bench-chk-"));
  try {
    let now = 0;
    const createJob = (more: Record<string, string>) => {
      const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
      env.getConfig().set("execution.checkpointing.interval", "1 s").set("execution.checkpointing.dir", dir).set("execution.checkpointing.num-retained", "2");
      for (const [k, v] of Object.entries({ ...options, ...more })) env.getConfig().set(k, v);
      env.createTemporaryTable("ids", TableDescriptor.forConnector("datagen")
        .schema(Schema.newBuilder().column("id", DataTypes.BIGINT()).build())
        .option("fields.id.kind", "sequence").option("fields.id.start", "0").option("fields.id.end", String(KEYS + DELTA + 1))
        .option("rows-per-second", "1000000000").build());
      const table = env.from("ids").select($("id").mod(KEYS).as("auction")).partitionBy($("auction")).process(CountPerAuction);
      return getExecutor().createJob(table.node, { batch: false, config: env.getConfig().options, clock: () => now, resolveFunction: env.planContext().resolveFunction }, new RingSink());
    };
    const job = createJob({});
    const feed = (n: number) => { for (let left = n; left > 0;) { const step = Math.min(left, SLICE); if (job.step(step) !== "more") throw new Error("ended early"); left -= step; } };
    /** The next step takes the checkpoint (the interval has passed on the scripted clock) and reads one row. */
    const checkpoint = () => { now += 1000; return timed(() => job.step(1)); };
    feed(KEYS);
    const [firstMs, firstCpuMs] = checkpoint();
    const first = bytesOf(join(dir, "chk-1"), new Set());
    feed(DELTA - 1);
    const [secondMs, secondCpuMs] = checkpoint();
    const second = bytesOf(join(dir, "chk-2"), first.files);
    job.cancel();
    const restored = createJob({ "execution.savepoint.path": join(dir, "chk-2") });
    const [restoreMs, restoreCpuMs] = timed(() => restored.step(1));
    restored.cancel();
    return { label, firstMs, firstCpuMs, firstBytes: first.bytes, secondMs, secondCpuMs, secondBytes: second.bytes, restoreMs, restoreCpuMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function runStateBench(data: BidData, runs: number): void {
  const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
  const mb = (n: number) => (n / 1e6).toFixed(1);
  const r = diskW5Ratio(data, runs);
  console.log(`\nState backends. W5 on the disk backend (internal path): baseline ${r.baseline.toFixed(2)} M rows/s, table ${r.table.toFixed(2)} M rows/s, ratio ${r.ratio.toFixed(2)}`);
  console.log(`W5 checkpoints at ${fmt(KEYS)} keys, then a second after ${fmt(DELTA)} rows over ${fmt(DELTA)} keys (duration ms / MB written):`);
  console.log("| backend | 1st checkpoint ms (CPU ms) | 1st MB | 2nd checkpoint ms (CPU ms) | 2nd MB | restore of the 2nd ms (CPU ms) |");
  console.log("|:--|--:|--:|--:|--:|--:|");
  const ms = (wall: number, cpu: number) => `${wall.toFixed(0)} (${cpu.toFixed(0)})`;
  for (const [label, options] of [
    ["hashmap (full)", {}],
    ["disk, full", { "state.backend.type": "disk" }],
    ["disk, incremental", { "state.backend.type": "disk", "execution.checkpointing.incremental": "true" }],
  ] as const) {
    const c = checkpointRun(label, options);
    console.log(`| ${c.label} | ${ms(c.firstMs, c.firstCpuMs)} | ${mb(c.firstBytes)} | ${ms(c.secondMs, c.secondCpuMs)} | ${mb(c.secondBytes)} | ${ms(c.restoreMs, c.restoreCpuMs)} |`);
  }
}
