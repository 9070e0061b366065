// Type tests of fromValues(): with an explicit ROW type (rows as Row.of(...) or objects) the schema is
// the ROW's fields; without one it is inferred from the values: scalars give column f0, Row.of(...)
// gives f0..fn, plain objects give their keys. A column is `T | null` exactly when a value is null.
import { expectTypeOf } from "vitest";
import { DataTypes, type Decimal, Row } from "../../src/index.js";
import { env } from "./fixtures.js";
import type { ModeOf, SchemaOf } from "./helpers.js";

// ---- explicit ROW type -----------------------------------------------------------------------------
const rowType = DataTypes.ROW(
  DataTypes.FIELD("name", DataTypes.STRING().notNull()),
  DataTypes.FIELD("age", DataTypes.INT()),
  DataTypes.FIELD("price", DataTypes.DECIMAL(10, 2)),
  DataTypes.FIELD("at", DataTypes.TIMESTAMP(3)),
);
type Expected = { name: string; age: number | null; price: Decimal | null; at: Date | null };
const fromRows = env.fromValues(rowType, Row.of("Alice", 35, "1.50", null), Row.of("Bob", null, null, null));
expectTypeOf<SchemaOf<typeof fromRows>>().toEqualTypeOf<Expected>();
expectTypeOf<ModeOf<typeof fromRows>>().toEqualTypeOf<"append">();
const fromObjects = env.fromValues(rowType, { name: "Alice", age: 35 }, { name: "Bob", age: null, price: null, at: null });
expectTypeOf<SchemaOf<typeof fromObjects>>().toEqualTypeOf<Expected>();
// rows given as an array variable still take the ROW type
declare const someRows: { name: string; age?: number | null; price?: string | null }[];
const spread = env.fromValues(rowType, ...someRows);
expectTypeOf<SchemaOf<typeof spread>>().toEqualTypeOf<Expected>();
const collection = env.fromValues(rowType, someRows);
expectTypeOf<SchemaOf<typeof collection>>().toEqualTypeOf<Expected>();
// row values are checked against the column types (DECIMAL also takes numeric strings, TIMESTAMP strings / millis)
env.fromValues(rowType, { name: "Alice", age: 1, price: "1.50", at: "2024-01-01 00:00:00" });
// @ts-expect-error a STRING value for an INT column
env.fromValues(rowType, { name: "Alice", age: "35" });
// @ts-expect-error a NOT NULL column left out
env.fromValues(rowType, { age: 35 });
// untyped records (e.g. parsed JSON) must be given a row type first: the compiler cannot check unknown values
declare const untyped: Record<string, unknown>[];
// @ts-expect-error Record<string, unknown> rows
env.fromValues(rowType, ...untyped);
// @ts-expect-error "'nmae' does not exist in type"
env.fromValues(rowType, { nmae: "Alice" });

// ---- inferred: scalars -> f0 ---------------------------------------------------------------------------
const ints = env.fromValues(1, 2, 3);
expectTypeOf<SchemaOf<typeof ints>>().toEqualTypeOf<{ f0: number }>();
const strings = env.fromValues("Bob", "Alice");
expectTypeOf<SchemaOf<typeof strings>>().toEqualTypeOf<{ f0: string }>();
const withNull = env.fromValues(1, null, 3);
expectTypeOf<SchemaOf<typeof withNull>>().toEqualTypeOf<{ f0: number | null }>();
const flags = env.fromValues(true, false);
expectTypeOf<SchemaOf<typeof flags>>().toEqualTypeOf<{ f0: boolean }>();
const dates = env.fromValues(new Date(0), null);
expectTypeOf<SchemaOf<typeof dates>>().toEqualTypeOf<{ f0: Date | null }>();

// ---- inferred: Row.of -> f0..fn -----------------------------------------------------------------------
const positional = env.fromValues(Row.of("a", 1, true), Row.of("b", null, false));
expectTypeOf<SchemaOf<typeof positional>>().toEqualTypeOf<{ f0: string; f1: number | null; f2: boolean }>();

// ---- inferred: objects -> their keys ------------------------------------------------------------------
const objects = env.fromValues({ name: "Alice", age: 35 }, { name: "Bob", age: null });
expectTypeOf<SchemaOf<typeof objects>>().toEqualTypeOf<{ name: string; age: number | null }>();
const notNull = env.fromValues({ id: 1, ok: true });
expectTypeOf<SchemaOf<typeof notNull>>().toEqualTypeOf<{ id: number; ok: boolean }>();
