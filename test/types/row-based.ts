// Type tests of the row-based operations: map / flatMap / aggregate / flatAggregate. A function's ROW
// result becomes the columns (exact types), aliases rename them, wrong calls are compile errors.
import { expectTypeOf } from "vitest";
import {
  $, AggregateFunction, DataTypes, EnvironmentSettings, Row, ScalarFunction, TableAggregateFunction, TableEnvironment, TableFunction, call,
} from "../../src/index.js";
import type { ModeOf, SchemaOf } from "./helpers.js";

const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const t = env.fromValues(
  DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING().notNull()), DataTypes.FIELD("v", DataTypes.INT().notNull()), DataTypes.FIELD("s", DataTypes.STRING())),
  Row.of("a", 1, "x"),
);

const Pair = ScalarFunction.define({
  args: [DataTypes.STRING().notNull()],
  result: DataTypes.ROW(DataTypes.FIELD("left", DataTypes.STRING().notNull()), DataTypes.FIELD("n", DataTypes.INT())).notNull(),
  eval: (s) => ({ left: s, n: s.length }),
});
const MaybePair = ScalarFunction.define({
  args: [DataTypes.INT().notNull()],
  result: DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT().notNull())),
  eval: (v) => (v > 0 ? { a: v } : null),
});
const Words = TableFunction.define({
  args: [DataTypes.STRING().notNull()],
  result: DataTypes.ROW(DataTypes.FIELD("word", DataTypes.STRING().notNull()), DataTypes.FIELD("pos", DataTypes.INT().notNull())),
  eval(out, s) { out.collect(Row.of(s, 0)); },
});
const MinMax = AggregateFunction.define({
  args: [DataTypes.INT().notNull()],
  result: DataTypes.ROW(DataTypes.FIELD("lo", DataTypes.INT()), DataTypes.FIELD("hi", DataTypes.INT())).notNull(),
  createAccumulator: () => ({ lo: 0, hi: 0 }),
  accumulate(acc, v) { acc.lo = Math.min(acc.lo, v); acc.hi = Math.max(acc.hi, v); },
  getValue: (acc) => ({ lo: acc.lo, hi: acc.hi }),
});
const Top2 = TableAggregateFunction.define({
  args: [DataTypes.INT().notNull()],
  result: DataTypes.ROW(DataTypes.FIELD("value", DataTypes.INT().notNull()), DataTypes.FIELD("rank", DataTypes.INT().notNull())),
  createAccumulator: () => ({ first: null as number | null }),
  accumulate(acc, v) {
    expectTypeOf(v).toEqualTypeOf<number>();
    acc.first = v;
  },
  emitValue(acc, out) {
    if (acc.first !== null) out.collect(Row.of(acc.first, 1));
    out.collect({ value: 1, rank: 2 });
    // @ts-expect-error a row object must have the declared fields
    out.collect({ value: 1 });
  },
  emitUpdateWithRetract(_acc, out) {
    out.retract(Row.of(1, 1));
  },
});

// ---- map -------------------------------------------------------------------------------------------
const mapped = t.map(call(Pair, $("k")));
expectTypeOf<SchemaOf<typeof mapped>>().toEqualTypeOf<{ left: string; n: number | null }>();
expectTypeOf<ModeOf<typeof mapped>>().toEqualTypeOf<"append">();
// a nullable ROW result: every field may be NULL
const maybe = t.map(call(MaybePair, $("v")));
expectTypeOf<SchemaOf<typeof maybe>>().toEqualTypeOf<{ a: number | null }>();
// a single field renamed is typed exactly; a non-ROW result is _c0 or its alias
const renamed = t.map(call(MaybePair, $("v")).as("b"));
expectTypeOf<SchemaOf<typeof renamed>>().toEqualTypeOf<{ b: number | null }>();
const plusOne = t.map($("v").plus(1));
expectTypeOf<SchemaOf<typeof plusOne>>().toEqualTypeOf<{ _c0: number }>();
const named = t.map($("v").plus(1).as("next"));
expectTypeOf<SchemaOf<typeof named>>().toEqualTypeOf<{ next: number }>();
// several aliases of a ROW with several fields: the names are known, the order of the fields is not
const twoAliases = t.map(call(Pair, $("k")).as("x", "y"));
expectTypeOf<SchemaOf<typeof twoAliases>>().toEqualTypeOf<{ x: unknown; y: unknown }>();
// @ts-expect-error "argument 1 of the function: expected STRING, got NUMERIC"
t.map(call(Pair, $("v")));
// @ts-expect-error "column 'nope' is not in"
t.map(call(Pair, $("nope")));
// @ts-expect-error "map takes a scalar function call, not an aggregate; use aggregate(...)"
t.map($("v").sum());
// @ts-expect-error "map takes a scalar function call; use flatMap(...) for a table function"
t.map(call(Words, $("k")));

// ---- flatMap ---------------------------------------------------------------------------------------
const flat = t.flatMap(call(Words, $("k")));
expectTypeOf<SchemaOf<typeof flat>>().toEqualTypeOf<{ word: string; pos: number }>();
// the function's columns may repeat input names: only they remain
const sameNames = t.select($("k").as("word")).flatMap(call(Words, $("word")));
expectTypeOf<SchemaOf<typeof sameNames>>().toEqualTypeOf<{ word: string; pos: number }>();
const byName = t.flatMap(call("words", $("k")).as("w", "p"));
expectTypeOf<SchemaOf<typeof byName>>().toEqualTypeOf<{ w: unknown; p: unknown }>();
// @ts-expect-error "argument 1 of the function: expected STRING, got NUMERIC"
t.flatMap(call(Words, $("v")));
// @ts-expect-error "flatMap takes a table function call"
t.flatMap(call(Pair, $("k")));

// ---- aggregate -------------------------------------------------------------------------------------
const ranges = t.groupBy($("k")).aggregate(call(MinMax, $("v"))).select($("k"), $("lo"), $("hi"));
expectTypeOf<SchemaOf<typeof ranges>>().toEqualTypeOf<{ k: string; lo: number | null; hi: number | null }>();
expectTypeOf<ModeOf<typeof ranges>>().toEqualTypeOf<"retract">();
const global = t.aggregate(call(MinMax, $("v"))).select($("hi").minus($("lo")).as("spread"));
expectTypeOf<SchemaOf<typeof global>>().toEqualTypeOf<{ spread: number | null }>();
// only keys and the aggregate's columns remain
// @ts-expect-error "column 'v' is not in"
t.groupBy($("k")).aggregate(call(MinMax, $("v"))).select($("v"));
// @ts-expect-error "aggregate takes an aggregate function call"
t.groupBy($("k")).aggregate(call(Pair, $("k")));

// ---- flatAggregate ---------------------------------------------------------------------------------
const top2 = t.groupBy($("k")).flatAggregate(call(Top2, $("v"))).select($("k"), $("value"), $("rank"));
expectTypeOf<SchemaOf<typeof top2>>().toEqualTypeOf<{ k: string; value: number; rank: number }>();
expectTypeOf<ModeOf<typeof top2>>().toEqualTypeOf<"retract">();
const globalTop = t.flatAggregate(call(Top2, $("v"))).select($("rank"));
expectTypeOf<SchemaOf<typeof globalTop>>().toEqualTypeOf<{ rank: number }>();
// @ts-expect-error "argument 1 of the function: expected NUMERIC, got STRING"
t.groupBy($("k")).flatAggregate(call(Top2, $("k")));
// @ts-expect-error "flatAggregate takes a table aggregate function call"
t.groupBy($("k")).flatAggregate(call(MinMax, $("v")));
// @ts-expect-error "a table aggregate function call can only be used in flatAggregate"
t.select(call(Top2, $("v")));
