// Flink's multi-input and ORDER BY test PTFs (Flink's test catalogue §2.4 "Multi-input" and "ORDER BY") and the
// fixtures they run on (§1).
import { ArgumentTrait, DataTypes, ProcessTableFunction, Row, Schema, listView, scalarArg, tableArg, valueState } from "../../src/index.js";
import type { TableEnvironment } from "../../src/index.js";
import { OUT, emitObjects } from "./support.js";

const { SET_SEMANTIC_TABLE: SET, OPTIONAL_PARTITION_BY: OPT_PB, REQUIRE_ON_TIME: ON_TIME } = ArgumentTrait;

/** MultiInputFunction: emitObjects(in1, in2); exactly one is non-null per call. */
export const MultiInputFunction = ProcessTableFunction.define({
  args: { in1: tableArg(SET), in2: tableArg(SET, OPT_PB) },
  output: OUT,
  eval(ctx, _s, { in1, in2 }) { emitObjects(ctx, in1, in2); },
});

/** MultiInputWithScalarArgsFunction: scalar arguments between the table arguments. */
export const MultiInputWithScalarArgsFunction = ProcessTableFunction.define({
  args: {
    m: scalarArg(DataTypes.MAP(DataTypes.STRING(), DataTypes.STRING())),
    in1: tableArg(SET),
    i: scalarArg(DataTypes.INT()),
    in2: tableArg(SET, OPT_PB),
    r: scalarArg(DataTypes.ROW(DataTypes.FIELD("b", DataTypes.BOOLEAN()), DataTypes.FIELD("s", DataTypes.STRING()))),
  },
  output: OUT,
  // a ROW scalar arrives as an object with its fields; Java's Row prints positionally: +I[true, Hello]
  eval(ctx, _s, { m, in1, i, in2, r }) { emitObjects(ctx, in1, in2, m, i, r === null ? null : Row.of(r.b, r.s)); },
});

/** TimedJoinFunction: joins the latest score with the city; a score without city times out after 1 s. */
export const TimedJoinFunction = ProcessTableFunction.define({
  args: { scoreTable: tableArg(SET, ON_TIME), cityTable: tableArg(SET, ON_TIME) },
  state: { score: valueState<{ value: number | null }>({ value: null }), city: valueState<{ value: string | null }>({ value: null }) },
  output: OUT,
  eval(ctx, { score, city }, { scoreTable, cityTable }) {
    const tc = ctx.timeContext("millis");
    if (scoreTable !== null) {
      score.value = scoreTable.score as number;
      tc.registerOnTime("timeout", tc.time()! + 1000);
    }
    if (cityTable !== null) city.value = cityTable.city as string;
    if (score.value !== null && city.value !== null) {
      ctx.collect(Row.of(`${score.value} score in city ${city.value}`));
      ctx.clearAllTimers();
    }
  },
  onTimer(ctx, { score }) {
    ctx.collect(Row.of(`no city found for score ${score.value}`));
    score.value = null;
  },
});

/** OrderByFunction: captures the order in which rows reach eval. */
export const OrderByFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET, OPT_PB) },
  state: { st: valueState<{ list: string[] }>({ list: [] }) },
  output: OUT,
  eval(ctx, { st }, { r }) {
    st.list.push(String(r));
    const tc = ctx.timeContext();
    emitObjects(ctx, tc.currentWatermark(), tc.tableWatermark(), tc.time(), st.list);
  },
});

/** MultiInputOrderByFunction: captures the order per input. */
export const MultiInputOrderByFunction = ProcessTableFunction.define({
  args: { in1: tableArg(SET), in2: tableArg(SET) },
  state: { list1: listView(DataTypes.STRING()), list2: listView(DataTypes.STRING()) },
  output: OUT,
  eval(ctx, { list1, list2 }, { in1, in2 }) {
    const tc = ctx.timeContext();
    const [name, list, row] = in1 !== null ? ["in1", list1, in1] : ["in2", list2, in2!];
    list.add(String(row));
    emitObjects(ctx, name, tc.tableWatermark(), tc.time(), [...list.getList()]);
  },
});

// ---- fixtures ----------------------------------------------------------------------------------------

/** CITY_VALUES: view city (name, city). */
export function cityValues(env: TableEnvironment) {
  const t = env.fromValues(Row.of("Bob", "London"), Row.of("Alice", "Berlin"), Row.of("Charly", "Paris")).as("name", "city");
  env.createTemporaryView("city", t as never);
  return t;
}

/** TIMED_CITY_SOURCE: city (name, city, ts) with a 1 ms watermark delay: only [Bob, London, 0]. */
export function timedCitySource(env: TableEnvironment) {
  const schema = Schema.newBuilder().column("name", DataTypes.STRING()).column("city", DataTypes.STRING()).column("ts", DataTypes.TIMESTAMP_LTZ(3))
    .watermark("ts", "ts - INTERVAL '0.001' SECOND").build();
  const t = env.fromValues(schema, Row.of("Bob", "London", new Date(0)));
  env.createTemporaryView("city", t as never);
  return t;
}

export const T_LARGE_SCHEMA = Schema.newBuilder().column("name", DataTypes.STRING()).column("score", DataTypes.INT()).column("ts", DataTypes.TIMESTAMP_LTZ(3))
  .watermark("ts", "ts - INTERVAL '0.010' SECOND").build();

/** TIMED_SOURCE_LATE_EVENTS_LARGE rows: [name, score, ts ms]; watermark delay 10 ms. */
export const T_LARGE_ROWS = [
  ["Bob", 1, 0], ["Alice", 1, 1], ["Bob", 2, 3], ["Bob", 3, 3], ["Bob", 4, 5], ["Alice", 2, 19], ["Alice", 3, 1], ["Bob", 5, 10], ["Bob", 6, 12], ["Bob", 7, 22],
] as const;

/** TIMED_SOURCE_LATE_EVENTS_LARGE as view t_large. */
export function timedSourceLateEventsLarge(env: TableEnvironment) {
  const t = env.fromValues(T_LARGE_SCHEMA, ...T_LARGE_ROWS.map(([n, s, ts]) => Row.of(n, s, new Date(ts))));
  env.createTemporaryView("t_large", t as never);
  return t;
}
