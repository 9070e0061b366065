/**
 * Deoptimisations per job once warm: for each workload, a child process runs the same plan as a new job
 * `passes` times under `node --trace-deopt` and counts the deoptimisations V8 reports after the first
 * `warm` passes. A warm process should run a new job of a known plan without throwing away optimised code;
 * a count that grows with the passes means something a job makes afresh (a closure, an object of a new
 * shape) reaches code that was optimised for the previous job's. Unlike a time, the count does not
 * depend on the machine's load, so a change can be checked with it on a noisy machine.
 *
 * `node --import tsx bench/deopts.ts [--only W0,W8] [--batches | --columns | --collect] [--gc] [--passes 12] [--warm 3] [--verbose]`
 *
 * Without a consumer flag each job runs through the internal path (`job.step`); `--batches`:
 * `execute().batches()`, `--columns`: `execute().columnBatches()`, `--collect`: `execute().collect()`.
 * `--gc`: a full garbage collection before each job (as the bench does before each sample); it also counts
 * optimised code V8 marks for deoptimisation when objects it embedded die ("weak objects"): code that
 * outlives a job but was specialised to objects of a finished one. `--verbose` lists the function and reason
 * of each counted deoptimisation.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { generateBids } from "./data.js";
import { prepare, runBatches, runCollect, runColumns, runJob } from "./harness.js";
import { ColumnRing, RingSink } from "./sink.js";
import { WORKLOADS } from "./workloads/index.js";

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => { const i = args.indexOf(name); return i < 0 ? undefined : args[i + 1]; };
const consumer = args.includes("--batches") ? "execute().batches()" : args.includes("--columns") ? "execute().columnBatches()" : args.includes("--collect") ? "execute().collect()" : "internal path";
const passes = Number(opt("--passes") ?? 12);
const warm = Number(opt("--warm") ?? 3);
const PASS = "--deopts-pass";
const fullGc = args.includes("--gc");

async function child(id: string): Promise<void> {
  const workload = WORKLOADS.find((w) => w.id === id)!;
  const data = generateBids(Number(opt("--rows") ?? 1_000_000));
  const p = prepare(workload, data);
  for (let i = 0; i < passes; i++) {
    if (fullGc) (globalThis as { gc?: () => void }).gc!();
    if (consumer === "execute().batches()") await runBatches(p.table, new RingSink());
    else if (consumer === "execute().columnBatches()") await runColumns(p.table, new ColumnRing());
    else if (consumer === "execute().collect()") await runCollect(p.table, new RingSink());
    else runJob(p.table, new RingSink());
    console.log(`${PASS} ${i}`);
  }
}

/** The deoptimisations reported after pass `warm`, as "function: reason". */
function deoptsOf(id: string): string[] {
  const out = execFileSync(process.execPath, ["--trace-deopt", ...(fullGc ? ["--expose-gc"] : []), "--import", "tsx", fileURLToPath(import.meta.url), "--child", id, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
  const found: string[] = [];
  let pass = -1;
  for (const line of out.split("\n")) {
    if (line.startsWith(PASS)) pass = Number(line.slice(PASS.length));
    else if (pass >= warm - 1) {
      const m = /^\[bailout \(kind: [^,]+, reason: ([^)]*)\): begin\. deoptimizing 0x[0-9a-f]+ <JSFunction ([^ >]*)/.exec(line);
      if (m) found.push(`${m[2]}: ${m[1]}`);
      const w = /^\[marking dependent code 0x[0-9a-f]+ <Code [A-Z]+> \(0x[0-9a-f]+ <SharedFunctionInfo ([^>]*)>\).*reason: ([^\]]*)/.exec(line);
      if (w) found.push(`${w[1] || "(anonymous)"}: marked, ${w[2]}`);
    }
  }
  return found;
}

const childAt = args.indexOf("--child");
if (childAt >= 0) await child(args[childAt + 1]!);
else {
  const only = opt("--only")?.split(",").map((s) => s.toUpperCase());
  const ids = WORKLOADS.map((w) => w.id).filter((id) => only === undefined || only.includes(id));
  console.log(`deoptimisations in passes ${warm + 1}-${passes} (a new job per pass), ${consumer}`);
  console.log("| id | deopts |\n|:---|-------:|");
  for (const id of ids) {
    const d = deoptsOf(id);
    console.log(`| ${id} | ${d.length} |`);
    if (args.includes("--verbose")) for (const x of d) console.log(`|    | ${x} |`);
  }
}
