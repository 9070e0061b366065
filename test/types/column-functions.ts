// Type tests of column functions: $("*"), withColumns / withoutColumns with named columns are typed
// exactly; positions and ranges (whose columns depend on the order) give an untyped schema.
import { expectTypeOf } from "vitest";
import { $, DataTypes, Row, TableEnvironment, range, withColumns, withoutColumns } from "../../src/index.js";
import type { SchemaOf } from "./helpers.js";

const env = TableEnvironment.create();
const t = env.fromValues(
  DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT().notNull()), DataTypes.FIELD("b", DataTypes.STRING()), DataTypes.FIELD("c", DataTypes.DOUBLE())),
  Row.of(1, "x", 2.5),
);

const all = t.select($("*"));
expectTypeOf<SchemaOf<typeof all>>().toEqualTypeOf<{ a: number; b: string | null; c: number | null }>();
const named = t.select(withColumns($("a"), $("c")));
expectTypeOf<SchemaOf<typeof named>>().toEqualTypeOf<{ a: number; c: number | null }>();
const without = t.select(withoutColumns($("b")), $("a").plus(1).as("next"));
expectTypeOf<SchemaOf<typeof without>>().toEqualTypeOf<{ a: number; c: number | null; next: number }>();
// positions and ranges: the columns are known only at run time
const ranged = t.select(withColumns(range(1, 2)));
expectTypeOf<SchemaOf<typeof ranged>>().toEqualTypeOf<Record<string, unknown>>();
const byNames = t.select(withoutColumns(range("a", "b")));
expectTypeOf<SchemaOf<typeof byNames>>().toEqualTypeOf<Record<string, unknown>>();
// in groupBy
const grouped = t.groupBy(withColumns($("a"), $("b"))).select($("a"), $("b"), $("c").sum().as("total"));
expectTypeOf<SchemaOf<typeof grouped>>().toEqualTypeOf<{ a: number; b: string | null; total: number | null }>();

// @ts-expect-error "column 'nope' is not in"
t.select(withColumns($("a"), $("nope")));
// @ts-expect-error "column 'nope' is not in"
t.select(withoutColumns($("nope")));
// @ts-expect-error a range takes two names or two positions
range("a", 2);
