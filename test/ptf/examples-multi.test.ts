// The seed's examples with several tables and ORDER BY (examples/ptf), with their exact output.
import { describe, expect, it } from "vitest";
import { greetingWithLastPurchase } from "../../examples/ptf/greeting-with-last-purchase.js";
import { orderedProcessor } from "../../examples/ptf/ordered-processor.js";
import { paymentJoiner } from "../../examples/ptf/payment-joiner.js";
import { Order, Payment } from "../../examples/ptf/generators.js";
import { printed } from "../support.js";

const lines = (...l: string[]) => l.join("\n");

describe("seed 000/004: multiple tables", () => {
  it("GreetingWithLastPurchase: visits and purchases share one virtual processor per customer", async () => {
    const t = greetingWithLastPurchase();
    expect(t.getResolvedSchema().names).toEqual(["name", "customer", "EXPR$0"]);
    // the seed prints "Hello Alice, here to buy Pr..." although its Purchases view holds 'milk'; this
    // is the program's own data
    expect(await printed(t.execute())).toBe(lines(
      "+----+--------------------------------+--------------------------------+--------------------------------+",
      "| op |                           name |                       customer |                         EXPR$0 |",
      "+----+--------------------------------+--------------------------------+--------------------------------+",
      "| +I |                            Bob |                            Bob | Hello Bob, let me know if I... |",
      "| +I |                          Alice |                          Alice | Hello Alice, here to buy mi... |",
      "| +I |                            Bob |                            Bob | Hello Bob, let me know if I... |",
      "+----+--------------------------------+--------------------------------+--------------------------------+",
      "3 rows in set",
    ));
    expect(await t.execute().toChangelog()).toEqual([
      "+I[Bob, Bob, Hello Bob, let me know if I can help!]",
      "+I[Alice, Alice, Hello Alice, here to buy milk again?]",
      "+I[Bob, Bob, Hello Bob, let me know if I can help!]",
    ]);
  });

  it("Payment joining: duplicates are skipped, Charly's order finds no payment", async () => {
    const t = paymentJoiner();
    expect(t.getResolvedSchema().toString()).toBe(lines(
      "(",
      "  `id` INT NOT NULL,",
      "  `orderId` INT NOT NULL,",
      "  `order` *Order*,", // structured types print their class, as Flink's do
      "  `payment` *Payment*",
      ")",
    ));
    // the seed lists the same three rows in another order ("may look like"): its order depends on how
    // Flink's tasks interleave the two generators; here they alternate row by row
    expect(await t.execute().toChangelog()).toEqual([
      "+I[1000001, 1000001, +I[23.46, USD, 1000001, Bob], +I[999997870, 1000001]]",
      "+I[1000021, 1000021, +I[6.99, USD, 1000021, Bob], +I[999993331, 1000021]]",
      "+I[1000601, 1000601, +I[0.79, EUR, 1000601, Alice], +I[999994111, 1000601]]",
    ]);
    // nested structured values print with their field names, as in the seed's listing
    expect(await printed(t.execute())).toBe(lines(
      "+----+-------------+-------------+--------------------------------+--------------------------------+",
      "| op |          id |     orderId |                          order |                        payment |",
      "+----+-------------+-------------+--------------------------------+--------------------------------+",
      "| +I |     1000001 |     1000001 | (amount=23.46, currency=USD... | (id=999997870, orderId=1000... |",
      "| +I |     1000021 |     1000021 | (amount=6.99, currency=USD,... | (id=999993331, orderId=1000... |",
      "| +I |     1000601 |     1000601 | (amount=0.79, currency=EUR,... | (id=999994111, orderId=1000... |",
      "+----+-------------+-------------+--------------------------------+--------------------------------+",
      "3 rows in set",
    ));
    const rows = await t.execute().toArray();
    // toArray() keeps the structured types' classes
    expect(rows[0]!.order).toBeInstanceOf(Order);
    expect(rows[0]!.payment).toBeInstanceOf(Payment);
    expect(rows[0]!.order!.amount).toBe(23.46);
    expect(rows[0]!.payment!.id).toBe(999997870);
  });
});

describe("seed 000: ordering", () => {
  it("OrderedProcessor: sorted by ts ASC, score DESC; the late event is dropped", async () => {
    expect(await orderedProcessor().execute().toChangelog()).toEqual([
      "+I[Bob, [+I[9, 2025-01-01T12:00:01.200Z]]]",
      "+I[Bob, [+I[9, 2025-01-01T12:00:01.200Z], +I[7, 2025-01-01T12:00:01.200Z]]]",
      "+I[Alice, [+I[3, 2025-01-01T12:00:01.200Z]]]",
      "+I[Bob, [+I[9, 2025-01-01T12:00:01.200Z], +I[7, 2025-01-01T12:00:01.200Z], +I[5, 2025-01-01T12:00:01.500Z]]]",
      "+I[Bob, [+I[9, 2025-01-01T12:00:01.200Z], +I[7, 2025-01-01T12:00:01.200Z], +I[5, 2025-01-01T12:00:01.500Z], +I[2, 2025-01-01T12:00:02.600Z]]]",
      "+I[Alice, [+I[3, 2025-01-01T12:00:01.200Z], +I[4, 2025-01-01T12:00:03Z]]]",
    ]);
  });
});
