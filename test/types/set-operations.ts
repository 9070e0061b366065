// Type tests of distinct(), unionAll() and union(): schemas must agree by column name and type family;
// a column is nullable in the result if it is in either input; the changelog kind combines (an
// updating input makes an updating result). The quoted text after each error directive is the message.
import { expectTypeOf } from "vitest";
import { $, DataTypes, Row } from "../../src/index.js";
import { env, orders, people } from "./fixtures.js";
import type { ModeOf, SchemaOf } from "./helpers.js";

const strict = env.fromValues(
  DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING().notNull()), DataTypes.FIELD("age", DataTypes.INT().notNull())),
  Row.of("Carol", 40),
);

// distinct keeps an insert-only table insert-only, and an updating one updating
const d = people.distinct();
expectTypeOf<SchemaOf<typeof d>>().toEqualTypeOf<SchemaOf<typeof people>>();
expectTypeOf<ModeOf<typeof d>>().toEqualTypeOf<"append">();
const counts = orders.groupBy($("product")).select($("product"), $("amount").count().as("n"));
const distinctCounts = counts.distinct();
expectTypeOf<ModeOf<typeof distinctCounts>>().toEqualTypeOf<"retract">();

// union of NOT NULL and nullable columns is nullable; insert-only inputs give an insert-only result
const all = strict.unionAll(people);
expectTypeOf<SchemaOf<typeof all>>().toEqualTypeOf<{ name: string | null; age: number | null }>();
expectTypeOf<ModeOf<typeof all>>().toEqualTypeOf<"append">();
const strictOnly = strict.union(strict);
expectTypeOf<SchemaOf<typeof strictOnly>>().toEqualTypeOf<{ name: string; age: number }>();
expectTypeOf<ModeOf<typeof strictOnly>>().toEqualTypeOf<"append">();

// an updating input makes the union updating
const named = counts.select($("product").as("name"), $("n").as("age"));
const mixed = people.unionAll(named);
expectTypeOf<ModeOf<typeof mixed>>().toEqualTypeOf<"retract">();
const mixedSet = people.union(named);
expectTypeOf<ModeOf<typeof mixedSet>>().toEqualTypeOf<"retract">();

// ---- errors ---------------------------------------------------------------------------------------
const onlyNames = people.select($("name"));
const withCity = people.addColumns($("name").as("city"));
const ageAsText = people.addOrReplaceColumns($("age").cast(DataTypes.STRING()).as("age"));
// @ts-expect-error "union: the other table lacks columns [age]"
people.unionAll(onlyNames);
// @ts-expect-error "union: the other table has columns this one lacks: [city]"
people.union(withCity);
// @ts-expect-error "union: column 'age' is NUMERIC in this table but STRING in the other"
people.unionAll(ageAsText);
