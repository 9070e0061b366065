/**
 * The built-in connectors' speed (`node --expose-gc --import tsx bench/builtin-sinks.ts [--rows N] [--runs N] [--only text]`):
 * W0's plan (every bid projected to {auction, bidder, price * 0.908, dateTime}) written with `executeInsert`
 * into `blackhole` and into `collection`, and a `datagen` table of the same four columns into `blackhole`,
 * each beside the internal path of the same W0 plan (the job stepped by hand into a ring, no connector):
 * the ratio (internal seconds / connector seconds, median of side-by-side pairs) shows what the connector
 * path costs. Used to check that the built-ins kept their speed when they moved onto the public connector API.
 */
import { $, CollectionSink, DataTypes, EnvironmentSettings, Schema, TableDescriptor, TableEnvironment } from "../src/index.js";
import { generateBids } from "./data.js";
import { runJob } from "./harness.js";
import { RingSink } from "./sink.js";
import { bidsTable } from "./source.js";

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const rows = arg("rows", 1_000_000);
const runs = arg("runs", 5);
/** `--only <text>`: the cases whose name contains it. */
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1]! : "";
const data = generateBids(rows);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const gc = (globalThis as { gc?: () => void }).gc;

const OUT = Schema.newBuilder().column("auction", DataTypes.INT()).column("bidder", DataTypes.INT())
  .column("price", DataTypes.DOUBLE()).column("dateTime", DataTypes.TIMESTAMP(3)).build();

function w0(env: TableEnvironment) {
  return bidsTable(env, data).select($("auction"), $("bidder"), $("price").times(0.908).as("price"), $("dateTime"));
}

async function time(f: () => unknown): Promise<number> {
  gc?.();
  const t = performance.now();
  await f();
  return (performance.now() - t) / 1000;
}

const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());

const cases: { name: string; run: () => Promise<unknown> }[] = [
  { name: "W0 → blackhole", run: () => { const env = streaming(); env.createTemporaryTable("out", TableDescriptor.forConnector("blackhole").schema(OUT).build()); return w0(env).executeInsert("out").await(); } },
  { name: "W0 → collection", run: () => { const env = streaming(); env.createTemporaryTable("out", new CollectionSink().descriptor(OUT)); return w0(env).executeInsert("out").await(); } },
  {
    name: "datagen → blackhole",
    run: () => {
      const env = streaming();
      env.createTemporaryTable("gen", TableDescriptor.forConnector("datagen").schema(OUT).option("number-of-rows", String(rows))
        .option("rows-per-second", "1000000000").option("seed", "1").option("fields.auction.min", "0").option("fields.auction.max", "1000")
        .option("fields.bidder.min", "0").option("fields.bidder.max", "1000").option("fields.price.min", "0").option("fields.price.max", "1000").build());
      env.createTemporaryTable("out", TableDescriptor.forConnector("blackhole").schema(OUT).build());
      return env.from("gen").executeInsert("out").await();
    },
  },
];

console.log(`${rows} rows, ${runs} runs (after one warm-up); ratio = internal W0 seconds / connector seconds, median of pairs`);
console.log("| case | connector M rows/s | internal W0 M rows/s | ratio |");
console.log("|---|---|---|---|");
for (const c of cases.filter((x) => x.name.includes(only))) {
  const table: number[] = [], internal: number[] = [];
  for (let r = 0; r <= runs; r++) {
    const t = await time(c.run);
    const i = await time(() => runJob(w0(streaming()), new RingSink()));
    if (r > 0) { table.push(t); internal.push(i); }
  }
  const ratio = median(table.map((t, k) => internal[k]! / t));
  console.log(`| ${c.name} | ${(rows / median(table) / 1e6).toFixed(2)} | ${(rows / median(internal) / 1e6).toFixed(2)} | ${ratio.toFixed(2)} |`);
}
