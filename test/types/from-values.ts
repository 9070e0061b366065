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
declare const someRows: Record<string, unknown>[];
const spread = env.fromValues(rowType, ...someRows);
expectTypeOf<SchemaOf<typeof spread>>().toEqualTypeOf<Expected>();
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
