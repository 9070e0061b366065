/**
 * `npm run bench`: every workload of bench/workloads/ through the public API (`execute().batches()`; also
 * `collect()` and the internal job path as further columns) and as a hand-written loop in the same process, reported as rows/s (median of several samples after warm-up) and their ratio
 * (median of the ratios of samples taken side by side).
 *
 *   npm run bench -- --rows 5000000 --runs 7 --only W0,W2 --no-collect
 *
 * The gates print PASS/FAIL but never fail the process: timings on shared machines are too noisy for CI.
 */
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { describeBids, generateBids } from "./data.js";
import { type BenchOptions, type WorkloadResult, measure, median, passesFor, prepare, warmUp } from "./harness.js";
import { WORKLOADS } from "./workloads/index.js";
import { measureSql, parserMillis, SQL_TWINS } from "./sql.js";
import { runConnectorBench } from "./connectors.js";
import { diskRatio, runStateBench } from "./state-backends.js";

const { values: args } = parseArgs({
  options: {
    rows: { type: "string", default: "1000000" },
    runs: { type: "string", default: "7" },
    warmups: { type: "string", default: "2" },
    seed: { type: "string", default: "42" },
    only: { type: "string" },
    "min-sample": { type: "string", default: "100" },
    "no-collect": { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
    "connector-rows": { type: "string", default: "1000000" },
    "pglite-rows": { type: "string", default: "100000" },
    "connector-runs": { type: "string", default: "3" },
    "no-connectors": { type: "boolean", default: false },
    "connectors-only": { type: "boolean", default: false },
    "sql-only": { type: "boolean", default: false },
    "no-state": { type: "boolean", default: false },
    "state-only": { type: "boolean", default: false },
    disk: { type: "boolean", default: false },
    "cache-size": { type: "string" },
    help: { type: "boolean", default: false },
  },
});

if (args.help) {
  console.log("npm run bench -- [--rows N=1000000] [--runs N=7] [--warmups N=2] [--seed N=42] [--only W0,W2]\n"
    + "                    [--min-sample MS=100] [--no-collect] [--verbose]\n"
    + "                    [--connector-rows N=1000000] [--pglite-rows N=100000] [--connector-runs N=3] [--no-connectors | --connectors-only]\n"
    + "                    [--sql-only]   (only the SQL twins of the chosen workloads and the parser: npm run bench -- --only W3 --sql-only)\n"
    + "                    [--no-state | --state-only]\n"
    + "                    [--disk [--cache-size N]] (only the chosen workloads on state.backend.type = disk against their baselines: npm run bench -- --only W3 --disk)");
  process.exit(0);
}

function positiveInt(name: string, v: string | undefined): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive integer, got ${v}`);
  return n;
}

const connectorBench = () => runConnectorBench({
  rows: positiveInt("connector-rows", args["connector-rows"]), pgliteRows: positiveInt("pglite-rows", args["pglite-rows"]), runs: positiveInt("connector-runs", args["connector-runs"]),
});
if (args["connectors-only"]) {
  await connectorBench();
  process.exit(0);
}

const rows = positiveInt("rows", args.rows);
const options: BenchOptions = {
  runs: positiveInt("runs", args.runs),
  warmups: positiveInt("warmups", args.warmups),
  collect: !args["no-collect"],
  minSampleSeconds: positiveInt("min-sample", args["min-sample"]) / 1000,
};
const only = args.only?.split(",").map((s) => s.trim().toUpperCase());
const workloads = only ? WORKLOADS.filter((w) => only.includes(w.id)) : WORKLOADS;
if (workloads.length === 0) throw new Error(`--only ${args.only}: no such workload; known: ${WORKLOADS.map((w) => w.id).join(", ")}`);

const started = performance.now();
const data = generateBids(rows, positiveInt("seed", args.seed));
if (args.disk) {
  for (const w of workloads) {
    const cache = args["cache-size"] === undefined ? undefined : positiveInt("cache-size", args["cache-size"]);
    const r = diskRatio(w, data, positiveInt("runs", args.runs), cache);
    console.log(`${w.id} on the disk backend${cache === undefined ? "" : ` (state.backend.cache-size ${cache})`} (internal path): baseline ${r.baseline.toFixed(2)} M rows/s, table ${r.table.toFixed(2)} M rows/s, ratio ${r.ratio.toFixed(2)}`);
  }
  process.exit(0);
}
if (args["state-only"]) {
  runStateBench(data, positiveInt("runs", args.runs));
  process.exit(0);
}
const d = describeBids(data);
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
console.log(`tablestream bench: ${fmt(d.rows)} bids (seed ${data.seed}; ${fmt(d.auctions)} auctions, ${fmt(d.bidders)} bidders, `
  + `${d.eventSeconds.toFixed(1)} s of event time, out of order by at most ${d.maxDisorderMs} ms)`);
const load = () => loadavg().map((l) => l.toFixed(1)).join(" ");
console.log(`node ${process.version}, ${cpus().length} cores, load average ${load()}; median of ${options.runs} samples (each ≥ ${options.minSampleSeconds * 1000} ms of baseline work) after ${options.warmups} warm-up rounds`
  + `${(globalThis as { gc?: unknown }).gc ? "" : " (no --expose-gc: state size not measured)"}\n`);

if (args["sql-only"]) {
  sqlTwins();
  process.exit(0);
}

// Plans are built before any clock starts; every workload is warmed up before any is measured, so the
// shared code paths are measured in the state a long-running process with several queries has.
const prepared = workloads.map((w) => prepare(w, data));
const passTimes = prepared.map(() => Infinity);
for (let i = 0; i < options.warmups; i++) {
  for (const [j, p] of prepared.entries()) passTimes[j] = Math.min(passTimes[j]!, await warmUp(p, data, options));
}

const results: WorkloadResult[] = [];
for (const [j, p] of prepared.entries()) {
  results.push(await measure(p, data, options, passesFor(passTimes[j]!, options)));
  process.stdout.write(".");
}
process.stdout.write("\n\n");

const mrows = (secs: number[]) => (secs.length === 0 ? NaN : rows / median(secs) / 1e6);
const header = ["id", "like", "outputs", "baseline M rows/s", "batches() M rows/s", "ratio", "gate", "", "best/best",
  ...(options.collect ? ["collect() M rows/s", "ratio"] : []), "columnar baseline M rows/s", "columnBatches() M rows/s", "ratio",
  "internal M rows/s", "ratio", "end of input", "state B/entry (table / baseline)"];
const lines = results.map((r) => {
  const b = mrows(r.baseline), t = mrows(r.table), c = mrows(r.collect), n = mrows(r.internal);
  // each table sample ran right after its baseline sample: the median of the pairs' ratios cancels the
  // drift of a shared machine better than the ratio of the two medians
  const ratio = median(r.table.map((secs, i) => r.baseline[i]! / secs));
  return [r.workload.id, r.workload.like, fmt(r.outputs), b.toFixed(2), t.toFixed(2), ratio.toFixed(2), `≥${r.workload.gate}`,
    ratio >= r.workload.gate ? "PASS" : "FAIL",
    // the fastest sample of each side: noise only ever adds time, so this is the steadier figure on a busy machine
    (Math.min(...r.baseline) / Math.min(...r.table)).toFixed(2),
    ...(options.collect ? [c.toFixed(2), median(r.collect.map((secs, i) => r.baseline[i]! / secs)).toFixed(2)] : []),
    ...(r.columnar.length === 0 ? ["", "", ""] : [mrows(r.columnarBaseline).toFixed(2), mrows(r.columnar).toFixed(2),
      median(r.columnar.map((secs, i) => r.columnarBaseline[i]! / secs)).toFixed(2)]),
    n.toFixed(2), median(r.internal.map((secs, i) => r.baseline[i]! / secs)).toFixed(2),
    `${((100 * median(r.end)) / median(r.internal)).toFixed(1)}%`,
    r.state ? `${r.state.tableBytes.toFixed(0)} / ${r.state.baselineBytes.toFixed(0)} (${fmt(r.state.entries)} keys)` : "",
  ];
});
printTable(header, lines);
for (const r of results) console.log(`${r.workload.id}: ${r.workload.description}`);
console.log(`\nspread of the samples (min–max M rows/s): ${results.map((r) => `${r.workload.id} baseline ${range(r.baseline)}, batches() ${range(r.table)}, internal ${range(r.internal)} (${r.passes} passes/sample)`).join("; ")}`);
if (args.verbose) {
  for (const r of results) {
    const list = (xs: number[]) => xs.map((x) => (rows / x / 1e6).toFixed(1)).join(" ");
    console.log(`${r.workload.id} M rows/s per sample: baseline ${list(r.baseline)} | batches() ${list(r.table)} | internal ${list(r.internal)}${r.collect.length ? ` | collect() ${list(r.collect)}` : ""}`
      + `${r.columnar.length ? ` | columnar baseline ${list(r.columnarBaseline)} | columnBatches() ${list(r.columnar)}` : ""}`);
  }
}
sqlTwins();
console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s; load average now ${load()} (other work on the machine skews the figures)`);

function range(secs: number[]): string {
  return `${(rows / Math.max(...secs) / 1e6).toFixed(1)}–${(rows / Math.min(...secs) / 1e6).toFixed(1)}`;
}

function printTable(head: string[], body: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((l) => l[i]!.length)));
  const row = (cells: string[]) => `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ")} |`;
  console.log(row(head));
  console.log(`|${widths.map((w, i) => (i < 2 ? ":" + "-".repeat(w + 1) : "-".repeat(w + 1) + ":")).join("|")}|`);
  for (const l of body) console.log(row(l));
  console.log();
}

if (!args["no-state"]) runStateBench(data, options.runs);
if (!args["no-connectors"]) await connectorBench();

/** The chosen workloads written as SQL (the same plans, so the ratio should be 1.0), and the parser's time. */
function sqlTwins(): void {
  console.log("\nSQL twins (env.sqlQuery over the view Bids) against the Table API plans, internal path, samples side by side:");
  for (const w of workloads) {
    if (SQL_TWINS[w.id] === undefined) continue;
    const r = measureSql(w, data, options.runs);
    console.log(r.ratio === undefined
      ? `${w.id}: SQL not run: ${r.skipped}`
      : `${w.id}: SQL ${r.sqlRows!.toFixed(2)} M rows/s, Table API ${r.apiRows!.toFixed(2)} M rows/s, SQL/Table API ratio ${r.ratio.toFixed(2)}`);
  }
  const parse = parserMillis(9);
  console.log(`parser: a ${fmt(parse.lines)}-line statement set (${fmt(parse.chars)} characters) parses in ${parse.ms.toFixed(1)} ms (median of 9)\n`);
}
