// Seed 000 "Time and Timers" — PingLaterFunction: one minute after the last event of a key, send a ping.
// Re-registering the named timer "ping" replaces it, so each new event resets the minute.
import { $, ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, Schema, TableEnvironment, descriptor, tableArg } from "../../src/index.js";

export const PingLaterFunction = ProcessTableFunction.define({
  name: "PingLaterFunction",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.REQUIRE_ON_TIME) },
  output: DataTypes.STRING(),
  eval(ctx) {
    const timeCtx = ctx.timeContext();
    // replaces an existing timer and thus resets the minute
    timeCtx.registerOnTime("ping", timeCtx.time()!.getTime() + 60_000);
  },
  onTimer(ctx) {
    ctx.collect("ping");
  },
});

const at = (hms: string) => new Date(`2025-03-26T${hms}Z`);

/** Events (ts TIMESTAMP_LTZ(3), id STRING, val INT, WATERMARK FOR ts AS ts - INTERVAL '2' SECONDS). */
export function events(env: TableEnvironment) {
  const schema = Schema.newBuilder()
    .column("ts", DataTypes.TIMESTAMP_LTZ(3)).column("id", DataTypes.STRING()).column("val", DataTypes.INT())
    .watermark("ts", "ts - INTERVAL '2' SECOND")
    .build();
  return env.fromValues(schema,
    Row.of(at("16:55:00"), "a", 1), Row.of(at("16:55:10"), "b", 2), Row.of(at("16:55:30"), "a", 3), Row.of(at("16:57:00"), "c", 4));
}

export function pingLater(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  return events(env).partitionBy($("id")).process(PingLaterFunction, descriptor("ts").asArgument("on_time"));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await pingLater().execute().print();
}
