// Row-based operations (Flink's map / flatMap / aggregate / flatAggregate): functions whose output is a
// whole row, or several rows, instead of one value.
import {
  $, AggregateFunction, DataTypes, EnvironmentSettings, Row, ScalarFunction, TableAggregateFunction, TableEnvironment, TableFunction, call,
} from "../../src/index.js";

export const scores = (env: TableEnvironment) => env.fromValues(
  DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING().notNull()), DataTypes.FIELD("score", DataTypes.INT().notNull()), DataTypes.FIELD("tags", DataTypes.STRING().notNull())),
  Row.of("Bob", 3, "a#b"), Row.of("Alice", 9, "c"), Row.of("Bob", 7, "d#e"), Row.of("Bob", 5, "f"),
);

/** map: one row in, one row out; the ROW result becomes the columns. */
export const NameAndScore = ScalarFunction.define({
  name: "nameAndScore",
  args: [DataTypes.STRING().notNull(), DataTypes.INT().notNull()],
  result: DataTypes.ROW(DataTypes.FIELD("upper", DataTypes.STRING().notNull()), DataTypes.FIELD("double", DataTypes.INT().notNull())).notNull(),
  eval: (name, score) => ({ upper: name.toUpperCase(), double: score * 2 }),
});

/** flatMap: one row in, any number of rows out. */
export const SplitTags = TableFunction.define({
  name: "splitTags",
  args: [DataTypes.STRING().notNull()],
  result: DataTypes.ROW(DataTypes.FIELD("tag", DataTypes.STRING().notNull())),
  eval(out, s) { for (const t of s.split("#")) out.collect(Row.of(t)); },
});

/** aggregate: many rows in, one row out per group. */
export const MinMax = AggregateFunction.define({
  name: "minMax",
  args: [DataTypes.INT().notNull()],
  result: DataTypes.ROW(DataTypes.FIELD("lo", DataTypes.INT()), DataTypes.FIELD("hi", DataTypes.INT())),
  createAccumulator: () => ({ lo: null as number | null, hi: null as number | null }),
  accumulate(acc, v) {
    acc.lo = acc.lo === null ? v : Math.min(acc.lo, v);
    acc.hi = acc.hi === null ? v : Math.max(acc.hi, v);
  },
  getValue: (acc) => ({ lo: acc.lo, hi: acc.hi }),
});

type Top2Acc = { first: number | null; second: number | null };
const addTop2 = (acc: Top2Acc, v: number) => {
  if (acc.first === null || v > acc.first) { acc.second = acc.first; acc.first = v; }
  else if (acc.second === null || v > acc.second) acc.second = v;
};
const TOP2_ROW = DataTypes.ROW(DataTypes.FIELD("score", DataTypes.INT().notNull()), DataTypes.FIELD("rank", DataTypes.INT().notNull()));

/** flatAggregate: many rows in, several rows out per group (Flink's Top2 with emitValue). */
export const Top2 = TableAggregateFunction.define({
  name: "top2",
  args: [DataTypes.INT().notNull()],
  result: TOP2_ROW,
  createAccumulator: (): Top2Acc => ({ first: null, second: null }),
  accumulate: addTop2,
  emitValue(acc, out) {
    if (acc.first !== null) out.collect(Row.of(acc.first, 1));
    if (acc.second !== null) out.collect(Row.of(acc.second, 2));
  },
});

/** Top2 emitting only what changed (emitUpdateWithRetract): it remembers what it emitted last. */
export const Top2Incremental = TableAggregateFunction.define({
  name: "top2Incremental",
  args: [DataTypes.INT().notNull()],
  result: TOP2_ROW,
  createAccumulator: () => ({ first: null as number | null, second: null as number | null, oldFirst: null as number | null, oldSecond: null as number | null }),
  accumulate: addTop2,
  emitUpdateWithRetract(acc, out) {
    if (acc.first !== acc.oldFirst) {
      if (acc.oldFirst !== null) out.retract(Row.of(acc.oldFirst, 1));
      out.collect(Row.of(acc.first!, 1));
      acc.oldFirst = acc.first;
    }
    if (acc.second !== acc.oldSecond) {
      if (acc.oldSecond !== null) out.retract(Row.of(acc.oldSecond, 2));
      out.collect(Row.of(acc.second!, 2));
      acc.oldSecond = acc.second;
    }
  },
});

export function rowBased(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  const t = scores(env);
  return {
    mapped: t.map(call(NameAndScore, $("name"), $("score"))),
    tags: t.flatMap(call(SplitTags, $("tags"))),
    ranges: t.groupBy($("name")).aggregate(call(MinMax, $("score")).as("low", "high")).select($("name"), $("low"), $("high")),
    top2: t.groupBy($("name")).flatAggregate(call(Top2, $("score"))).select($("name"), $("score"), $("rank")),
    top2Incremental: t.groupBy($("name")).flatAggregate(call(Top2Incremental, $("score"))).select($("name"), $("score"), $("rank")),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const q = rowBased();
  for (const [name, table] of Object.entries(q)) console.log(name, await table.execute().toChangelog());
}
