/**
 * First run against warm run: for each workload, a fresh process (no compiled code, no type feedback)
 * builds the plan and runs it once (the *first* run), then builds the same plan again and runs it five
 * more times in that process (the best of those is the *warm* run). Every run plans anew, so the warm
 * runs show what the code-generation cache and V8's warm code give a new job of the same plan.
 *
 * `node --import tsx bench/first-run.ts [--rows N] [--only W0,W2] [--batches]`
 *
 * Without `--batches` each run drives the job through the internal path (`job.step` into the ring); with it,
 * through the public API (`execute().batches()`, the bench's headline consumer).
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { generateBids } from "./data.js";
import { prepare, runBatches, runJob } from "./harness.js";
import { RingSink } from "./sink.js";
import { WORKLOADS } from "./workloads/index.js";

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => { const i = args.indexOf(name); return i < 0 ? undefined : args[i + 1]; };
const rows = Number(opt("--rows") ?? 1_000_000);

const batches = args.includes("--batches");

async function timeOne(id: string): Promise<{ first: number; warm: number }> {
  const workload = WORKLOADS.find((w) => w.id === id)!;
  const data = generateBids(rows);
  const run = async () => {
    const p = prepare(workload, data);
    const t0 = performance.now();
    if (batches) await runBatches(p.table, new RingSink());
    else runJob(p.table, new RingSink());
    return performance.now() - t0;
  };
  const first = await run();
  let warm = Infinity;
  for (let i = 0; i < 5; i++) warm = Math.min(warm, await run());
  return { first, warm };
}

const child = opt("--child");
if (child !== undefined) {
  process.stdout.write(JSON.stringify(await timeOne(child)));
} else {
  const only = opt("--only")?.split(",");
  const ids = WORKLOADS.map((w) => w.id).filter((id) => !only || only.includes(id));
  console.log(`first run vs warm run, ${rows.toLocaleString("en-US")} bids, a fresh process per workload, ${batches ? "execute().batches()" : "internal path"}`);
  console.log("| id | first run ms | warm run ms | first / warm |");
  console.log("|:---|-------------:|------------:|-------------:|");
  for (const id of ids) {
    const out = execFileSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--child", id, "--rows", String(rows), ...(batches ? ["--batches"] : [])], { encoding: "utf8" });
    const { first, warm } = JSON.parse(out) as { first: number; warm: number };
    console.log(`| ${id} | ${first.toFixed(0)} | ${warm.toFixed(0)} | ${(first / warm).toFixed(2)} |`);
  }
}
