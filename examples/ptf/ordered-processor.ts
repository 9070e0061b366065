// Seed 000 "Ordering": ORDER BY on a set-semantics table. Rows of each name reach eval sorted by time
// (ascending), rows of equal time by score (descending); a row that arrives behind the watermark is
// dropped. The output is the growing list of events in the order eval saw them.
import { $, ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, Schema, TableEnvironment, structuredType, tableArg, valueState } from "../../src/index.js";

/** An event as eval received it (Flink's record Event(Integer score, Instant ts)). */
export class Event {
  score: number | null = null;
  ts: Date | null = null;
  static of(score: number | null, ts: Date | null): Event {
    const e = new Event();
    e.score = score;
    e.ts = ts;
    return e;
  }
}

export const EventType = structuredType(Event, DataTypes.ROW(DataTypes.FIELD("score", DataTypes.INT()), DataTypes.FIELD("ts", DataTypes.TIMESTAMP_LTZ(3))));

export const OrderedProcessor = ProcessTableFunction.define({
  name: "OrderedProcessor",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  // stores all input events that entered eval() after sorting
  state: { state: valueState<{ events: Event[] }>({ events: [] }) },
  output: DataTypes.ARRAY(EventType),
  eval(ctx, { state }, { input }) {
    // optional: the ordering is visible at runtime
    const semantics = ctx.tableSemanticsFor("input");
    semantics.orderByColumns(); // [2, 1]: ts, score
    semantics.orderByDirections(); // ["ASC_NULLS_FIRST", "DESC_NULLS_LAST"]
    state.events.push(Event.of(input.score as number, input.ts as Date));
    ctx.collect(state.events);
  },
});

const at = (ms: number) => new Date(Date.UTC(2025, 0, 1, 12, 0, 0, ms));

export function orderedProcessor(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  const schema = Schema.newBuilder()
    .column("name", DataTypes.STRING())
    .column("score", DataTypes.INT())
    .column("ts", DataTypes.TIMESTAMP_LTZ(3))
    .watermark("ts", "ts - INTERVAL '1' SECOND")
    .build();
  // out of order within the watermark delay: the events at 1.2 s come after the one at 1.5 s; Bob's
  // score 1 at 1.0 s arrives when the watermark is already at 1.6 s and is dropped
  const events = env.fromValues(schema,
    Row.of("Bob", 5, at(1500)), Row.of("Bob", 7, at(1200)), Row.of("Alice", 3, at(1200)), Row.of("Bob", 9, at(1200)),
    Row.of("Bob", 2, at(2600)), Row.of("Bob", 1, at(1000)), Row.of("Alice", 4, at(3000)));
  return events.partitionBy($("name")).orderBy($("ts").asc(), $("score").desc()).process(OrderedProcessor);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await orderedProcessor().execute().print();
}
