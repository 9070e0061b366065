// Type tests of user-defined function calls (issue 3): `call(fn, ...)` with a function object is typed
// from its declaration — argument families and counts are checked, the result type is exact, and a
// NOT NULL parameter given a nullable argument makes the result nullable. Checked by `tsc --noEmit`.
import { expectTypeOf } from "vitest";
import {
  $, AggregateFunction, call, DataTypes, EnvironmentSettings, lit, Row, ScalarFunction, TableEnvironment, TableFunction,
} from "../../src/index.js";
import type { ModeOf, SchemaOf } from "./helpers.js";

const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const t = env.fromValues(
  DataTypes.ROW(
    DataTypes.FIELD("id", DataTypes.INT().notNull()),
    DataTypes.FIELD("name", DataTypes.STRING()),
    DataTypes.FIELD("tags", DataTypes.STRING().notNull()),
    DataTypes.FIELD("ts", DataTypes.TIMESTAMP(3)),
  ),
  Row.of(1, "a", "x,y", null),
);

// ---- declarations infer eval's parameter and return types ------------------------------------------
const Hash = ScalarFunction.define({
  args: [DataTypes.STRING().notNull()],
  result: DataTypes.STRING().notNull(),
  eval: (s) => {
    expectTypeOf(s).toEqualTypeOf<string>();
    return s.toUpperCase();
  },
});
const Plus = ScalarFunction.define({
  args: [DataTypes.INT(), DataTypes.INT().notNull()],
  result: DataTypes.BIGINT(),
  eval: (a, b) => {
    expectTypeOf(a).toEqualTypeOf<number | null>();
    expectTypeOf(b).toEqualTypeOf<number>();
    return a === null ? null : a + b;
  },
});
ScalarFunction.define({
  args: [DataTypes.INT()],
  result: DataTypes.STRING(),
  // @ts-expect-error eval must return the declared result type (string | null), not a number
  eval: (a) => a,
});

// ---- scalar calls: exact result types ---------------------------------------------------------------
const hashed = t.select($("id"), call(Hash, $("tags")).as("h"));
expectTypeOf<SchemaOf<typeof hashed>>().toEqualTypeOf<{ id: number; h: string }>();
// a nullable argument for a NOT NULL parameter: the call may return NULL
const hashedName = t.select(call(Hash, $("name")).as("h"));
expectTypeOf<SchemaOf<typeof hashedName>>().toEqualTypeOf<{ h: string | null }>();
const plus = t.select(call(Plus, $("id"), lit(1)).as("p"));
expectTypeOf<SchemaOf<typeof plus>>().toEqualTypeOf<{ p: number | null }>();
// results compose with built-in operators
const composed = t.filter(call(Hash, $("tags")).like("X%")).select(call(Hash, $("tags")).charLength().as("n"));
expectTypeOf<SchemaOf<typeof composed>>().toEqualTypeOf<{ n: number }>();
// by name: the result type is unknown, the arguments' columns are still checked
const byName = t.select(call("hash", $("tags")).as("h"));
expectTypeOf<SchemaOf<typeof byName>>().toEqualTypeOf<{ h: unknown }>();

// ---- scalar calls: errors --------------------------------------------------------------------------
// @ts-expect-error argument 1 of the function: expected STRING, got NUMERIC
t.select(call(Hash, $("id")));
// @ts-expect-error the function expects 1 argument(s), got 2
t.select(call(Hash, $("tags"), $("tags")));
// @ts-expect-error argument 2 of the function: expected NUMERIC, got TIMESTAMP
t.select(call(Plus, $("id"), $("ts")));
// @ts-expect-error column 'nope' is not in [...]
t.select(call("hash", $("nope")));
// @ts-expect-error column 'nope' is not in [...] (inside an inline call)
t.select(call(Hash, $("nope")));

// ---- aggregate calls ---------------------------------------------------------------------------------
const Avg = AggregateFunction.define({
  args: [DataTypes.INT().notNull()],
  result: DataTypes.DOUBLE(),
  createAccumulator: () => ({ sum: 0, n: 0 }),
  accumulate(acc, v) {
    expectTypeOf(acc).toEqualTypeOf<{ sum: number; n: number }>();
    expectTypeOf(v).toEqualTypeOf<number>();
    acc.sum += v;
    acc.n++;
  },
  getValue: (acc) => (acc.n === 0 ? null : acc.sum / acc.n),
});
const grouped = t.groupBy($("name")).select($("name"), call(Avg, $("id")).as("avg"));
expectTypeOf<SchemaOf<typeof grouped>>().toEqualTypeOf<{ name: string | null; avg: number | null }>();
expectTypeOf<ModeOf<typeof grouped>>().toEqualTypeOf<"retract">();
// an aggregate call without groupBy makes a global aggregate: an updating table
const global = t.select(call(Avg, $("id")).as("avg"));
expectTypeOf<ModeOf<typeof global>>().toEqualTypeOf<"retract">();
// @ts-expect-error column 'tags' is neither a grouping key nor inside an aggregate
t.groupBy($("name")).select($("tags"), call(Avg, $("id")));
// @ts-expect-error argument 1 of the function: expected NUMERIC, got STRING
t.groupBy($("name")).select(call(Avg, $("name")));

// ---- table functions and lateral joins -----------------------------------------------------------------
const Split = TableFunction.define({
  args: [DataTypes.STRING().notNull()],
  result: DataTypes.ROW(DataTypes.FIELD("word", DataTypes.STRING().notNull()), DataTypes.FIELD("pos", DataTypes.INT().notNull())),
  eval(out, s) {
    s.split(",").forEach((w, i) => out.collect({ word: w, pos: i }));
    out.collect(Row.of("positional", 0));
    // @ts-expect-error a row object must have the declared fields
    out.collect({ word: "w" });
  },
});
const Chars = TableFunction.define({
  args: [DataTypes.STRING()],
  result: DataTypes.STRING().notNull(),
  eval(out, s) {
    for (const c of s ?? "") out.collect(c);
    // @ts-expect-error a non-row result collects plain values
    out.collect(1);
  },
});

const lateral = t.joinLateral(call(Split, $("tags")));
expectTypeOf<SchemaOf<typeof lateral>>().toEqualTypeOf<{ id: number; name: string | null; tags: string; ts: Date | null; word: string; pos: number }>();
expectTypeOf<ModeOf<typeof lateral>>().toEqualTypeOf<"append">();
const renamed = t.joinLateral(call(Chars, $("name")).as("ch")).select($("id"), $("ch"));
expectTypeOf<SchemaOf<typeof renamed>>().toEqualTypeOf<{ id: number; ch: string }>();
// several fields renamed: the order of a ROW's fields is not visible to the compiler, so the aliases are
// `unknown` (typed at run time; see docs/functions.md)
const left = t.leftOuterJoinLateral(call(Split, $("tags")).as("w", "p")).select($("w"), $("p"));
expectTypeOf<SchemaOf<typeof left>>().toEqualTypeOf<{ w: unknown; p: unknown }>();
const leftOne = t.leftOuterJoinLateral(call(Chars, $("tags")).as("c")).select($("c"));
expectTypeOf<SchemaOf<typeof leftOne>>().toEqualTypeOf<{ c: string | null }>();
// an aggregate called by name inside groupBy(...).select: its arguments may use any column
const aggByName = t.groupBy($("name")).select($("name"), call("my_avg", $("id")).as("a"));
expectTypeOf<SchemaOf<typeof aggByName>>().toEqualTypeOf<{ name: string | null; a: unknown }>();
const unaliasedChars = t.joinLateral(call(Chars, $("tags"))).select($("f0"));
expectTypeOf<SchemaOf<typeof unaliasedChars>>().toEqualTypeOf<{ f0: string }>();
// by name: the alias names the column, its type is unknown
const splitByName = t.joinLateral(call("split", $("tags")).as("tag")).select($("id"), $("tag"));
expectTypeOf<SchemaOf<typeof splitByName>>().toEqualTypeOf<{ id: number; tag: unknown }>();
// the join condition sees the function's columns
const conditioned = t.joinLateral(call(Split, $("tags")), $("pos").isGreater(0));
expectTypeOf<SchemaOf<typeof conditioned>>().toEqualTypeOf<SchemaOf<typeof lateral>>();

// @ts-expect-error argument 1 of the function: expected STRING, got NUMERIC
t.joinLateral(call(Split, $("id")));
// @ts-expect-error column 'name' already exists in [...]; rename it with .as(...)
t.joinLateral(call(Chars, $("tags")).as("name"));
// @ts-expect-error name the columns of a table function called by name
t.joinLateral(call("split", $("tags")));
// @ts-expect-error a lateral join takes a table function call
t.joinLateral($("tags"));
// @ts-expect-error the join condition must be BOOLEAN
t.joinLateral(call(Split, $("tags")), $("pos"));
// @ts-expect-error column 'nope' is not in [...] (condition)
t.joinLateral(call(Split, $("tags")), $("nope").isNull());
// @ts-expect-error a table function call can only be used in joinLateral / leftOuterJoinLateral
t.select(call(Split, $("tags")));
// @ts-expect-error call() takes a name or a function object
call(42, $("tags"));
