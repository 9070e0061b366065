import { it } from "vitest";
import { $, DataTypes, EnvironmentSettings, Row, TableEnvironment } from "../src/index.js";
it("smoke", async () => {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.STRING()), DataTypes.FIELD("c", DataTypes.INT())),
    Row.of(2, "a", 6), Row.of(4, "b", 8), Row.of(6, "c", 10), Row.of(1, "a", 5), Row.of(3, "b", 7), Row.of(5, "c", 9));
  console.log(await t.orderBy($("a")).limit(3).execute().toChangelog());
  console.log(await t.topN(1, { partitionBy: [$("b")], orderBy: [$("c")], rowNumber: "rn" }).execute().toChangelog());
  console.log(t.topN(1, { partitionBy: [$("b")], orderBy: [$("c")], rowNumber: "rn" }).explain());
  console.log(await t.limit(3).execute().toChangelog());
  console.log(await t.deduplicate({ keys: [$("b")], keep: "last" }).execute().toChangelog());
  console.log(await t.select($("b")).minus(t.select($("b")).limit(1)).execute().toChangelog());
});
