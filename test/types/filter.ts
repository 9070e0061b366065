// Type tests of filter()/where(): the condition is checked against the schema and must be BOOLEAN;
// the table's schema and changelog kind pass through unchanged. The quoted text after each error
// directive is the expected message (messages.test.ts).
import { expectTypeOf } from "vitest";
import { $, and, lit } from "../../src/index.js";
import { orders, people } from "./fixtures.js";
import type { ModeOf, SchemaOf } from "./helpers.js";

const adults = people.filter($("age").isGreaterOrEqual(18));
expectTypeOf<SchemaOf<typeof adults>>().toEqualTypeOf<{ name: string | null; age: number | null }>();
expectTypeOf<ModeOf<typeof adults>>().toEqualTypeOf<"append">();

// where() is filter(); BOOLEAN columns, logic, IS NULL, LIKE, IN and BETWEEN are conditions
const w = orders
  .where($("paid"))
  .filter($("amount").isGreater(1).and($("product").like("w%")).or($("price").isNull()))
  .filter(and($("order_id").in(1, 2, 3), $("amount").between(1, 10).not()))
  .filter(lit(true));
expectTypeOf<SchemaOf<typeof w>>().toEqualTypeOf<SchemaOf<typeof orders>>();

// a filter keeps an updating table updating
const counts = orders.groupBy($("product")).select($("product"), $("amount").sum().as("total"));
const bigCounts = counts.filter($("total").isGreater(10));
expectTypeOf<ModeOf<typeof bigCounts>>().toEqualTypeOf<"retract">();
expectTypeOf<SchemaOf<typeof bigCounts>>().toEqualTypeOf<{ product: string; total: number | null }>();

// ---- errors ---------------------------------------------------------------------------------------
// @ts-expect-error "the filter condition must be BOOLEAN, got NUMERIC"
people.filter($("age"));
// @ts-expect-error "the filter condition must be BOOLEAN, got STRING"
people.where($("name").upperCase());
// @ts-expect-error "column 'agee' is not in [age, name]"
people.filter($("agee").isGreater(18));
// @ts-expect-error "cannot compare STRING with NUMERIC"
people.filter($("name").isEqual(18));
// @ts-expect-error "logical operators need BOOLEAN operands, got NUMERIC"
people.filter($("age").and($("age").isNull()));
// @ts-expect-error "aggregate functions are not allowed in a filter condition"
people.filter($("age").sum().isGreater(1));
// @ts-expect-error "LIKE needs STRING arguments, got NUMERIC"
people.filter($("age").like("1%"));
