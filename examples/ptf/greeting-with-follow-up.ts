// Seed 000 "Greeting with Follow Up": greet every customer and follow up one minute later with an
// unnamed timer. The Names table of the seed (datagen) as a bounded table with the same schema.
import { $, ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, Schema, TableEnvironment, descriptor, tableArg, valueState } from "../../src/index.js";

export const GreetingWithFollowUp = ProcessTableFunction.define({
  name: "GreetingWithFollowUp",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { state: valueState<{ name: string | null; counter: number }>({ name: null, counter: 0 }) },
  output: DataTypes.STRING(),
  eval(ctx, { state }, { input }) {
    state.name = input.name as string;
    state.counter++;
    ctx.collect(`Hello ${state.name}, your ${state.counter} time?`);
    const timeCtx = ctx.timeContext();
    timeCtx.registerOnTime(timeCtx.time()!.getTime() + 60_000);
  },
  onTimer(ctx, { state }) {
    ctx.collect(`Hello ${state.name}, I hope you enjoyed your stay! Please let us know if there's anything we could have done better.`);
  },
});

/** Names (ts TIMESTAMP_LTZ(3), random INT, name AS IF(random % 2 = 0, 'Bob', 'Alice'), WATERMARK ts - 1 s). */
export function names(env: TableEnvironment) {
  const schema = Schema.newBuilder()
    .column("ts", DataTypes.TIMESTAMP_LTZ(3))
    .column("random", DataTypes.INT())
    .columnByExpression("name", "CASE WHEN random % 2 = 0 THEN 'Bob' ELSE 'Alice' END")
    .watermark("ts", "ts - INTERVAL '1' SECOND")
    .build();
  const s = (sec: number) => new Date(Date.UTC(2025, 2, 27, 7, 38, sec));
  return env.fromValues(schema, Row.of(s(31), 2), Row.of(s(32), 4), Row.of(s(33), 7), Row.of(s(34), 9));
}

export function greetingWithFollowUp(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  return names(env).partitionBy($("name")).process(GreetingWithFollowUp, descriptor("ts").asArgument("on_time"));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await greetingWithFollowUp().execute().print();
}
