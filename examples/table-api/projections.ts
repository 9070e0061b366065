// Seed 003, "기본 연산": select with a computed column, chained filters, addColumns/renameColumns/dropColumns.
import { $, EnvironmentSettings, TableEnvironment } from "../../src/index.js";
import { orders } from "./orders.js";

export function selectTotals(env: TableEnvironment) {
  return orders(env).select($("product"), $("amount"), $("price").times($("amount")).as("total"));
}

export function filtered(env: TableEnvironment) {
  // filter() and where() are the same; a NULL status is neither equal nor unequal to 'cancelled', so it is dropped
  return orders(env).filter($("amount").isGreater(0)).filter($("status").isNotEqual("cancelled"));
}

export function reshaped(env: TableEnvironment) {
  return orders(env)
    .addColumns($("price").times($("amount")).as("total"))
    .renameColumns($("product").as("item"))
    .dropColumns($("internal_id"));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  for (const t of [selectTotals(env), filtered(env), reshaped(env)]) await t.execute().print();
}
