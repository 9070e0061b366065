// Seed 000 "쇼핑 카트": the CheckoutProcessor's output is split into two systems by one statement set —
// reminders into EmailNotifications, checkouts into CheckoutEvents. The view Checkouts (uid 'cart-processor')
// is read by both inserts, so the job runs the stateful PTF once.
import { $, CollectionSink, EnvironmentSettings, Schema, TableEnvironment, descriptor, lit } from "../../src/index.js";
import { CheckoutProcessor, cartEvents } from "../ptf/checkout-processor.js";

type CheckoutRow = { user: string; checkout_type: string; items: Map<number, number>; rowtime: Date };

export function checkoutSplit(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  env.createTemporaryView("Events", cartEvents(env));
  // CREATE VIEW Checkouts AS SELECT * FROM CheckoutProcessor(events => TABLE Events PARTITION BY `user`,
  //   on_time => DESCRIPTOR(ts), reminderInterval => INTERVAL '1' DAY, timeoutInterval => INTERVAL '2' DAY, uid => 'cart-processor')
  env.createTemporaryView("Checkouts", env.from("Events").partitionBy($("user")).process(
    CheckoutProcessor,
    descriptor("ts").asArgument("on_time"), lit(1).seconds().asArgument("reminderInterval"),
    lit(1).days().asArgument("timeoutInterval"), lit("cart-processor").asArgument("uid"),
  ));
  const schema = Schema.newBuilder()
    .column("user", "STRING").column("checkout_type", "STRING").column("items", "MAP<BIGINT, INT>").column("rowtime", "TIMESTAMP_LTZ(3)")
    .build();
  const emails = new CollectionSink<CheckoutRow>();
  const checkouts = new CollectionSink<CheckoutRow>();
  env.createTemporaryTable("EmailNotifications", emails.descriptor(schema));
  env.createTemporaryTable("CheckoutEvents", checkouts.descriptor(schema));
  const set = env.createStatementSet()
    .addInsert("EmailNotifications", env.from("Checkouts").filter($("checkout_type").isEqual("REMINDER")))
    .addInsert("CheckoutEvents", env.from("Checkouts").filter($("checkout_type").isEqual("CHECKOUT")));
  return { set, emails, checkouts };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { set, emails, checkouts } = checkoutSplit();
  await set.execute().await();
  console.log(emails.changelog(), checkouts.changelog());
}
