// Seed 000, "Fan-out 예제" and "쇼핑 카트" in their SQL forms, run as the seed writes them: one
// EXECUTE STATEMENT SET is one job. Two INSERTs reading f(..., uid => 'same') share one stateful PTF
// operator; with uids 'ptf1' / 'ptf2' each insert has its own. The Checkouts view (uid 'cart-processor')
// is split into EmailNotifications and CheckoutEvents.
import {
  ArgumentTrait, CollectionSink, DataTypes, EnvironmentSettings, ProcessTableFunction, Schema, TableEnvironment, tableArg, valueState,
} from "../../src/index.js";
import { CheckoutProcessor, cartEvents } from "../ptf/checkout-processor.js";

/** The seed's `f`: greets each name with a per-name counter; its table argument is `r`. */
export const f = ProcessTableFunction.define({
  name: "f",
  args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { memory: valueState({ counter: 0 }) },
  output: DataTypes.STRING(),
  eval(ctx, { memory }, { r }) {
    memory.counter++;
    ctx.collect(`Hello ${r.name}, your ${memory.counter} time?`);
  },
});

export const FAN_OUT_SAME = `EXECUTE STATEMENT SET
BEGIN
INSERT INTO bob_sink SELECT * FROM f(r => TABLE t PARTITION BY name, uid => 'same') WHERE name = 'Bob';
INSERT INTO alice_sink SELECT * FROM f(r => TABLE t PARTITION BY name, uid => 'same') WHERE name = 'Alice';
END;`;

export const FAN_OUT_TWO_UIDS = `EXECUTE STATEMENT SET
BEGIN
INSERT INTO bob_sink SELECT * FROM f(r => TABLE t PARTITION BY name, uid => 'ptf1') WHERE name = 'Bob';
INSERT INTO alice_sink SELECT * FROM f(r => TABLE t PARTITION BY name, uid => 'ptf2') WHERE name = 'Alice';
END;`;

/** The tables the fan-out statements name: t (name) and two collection sinks. */
export function fanOutSetup(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  env.executeSql("CREATE VIEW t(name) AS VALUES ('Bob'), ('Alice'), ('Bob')");
  env.createFunction("f", f);
  const schema = Schema.newBuilder().column("name", "STRING").column("greeting", "STRING").build();
  const bob = new CollectionSink<{ name: string; greeting: string }>();
  const alice = new CollectionSink<{ name: string; greeting: string }>();
  env.createTemporaryTable("bob_sink", bob.descriptor(schema));
  env.createTemporaryTable("alice_sink", alice.descriptor(schema));
  return { env, bob, alice };
}

export const CHECKOUTS_VIEW = `CREATE VIEW Checkouts AS SELECT * FROM CheckoutProcessor(
events => TABLE Events PARTITION BY \`user\`,
on_time => DESCRIPTOR(ts),
reminderInterval => INTERVAL '1' DAY,
timeoutInterval => INTERVAL '2' DAY, uid => 'cart-processor'
)`;

export const CHECKOUT_SPLIT = `EXECUTE STATEMENT SET
BEGIN
INSERT INTO EmailNotifications SELECT * FROM Checkouts WHERE \`checkout_type\` = 'REMINDER';
INSERT INTO CheckoutEvents SELECT * FROM Checkouts WHERE \`checkout_type\` = 'CHECKOUT';
END;`;

type CheckoutRow = { user: string; checkout_type: string; items: Map<number, number>; rowtime: Date };

/** The shopping cart's tables: the seed's events, the function, and the two sinks. */
export function checkoutSetup(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  env.createTemporaryView("Events", cartEvents(env));
  env.createFunction("CheckoutProcessor", CheckoutProcessor);
  const schema = Schema.newBuilder()
    .column("user", "STRING").column("checkout_type", "STRING").column("items", "MAP<BIGINT, INT>").column("rowtime", "TIMESTAMP_LTZ(3)")
    .build();
  const emails = new CollectionSink<CheckoutRow>();
  const checkouts = new CollectionSink<CheckoutRow>();
  env.createTemporaryTable("EmailNotifications", emails.descriptor(schema));
  env.createTemporaryTable("CheckoutEvents", checkouts.descriptor(schema));
  return { env, emails, checkouts };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { env, bob, alice } = fanOutSetup();
  await env.executeSql(FAN_OUT_SAME).await();
  console.log(bob.changelog(), alice.changelog());
  const cart = checkoutSetup();
  cart.env.executeSql(CHECKOUTS_VIEW);
  await cart.env.executeSql(CHECKOUT_SPLIT).await();
  console.log(cart.emails.changelog(), cart.checkouts.changelog());
}
