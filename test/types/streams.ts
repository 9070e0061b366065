// Type tests of stream interop: fromAsyncIterable is typed by its schema and checks the rows' shape;
// toReadable gives a Node Readable, declared structurally as RowsReadable of the typed rows.
import { expectTypeOf } from "vitest";
import { DataTypes, type KeyedRow, Row, type RowsReadable, Schema, TableEnvironment } from "../../src/index.js";
import type { ModeOf, SchemaOf } from "./helpers.js";

const env = TableEnvironment.create();
const schema = Schema.newBuilder().column("name", DataTypes.STRING().notNull()).column("ts", DataTypes.TIMESTAMP_LTZ(3)).build();

async function* objects() { yield { name: "a", ts: new Date(0) }; }
const t = env.fromAsyncIterable(schema, objects(), { watermark: { column: "ts", expression: "ts" } });
expectTypeOf<SchemaOf<typeof t>>().toEqualTypeOf<{ name: string; ts: Date | null }>();
expectTypeOf<ModeOf<typeof t>>().toEqualTypeOf<"append">();
env.fromAsyncIterable(schema, [Row.of("a", null), { name: "b" }]);
const c = env.fromChangelogAsyncIterable(schema, [Row.of("a", null)]);
expectTypeOf<ModeOf<typeof c>>().toEqualTypeOf<"retract">();
expectTypeOf(t.execute().toReadable()).toEqualTypeOf<RowsReadable<KeyedRow<{ name: string; ts: Date | null }>>>();
// the value is a real Node Readable, declared structurally (no @types/node needed by consumers)
expectTypeOf(t.execute().toReadable()).toMatchTypeOf<AsyncIterable<unknown>>();

// @ts-expect-error a row without the NOT NULL column 'name'
env.fromAsyncIterable(schema, [{ ts: new Date(0) }]);
// @ts-expect-error a value of the wrong type
env.fromAsyncIterable(schema, [{ name: 1 }]);
// @ts-expect-error the watermark column must be a column of the schema
env.fromAsyncIterable(schema, [], { watermark: { column: "nope", expression: "nope" } });
