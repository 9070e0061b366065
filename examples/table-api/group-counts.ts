// Seed 003, "집계 및 그룹화" and "Changelog 이해하기": an unbounded GROUP BY produces an updating table.
import { $, DataTypes, EnvironmentSettings, Row, TableEnvironment } from "../../src/index.js";
import { orders } from "./orders.js";

export function productTotals(env: TableEnvironment) {
  return orders(env)
    .groupBy($("product"))
    .select($("product"), $("amount").sum().as("total_sold"), $("product").count().as("order_count"));
}

/** Three orders for "widget": +I [widget, 1], then a -U/+U pair per order. */
export function widgetCounts(env: TableEnvironment) {
  const widgetOrders = env.fromValues(
    DataTypes.ROW(DataTypes.FIELD("order_id", DataTypes.INT().notNull()), DataTypes.FIELD("product", DataTypes.STRING().notNull())),
    Row.of(1, "widget"),
    Row.of(2, "widget"),
    Row.of(3, "widget"),
  );
  return widgetOrders.groupBy($("product")).select($("product"), $("order_id").count().as("order_count"));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  await productTotals(env).execute().print();
  for (const line of await widgetCounts(env).execute().toChangelog()) console.log(line);
  // the same query in batch mode gives only the final result
  const batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
  await productTotals(batch).execute().print();
}
