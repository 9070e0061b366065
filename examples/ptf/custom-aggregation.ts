// Seed 000 "Custom Aggregation": a PTF that emits updates (a ChangelogFunction). It sums the scores per
// name; a negative score invalidates the key's aggregate: the function retracts it with -D and ignores
// the key from then on.
import { $, ArgumentTrait, ChangelogMode, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, RowKind, TableEnvironment, tableArg, valueState } from "../../src/index.js";

export const CustomAggregation = ProcessTableFunction.define({
  name: "CustomAggregation",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { state: valueState({ sum: 0 }) },
  output: DataTypes.ROW(DataTypes.FIELD("sum", DataTypes.INT())),
  // the function produces updates encoded as retractions
  changelogMode: () => ChangelogMode.all(),
  eval(ctx, { state }, { input }) {
    const score = input.score as number;
    // a negative sum marks a key invalidated before
    if (state.sum === -1) return;
    if (score < 0) {
      // retract the key's result; all following operations and sinks remove it
      ctx.collect(Row.ofKind(RowKind.DELETE, state.sum));
      state.sum = -1;
    } else if (state.sum === 0) {
      // +I for the first valid result
      state.sum += score;
      ctx.collect(Row.ofKind(RowKind.INSERT, state.sum));
    } else {
      // -U with the old result, +U with the new one
      ctx.collect(Row.ofKind(RowKind.UPDATE_BEFORE, state.sum));
      state.sum += score;
      ctx.collect(Row.ofKind(RowKind.UPDATE_AFTER, state.sum));
    }
  },
});

export function customAggregation(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  const data = env.fromValues(Row.of("Bob", 23), Row.of("Alice", 42), Row.of("Alice", 2), Row.of("Bob", -1), Row.of("Bob", 45)).as("name", "score");
  return data.partitionBy($("name")).process(CustomAggregation);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await customAggregation().execute().print();
}
