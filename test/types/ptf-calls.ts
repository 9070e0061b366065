// Type tests of PTF calls (issue 9): wrong scalar types, argument count, missing arguments, PARTITION BY
// against the declared semantics and on_time are compile errors that name the argument, for process,
// fromCall and asArgument alike. The quoted text is checked by messages.test.ts.
import { expectTypeOf } from "vitest";
import {
  $, ArgumentTrait, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, Schema, TableEnvironment, descriptor, lit, scalarArg, tableArg,
} from "../../src/index.js";
import { Test } from "ts-toolbelt";
import type { SchemaOf } from "./helpers.js";

const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const names = env.fromValues("Bob", "Alice").as("name");
const events = env.fromValues(
  Schema.newBuilder().column("ts", DataTypes.TIMESTAMP_LTZ(3)).column("id", DataTypes.STRING()).watermark("ts", "ts - INTERVAL '1' SECOND").build(),
  Row.of(new Date(0), "a"),
);

const Threshold = ProcessTableFunction.define({
  args: { input: tableArg(ArgumentTrait.ROW_SEMANTIC_TABLE), limit: scalarArg(DataTypes.INT().notNull()) },
  output: DataTypes.STRING(),
  eval(ctx, _s, { limit }) { ctx.collect(String(limit)); },
});
const Greeting = ProcessTableFunction.define({
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  output: DataTypes.STRING(),
  eval(ctx) { ctx.collect("hi"); },
});
const Timed = ProcessTableFunction.define({
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.REQUIRE_ON_TIME) },
  output: DataTypes.STRING(),
  eval(ctx) {
    // REQUIRE_ON_TIME: every row has a time
    expectTypeOf(ctx.timeContext().time()).toEqualTypeOf<Date>();
    expectTypeOf(ctx.timeContext("millis").time()).toEqualTypeOf<number>();
    ctx.timeContext().registerOnTime(ctx.timeContext().time().getTime() + 1000);
  },
  onTimer(ctx) {
    expectTypeOf(ctx.timeContext().time()).toEqualTypeOf<Date>();
  },
});
ProcessTableFunction.define({
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  output: DataTypes.STRING(),
  eval(ctx) {
    // without REQUIRE_ON_TIME a call may have no on_time
    expectTypeOf(ctx.timeContext().time()).toEqualTypeOf<Date | null>();
  },
});

// timers need onTimer: without it, registering one is a compile error (the run time refuses it too)
ProcessTableFunction.define({
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE, ArgumentTrait.REQUIRE_ON_TIME) },
  output: DataTypes.STRING(),
  eval(ctx) {
    const time = ctx.timeContext();
    expectTypeOf(time.time()).toEqualTypeOf<Date>();
    expectTypeOf(time.currentWatermark()).toEqualTypeOf<Date | null>();
    // @ts-expect-error "registerOnTime needs an onTimer declaration: add onTimer(ctx, state) { ... } to the function"
    time.registerOnTime(time.time().getTime() + 1000);
    // @ts-expect-error "registerOnTime needs an onTimer declaration"
    ctx.timeContext("millis").registerOnTime("reminder", 1000);
    // clearing timers needs no handler
    time.clearTimer("reminder");
    ctx.clearAllTimers();
  },
});
ProcessTableFunction.define({
  args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  output: DataTypes.STRING(),
  eval(ctx) {
    // named and unnamed timers, in Date and millis form, once onTimer is declared
    ctx.timeContext().registerOnTime("reminder", new Date(0));
    ctx.timeContext("millis").registerOnTime(1000);
  },
  onTimer(ctx) {
    expectTypeOf(ctx.currentTimer()).toEqualTypeOf<string | null>();
    ctx.timeContext().registerOnTime(ctx.timeContext().time().getTime() + 1000);
  },
});

// ---- correct calls -----------------------------------------------------------------------------------
names.process(Threshold, 10);
names.process(Threshold, lit(10));
names.process(Threshold, lit(10).asArgument("limit"));
env.fromCall(Threshold, names.asArgument("input"), lit(10).asArgument("limit"));
env.fromCall(Threshold, names, 10);
names.partitionBy($("name")).process(Greeting);
env.fromCall(Greeting, names.partitionBy($("name")).asArgument("input"));
events.partitionBy($("id")).process(Timed, descriptor("ts"));
events.partitionBy($("id")).process(Timed, descriptor("ts").asArgument("on_time"));
env.fromCall(Timed, events.partitionBy($("id")).asArgument("input"), descriptor("ts").asArgument("on_time"));

// ---- scalar arguments ----------------------------------------------------------------------------------
// @ts-expect-error "argument 'limit' expects a NUMERIC value, got STRING"
names.process(Threshold, "ten");
// @ts-expect-error "argument 'limit' expects a NUMERIC value, got STRING"
names.process(Threshold, lit("ten").asArgument("limit"));
// @ts-expect-error "argument 'limit' expects a NUMERIC value, got STRING"
env.fromCall(Threshold, names.asArgument("input"), lit("ten").asArgument("limit"));
// @ts-expect-error "argument 'limit' is NOT NULL, got NULL"
names.process(Threshold, lit(null).asArgument("limit"));
// @ts-expect-error "missing required argument(s): [limit]"
names.process(Threshold);
// @ts-expect-error "missing required argument 'limit'"
names.process(Threshold, lit("my-uid").asArgument("uid"));
// @ts-expect-error "missing required argument(s): [limit]"
env.fromCall(Threshold, names);
// @ts-expect-error "too many arguments: the function takes 1 argument(s) [input, limit], then on_time and uid"
names.process(Threshold, 10, null, "uid", 4);
// @ts-expect-error "unknown argument 'limt'; the arguments are [input, limit, on_time, uid]"
names.process(Threshold, lit(10).asArgument("limt"));
// @ts-expect-error "argument 'uid' expects a STRING, got NUMERIC"
names.process(Threshold, 10, null, 7);
// @ts-expect-error "missing table argument 'input'"
env.fromCall(Threshold, lit(10).asArgument("limit"));

// ---- PARTITION BY against the declared semantics ---------------------------------------------------------
// @ts-expect-error "table argument 'input' has set semantics: call partitionBy(...) on the table first"
names.process(Greeting);
// @ts-expect-error "table argument 'input' has set semantics: call partitionBy(...) on the table first"
env.fromCall(Greeting, names.asArgument("input"));
// @ts-expect-error "table argument 'input' has set semantics: call partitionBy(...) on the table first"
env.fromCall(Greeting, names);
// @ts-expect-error "table argument 'input' has row semantics and cannot be partitioned: remove partitionBy(...)"
names.partitionBy($("name")).process(Threshold, 10);
// @ts-expect-error "table argument 'input' has row semantics and cannot be partitioned: remove partitionBy(...)"
env.fromCall(Threshold, names.partitionBy($("name")).asArgument("input"), lit(10).asArgument("limit"));

// ---- on_time -------------------------------------------------------------------------------------------
// @ts-expect-error "table argument 'input' requires on_time: pass descriptor(<its time column>) as on_time"
events.partitionBy($("id")).process(Timed);
// @ts-expect-error "table argument 'input' requires on_time: pass descriptor(<its time column>) as on_time"
env.fromCall(Timed, events.partitionBy($("id")).asArgument("input"));
// @ts-expect-error "on_time column 'tss' is not in [id, ts]"
events.partitionBy($("id")).process(Timed, descriptor("tss"));
// @ts-expect-error "on_time column 'tss' is not in [id, ts]"
events.partitionBy($("id")).process(Timed, descriptor("tss").asArgument("on_time"));
// @ts-expect-error "on_time column 'tss' is not in [id, ts]"
env.fromCall(Timed, events.partitionBy($("id")).asArgument("input"), descriptor("tss").asArgument("on_time"));
// @ts-expect-error "argument 'on_time' expects descriptor(<time column>)"
events.partitionBy($("id")).process(Timed, lit("ts").asArgument("on_time"));

// ---- output schemas, with ts-toolbelt's Test.checks (each check is 1 when the types are equal) --------------
// (type tests are only compiled, never run, so the value-level Test.checks costs nothing)
const thresholded = names.process(Threshold, 10);
const timed = events.partitionBy($("id")).process(Timed, descriptor("ts"));
Test.checks([
  Test.check<SchemaOf<typeof thresholded>, { EXPR$0: string | null }, Test.Pass>(),
  Test.check<SchemaOf<typeof timed>, { id: string | null; EXPR$0: string | null; rowtime: Date }, Test.Pass>(),
  Test.check<SchemaOf<typeof timed>, { id: string | null; EXPR$0: string | null }, Test.Fail>(),
]);
