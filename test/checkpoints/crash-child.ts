// A job run in a child process by crash-restart.test.ts: a paced datagen sequence through a PTF that counts
// rows per key, written into a CSV filesystem table, with a checkpoint every 250 records. Run as
// `node --import tsx crash-child.ts <sink dir> <checkpoint dir> fresh|restore`.
import {
  $, ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, Schema, TableDescriptor, TableEnvironment, tableArg, valueState,
} from "../../src/index.js";

const [sinkDir, checkpointDir, mode] = process.argv.slice(2) as [string, string, string];
export const ROWS = 3000;

const Count = ProcessTableFunction.define({
  name: "Count",
  args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { seen: valueState<{ n: number | null }>({ n: null }) },
  output: DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT()), DataTypes.FIELD("n", DataTypes.INT())),
  eval(ctx, { seen }, { r }) {
    seen.n = (seen.n ?? 0) + 1;
    ctx.collect({ id: (r as unknown as { id: number }).id, n: seen.n });
  },
});

const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
env.getConfig()
  .set("execution.checkpointing.interval-records", "250")
  .set("execution.checkpointing.dir", checkpointDir)
  .set("execution.checkpointing.num-retained", "2");
if (mode === "restore") env.getConfig().set("execution.savepoint.path", checkpointDir);
env.createTemporaryTable("ids", TableDescriptor.forConnector("datagen")
  .schema(Schema.newBuilder().column("id", DataTypes.INT()).build())
  .option("fields.id.kind", "sequence").option("fields.id.start", "1").option("fields.id.end", String(ROWS))
  .option("rows-per-second", "1500").build());
env.createTemporaryTable("out", TableDescriptor.forConnector("filesystem")
  .schema(Schema.newBuilder().column("k", DataTypes.INT()).column("id", DataTypes.INT()).column("n", DataTypes.INT()).build())
  .option("path", sinkDir).option("format", "csv").build());
const keyed = env.from("ids").select($("id").mod(5).as("k"), $("id"));
await env.fromCall(Count, keyed.partitionBy($("k")).asArgument("r")).executeInsert("out").await();
process.stdout.write("done\n");
