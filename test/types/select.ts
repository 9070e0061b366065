// Type tests of select(): result schemas are exact (names, types, nullability), and bad items are
// compile errors whose message names the problem. Checked by `tsc --noEmit` (npm test); the quoted
// text after each @ts-expect-error is the expected message, verified by messages.test.ts.
import { expectTypeOf } from "vitest";
import { $, type Decimal, DataTypes, lit } from "../../src/index.js";
import { env, orders, people } from "./fixtures.js";
import type { ModeOf, SchemaOf } from "./helpers.js";

// ---- result schemas -------------------------------------------------------------------------------
const names = people.select($("name"), $("age"));
expectTypeOf<SchemaOf<typeof names>>().toEqualTypeOf<{ name: string | null; age: number | null }>();
expectTypeOf<ModeOf<typeof names>>().toEqualTypeOf<"append">();

// an alias names an expression; nullability follows the operands (SQL null propagation)
const next = people.select($("name"), $("age").plus(1).as("next"));
expectTypeOf<SchemaOf<typeof next>>().toEqualTypeOf<{ name: string | null; next: number | null }>();

// NOT NULL operands give NOT NULL results; unnamed items are _c<position>, as in Flink
const computed = orders.select($("amount").times(2), $("product").upperCase(), $("amount").isGreater(2).as("big"), lit("x"));
expectTypeOf<SchemaOf<typeof computed>>().toEqualTypeOf<{ _c0: number; _c1: string; big: boolean; _c3: string }>();

// DECIMAL stays Decimal, timestamps stay Date, cast gives the target type
const typed = orders.select(
  $("price").plus(1).as("p"),
  $("created_at").as("at"),
  $("amount").cast(DataTypes.STRING()).as("s"),
  $("created_at").extract("HOUR").as("h"),
);
expectTypeOf<SchemaOf<typeof typed>>().toEqualTypeOf<{ p: Decimal | null; at: Date | null; s: string; h: number | null }>();

// a select with aggregates and no groupBy is a global aggregate: an updating table
const totals = orders.select($("amount").sum().as("total"), $("order_id").count().as("n"));
expectTypeOf<SchemaOf<typeof totals>>().toEqualTypeOf<{ total: number | null; n: number }>();
expectTypeOf<ModeOf<typeof totals>>().toEqualTypeOf<"retract">();

// names known only at run time are checked when the plan is built (ValidationError), not here:
// `$(name)` with a string is an unknown-typed column, a spread list gives an untyped schema
declare const dynamicName: string;
const dyn = people.select($("name"), $(dynamicName).as("picked"));
expectTypeOf<SchemaOf<typeof dyn>>().toEqualTypeOf<{ name: string | null; picked: unknown }>();
const spread = people.select(...["name", "age"].map((c) => $(c)));
expectTypeOf<SchemaOf<typeof spread>>().toEqualTypeOf<Record<string, unknown>>();

// ---- errors ---------------------------------------------------------------------------------------
// @ts-expect-error "column 'agee' is not in [age, name]"
people.select($("agee"));
// @ts-expect-error "column 'agee' is not in [age, name]"
people.select($("name"), $("agee").plus(1).as("x"));
// @ts-expect-error "cannot compare STRING with NUMERIC"
people.select($("name").isEqual(1).as("b"));
// @ts-expect-error "cannot compare STRING with NUMERIC"
people.select($("name").isGreater($("age")).as("b"));
// @ts-expect-error "arithmetic needs NUMERIC operands, got STRING and NUMERIC"
people.select($("name").plus(1));
// @ts-expect-error "arithmetic needs NUMERIC operands, got STRING and NUMERIC"
people.select($("name").upperCase().times($("age")).as("x"));
// @ts-expect-error "output column 'name' appears more than once"
people.select($("name"), $("age").as("name"));
// @ts-expect-error "column 'name' is neither a grouping key nor inside an aggregate"
people.select($("name"), $("age").sum().as("total"));
// @ts-expect-error "aggregate functions cannot be nested"
people.select($("age").sum().max().as("x"));
// @ts-expect-error "string function needs a STRING argument, got NUMERIC"
people.select($("age").upperCase().as("x"));

// a wide table lists the columns that start like the unknown name instead of all of them
const wide = env.fromValues({
  a0: 0, a1: 1, a2: 2, a3: 3, a4: 4, a5: 5, a6: 6, a7: 7, a8: 8, a9: 9, b0: 0, b1: 1, b2: 2, b3: 3, b4: 4, b5: 5,
  b6: 6, b7: 7, b8: 8, b9: 9, c0: 0, c1: 1, c2: 2, c3: 3, c4: 4, c5: 5, c6: 6, c7: 7, c8: 8, c9: 9, total: 10, tax: 11,
});
// @ts-expect-error "column 'totl' is not among the table's more than 30 columns; those starting with 't': [tax, total]"
wide.select($("totl"));
// @ts-expect-error "column 'x' is not among the table's more than 30 columns; those starting with 'x': []"
wide.select($("x"));
const wideTotal = wide.select($("total"));
expectTypeOf<SchemaOf<typeof wideTotal>>().toEqualTypeOf<{ total: number }>();
