// Seed 003, "윈도우 집계": orders per product and hour with a tumbling window, on generated data.
// The Orders table comes from the datagen connector with a seed (the same rows on every run): `id` is a
// sequence, `order_time` is computed from it (one order every 7 minutes from 07:07), `amount` is random.
import { $, EnvironmentSettings, lit, Schema, TableDescriptor, TableEnvironment, Tumble } from "../../src/index.js";

export function ordersTable(env: TableEnvironment) {
  env.createTemporaryTable("Orders", TableDescriptor.forConnector("datagen")
    .schema(Schema.newBuilder()
      .column("id", "BIGINT")
      .column("amount", "INT")
      .columnByExpression("product", "CASE id % 3 WHEN 0 THEN 'widget' WHEN 1 THEN 'gadget' ELSE 'gizmo' END")
      .columnByExpression("order_time", "TIMESTAMP '2025-03-27 07:00:00' + INTERVAL '7' MINUTE * id")
      .watermark("order_time", "order_time - INTERVAL '5' MINUTE")
      .build())
    .option("fields.id.kind", "sequence")
    .option("fields.id.start", "1")
    .option("fields.id.end", "40")
    .option("fields.amount.min", "1")
    .option("fields.amount.max", "10")
    .option("seed", "2025")
    .build());
  return env.from("Orders");
}

export function hourlyStats(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  const orders = ordersTable(env);
  return orders
    .window(Tumble.over(lit(1).hours()).on($("order_time")).as("w"))
    .groupBy($("product"), $("w"))
    .select(
      $("product"),
      $("w").start().as("window_start"),
      $("w").end().as("window_end"),
      $("amount").sum().as("total_sold"),
    );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await hourlyStats().execute().print();
}
