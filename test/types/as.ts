// Type tests of as(): renames all columns by position. The compiler knows the column order only for
// positional schemas (f0, f1, ... from fromValues with scalars or Row.of), so as() is typed there and
// needs exactly one name per column. The quoted text after each error directive is the message.
import { expectTypeOf } from "vitest";
import { $, Row } from "../../src/index.js";
import { env, people } from "./fixtures.js";
import type { SchemaOf } from "./helpers.js";

const names = env.fromValues("Bob", "Alice", "Bob").as("name");
expectTypeOf<SchemaOf<typeof names>>().toEqualTypeOf<{ name: string }>();

const pairs = env.fromValues(Row.of("a", 1), Row.of("b", null)).as("key", "value");
expectTypeOf<SchemaOf<typeof pairs>>().toEqualTypeOf<{ key: string; value: number | null }>();
// the renamed columns are checked like any others afterwards
const next = pairs.select($("key"), $("value").plus(1).as("next"));
expectTypeOf<SchemaOf<typeof next>>().toEqualTypeOf<{ key: string; next: number | null }>();

// @ts-expect-error "as() needs one name per column [f0, f1], got 1"
env.fromValues(Row.of("a", 1)).as("key");
// @ts-expect-error "as() needs one name per column [f0], got 2"
env.fromValues("Bob").as("name", "extra");
// @ts-expect-error "as(): name 'k' is given twice"
env.fromValues(Row.of("a", 1)).as("k", "k");
// @ts-expect-error "as() renames columns by position and is typed only for tables built from values (f0, f1, ...)"
people.as("who", "years");
// @ts-expect-error "Expected at least 1 arguments, but got 0"
env.fromValues("Bob").as();
