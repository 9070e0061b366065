// Type tests of the joins: the result is both schemas (the padded side of an outer join nullable), a column
// name on both sides is an error, the predicate is checked against both schemas, and the changelog kind says
// whether the result retracts. The quoted text after each error directive is the message.
import { expectTypeOf } from "vitest";
import { $, CollectionSource, DataTypes, Row, Schema, call, lit } from "../../src/index.js";
import { env, orders, people } from "./fixtures.js";
import type { ModeOf, SchemaOf } from "./helpers.js";

const customers = env.fromValues(
  DataTypes.ROW(DataTypes.FIELD("customer", DataTypes.STRING().notNull()), DataTypes.FIELD("city", DataTypes.STRING())),
  Row.of("Alice", "Paris"),
);

const inner = people.join(customers, $("name").isEqual($("customer")));
expectTypeOf<SchemaOf<typeof inner>>().toEqualTypeOf<{ name: string | null; age: number | null; customer: string; city: string | null }>();
expectTypeOf<ModeOf<typeof inner>>().toEqualTypeOf<"append">();

const left = people.leftOuterJoin(customers, $("name").isEqual($("customer")));
expectTypeOf<SchemaOf<typeof left>>().toEqualTypeOf<{ name: string | null; age: number | null; customer: string | null; city: string | null }>();
expectTypeOf<ModeOf<typeof left>>().toEqualTypeOf<"retract">();

const right = orders.rightOuterJoin(customers, $("product").isEqual($("customer")));
expectTypeOf<SchemaOf<typeof right>["order_id"]>().toEqualTypeOf<number | null>();
expectTypeOf<SchemaOf<typeof right>["customer"]>().toEqualTypeOf<string>();

const full = orders.fullOuterJoin(customers, $("product").isEqual($("customer")));
expectTypeOf<SchemaOf<typeof full>["amount"]>().toEqualTypeOf<number | null>();
expectTypeOf<SchemaOf<typeof full>["customer"]>().toEqualTypeOf<string | null>();

// join(...).where(...) and a cross join
const cross = people.join(customers).where($("age").isGreater(30));
expectTypeOf<SchemaOf<typeof cross>>().toEqualTypeOf<SchemaOf<typeof inner>>();

// an inner join of an updating table retracts
const counts = people.groupBy($("name")).select($("name").as("who"), $("age").count().as("n"));
expectTypeOf<ModeOf<ReturnType<typeof counts.join<SchemaOf<typeof customers>, "append">>>>().toEqualTypeOf<"retract">();

// @ts-expect-error "column 'name' exists on both sides of the join; rename one of them (renameColumns or as)"
people.join(people);
// @ts-expect-error "column 'name' exists on both sides of the join"
people.leftOuterJoin(people, $("age").isEqual($("age")));
// @ts-expect-error "column 'nme' is not in"
people.join(customers, $("nme").isEqual($("customer")));
// @ts-expect-error "the filter condition must be BOOLEAN, got NUMERIC"
people.join(customers, $("age").plus(1));
// @ts-expect-error "cannot compare"
people.join(customers, $("age").isEqual($("customer")));
// @ts-expect-error "Expected 2 arguments, but got 1"
people.rightOuterJoin(customers);
people.leftOuterJoin(customers);

// temporal table functions: a column of the versioned table; joinLateral adds its columns
const ratesSchema = Schema.newBuilder().column("currency", DataTypes.STRING()).column("rate", DataTypes.BIGINT())
  .column("rate_time", DataTypes.TIMESTAMP(3)).watermark("rate_time", "`rate_time`").build();
const rates = env.fromValues(ratesSchema, []).createTemporalTableFunction($("rate_time"), $("currency"));
const ordersSchema = Schema.newBuilder().column("order_currency", DataTypes.STRING()).column("amount", DataTypes.BIGINT())
  .column("order_time", DataTypes.TIMESTAMP(3)).watermark("order_time", "`order_time`").build();
const converted = env.fromValues(ordersSchema, []).joinLateral(call(rates, $("order_time")), $("order_currency").isEqual($("currency")));
expectTypeOf<SchemaOf<typeof converted>["rate"]>().toEqualTypeOf<number | null>();
// registered by name for SQL's LATERAL TABLE (Rates(o.rowtime)), as Flink's createTemporarySystemFunction
env.createTemporaryFunction("Rates", rates);
// @ts-expect-error "column 'currncy' is not in the table"
env.fromValues(ratesSchema, []).createTemporalTableFunction($("rate_time"), $("currncy"));
// @ts-expect-error "argument 1 of the function: expected TIMESTAMP, got NUMERIC"
env.fromValues(ordersSchema, []).joinLateral(call(rates, $("amount")), $("order_currency").isEqual($("currency")));

// lookup functions: key columns of the source, typed arguments
const dim = new CollectionSource("customers", DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT().notNull()), DataTypes.FIELD("tier", DataTypes.STRING())));
const byId = dim.lookupFunction("id");
const enriched = orders.leftOuterJoinLateral(call(byId, $("order_id")), $("tier").isNotNull());
expectTypeOf<SchemaOf<typeof enriched>["tier"]>().toEqualTypeOf<string | null>();
expectTypeOf<SchemaOf<typeof enriched>["id"]>().toEqualTypeOf<number | null>();
// @ts-expect-error "argument 1 of the function: expected NUMERIC, got STRING"
orders.joinLateral(call(byId, $("product")));
// @ts-expect-error
dim.lookupFunction("idd");
void lit;
