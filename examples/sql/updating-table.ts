// Seed 000 "Updating input tables", its SQL as written: a PTF whose table argument declares
// SUPPORT_UPDATES reads the updating COUNT(*) over VALUES 1, 2, 3, so the changes
// +I[1], -U[1], +U[2], -U[2], +U[3] enter the function. `f` writes each change's kind and value.
import { ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, TableEnvironment, tableArg } from "../../src/index.js";

export const f = ProcessTableFunction.define({
  name: "f",
  args: { table_arg: tableArg(ArgumentTrait.ROW_SEMANTIC_TABLE, ArgumentTrait.SUPPORT_UPDATES) },
  output: DataTypes.STRING(),
  eval(ctx, _state, { table_arg }) {
    ctx.collect(`${Row.kindOf(table_arg)}[${Object.values(table_arg).join(", ")}]`);
  },
});

export const UPDATING_TABLE_SQL = `WITH UpdatingTable AS (
SELECT COUNT(*) FROM (VALUES 1, 2, 3)
)
SELECT * FROM f(table_arg => TABLE UpdatingTable)`;

export function updatingTable(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  env.createFunction("f", f);
  return env.executeSql(UPDATING_TABLE_SQL);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await updatingTable().print();
}
