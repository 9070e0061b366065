// A user module that exports a PTF, an expression helper and a table: compiled with declaration: true.
import { $, ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, TableEnvironment, scalarArg, tableArg, valueState } from "tablestream";

export const Threshold = ProcessTableFunction.define({
  name: "Threshold",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE), limit: scalarArg(DataTypes.INT().notNull()) },
  state: { seen: valueState({ n: 0 }) },
  output: DataTypes.ROW(DataTypes.FIELD("n", DataTypes.INT()), DataTypes.FIELD("over", DataTypes.BOOLEAN())),
  eval(ctx, { seen }, { limit }) {
    seen.n++;
    ctx.collect({ n: seen.n, over: seen.n > limit });
  },
});

export const nextAge = $("age").plus(1).as("next");

export const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
export const people = env.fromValues(
  DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("age", DataTypes.INT())),
  Row.of("Alice", 35), Row.of("Bob", 12), Row.of("Alice", 40),
);
export const older = people.select($("name"), nextAge);
export const counted = people.partitionBy($("name")).process(Threshold, 1);

// batch: a final aggregate (kind Batch) exported, and a typed handle
export const batchEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
export const totals = batchEnv.fromValues(
  DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("age", DataTypes.INT())), Row.of("Alice", 35),
).groupBy($("name")).select($("name"), $("age").sum().as("total"));
export const peopleView = env.createTemporaryView("People", people);
