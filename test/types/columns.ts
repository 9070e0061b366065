// Type tests of the column operations addColumns, addOrReplaceColumns, renameColumns and dropColumns:
// exact result schemas, and compile errors (quoted after each error directive, see messages.test.ts)
// for unknown columns, existing or duplicate names, and malformed items.
import { expectTypeOf } from "vitest";
import { $, DataTypes, type Decimal, lit } from "../../src/index.js";
import { orders, people } from "./fixtures.js";
import type { ModeOf, SchemaOf } from "./helpers.js";

// ---- addColumns -----------------------------------------------------------------------------------
const added = people.addColumns($("age").plus(1).as("next"), lit("x").as("tag"));
expectTypeOf<SchemaOf<typeof added>>().toEqualTypeOf<{ name: string | null; age: number | null; next: number | null; tag: string }>();
expectTypeOf<ModeOf<typeof added>>().toEqualTypeOf<"append">();
const cost = orders.addColumns($("price").times($("amount")).as("cost")).addColumns($("cost").isNull().as("unknown"));
expectTypeOf<SchemaOf<typeof cost>>().toEqualTypeOf<{
  order_id: number; product: string; amount: number; price: Decimal | null; paid: boolean; created_at: Date | null;
  cost: Decimal | null; unknown: boolean;
}>();

// @ts-expect-error "column 'age' already exists; use addOrReplaceColumns"
people.addColumns($("age").plus(1).as("age"));
// @ts-expect-error "column 'name' already exists; use addOrReplaceColumns"
people.addColumns($("name"));
// @ts-expect-error "addColumns: name the new column with .as(\"name\")"
people.addColumns($("age").plus(1));
// @ts-expect-error "output column 'x' appears more than once"
people.addColumns($("age").plus(1).as("x"), $("age").plus(2).as("x"));
// @ts-expect-error "column 'agee' is not in [age, name]"
people.addColumns($("agee").plus(1).as("x"));
// @ts-expect-error "arithmetic needs NUMERIC operands, got STRING and NUMERIC"
people.addColumns($("name").plus(1).as("x"));
// @ts-expect-error "aggregate functions are not allowed in addColumns"
people.addColumns($("age").sum().as("total"));

// ---- addOrReplaceColumns ------------------------------------------------------------------------------
// a replaced column takes the new expression's type; a new name is appended
const replaced = people.addOrReplaceColumns($("age").cast(DataTypes.STRING()).as("age"), $("name").charLength().as("len"));
expectTypeOf<SchemaOf<typeof replaced>>().toEqualTypeOf<{ name: string | null; age: string | null; len: number | null }>();
const sameName = orders.addOrReplaceColumns($("amount").times(2).as("amount"));
expectTypeOf<SchemaOf<typeof sameName>>().toEqualTypeOf<SchemaOf<typeof orders>>();

// @ts-expect-error "column 'agee' is not in [age, name]"
people.addOrReplaceColumns($("agee").as("age"));
// @ts-expect-error "output column 'age' appears more than once"
people.addOrReplaceColumns($("age").plus(1).as("age"), $("age").plus(2).as("age"));
// (the run time rejects it too: test/table/add-or-replace-columns.test.ts) ...
// ... but a name known only at run time is checked there, not taken for a duplicate of every other name
declare const someName: string;
people.addOrReplaceColumns($("age").plus(1).as(someName), $("name").upperCase().as("upper"));
people.select($("age").as(someName), $("name"));
// @ts-expect-error "addOrReplaceColumns: name the new column with .as(\"name\")"
people.addOrReplaceColumns($("age").plus(1));

// ---- renameColumns -----------------------------------------------------------------------------------
const renamed = people.renameColumns($("name").as("who"));
expectTypeOf<SchemaOf<typeof renamed>>().toEqualTypeOf<{ who: string | null; age: number | null }>();
// names may be swapped: only the result must have unique names
const swapped = people.renameColumns($("name").as("age"), $("age").as("name"));
expectTypeOf<SchemaOf<typeof swapped>>().toEqualTypeOf<{ age: string | null; name: number | null }>();

// @ts-expect-error "column 'agee' is not in [age, name]"
people.renameColumns($("agee").as("x"));
// @ts-expect-error "column 'age' already exists"
people.renameColumns($("name").as("age"));
// @ts-expect-error "renameColumns takes items of the form $(\"old\").as(\"new\")"
people.renameColumns($("age").plus(1).as("x"));
// @ts-expect-error "renameColumns takes items of the form $(\"old\").as(\"new\")"
people.renameColumns($("age"));
// @ts-expect-error "column 'age' is renamed twice"
people.renameColumns($("age").as("a"), $("age").as("b"));
// @ts-expect-error "two columns are renamed to 'x'"
people.renameColumns($("age").as("x"), $("name").as("x"));

// ---- dropColumns -------------------------------------------------------------------------------------
const dropped = orders.dropColumns($("price"), $("created_at"));
expectTypeOf<SchemaOf<typeof dropped>>().toEqualTypeOf<{ order_id: number; product: string; amount: number; paid: boolean }>();

// @ts-expect-error "column 'agee' is not in [age, name]"
people.dropColumns($("agee"));
// @ts-expect-error "dropColumns cannot drop every column"
people.dropColumns($("name"), $("age"));
// @ts-expect-error "dropColumns takes column references $(\"name\")"
people.dropColumns($("age").as("a"));
