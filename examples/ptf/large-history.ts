// Seed 000 "Large State": a MapView keeps an event history per user; entries are read and written one
// at a time, not the whole map per call.
import {
  $, ArgumentTrait, DataTypes, EnvironmentSettings, mapView, type PositionalRow, ProcessTableFunction, Row, TableEnvironment, tableArg,
} from "../../src/index.js";

export const LargeHistoryFunction = ProcessTableFunction.define({
  name: "LargeHistoryFunction",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { largeMemory: mapView(DataTypes.STRING(), DataTypes.INT()) },
  output: DataTypes.STRING(),
  eval(ctx, { largeMemory }, { input }) {
    const eventId = input.eventId as string;
    const count = largeMemory.get(eventId);
    if (count === null) {
      largeMemory.put(eventId, 1);
    } else {
      if (count > 1000) ctx.collect(`Anomaly detected: ${eventId}`);
      largeMemory.put(eventId, count + 1);
    }
  },
});

/** User u1 sends event e1 1003 times (the last two are anomalies) and a few others. */
export function largeHistory(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  const rows: PositionalRow[] = [Row.of("u2", "e1"), Row.of("u1", "e2")];
  for (let i = 0; i < 1003; i++) rows.push(Row.of("u1", "e1"));
  rows.push(Row.of("u2", "e1"));
  const events = env.fromValues(
    DataTypes.ROW(DataTypes.FIELD("userId", DataTypes.STRING()), DataTypes.FIELD("eventId", DataTypes.STRING())),
    ...rows,
  );
  return events.partitionBy($("userId")).process(LargeHistoryFunction);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await largeHistory().execute().print();
}
