// Seed 000 "Payment Joining", data generation part: PTFs without table arguments are generators that
// run once and create a bounded table. Their outputs are structured types (classes), whose fields give
// the columns; they are declared in Flink's order for POJOs (alphabetical).
import { DataTypes, EnvironmentSettings, ProcessTableFunction, structuredType, TableEnvironment } from "../../src/index.js";

export class Order {
  userId: string | null = null;
  id = 0;
  amount = 0;
  currency: string | null = null;
  static of(userId: string, id: number, amount: number, currency: string): Order {
    const order = new Order();
    order.userId = userId;
    order.id = id;
    order.amount = amount;
    order.currency = currency;
    return order;
  }
}

export class Payment {
  id = 0;
  orderId = 0;
  static of(id: number, orderId: number): Payment {
    const payment = new Payment();
    payment.id = id;
    payment.orderId = orderId;
    return payment;
  }
}

export const OrderType = structuredType(Order, DataTypes.ROW(
  DataTypes.FIELD("amount", DataTypes.DOUBLE().notNull()),
  DataTypes.FIELD("currency", DataTypes.STRING()),
  DataTypes.FIELD("id", DataTypes.INT().notNull()),
  DataTypes.FIELD("userId", DataTypes.STRING()),
));

export const PaymentType = structuredType(Payment, DataTypes.ROW(
  DataTypes.FIELD("id", DataTypes.INT().notNull()),
  DataTypes.FIELD("orderId", DataTypes.INT().notNull()),
));

export const OrderGenerator = ProcessTableFunction.define({
  name: "OrderGenerator",
  output: OrderType,
  eval(ctx) {
    [
      Order.of("Bob", 1000001, 23.46, "USD"),
      Order.of("Bob", 1000021, 6.99, "USD"),
      Order.of("Alice", 1000601, 0.79, "EUR"),
      Order.of("Charly", 1000703, 100.60, "EUR"),
    ].forEach((o) => ctx.collect(o));
  },
});

export const PaymentGenerator = ProcessTableFunction.define({
  name: "PaymentGenerator",
  output: PaymentType,
  eval(ctx) {
    [
      Payment.of(999997870, 1000001),
      Payment.of(999997870, 1000001),
      Payment.of(999993331, 1000021),
      Payment.of(999994111, 1000601),
    ].forEach((p) => ctx.collect(p));
  },
});

export function generators(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  return { orders: env.fromCall(OrderGenerator), payments: env.fromCall(PaymentGenerator) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { orders, payments } = generators();
  await orders.execute().print();
  await payments.execute().print();
}
