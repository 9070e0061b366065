/**
 * Profiles one workload's Table API side without the harness's forced GCs:
 *
 *   node --cpu-prof --import tsx bench/profile.ts W2 [runs=20] [rows=1000000] [--baseline | --batches]
 *
 * Without a flag: the internal job path; `--batches`: the public `execute().batches()` consumer;
 * `--columns`: `execute().columnBatches()`; `--columnar-baseline`: the workload's columnar baseline.
 *
 * then open the .cpuprofile in Chrome DevTools (or any cpuprofile viewer).
 */
import { generateBids } from "./data.js";
import { prepare, runBatches, runColumns, runJob } from "./harness.js";
import { ColumnRing, RingSink } from "./sink.js";
import { WORKLOADS } from "./workloads/index.js";

const [id = "W0", runsArg = "20", rowsArg = "1000000"] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const baseline = process.argv.includes("--baseline");
const batches = process.argv.includes("--batches");
const columns = process.argv.includes("--columns");
const columnarBaseline = process.argv.includes("--columnar-baseline");
const workload = WORKLOADS.find((w) => w.id === id.toUpperCase());
if (!workload) throw new Error(`unknown workload ${id}; known: ${WORKLOADS.map((w) => w.id).join(", ")}`);
const data = generateBids(Number(rowsArg));
const p = prepare(workload, data);
const times: number[] = [];
for (let i = 0; i < Number(runsArg); i++) {
  const sink = new RingSink();
  const t0 = performance.now();
  if (columnarBaseline) workload.columnarBaseline!(data.objects, new ColumnRing());
  else if (columns) await runColumns(p.table, new ColumnRing());
  else if (baseline) workload.baseline(data.objects, sink);
  else if (batches) await runBatches(p.table, sink);
  else runJob(p.table, sink);
  times.push(performance.now() - t0);
}
console.log(`${workload.id} ${columnarBaseline ? "columnar baseline" : columns ? "columnBatches()" : baseline ? "baseline" : batches ? "batches()" : "internal"}: ms per run ${times.map((t) => t.toFixed(0)).join(" ")}`);
