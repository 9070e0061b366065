// Seed 000 "Changelog filtering" (ToChangelogFunction): a PTF turns an updating table into an
// append-only one. The aggregation's changes arrive with their kind; the function writes the kind into a
// column, so later operations (here a filter on the flag) see inserts only.
import { $, ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, type RowKind, TableEnvironment, tableArg } from "../../src/index.js";

/** Flink's `RowKind.toString()`: the kind's name. */
const KIND_NAME: Record<RowKind, string> = { "+I": "INSERT", "-U": "UPDATE_BEFORE", "+U": "UPDATE_AFTER", "-D": "DELETE" };

export const ToChangelogFunction = ProcessTableFunction.define({
  name: "ToChangelogFunction",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.SUPPORT_UPDATES) },
  output: DataTypes.ROW(DataTypes.FIELD("flag", DataTypes.STRING()), DataTypes.FIELD("sum", DataTypes.INT())),
  eval(ctx, _state, { input }) {
    // forwards the sum column and includes the row's kind as a string column
    ctx.collect(Row.of(KIND_NAME[Row.kindOf(input)], input.sum));
  },
});

export function toChangelog(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  const data = env.fromValues(Row.of("Bob", 23), Row.of("Alice", 42), Row.of("Alice", 2)).as("name", "score");
  // not windowed and unbounded: the aggregation is an updating table
  const aggregated = data.groupBy($("name")).select($("name"), $("score").sum().as("sum"));
  // the PTF makes it insert-only; PARTITION BY name is the upsert key, so updates arrive without -U
  const changelog = aggregated.partitionBy($("name")).process(ToChangelogFunction);
  // event-driven applications can filter on certain CDC events
  return changelog.filter($("flag").in("INSERT", "UPDATE_AFTER"));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await toChangelog().execute().print();
}
