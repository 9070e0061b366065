import { describe, expect, it } from "vitest";
import { $, CollectionSource, DataTypes, Row, Schema, type Table, ValidationError, call, lit } from "../../src/index.js";
import { sorted, streaming } from "./fixtures.js";

/**
 * LookupJoinTestPrograms: orders look customers up at processing time. Flink's restore programs change the
 * lookup table between the phases (Bob's row replaced, Joana added): here phase 1 runs the "before" orders
 * against the "before" customers, then the table content is replaced and phase 2 runs the "after" orders.
 */
const CUSTOMER_TYPE = DataTypes.ROW(
  DataTypes.FIELD("id", DataTypes.INT().notNull()), DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("age", DataTypes.INT()),
  DataTypes.FIELD("city", DataTypes.STRING()), DataTypes.FIELD("state", DataTypes.STRING()), DataTypes.FIELD("zipcode", DataTypes.INT()));
const CUSTOMERS_BEFORE = [
  Row.of(1, "Bob", 28, "Mountain View", "California", 94043), Row.of(2, "Alice", 32, "San Francisco", "California", 95016),
  Row.of(3, "Claire", 37, "Austin", "Texas", 73301), Row.of(4, "Shannon", 29, "Boise", "Idaho", 83701),
  Row.of(5, "Jake", 42, "New York City", "New York", 10001),
];
const CUSTOMERS_AFTER = [Row.of(1, "Bob", 28, "San Jose", "California", 94089), Row.of(6, "Joana", 54, "Atlanta", "Georgia", 30033)];
const ORDERS_SCHEMA = Schema.newBuilder()
  .column("order_id", DataTypes.INT()).column("customer_id", DataTypes.INT()).column("total", DataTypes.DOUBLE()).column("order_time", DataTypes.STRING())
  .build();
const ORDERS_BEFORE = [
  Row.of(1, 3, 44.44, "2020-10-10 00:00:01"), Row.of(2, 5, 100.02, "2020-10-10 00:00:02"), Row.of(4, 2, 92.61, "2020-10-10 00:00:04"),
  Row.of(3, 1, 23.89, "2020-10-10 00:00:03"), Row.of(6, 4, 7.65, "2020-10-10 00:00:06"), Row.of(5, 2, 12.78, "2020-10-10 00:00:05"),
];
const ORDERS_AFTER = [Row.of(7, 6, 17.58, "2020-10-10 00:00:07"), Row.of(9, 1, 143.21, "2020-10-10 00:00:08")];

type Customers = CollectionSource<{ id: number; name: string | null; age: number | null; city: string | null; state: string | null; zipcode: number | null }>;
type Orders = Table<{ order_id: number | null; customer_id: number | null; total: number | null; order_time: string | null }, "append">;

/** Runs `query` over the before orders, then (customers replaced by the after content) over the after orders. */
async function phases(query: (orders: Orders, customers: Customers) => Table<object>): Promise<{ before: string[]; after: string[] }> {
  const env = streaming();
  const customers: Customers = new CollectionSource("customers_t", CUSTOMER_TYPE, CUSTOMERS_BEFORE);
  const before = await query(env.fromValues(ORDERS_SCHEMA, ORDERS_BEFORE), customers).execute().toChangelog();
  // after restore the lookup table holds the after data: Bob's row replaced, Joana added (the others stay)
  customers.replaceAll([CUSTOMERS_AFTER[0]!, ...CUSTOMERS_BEFORE.slice(1), CUSTOMERS_AFTER[1]!]);
  const after = await query(env.fromValues(ORDERS_SCHEMA, ORDERS_AFTER), customers).execute().toChangelog();
  return { before, after };
}

const SINK = [$("order_id"), $("total"), $("id"), $("name"), $("age"), $("city"), $("state"), $("zipcode")] as const;

describe("lookup joins: Flink's programs", () => {
  it("R-023 lookup-join-filter-pushdown: inner lookup join with C.age > 30", async () => {
    const r = await phases((o, c) => o.joinLateral(call(c.lookupFunction("id"), $("customer_id")), $("age").isGreater(30)).select(...SINK));
    expect(sorted(r.before)).toEqual(sorted([
      "+I[1, 44.44, 3, Claire, 37, Austin, Texas, 73301]", "+I[2, 100.02, 5, Jake, 42, New York City, New York, 10001]",
      "+I[4, 92.61, 2, Alice, 32, San Francisco, California, 95016]", "+I[5, 12.78, 2, Alice, 32, San Francisco, California, 95016]",
    ]));
    expect(r.after).toEqual(["+I[7, 17.58, 6, Joana, 54, Atlanta, Georgia, 30033]"]);
  });

  it("R-025 lookup-join-post-filter: LEFT lookup join with CAST(O.total AS INT) < C.age", async () => {
    const r = await phases((o, c) => o.leftOuterJoinLateral(call(c.lookupFunction("id"), $("customer_id")),
      $("total").cast(DataTypes.INT()).isLess($("age"))).select(...SINK));
    expect(sorted(r.before)).toEqual(sorted([
      "+I[1, 44.44, null, null, null, null, null, null]", "+I[2, 100.02, null, null, null, null, null, null]",
      "+I[4, 92.61, null, null, null, null, null, null]", "+I[3, 23.89, 1, Bob, 28, Mountain View, California, 94043]",
      "+I[6, 7.65, 4, Shannon, 29, Boise, Idaho, 83701]", "+I[5, 12.78, 2, Alice, 32, San Francisco, California, 95016]",
    ]));
    expect(sorted(r.after)).toEqual(sorted(["+I[7, 17.58, 6, Joana, 54, Atlanta, Georgia, 30033]", "+I[9, 143.21, null, null, null, null, null, null]"]));
  });

  it("R-027 lookup-join-left-join: LEFT with C.age > 30 AND O.customer_id <> 3", async () => {
    const r = await phases((o, c) => o.leftOuterJoinLateral(call(c.lookupFunction("id"), $("customer_id")),
      $("age").isGreater(30).and($("customer_id").isNotEqual(3))).select(...SINK));
    expect(sorted(r.before)).toEqual(sorted([
      "+I[1, 44.44, null, null, null, null, null, null]", "+I[2, 100.02, 5, Jake, 42, New York City, New York, 10001]",
      "+I[4, 92.61, 2, Alice, 32, San Francisco, California, 95016]", "+I[3, 23.89, null, null, null, null, null, null]",
      "+I[6, 7.65, null, null, null, null, null, null]", "+I[5, 12.78, 2, Alice, 32, San Francisco, California, 95016]",
    ]));
    expect(sorted(r.after)).toEqual(sorted(["+I[7, 17.58, 6, Joana, 54, Atlanta, Georgia, 30033]", "+I[9, 143.21, null, null, null, null, null, null]"]));
  });

  it("R-029 lookup-join-retry-hint (and R-028's rows): inner lookup join on the key only; the retry hint changes nothing without misses", async () => {
    const r = await phases((o, c) => o.joinLateral(call(c.lookupFunction("id"), $("customer_id"))).select(...SINK));
    expect(sorted(r.before)).toEqual(sorted([
      "+I[1, 44.44, 3, Claire, 37, Austin, Texas, 73301]", "+I[2, 100.02, 5, Jake, 42, New York City, New York, 10001]",
      "+I[4, 92.61, 2, Alice, 32, San Francisco, California, 95016]", "+I[3, 23.89, 1, Bob, 28, Mountain View, California, 94043]",
      "+I[6, 7.65, 4, Shannon, 29, Boise, Idaho, 83701]", "+I[5, 12.78, 2, Alice, 32, San Francisco, California, 95016]",
    ]));
    expect(sorted(r.after)).toEqual(sorted(["+I[7, 17.58, 6, Joana, 54, Atlanta, Georgia, 30033]", "+I[9, 143.21, 1, Bob, 28, San Jose, California, 94089]"]));
  });
});

describe("lookup joins: rules", () => {
  it("explain() names the lookup table and key; the output is insert-only; wrong keys are errors", () => {
    const env = streaming();
    const c: Customers = new CollectionSource("customers_t", CUSTOMER_TYPE, CUSTOMERS_BEFORE);
    const o = env.fromValues(ORDERS_SCHEMA, ORDERS_BEFORE);
    const q = o.joinLateral(call(c.lookupFunction("id"), $("customer_id")));
    expect(q.explain()).toContain("LookupJoin(table=[customers_t], joinType=[InnerJoin], lookup=[customer_id], changelogMode=[I])");
    expect(() => o.joinLateral(call(c.lookupFunction("id"), $("order_time") as never))).toThrow(ValidationError);
    expect(() => o.joinLateral(call(c.lookupFunction("id"), $("order_time") as never))).toThrow(/lookup key 1 \(order_time\) is STRING, but the key column 'id'/);
    expect(() => o.joinLateral(call(c.lookupFunction("id"), $("customer_id"), lit(1)) as never)).toThrow(/takes 1 key value/);
    expect(() => new CollectionSource("x", CUSTOMER_TYPE, [Row.of(1)])).toThrow(/row 1 has 1 values/);
  });
});
