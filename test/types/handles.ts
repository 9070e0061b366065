// Type tests of typed handles (issue 9): createTemporaryView / createTable / createTemporaryTable return a
// handle, and env.from(handle) is typed as the table was registered (schema and changelog kind), so its
// columns are checked; env.from("name") stays untyped. The quoted text is the message (messages.test.ts).
import { expectTypeOf } from "vitest";
import {
  $, type Batch, DataTypes, EnvironmentSettings, Row, Schema, TableDescriptor, TableEnvironment, type TableHandle,
} from "../../src/index.js";
import type { ModeOf, SchemaOf } from "./helpers.js";

const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const people = env.fromValues(DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("age", DataTypes.INT())), Row.of("Alice", 35));

const view = env.createTemporaryView("People", people);
expectTypeOf(view).toEqualTypeOf<TableHandle<"People", { name: string | null; age: number | null }, "append">>();
expectTypeOf(view.name).toEqualTypeOf<"People">();
const fromView = env.from(view);
expectTypeOf<SchemaOf<typeof fromView>>().toEqualTypeOf<{ name: string | null; age: number | null }>();
expectTypeOf<ModeOf<typeof fromView>>().toEqualTypeOf<"append">();
const adults = env.from(view).filter($("age").isGreaterOrEqual(18)).select($("name"));
expectTypeOf<SchemaOf<typeof adults>>().toEqualTypeOf<{ name: string | null }>();
// @ts-expect-error "column 'agee' is not in [age, name]"
env.from(view).select($("agee"));

// an updating view keeps its kind
const counts = env.createTemporaryView("Counts", people.groupBy($("name")).select($("name"), $("age").count().as("n")));
const fromCounts = env.from(counts);
expectTypeOf<ModeOf<typeof fromCounts>>().toEqualTypeOf<"retract">();

// connector tables: typed by the descriptor's schema; in a batch environment insert-only (Batch)
const schema = Schema.newBuilder().column("id", "INT NOT NULL").column("label", DataTypes.STRING()).build();
const gen = TableDescriptor.forConnector("datagen").schema(schema).option("number-of-rows", "3").build();
const table = env.createTable("Gen", gen);
const fromTable = env.from(table);
expectTypeOf<SchemaOf<typeof fromTable>>().toEqualTypeOf<{ id: number; label: string | null }>();
expectTypeOf<ModeOf<typeof fromTable>>().toEqualTypeOf<"append">();
// @ts-expect-error "column 'lable' is not in [id, label]"
env.from(env.createTemporaryTable("Gen2", gen)).select($("lable"));
const batchEnv = TableEnvironment.create(EnvironmentSettings.inBatchMode());
const batchTable = batchEnv.from(batchEnv.createTable("Gen", gen));
expectTypeOf<ModeOf<typeof batchTable>>().toEqualTypeOf<Batch>();

// by name: untyped, as before
const byName = env.from("People");
expectTypeOf<SchemaOf<typeof byName>>().toEqualTypeOf<Record<string, unknown>>();
// a handle is not a name
// @ts-expect-error a handle's name is a string; a string is not a handle
const notAHandle: TableHandle<"People"> = "People";
void notAHandle;
