// Seed 003, "내장 함수": string, math and temporal built-in functions.
import { $, DataTypes, EnvironmentSettings, Row, TableEnvironment, TimeIntervalUnit } from "../../src/index.js";

export function products(env: TableEnvironment) {
  return env.fromValues(
    DataTypes.ROW(
      DataTypes.FIELD("name", DataTypes.STRING()),
      DataTypes.FIELD("price", DataTypes.DOUBLE()),
      DataTypes.FIELD("created_at", DataTypes.TIMESTAMP(3)),
    ),
    Row.of("lamp", 19.999, "2025-03-27 07:38:31.134"),
    Row.of("desk", 149.5, "2025-03-28 16:05:00"),
    Row.of("chair", null, null),
  );
}

export function functions(env: TableEnvironment) {
  return products(env).select(
    $("name").upperCase(), // String functions
    $("price").round(2), // Math functions
    $("created_at").extract(TimeIntervalUnit.HOUR), // Temporal functions
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await functions(TableEnvironment.create(EnvironmentSettings.inStreamingMode())).execute().print();
}
