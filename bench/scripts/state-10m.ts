// 10M keys of PTF value state in a 512 MB heap (`npm run bench:state-10m`, docs/benchmarks.md): a W5-like
// job over many distinct keys — a datagen sequence 0 … 2N-1, keyed by `id mod N`, through a PTF counting
// rows per key in value state, so every key is seen twice (state for N keys at the end).
// Prints `<rows> <checksum>` (and its CPU time and maximum RSS on stderr): the count of output rows and the sum of key × count over them (exact:
// 3 × (0 + … + N-1)). test/state/bigger-than-heap.test.ts proves the same at 1M keys in a 64 MB heap.
// Run as `node --max-old-space-size=512 --import tsx bench/scripts/state-10m.ts <N> <backend> [local dir]`.
import {
  $, ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, Schema, TableDescriptor, TableEnvironment, tableArg, valueState,
} from "../../src/index.js";

const [keysText, backend, localDir] = process.argv.slice(2) as [string, string, string | undefined];
const N = Number(keysText);

const Count = ProcessTableFunction.define({
  name: "Count",
  args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { c: valueState({ n: 0 }) },
  output: DataTypes.BIGINT().notNull(),
  eval(ctx, { c }) { ctx.collect(++c.n); },
});

const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
env.getConfig().set("state.backend.type", backend);
if (localDir !== undefined) env.getConfig().set("state.backend.local-dir", localDir);
env.createTemporaryTable("ids", TableDescriptor.forConnector("datagen")
  .schema(Schema.newBuilder().column("id", DataTypes.BIGINT()).build())
  .option("fields.id.kind", "sequence").option("fields.id.start", "0").option("fields.id.end", String(2 * N - 1))
  // unpaced (datagen emits 10,000 rows per second by default, as in Flink)
  .option("rows-per-second", "1000000000").build());
const keyed = env.from("ids").select($("id").mod(N).as("k"));
let rows = 0;
let checksum = 0n;
for await (const batch of env.fromCall(Count, keyed.partitionBy($("k")).asArgument("r")).execute().batches()) {
  for (const r of batch) {
    const row = r as unknown as { k: number | bigint; EXPR$0: number | bigint };
    rows++;
    checksum += BigInt(row.k) * BigInt(row.EXPR$0);
  }
}
process.stdout.write(`${rows} ${checksum}\n`);
const use = process.resourceUsage();
process.stderr.write(`user ${(use.userCPUTime / 1e6).toFixed(0)} s, system ${(use.systemCPUTime / 1e6).toFixed(0)} s, max RSS ${(use.maxRSS / 1024).toFixed(0)} MB\n`);
