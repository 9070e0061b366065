// Type tests of orderBy / offset / fetch / limit, topN, deduplicate and the set operations intersect /
// minus: columns are checked against the schema, a row-number column is added as a number, and set
// operations need the same columns on both sides. The quoted text after each error directive is the message.
import { expectTypeOf } from "vitest";
import { $, DataTypes } from "../../src/index.js";
import { orders, people } from "./fixtures.js";
import type { ModeOf, SchemaOf } from "./helpers.js";

// ordering keeps the schema; a fetch makes an updating table (a top-N retracts rows it pushes out)
const sorted = people.orderBy($("age").desc().nullsFirst(), $("name"));
expectTypeOf<SchemaOf<typeof sorted>>().toEqualTypeOf<SchemaOf<typeof people>>();
expectTypeOf<ModeOf<typeof sorted>>().toEqualTypeOf<"append">();
const firstThree = sorted.limit(3);
expectTypeOf<ModeOf<typeof firstThree>>().toEqualTypeOf<"retract">();
expectTypeOf<SchemaOf<ReturnType<typeof people.offset>>>().toEqualTypeOf<SchemaOf<typeof people>>();

// topN: the row number is a number column; without rowNumber the schema stays
const top = orders.topN(3, { partitionBy: [$("product")], orderBy: [$("price").desc()], rowNumber: "rn" });
expectTypeOf<SchemaOf<typeof top>["rn"]>().toEqualTypeOf<number>();
expectTypeOf<SchemaOf<typeof top>["price"]>().toEqualTypeOf<SchemaOf<typeof orders>["price"]>();
expectTypeOf<ModeOf<typeof top>>().toEqualTypeOf<"retract">();
const plainTop = orders.topN(1, { orderBy: [$("amount")] });
expectTypeOf<SchemaOf<typeof plainTop>>().toEqualTypeOf<SchemaOf<typeof orders>>();

// deduplicate keeps the schema
const dedup = orders.deduplicate({ keys: [$("product")], keep: "last", orderBy: $("created_at") });
expectTypeOf<SchemaOf<typeof dedup>>().toEqualTypeOf<SchemaOf<typeof orders>>();

// set operations: insert-only INTERSECT stays insert-only, MINUS retracts
const both = people.intersect(people);
expectTypeOf<ModeOf<typeof both>>().toEqualTypeOf<"append">();
expectTypeOf<SchemaOf<typeof both>>().toEqualTypeOf<SchemaOf<typeof people>>();
const rest = people.minusAll(people);
expectTypeOf<ModeOf<typeof rest>>().toEqualTypeOf<"retract">();

// ---- errors ---------------------------------------------------------------------------------------
// @ts-expect-error "column 'agee' is not in [age, name]"
people.orderBy($("agee"));
// @ts-expect-error "column 'weight' is not in"
orders.topN(3, { partitionBy: [$("weight")], orderBy: [$("price")] });
// @ts-expect-error "column 'cost' is not in"
orders.topN(3, { orderBy: [$("cost").desc()] });
// @ts-expect-error "topN: the row-number column 'price' already exists"
orders.topN(3, { orderBy: [$("amount")], rowNumber: "price" });
// @ts-expect-error "partitionBy takes column references"
orders.deduplicate({ keys: [$("amount").plus(1)], keep: "first" });
// @ts-expect-error
orders.deduplicate({ keys: [$("product")], keep: "middle" });
const ageAsText = people.addOrReplaceColumns($("age").cast(DataTypes.STRING()).as("age"));
// @ts-expect-error "union: column 'age' is NUMERIC in this table but STRING in the other"
people.intersect(ageAsText);
// @ts-expect-error "union: the other table lacks columns [age]"
people.minus(people.select($("name")));
