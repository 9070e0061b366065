// Type tests of Table.toSql() and StatementSet.toSql(): a string for any table, updating or not; a grouped
// table (not yet a table) has no SQL text, and toSql takes no arguments.
import { expectTypeOf } from "vitest";
import { $, type StatementSet } from "../../src/index.js";
import { orders, people } from "./fixtures.js";

expectTypeOf(people.filter($("age").isGreaterOrEqual(18)).toSql()).toEqualTypeOf<string>();
expectTypeOf(orders.groupBy($("product")).select($("product"), $("amount").sum().as("total")).toSql()).toEqualTypeOf<string>();
expectTypeOf<StatementSet["toSql"]>().toEqualTypeOf<() => string>();

// @ts-expect-error "Property 'toSql' does not exist on type 'GroupedTable<"
void orders.groupBy($("product")).toSql();
// @ts-expect-error "Expected 0 arguments"
void people.toSql("pretty");

// StatementSet.explain(): the plan, or with { sql: true } the plan and the set as Flink SQL
expectTypeOf<StatementSet["explain"]>().toEqualTypeOf<(options?: { readonly sql?: boolean }) => string>();
declare const set: StatementSet;
// @ts-expect-error "Type 'string' is not assignable to type 'boolean"
void set.explain({ sql: "yes" });
// @ts-expect-error "type '{ readonly sql?: boolean | undefined; }'"
void set.explain({ format: "sql" });
