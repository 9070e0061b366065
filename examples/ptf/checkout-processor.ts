// Seed 000 "Shopping Cart" — CheckoutProcessor: ADD / REMOVE / CHECKOUT events per user, a REMINDER
// after a short inactivity (1 second here, as in the seed's output) and a TIMEOUT that drops the cart.
import {
  $, ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, Schema, TableEnvironment, descriptor, lit, scalarArg, tableArg, valueState,
} from "../../src/index.js";
import type { Context } from "../../src/index.js";

type Cart = { content: Map<number, number> };

function updateTimers(ctx: Context, reminderInterval: number, timeoutInterval: number): void {
  const timeCtx = ctx.timeContext("millis");
  timeCtx.registerOnTime("REMINDER", timeCtx.time()! + reminderInterval);
  timeCtx.registerOnTime("TIMEOUT", timeCtx.time()! + timeoutInterval);
}

export const CheckoutProcessor = ProcessTableFunction.define({
  name: "CheckoutProcessor",
  args: {
    events: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.REQUIRE_ON_TIME),
    reminderInterval: scalarArg(DataTypes.INTERVAL("DAY TO SECOND").notNull()),
    timeoutInterval: scalarArg(DataTypes.INTERVAL("DAY TO SECOND").notNull()),
  },
  state: { cart: valueState<Cart>({ content: new Map() }) },
  output: DataTypes.ROW(DataTypes.FIELD("checkout_type", DataTypes.STRING()), DataTypes.FIELD("items", DataTypes.MAP(DataTypes.BIGINT(), DataTypes.INT()))),
  eval(ctx, { cart }, { events, reminderInterval, timeoutInterval }) {
    const productId = events.productId as number;
    switch (events.eventType) {
      case "ADD":
        cart.content.set(productId, (cart.content.get(productId) ?? 0) + 1);
        updateTimers(ctx, reminderInterval, timeoutInterval);
        break;
      case "REMOVE": {
        const n = cart.content.get(productId);
        if (n === undefined || n === 1) cart.content.delete(productId);
        else cart.content.set(productId, n - 1);
        if (cart.content.size > 0) updateTimers(ctx, reminderInterval, timeoutInterval);
        else ctx.clearAll();
        break;
      }
      case "CHECKOUT":
        if (cart.content.size > 0) ctx.collect({ checkout_type: "CHECKOUT", items: new Map(cart.content) });
        ctx.clearAll();
        break;
    }
  },
  onTimer(ctx, { cart }) {
    switch (ctx.currentTimer()) {
      case "REMINDER":
        ctx.collect({ checkout_type: "REMINDER", items: new Map(cart.content) });
        break;
      case "TIMEOUT":
        ctx.clearAll();
        break;
    }
  },
});

/** The seed's input table (`user`, eventType, productId, ts), watermark = ts. */
export function cartEvents(env: TableEnvironment) {
  const schema = Schema.newBuilder()
    .column("user", DataTypes.STRING()).column("eventType", DataTypes.STRING()).column("productId", DataTypes.BIGINT())
    .column("ts", DataTypes.TIMESTAMP_LTZ(3))
    .watermark("ts", "ts")
    .build();
  const at = (ms: string) => new Date(`2025-03-27T12:${ms}Z`);
  return env.fromValues(schema,
    Row.of("Bob", "ADD", 1, at("00:11")), Row.of("Alice", "ADD", 1, at("00:21")), Row.of("Bob", "REMOVE", 1, at("00:51")),
    Row.of("Bob", "ADD", 2, at("00:55")), Row.of("Bob", "ADD", 5, at("00:56")), Row.of("Bob", "CHECKOUT", null, at("01:50")));
}

export function checkoutProcessor(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  return cartEvents(env).partitionBy($("user")).process(
    CheckoutProcessor,
    descriptor("ts").asArgument("on_time"), lit(1).seconds().asArgument("reminderInterval"), lit(1).days().asArgument("timeoutInterval"),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await checkoutProcessor().execute().print();
}
