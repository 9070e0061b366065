// Seed 000 "Timers" — TimerFunction: wait for a second event of a key, or time out after 60 seconds.
// ctx.clearAll() on the second event clears the state and the pending "timeout" timer.
import { $, ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, Schema, TableEnvironment, descriptor, tableArg, valueState } from "../../src/index.js";

export const TimerFunction = ProcessTableFunction.define({
  name: "TimerFunction",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.REQUIRE_ON_TIME) },
  state: { memory: valueState<{ seen: string | null }>({ seen: null }) },
  output: DataTypes.STRING(),
  eval(ctx, { memory }, { input }) {
    const timeCtx = ctx.timeContext();
    if (memory.seen === null) {
      memory.seen = String(Object.values(input)[0]);
      timeCtx.registerOnTime("timeout", timeCtx.time()!.getTime() + 60_000);
    } else {
      ctx.collect(`Second event arrived for: ${memory.seen}`);
      ctx.clearAll();
    }
  },
  onTimer(ctx, { memory }) {
    ctx.collect(`Timeout for: ${memory.seen}`);
  },
});

export function timerFunction(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  const schema = Schema.newBuilder()
    .column("name", DataTypes.STRING()).column("ts", DataTypes.TIMESTAMP_LTZ(3))
    .watermark("ts", "ts - INTERVAL '1' SECOND")
    .build();
  const s = (sec: number) => new Date(Date.UTC(2025, 2, 27, 12, 0, sec));
  const events = env.fromValues(schema, Row.of("Bob", s(0)), Row.of("Alice", s(10)), Row.of("Bob", s(20)), Row.of("Charly", s(100)));
  return events.partitionBy($("name")).process(TimerFunction, descriptor("ts").asArgument("on_time"));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await timerFunction().execute().print();
}
