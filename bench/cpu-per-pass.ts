/**
 * CPU time (user + system, all threads: `process.cpuUsage()`) per pass of one workload, its baseline and its
 * `batches()` consumer side by side, in this process:
 *
 *   node --import tsx bench/cpu-per-pass.ts W8 [passes=8] [rows=1000000]
 *
 * On a machine shared with other work, wall-clock rates swing several times between samples; CPU time per pass
 * moves much less, so two trees are compared by running this in each, alternately (docs/benchmarks.md).
 */
import { generateBids } from "./data.js";
import { prepare, runBatches } from "./harness.js";
import { RingSink } from "./sink.js";
import { WORKLOADS } from "./workloads/index.js";

const [id = "W7", passesArg = "8", rowsArg = "1000000"] = process.argv.slice(2);
const workload = WORKLOADS.find((w) => w.id === id.toUpperCase());
if (!workload) throw new Error(`unknown workload ${id}; known: ${WORKLOADS.map((w) => w.id).join(", ")}`);
const passes = Number(passesArg);
if (!Number.isInteger(passes) || passes <= 0) throw new Error(`passes must be a positive integer, got ${passesArg}`);
const data = generateBids(Number(rowsArg));

const wall: [number[], number[]] = [[], []];

async function cpuMs(run: () => unknown, side: 0 | 1): Promise<number> {
  const start = process.cpuUsage();
  const t0 = performance.now();
  await run();
  wall[side].push(performance.now() - t0);
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

const WARMUPS = 2;
const baseline: number[] = [];
const table: number[] = [];
for (let i = 0; i < passes + WARMUPS; i++) {
  const p = prepare(workload, data);
  const b = await cpuMs(() => workload.baseline(data.objects, new RingSink()), 0);
  const t = await cpuMs(() => runBatches(p.table, new RingSink()), 1);
  if (i >= WARMUPS) { baseline.push(b); table.push(t); } else { wall[0].pop(); wall[1].pop(); }
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
console.log(`${workload.id}: baseline ${median(baseline).toFixed(0)} ms CPU per pass (best ${Math.min(...baseline).toFixed(0)}), `
  + `batches() ${median(table).toFixed(0)} ms (best ${Math.min(...table).toFixed(0)}), ratio ${(median(baseline) / median(table)).toFixed(2)}; `
  + `wall-clock ms per pass ${median(wall[0]).toFixed(0)} / ${median(wall[1]).toFixed(0)}`);
