/**
 * Where a workload allocates, per pass: V8's sampling heap profiler (through the inspector, counting objects
 * that were already collected again, i.e. all allocations, not only what is alive at the end) over two warm
 * passes, summed by the function that allocated. Bytes allocated do not depend on the machine's load, so
 * this compares the engine with the baseline, and a change with the code before it, on a noisy machine.
 *
 * `node --import tsx bench/alloc-profile.ts W6 [--batches | --baseline] [--rows N] [--top 15]`
 *
 * Without a flag: the internal job path; `--batches`: `execute().batches()`; `--baseline`: the hand-written loop.
 * Inlined functions are attributed to themselves; `:2` lines are generated code (TABLESTREAM_DUMP_CODEGEN).
 */
import { Session } from "node:inspector/promises";
import { generateBids } from "./data.js";
import { prepare, runBatches, runJob } from "./harness.js";
import { RingSink } from "./sink.js";
import { WORKLOADS } from "./workloads/index.js";

interface ProfileNode { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children?: ProfileNode[] }

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => { const i = args.indexOf(name); return i < 0 ? undefined : args[i + 1]; };
const id = (args.find((a) => !a.startsWith("--") && a !== opt("--rows") && a !== opt("--top")) ?? "W0").toUpperCase();
const workload = WORKLOADS.find((w) => w.id === id);
if (!workload) throw new Error(`unknown workload ${id}; known: ${WORKLOADS.map((w) => w.id).join(", ")}`);
const rows = Number(opt("--rows") ?? 1_000_000);
const side = args.includes("--baseline") ? "baseline" : args.includes("--batches") ? "batches()" : "internal";
const data = generateBids(rows);
const p = prepare(workload, data);
const run = async (): Promise<void> => {
  if (side === "baseline") workload.baseline(data.objects, new RingSink());
  else if (side === "batches()") await runBatches(p.table, new RingSink());
  else runJob(p.table, new RingSink());
};
for (let i = 0; i < 6; i++) await run(); // warm: optimised code allocates what it will keep allocating

const PASSES = 2;
const session = new Session();
session.connect();
await session.post("HeapProfiler.enable");
// the two include* options are V8's (DevTools protocol), not yet in Node's type declarations
await session.post("HeapProfiler.startSampling", { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as object);
for (let i = 0; i < PASSES; i++) await run();
const { profile } = (await session.post("HeapProfiler.stopSampling")) as unknown as { profile: { head: ProfileNode } };
session.disconnect();

const bySite = new Map<string, number>();
let total = 0;
const walk = (n: ProfileNode): void => {
  if (n.selfSize > 0) {
    const f = n.callFrame;
    const site = `${f.functionName || "(anonymous)"} ${f.url.split("/").slice(-2).join("/")}:${f.lineNumber}`;
    bySite.set(site, (bySite.get(site) ?? 0) + n.selfSize);
    total += n.selfSize;
  }
  for (const c of n.children ?? []) walk(c);
};
walk(profile.head);
const perRow = (bytes: number) => (bytes / PASSES / rows).toFixed(1);
console.log(`${workload.id} ${side}: ${(total / PASSES / 1e6).toFixed(1)} MB allocated per pass of ${rows.toLocaleString("en-US")} bids (${perRow(total)} B per bid)`);
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, Number(opt("--top") ?? 15))) {
  console.log(`${(bytes / PASSES / 1e6).toFixed(2).padStart(9)} MB ${perRow(bytes).padStart(6)} B/bid  ${site}`);
}
