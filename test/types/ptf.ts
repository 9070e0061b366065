// Type tests of Process Table Functions (issue 4): declarations infer eval's context, state and argument
// types; typed table arguments, state fields and collect() are checked; calls infer the output schema.
// Checked by `tsc --noEmit` (every @ts-expect-error line must be an error).
import { expectTypeOf } from "vitest";
import {
  $, ArgumentTrait, ChangelogMode, DataTypes, EnvironmentSettings, lit, ProcessTableFunction, Row, scalarArg, structuredType, TableEnvironment,
  tableArg, listView, mapView, valueState, valueView,
} from "../../src/index.js";
import type { Table } from "../../src/index.js";
import type { ListView, MapView, PolymorphicRow, TableSemantics, ValueView } from "../../src/index.js";
import type { SchemaOf } from "./helpers.js";

const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const names = env.fromValues("Bob", "Alice", "Bob").as("name");

// ---- polymorphic table argument, plain-object state, scalar output --------------------------------------
const GreetingWithMemory = ProcessTableFunction.define({
  name: "GreetingWithMemory",
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { memory: valueState({ counter: 0 }) },
  output: DataTypes.STRING(),
  eval(ctx, { memory }, { input }) {
    expectTypeOf(input).toEqualTypeOf<PolymorphicRow>();
    expectTypeOf(input.name).toEqualTypeOf<unknown>();
    expectTypeOf(memory.counter).toEqualTypeOf<number>();
    memory.counter++;
    // @ts-expect-error: wrong state field
    memory.countr++;
    ctx.collect(`Hello ${String(input.name)}, your ${memory.counter} time?`);
    ctx.collect(null);
    // @ts-expect-error: wrong collect type (the output is STRING)
    ctx.collect(42);
    expectTypeOf(ctx.tableSemanticsFor("input")).toEqualTypeOf<TableSemantics>();
    // @ts-expect-error: not a table argument of this function
    ctx.tableSemanticsFor("inputs");
    ctx.clearState("memory");
    // @ts-expect-error: not a state entry of this function
    ctx.clearState("memroy");
  },
});

const greeted = names.partitionBy($("name")).process(GreetingWithMemory);
expectTypeOf<SchemaOf<typeof greeted>>().toEqualTypeOf<{ name: string; EXPR$0: string | null }>();

// @ts-expect-error: partition key that is not a column
names.partitionBy($("nmae"));

// ---- typed table argument, scalar argument, ROW output --------------------------------------------------
const TableFilter = ProcessTableFunction.define({
  name: "TableFilter",
  args: {
    input: tableArg(ArgumentTrait.ROW_SEMANTIC_TABLE).typed(
      DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("score", DataTypes.BIGINT())),
    ),
    threshold: scalarArg(DataTypes.INT().notNull()),
  },
  output: DataTypes.ROW(DataTypes.FIELD("threshold", DataTypes.INT()), DataTypes.FIELD("score", DataTypes.BIGINT())),
  eval(ctx, _state, { input, threshold }) {
    expectTypeOf(input.name).toEqualTypeOf<string | null>();
    expectTypeOf(input.score).toEqualTypeOf<number | null>();
    expectTypeOf(threshold).toEqualTypeOf<number>();
    // @ts-expect-error: wrong field on a typed table argument
    void input.nmae;
    if ((input.score ?? 0) > threshold) ctx.collect({ threshold, score: input.score });
    ctx.collect(Row.of(threshold, input.score));
    // @ts-expect-error: wrong collect type (a field of the output row has the wrong type)
    ctx.collect({ threshold: "high", score: 1 });
    // @ts-expect-error: wrong collect type (a scalar for a ROW output)
    ctx.collect(threshold);
  },
});
const scores = env.fromValues(DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("score", DataTypes.BIGINT())));
const filtered = scores.process(TableFilter, 100);
expectTypeOf<SchemaOf<typeof filtered>>().toEqualTypeOf<{ threshold: number | null; score: number | null }>();
scores.process(TableFilter, lit(100).asArgument("threshold"), lit("my-ptf").asArgument("uid"));
// @ts-expect-error: unknown named argument
scores.process(TableFilter, lit(100).asArgument("treshold"));
const named = env.fromCall(TableFilter, scores.asArgument("input"), lit(100).asArgument("threshold"));
expectTypeOf<SchemaOf<typeof named>>().toEqualTypeOf<{ threshold: number | null; score: number | null }>();

// ---- optional scalar arguments are nullable in eval ---------------------------------------------------
ProcessTableFunction.define({
  args: { a: scalarArg(DataTypes.INT().notNull()), b: scalarArg(DataTypes.INT().notNull(), { optional: true }) },
  output: DataTypes.INT(),
  eval(ctx, _s, { a, b }) {
    expectTypeOf(a).toEqualTypeOf<number>();
    expectTypeOf(b).toEqualTypeOf<number | null>();
    ctx.collect(a + (b ?? 0));
  },
});

// ---- ROW state, class state, views ------------------------------------------------------------------------
class ScoreWithDefaults {
  s: string | null = null;
  i = 99;
}
ProcessTableFunction.define({
  args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: {
    row: valueState(DataTypes.ROW(DataTypes.FIELD("count", DataTypes.BIGINT()))),
    pojo: valueState(ScoreWithDefaults, { ttl: "1 day" }),
    value: valueView(DataTypes.INT()),
    list: listView(DataTypes.STRING()),
    map: mapView(DataTypes.STRING(), DataTypes.INT()),
  },
  output: DataTypes.STRING(),
  eval(ctx, { row, pojo, value, list, map }) {
    expectTypeOf(row.count).toEqualTypeOf<number | null>();
    expectTypeOf(pojo).toEqualTypeOf<ScoreWithDefaults>();
    expectTypeOf(value).toEqualTypeOf<ValueView<number>>();
    expectTypeOf(list).toEqualTypeOf<ListView<string>>();
    expectTypeOf(map).toEqualTypeOf<MapView<string, number | null>>();
    // @ts-expect-error: wrong field of a ROW state
    row.cnt = 1;
    // @ts-expect-error: wrong element type for a list view
    list.add(1);
    ctx.collect(`${pojo.i}`);
  },
});

// ---- structured output and generators ---------------------------------------------------------------
class Order {
  userId: string | null = null;
  id = 0;
  toString(): string { return `Order(${this.userId}, ${this.id})`; }
}
const OrderType = structuredType(Order, DataTypes.ROW(DataTypes.FIELD("userId", DataTypes.STRING()), DataTypes.FIELD("id", DataTypes.INT().notNull())));
const OrderGenerator = ProcessTableFunction.define({
  name: "OrderGenerator",
  output: OrderType,
  eval(ctx) {
    const o = new Order();
    ctx.collect(o);
    // @ts-expect-error: wrong collect type (not an Order)
    ctx.collect("order");
  },
});
const orders = env.fromCall(OrderGenerator);
expectTypeOf<SchemaOf<typeof orders>>().toEqualTypeOf<{ userId: string | null; id: number }>();

// ---- pass-through and duplicate names ---------------------------------------------------------------
const PassThrough = ProcessTableFunction.define({
  args: { r: tableArg(ArgumentTrait.ROW_SEMANTIC_TABLE, ArgumentTrait.PASS_COLUMNS_THROUGH) },
  output: DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING())),
  eval(ctx, _s, { r }) {
    ctx.collect({ name: String(r.name) });
  },
});
const passed = names.process(PassThrough);
expectTypeOf<SchemaOf<typeof passed>>().toEqualTypeOf<{ name: string; name0: string | null }>();

// ---- an updating table into a table argument without SUPPORT_UPDATES ------------------------------------
const counts = names.groupBy($("name")).select($("name"), $("name").count().as("c"));
// @ts-expect-error: updating table (retract) into an insert-only table argument
counts.partitionBy($("name")).process(GreetingWithMemory);
// @ts-expect-error: same through Table.process
counts.process(PassThrough);

// ---- updating tables and outputs (changelogMode) -------------------------------------------------------
const Forward = ProcessTableFunction.define({
  args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.SUPPORT_UPDATES) },
  output: DataTypes.ROW(DataTypes.FIELD("c", DataTypes.BIGINT())),
  eval(ctx, _s, { r }) { ctx.collect(Row.ofKind(Row.kindOf(r), r.c as number)); },
});
const Retracting = ProcessTableFunction.define({
  args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.SUPPORT_UPDATES) },
  output: DataTypes.ROW(DataTypes.FIELD("c", DataTypes.BIGINT())),
  changelogMode: () => ChangelogMode.all(),
  eval(ctx, _s, { r }) { ctx.collect(Row.ofKind(Row.kindOf(r), r.c as number)); },
});
const Upserting = ProcessTableFunction.define({
  args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.SUPPORT_UPDATES) },
  output: DataTypes.ROW(DataTypes.FIELD("c", DataTypes.BIGINT())),
  changelogMode: ChangelogMode.upsert(),
  eval(ctx, _s, { r }) { ctx.collect(Row.ofKind(Row.kindOf(r), r.c as number)); },
});
// an updating table into SUPPORT_UPDATES is fine; the result's changelog kind follows changelogMode
expectTypeOf(counts.partitionBy($("name")).process(Forward)).toEqualTypeOf<Table<{ name: string; c: number | null }, "append">>();
expectTypeOf(counts.partitionBy($("name")).process(Retracting)).toEqualTypeOf<Table<{ name: string; c: number | null }, "retract">>();
expectTypeOf(counts.partitionBy($("name")).process(Upserting)).toEqualTypeOf<Table<{ name: string; c: number | null }, "upsert">>();
expectTypeOf(env.fromCall(Retracting, counts.partitionBy($("name")).asArgument("r"))).toEqualTypeOf<Table<{ name: string; c: number | null }, "retract">>();
// @ts-expect-error: a retracting PTF's output into an insert-only table argument
counts.partitionBy($("name")).process(Retracting).partitionBy($("name")).process(GreetingWithMemory);
