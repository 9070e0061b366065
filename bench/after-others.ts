/**
 * One workload's warm passes through `batches()` in a process that has first run other workloads — what a
 * service, a test suite or a notebook that runs many different plans in one process sees. Shared code whose
 * per-row call sites each new plan makes more polymorphic shows up as the difference between
 *
 *   npm run bench:after-others -- W4                     (alone)
 *   npm run bench:after-others -- W4 W0,W1,W2,W3,W6      (after 4 passes of each of those)
 *
 * Prints the median of passes 5-16 (ms). `--profile DIR` writes a .cpuprofile of those passes only (the
 * inspector around the timed passes; the warm-up workloads and the data generation are not in it).
 */
import { Session } from "node:inspector/promises";
import { mkdirSync, writeFileSync } from "node:fs";
import { generateBids } from "./data.js";
import { prepare, runBatches } from "./harness.js";
import { RingSink } from "./sink.js";
import { WORKLOADS } from "./workloads/index.js";

const args = process.argv.slice(2);
const profileAt = args.indexOf("--profile");
const profileDir = profileAt >= 0 ? args[profileAt + 1] : undefined;
const [id = "W4", before = ""] = args.filter((a, i) => !a.startsWith("--") && (profileAt < 0 || i !== profileAt + 1));
const find = (x: string) => {
  const w = WORKLOADS.find((w) => w.id === x.toUpperCase());
  if (w === undefined) throw new Error(`unknown workload ${x}; known: ${WORKLOADS.map((w) => w.id).join(", ")}`);
  return w;
};
const data = generateBids(1_000_000);
for (const other of before.split(",").filter(Boolean)) {
  const q = prepare(find(other), data);
  for (let i = 0; i < 4; i++) await runBatches(q.table, new RingSink());
}
const p = prepare(find(id), data);
const times: number[] = [];
const session = new Session();
for (let i = 0; i < 16; i++) {
  if (profileDir !== undefined && i === 4) {
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.start");
  }
  const t0 = performance.now();
  await runBatches(p.table, new RingSink());
  times.push(performance.now() - t0);
}
if (profileDir !== undefined) {
  const { profile } = await session.post("Profiler.stop");
  mkdirSync(profileDir, { recursive: true });
  writeFileSync(`${profileDir}/${id}.cpuprofile`, JSON.stringify(profile));
}
const warm = times.slice(4).sort((a, b) => a - b);
console.log(`${p.workload.id} after ${before || "nothing"}: ${warm[warm.length >> 1]!.toFixed(1)} ms a pass (median of passes 5-16)`);
