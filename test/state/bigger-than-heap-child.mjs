// A job whose PTF value state is bigger than the child's heap, run by bigger-than-heap.test.ts with
// `node --max-old-space-size=64` (plain JavaScript, so it runs on the built package without a loader):
//
//   node --max-old-space-size=64 bigger-than-heap-child.mjs <entry> before <backend> <N> <local dir> <checkpoint dir> <savepoint dir>
//   node --max-old-space-size=64 bigger-than-heap-child.mjs <entry> after  <backend> <N> <local dir> <savepoint path>
//
// `before` feeds the keys 0 … N-1 once through a PTF counting rows per key in value state (a full
// checkpoint after 60 % of them), and once all N rows are out stops the job with a savepoint; `after` starts
// from that savepoint and feeds the keys 0 … N-1 again, to their end. Each prints `<rows> <checksum>` (the sum of key × count
// over its rows); `before` adds the savepoint's path.
const [entry, phase, backend, keysText, localDir, ...dirs] = process.argv.slice(2);
const { $, ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, Schema, TableEnvironment, tableArg, valueState } = await import(entry);
const N = Number(keysText);
// one checkpoint, after 60 % of the keys (the next would be due past the end of the input)
const checkpointEvery = Math.floor(N * 0.6);

const Count = ProcessTableFunction.define({
  name: "Count",
  args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { c: valueState({ n: 0 }) },
  output: DataTypes.BIGINT().notNull(),
  eval(ctx, { c }) { ctx.collect(++c.n); },
});

const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
env.getConfig().set("state.backend.type", backend).set("state.backend.local-dir", localDir)
  // the write-back cache holds 10,000 values: a few MB of the 64 MB heap
  .set("state.backend.cache-size", "10000");
if (phase === "before") env.getConfig().set("execution.checkpointing.interval-records", String(checkpointEvery)).set("execution.checkpointing.dir", dirs[0]);
else env.getConfig().set("execution.savepoint.path", dirs[0]);

/** The keys 0 … N-1 as rows; in `before`, the source then stays open (the job is stopped by the savepoint). */
async function* keysOpenEnded() {
  for (let k = 0; k < N; k++) yield Row.of(k);
  await new Promise(() => { /* until the job stops */ });
}
function* keys() {
  for (let k = 0; k < N; k++) yield Row.of(k);
}

const schema = Schema.newBuilder().column("k", DataTypes.INT()).build();
const input = env.fromAsyncIterable(schema, phase === "before" ? keysOpenEnded() : keys(), { name: "keys" });
const result = env.fromCall(Count, input.partitionBy($("k")).asArgument("r")).execute();
let rows = 0;
let checksum = 0n;
let savepoint;
for await (const batch of result.batches()) {
  for (const r of batch) {
    rows++;
    checksum += BigInt(r.k) * BigInt(r.EXPR$0);
  }
  if (phase === "before" && rows === N && savepoint === undefined) savepoint = result.getJobClient().stopWithSavepoint(dirs[1]);
}
process.stdout.write(phase === "before" ? `${rows} ${checksum} ${await savepoint}\n` : `${rows} ${checksum}\n`);
