// Type tests of the columnar result: execute().columnBatches() yields batches whose columns are typed from
// the row type — NOT NULL numbers as typed arrays (NumberColumn), everything else as arrays of its values.
import { expectTypeOf } from "vitest";
import { $, type ColumnBatch, type ColumnOf, type NumberColumn } from "../../src/index.js";
import { orders, people } from "./fixtures.js";

async function columns(): Promise<void> {
  for await (const b of orders.execute().columnBatches()) {
    expectTypeOf(b.length).toEqualTypeOf<number>();
    expectTypeOf(b.kinds).toEqualTypeOf<Uint8Array>();
    expectTypeOf(b.columns.order_id).toEqualTypeOf<NumberColumn>();
    expectTypeOf(b.columns.amount).toEqualTypeOf<Int32Array | Float64Array>();
    expectTypeOf(b.columns.product).toEqualTypeOf<string[]>();
    expectTypeOf(b.columns.paid).toEqualTypeOf<boolean[]>();
    expectTypeOf(b.columns.created_at).toEqualTypeOf<(Date | null)[]>();
    const first: number = b.columns.amount[0]!;
    void first;
    // @ts-expect-error "Property 'nope' does not exist"
    void b.columns.nope;
    // @ts-expect-error "Type 'string' is not assignable to type 'number'"
    b.columns.amount[0] = "3";
    // @ts-expect-error "Cannot assign to 'amount' because it is a read-only property"
    b.columns.amount = new Int32Array(1);
  }

  // nullable numbers are arrays that can hold null
  const next = people.select($("name"), $("age").plus(1).as("next"));
  for await (const b of next.execute().columnBatches()) {
    expectTypeOf(b).toEqualTypeOf<ColumnBatch<{ name: string | null; next: number | null }>>();
    expectTypeOf(b.columns.next).toEqualTypeOf<(number | null)[]>();
  }

  // an updating result has the same batch type; the kinds say which rows retract
  const totals = orders.groupBy($("product")).select($("product"), $("amount").count().as("n"));
  for await (const b of totals.execute().columnBatches()) {
    expectTypeOf(b.columns.n).toEqualTypeOf<NumberColumn>();
    expectTypeOf(b.columns.product).toEqualTypeOf<string[]>();
  }
}
void columns;

expectTypeOf<ColumnOf<number>>().toEqualTypeOf<NumberColumn>();
expectTypeOf<ColumnOf<number | null>>().toEqualTypeOf<(number | null)[]>();
expectTypeOf<ColumnOf<string>>().toEqualTypeOf<string[]>();
