// The complete example of the Table API seed: filter a table of people down to the adults.
import { $, DataTypes, EnvironmentSettings, Row, TableEnvironment } from "../../src/index.js";

export function adults(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  const people = env.fromValues(
    DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("age", DataTypes.INT())),
    Row.of("Alice", 35),
    Row.of("Bob", 35),
    Row.of("Charlie", 2),
  );
  return people.filter($("age").isGreaterOrEqual(18)).select($("name"), $("age"));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await adults().execute().print();
}
