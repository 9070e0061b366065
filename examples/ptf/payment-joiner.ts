// Seed 000 "Payment Joining": two generated tables (orders, payments) joined by a PTF with two
// set-semantics table arguments, co-partitioned by the order id. The Joiner keeps one order and one
// payment per key (duplicates are skipped) and emits the pair once both arrived; a key whose partner
// does not come within one hour is forgotten (state TTL).
import { $, ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, TableEnvironment, structuredType, tableArg, valueState } from "../../src/index.js";
import { Order, OrderGenerator, OrderType, Payment, PaymentGenerator, PaymentType } from "./generators.js";

/** The join result: the order and its payment (Flink's POJO, fields in alphabetical order). */
export class JoinResult {
  order: Order | null = null;
  payment: Payment | null = null;
}

export const JoinResultType = structuredType(JoinResult, DataTypes.ROW(
  DataTypes.FIELD("order", OrderType),
  DataTypes.FIELD("payment", PaymentType),
));

export const Joiner = ProcessTableFunction.define({
  name: "Joiner",
  args: {
    order: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE).typed(OrderType),
    payment: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE).typed(PaymentType),
  },
  // the function expects a payment within 1 hour; otherwise the state is discarded by TTL
  state: { seen: valueState(JoinResultType, { ttl: "1 hour" }) },
  output: JoinResultType,
  eval(ctx, { seen }, { order, payment }) {
    if (order !== null) {
      if (seen.order !== null) return; // skip duplicates
      seen.order = order; // wait for the matching payment
    } else if (payment !== null) {
      if (seen.payment !== null) return; // skip duplicates
      seen.payment = payment; // wait for the matching order
    }
    // send out the final join result
    if (seen.order !== null && seen.payment !== null) ctx.collect(seen);
  },
});

export function paymentJoiner(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  const orders = env.fromCall(OrderGenerator);
  const payments = env.fromCall(PaymentGenerator);
  // partition orders and payments and pass them into the Joiner function
  return env.fromCall(Joiner, orders.partitionBy($("id")).asArgument("order"), payments.partitionBy($("orderId")).asArgument("payment"));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await paymentJoiner().execute().print();
  // +----+-------------+-------------+--------------------------------+--------------------------------+
  // | op |          id |     orderId |                          order |                        payment |
  // +----+-------------+-------------+--------------------------------+--------------------------------+
  // | +I |     1000001 |     1000001 | (amount=23.46, currency=USD... | (id=999997870, orderId=1000... |
  // | +I |     1000021 |     1000021 | (amount=6.99, currency=USD,... | (id=999993331, orderId=1000... |
  // | +I |     1000601 |     1000601 | (amount=0.79, currency=EUR,... | (id=999994111, orderId=1000... |
  // +----+-------------+-------------+--------------------------------+--------------------------------+
  // 3 rows in set
}
