// Type tests of groupBy(...).select(...): keys and aggregates, result types of count, sum, avg, min,
// max and countDistinct, the updating ("retract") changelog kind, and the compile errors for columns
// used outside aggregates. The quoted text after each error directive is the message.
import { expectTypeOf } from "vitest";
import { $, type Decimal } from "../../src/index.js";
import { orders, people } from "./fixtures.js";
import type { ModeOf, SchemaOf } from "./helpers.js";

const totals = orders.groupBy($("product")).select(
  $("product"),
  $("amount").sum().as("total"),
  $("amount").avg().as("mean"),
  $("price").max().as("top"),
  $("created_at").min().as("first"),
  $("order_id").count().as("n"),
  $("order_id").countDistinct().as("ids"),
);
expectTypeOf<SchemaOf<typeof totals>>().toEqualTypeOf<{
  product: string; total: number | null; mean: number | null; top: Decimal | null; first: Date | null; n: number; ids: number;
}>();
expectTypeOf<ModeOf<typeof totals>>().toEqualTypeOf<"retract">();

// expressions over keys and over aggregates; an append table becomes "retract" after aggregation
const shaped = people.groupBy($("name")).select($("name").upperCase().as("who"), $("age").sum().plus(1).as("x"));
expectTypeOf<SchemaOf<typeof shaped>>().toEqualTypeOf<{ who: string | null; x: number | null }>();
expectTypeOf<ModeOf<typeof people>>().toEqualTypeOf<"append">();
expectTypeOf<ModeOf<typeof shaped>>().toEqualTypeOf<"retract">();

// several keys
const byTwo = orders.groupBy($("product"), $("paid")).select($("product"), $("paid"), $("amount").count().as("n"));
expectTypeOf<SchemaOf<typeof byTwo>>().toEqualTypeOf<{ product: string; paid: boolean; n: number }>();

// ---- errors ---------------------------------------------------------------------------------------
// @ts-expect-error "column 'amount' is neither a grouping key nor inside an aggregate"
orders.groupBy($("product")).select($("product"), $("amount"));
// @ts-expect-error "column 'amount' is neither a grouping key nor inside an aggregate"
orders.groupBy($("product")).select($("amount").plus(1).as("x"));
// @ts-expect-error "column 'prodct' is not in [amount, created_at, order_id, paid, price, product]"
orders.groupBy($("prodct"));
// @ts-expect-error "aggregate functions are not allowed as grouping keys"
orders.groupBy($("amount").sum());
// @ts-expect-error "SUM needs a NUMERIC argument, got STRING"
orders.groupBy($("paid")).select($("product").sum().as("s"));
// @ts-expect-error "output column 'n' appears more than once"
orders.groupBy($("product")).select($("amount").count().as("n"), $("order_id").count().as("n"));
// @ts-expect-error "column 'x' is not in [amount, created_at, order_id, paid, price, product]"
orders.groupBy($("product")).select($("x").count().as("n"));

// a misspelled key is one error, on groupBy: the select that follows reports nothing more (issue 9)
const misspelled = orders
  // @ts-expect-error "column 'prodct' is not in [amount, created_at, order_id, paid, price, product]"
  .groupBy($("prodct"), $("paid"))
  .select($("product"), $("paid"), $("amount").sum().as("total"));
// the keys that are columns keep their types
expectTypeOf<SchemaOf<typeof misspelled>>().toEqualTypeOf<{ product: string; paid: boolean; total: number | null }>();
// a correct key still limits the select
// @ts-expect-error "column 'amount' is neither a grouping key nor inside an aggregate"
orders.groupBy($("paid")).select($("paid"), $("amount"));
