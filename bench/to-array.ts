/**
 * `toArray()` on one workload (default W0), ms per pass: what keeping every row costs.
 *
 *   node --expose-gc --import tsx bench/to-array.ts W0 [runs=7] [rows=1000000]
 */
import { generateBids } from "./data.js";
import { prepare } from "./harness.js";
import { WORKLOADS } from "./workloads/index.js";

const [id = "W0", runsArg = "7", rowsArg = "1000000"] = process.argv.slice(2);
const workload = WORKLOADS.find((w) => w.id === id.toUpperCase());
if (!workload) throw new Error(`unknown workload ${id}; known: ${WORKLOADS.map((w) => w.id).join(", ")}`);
const p = prepare(workload, generateBids(Number(rowsArg)));
const gc = (globalThis as { gc?: () => void }).gc;
const times: number[] = [];
let n = 0;
for (let i = 0; i < Number(runsArg); i++) {
  gc?.();
  const t0 = performance.now();
  n = (await p.table.execute().toArray()).length;
  times.push(performance.now() - t0);
}
console.log(`${workload.id} toArray(): ${n} rows; ms per pass ${times.map((t) => t.toFixed(0)).join(" ")}`);
