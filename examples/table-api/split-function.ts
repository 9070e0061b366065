// Seed 003, "테이블 함수": a TableFunction that splits a comma-separated string into one row per part,
// applied with joinLateral (and leftOuterJoinLateral, which keeps rows that produce nothing).
import { $, call, DataTypes, EnvironmentSettings, Row, TableEnvironment, TableFunction } from "../../src/index.js";

export const SplitFunction = TableFunction.define({
  name: "split",
  args: [DataTypes.STRING().notNull()],
  result: DataTypes.ROW(DataTypes.FIELD("f0", DataTypes.STRING().notNull())),
  eval(out, str) {
    // Java's String.split drops trailing empty strings; "".split(",") is [""]
    const parts = str.split(",");
    while (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
    for (const s of parts) out.collect(Row.of(s.trim()));
  },
});

function orders(env: TableEnvironment) {
  return env.fromValues(
    DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT().notNull()), DataTypes.FIELD("tags", DataTypes.STRING())),
    Row.of(1, "red, green"),
    Row.of(2, "blue"),
    Row.of(3, null),
  );
}

export function splitTags(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  // Use with joinLateral
  env.createTemporaryFunction("split", SplitFunction);
  return orders(env).joinLateral(call("split", $("tags")).as("tag"));
}

export function splitTagsKeepingAll(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  return orders(env).leftOuterJoinLateral(call(SplitFunction, $("tags")).as("tag"));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await splitTags().execute().print();
  await splitTagsKeepingAll().execute().print();
}
