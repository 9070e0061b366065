// Seed 000 "Arguments": a set-semantics table argument named input_table (polymorphic: any row) and a
// scalar argument threshold. The function reads the amount column of whatever table it is given.
import {
  $, ArgumentTrait, DataTypes, EnvironmentSettings, lit, ProcessTableFunction, Row, scalarArg, TableEnvironment, tableArg,
} from "../../src/index.js";

export const ThresholdFunction = ProcessTableFunction.define({
  name: "ThresholdFunction",
  args: {
    input_table: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE),
    threshold: scalarArg(DataTypes.INT()),
  },
  output: DataTypes.INT(),
  eval(ctx, _state, { input_table, threshold }) {
    const amount = input_table.amount as number;
    if (threshold !== null && amount >= threshold) ctx.collect(amount);
  },
});

export function thresholdFunction(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  const orders = env.fromValues(
    DataTypes.ROW(DataTypes.FIELD("customer", DataTypes.STRING()), DataTypes.FIELD("amount", DataTypes.INT())),
    Row.of("Bob", 5), Row.of("Alice", 50), Row.of("Bob", 20), Row.of("Alice", 9), Row.of("Charly", 10),
  );
  return orders.partitionBy($("customer")).process(ThresholdFunction, lit(10).asArgument("threshold"));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await thresholdFunction().execute().print();
}
