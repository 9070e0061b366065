// Seed 000 "State" and "State TTL": the CountingFunction variants. State is kept per PARTITION BY key;
// a fresh key gets a copy of the declared defaults (plain object or class) or, for a ROW type, a row
// whose fields are all null.
import {
  $, ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, type Table, TableEnvironment, tableArg, valueState,
} from "../../src/index.js";

/** Counts the rows of each key in a plain-object state with a default. */
export const CountingFunction = ProcessTableFunction.define({
  name: "CountingFunction",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { memory: valueState({ count: 0 }) },
  output: DataTypes.STRING(),
  eval(ctx, { memory }) {
    memory.count++;
    ctx.collect(`Seen rows: ${memory.count}`);
  },
});

/** Waits for a second event of each key. */
export const WaitingCountingFunction = ProcessTableFunction.define({
  name: "WaitingCountingFunction",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { memory: valueState<{ first: string | null }>({ first: null }) },
  output: DataTypes.STRING(),
  eval(ctx, { memory }, { input }) {
    if (memory.first === null) {
      memory.first = input.toString();
    } else {
      ctx.collect(`Event 1: ${memory.first} and Event 2: ${input}`);
    }
  },
});

/** Counts in a ROW state: a fresh key's row has count = null. */
export const RowCountingFunction = ProcessTableFunction.define({
  name: "RowCountingFunction",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { memory: valueState(DataTypes.ROW(DataTypes.FIELD("count", DataTypes.BIGINT()))) },
  output: DataTypes.STRING(),
  eval(ctx, { memory }) {
    let newCount = 1;
    if (memory.count !== null) newCount += memory.count;
    memory.count = newCount;
    ctx.collect(`Seen rows: ${newCount}`);
  },
});

/**
 * "Efficiency and design principles": waits for a second event, but forgets a first event after one
 * day without a second one (TTL) and clears its state once both arrived.
 */
export const TtlCountingFunction = ProcessTableFunction.define({
  name: "TtlCountingFunction",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { memory: valueState<{ first: string | null }>({ first: null }, { ttl: "1 day" }) },
  output: DataTypes.STRING(),
  eval(ctx, { memory }, { input }) {
    if (memory.first === null) {
      memory.first = input.toString();
    } else {
      ctx.collect(`Event 1: ${memory.first} and Event 2: ${input}`);
      ctx.clearAllState();
    }
  },
});

/** Three state entries with different TTLs: 1 hour, 1 day, and `table.exec.state.ttl` (none by default). */
export const MultiTtlCountingFunction = ProcessTableFunction.define({
  name: "MultiTtlCountingFunction",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: {
    shortTermState: valueState({ count: 0 }, { ttl: "1 hour" }),
    longTermState: valueState({ count: 0 }, { ttl: "1 day" }),
    infiniteState: valueState({ count: 0 }),
  },
  output: DataTypes.STRING(),
  eval(ctx, { shortTermState, longTermState, infiniteState }) {
    shortTermState.count++;
    longTermState.count++;
    infiniteState.count++;
    ctx.collect(`hour: ${shortTermState.count}, day: ${longTermState.count}, forever: ${infiniteState.count}`);
  },
});

export function events(env: TableEnvironment): Table<{ name: string | null; score: number | null }, "append"> {
  return env.fromValues(
    DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("score", DataTypes.INT())),
    Row.of("Bob", 1), Row.of("Alice", 2), Row.of("Bob", 3), Row.of("Bob", 4), Row.of("Alice", 5),
  );
}

export function countingFunctions(env = TableEnvironment.create(EnvironmentSettings.inStreamingMode())) {
  const byName = events(env).partitionBy($("name"));
  return {
    counting: byName.process(CountingFunction),
    waiting: byName.process(WaitingCountingFunction),
    row: byName.process(RowCountingFunction),
    ttl: byName.process(TtlCountingFunction),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const t = countingFunctions();
  for (const table of [t.counting, t.waiting, t.row, t.ttl]) await table.execute().print();
}
