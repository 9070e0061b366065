/**
 * First run against warm run: for each workload, a fresh process (no compiled code, no type feedback)
 * builds the plan and runs it once (the *first* run), then builds the same plan again and runs it five
 * more times in that process (the best of those is the *warm* run). Every run plans anew, so the warm
 * runs show what the code-generation cache and V8's warm code give a new job of the same plan.
 *
 * `node --import tsx bench/first-run.ts [--rows N] [--only W0,W2]`
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { generateBids } from "./data.js";
import { prepare, runJob } from "./harness.js";
import { RingSink } from "./sink.js";
import { WORKLOADS } from "./workloads/index.js";

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => { const i = args.indexOf(name); return i < 0 ? undefined : args[i + 1]; };
const rows = Number(opt("--rows") ?? 1_000_000);

function timeOne(id: string): { first: number; warm: number } {
  const workload = WORKLOADS.find((w) => w.id === id)!;
  const data = generateBids(rows);
  const run = () => {
    const p = prepare(workload, data);
    const t0 = performance.now();
    runJob(p.table, new RingSink());
    return performance.now() - t0;
  };
  const first = run();
  const warm = Math.min(...Array.from({ length: 5 }, run));
  return { first, warm };
}

const child = opt("--child");
if (child !== undefined) {
  process.stdout.write(JSON.stringify(timeOne(child)));
} else {
  const only = opt("--only")?.split(",");
  const ids = WORKLOADS.map((w) => w.id).filter((id) => !only || only.includes(id));
  console.log(`first run vs warm run, ${rows.toLocaleString("en-US")} bids, a fresh process per workload`);
  console.log("| id | first run ms | warm run ms | first / warm |");
  console.log("|:---|-------------:|------------:|-------------:|");
  for (const id of ids) {
    const out = execFileSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--child", id, "--rows", String(rows)], { encoding: "utf8" });
    const { first, warm } = JSON.parse(out) as { first: number; warm: number };
    console.log(`| ${id} | ${first.toFixed(0)} | ${warm.toFixed(0)} | ${(first / warm).toFixed(2)} |`);
  }
}
