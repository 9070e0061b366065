// Type tests of results and of the changelog kind in a Table's type: execute().toArray() and
// collect() yield rows typed by the schema (flattened, kind attached); Table<S, "append"> vs
// Table<S, "retract"> is part of the type, so an updating table cannot pass for an insert-only one.
import { expectTypeOf } from "vitest";
import { $, type ChangelogKind, type KeyedRow, Row, type RowKind, type Table } from "../../src/index.js";
import { orders, people } from "./fixtures.js";

// ---- rows ------------------------------------------------------------------------------------------
async function rows(): Promise<void> {
  const adults = people.filter($("age").isGreaterOrEqual(18)).select($("name"), $("age").plus(1).as("next"));
  const all = await adults.execute().toArray();
  expectTypeOf(all).toEqualTypeOf<KeyedRow<{ name: string | null; next: number | null }>[]>();
  const first = all[0]!;
  expectTypeOf(first.name).toEqualTypeOf<string | null>();
  expectTypeOf(first.next).toEqualTypeOf<number | null>();
  expectTypeOf(Row.kindOf(first)).toEqualTypeOf<RowKind>();
  // @ts-expect-error "Property 'age' does not exist"
  void first.age;

  for await (const r of orders.groupBy($("product")).select($("product"), $("amount").sum().as("total")).execute().collect()) {
    expectTypeOf(r).toEqualTypeOf<KeyedRow<{ product: string; total: number | null }>>();
  }
  // rows of a chain ending in an intersection-built schema are flat objects
  const wide = await orders.addColumns($("amount").times(2).as("twice")).dropColumns($("price")).execute().toArray();
  expectTypeOf(wide[0]!.twice).toEqualTypeOf<number>();
}
void rows;

// ---- the changelog kind is part of the type --------------------------------------------------------------
type People = { name: string | null; age: number | null };
const appendOnly: Table<People, "append"> = people;
const anyKind: Table<People> = appendOnly; // Table<S> means "any changelog kind"
const asObject: Table<object, ChangelogKind> = people; // every table is a Table<object>
void anyKind; void asObject;

const totals = people.groupBy($("name")).select($("name"), $("age").sum().as("total"));
const retracting: Table<{ name: string | null; total: number | null }, "retract"> = totals;
void retracting;
// @ts-expect-error "Type '"retract"' is not assignable to type '"append"'"
const notAppend: Table<{ name: string | null; total: number | null }, "append"> = totals;
void notAppend;

/** Something that only accepts insert-only tables, as a sink that cannot take updates would. */
declare function appendSink<S extends object>(t: Table<S, "append">): void;
appendSink(people.select($("name")));
appendSink(people.distinct().unionAll(people));
// @ts-expect-error ""retract">' is not assignable to parameter of type 'Table<"
appendSink(totals);
// @ts-expect-error ""retract">' is not assignable to parameter of type 'Table<"
appendSink(totals.filter($("total").isGreater(1)).distinct());
// @ts-expect-error ""retract">' is not assignable to parameter of type 'Table<"
appendSink(people.select($("age").count().as("n")));

// ---- batch consumers: batches() and forEachBatch() -----------------------------------------------------
async function batchConsumers(): Promise<void> {
  const totalsResult = orders.groupBy($("product")).select($("product"), $("amount").sum().as("total")).execute();
  for await (const batch of totalsResult.batches()) {
    expectTypeOf(batch).toEqualTypeOf<KeyedRow<{ product: string; total: number | null }>[]>();
    expectTypeOf(Row.kindOf(batch[0]!)).toEqualTypeOf<RowKind>();
    // @ts-expect-error "Property 'amount' does not exist"
    void batch[0]!.amount;
  }
  const adults = people.select($("name"), $("age"));
  const done = adults.execute().forEachBatch((rows) => {
    expectTypeOf(rows).toEqualTypeOf<KeyedRow<{ name: string | null; age: number | null }>[]>();
  });
  expectTypeOf(done).toEqualTypeOf<Promise<void>>();
  // an async callback is awaited (backpressure)
  await adults.execute().forEachBatch(async (rows) => { await Promise.resolve(rows.length); });
  // @ts-expect-error "is not assignable to type 'string'"
  await adults.execute().forEachBatch((rows: string) => rows);
}
void batchConsumers;
