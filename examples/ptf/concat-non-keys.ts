// Seed 000 "Context": the Context gives the PARTITION BY columns of a table argument; the function
// concatenates the other columns.
import { $, ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, TableEnvironment, tableArg } from "../../src/index.js";

export const ConcatNonKeysFunction = ProcessTableFunction.define({
  name: "ConcatNonKeysFunction",
  args: { inputTable: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  output: DataTypes.STRING(),
  eval(ctx, _state, { inputTable }) {
    const semantics = ctx.tableSemanticsFor("inputTable");
    const keys = semantics.partitionByColumns();
    const columns = semantics.dataType().fields.map((f) => f.name);
    ctx.collect(columns.filter((_, pos) => !keys.includes(pos)).map((c) => String(inputTable[c])).join(", "));
  },
});

export function concatNonKeys(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  const customers = env.fromValues(
    DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("city", DataTypes.STRING()), DataTypes.FIELD("visits", DataTypes.INT())),
    Row.of("Bob", "London", 3), Row.of("Alice", "Berlin", 7), Row.of("Bob", "Paris", 1),
  );
  return customers.partitionBy($("name")).process(ConcatNonKeysFunction);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await concatNonKeys().execute().print();
}
