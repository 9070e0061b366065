// Flink's time and timer test PTFs (Flink's test catalogue §2.4 "Time and timers") and the timed fixtures (§1).
// Times are read in the "millis" form (Flink's Long) and rendered like Java's Long: the end-of-input
// watermark (Infinity here) prints as Long.MAX_VALUE.
import {
  ArgumentTrait, DataTypes, ProcessTableFunction, Row, Schema, tableArg, valueState, valueView,
} from "../../src/index.js";
import type { Context, TableEnvironment } from "../../src/index.js";
import { formatInstant, formatLocalDateTime } from "../../src/types/format.js";
import { Score } from "./flink-functions.js";
import { OUT, type Out, emitObjects } from "./support.js";

const { ROW_SEMANTIC_TABLE: ROW, SET_SEMANTIC_TABLE: SET, OPTIONAL_PARTITION_BY: OPT_PB, REQUIRE_ON_TIME: ON_TIME, PASS_COLUMNS_THROUGH: PASS } = ArgumentTrait;

/** Java's Long rendering of a time in millis: null, numbers, and Long.MAX_VALUE for +∞. */
export function long(v: number | null): string {
  return v === null ? "null" : v === Infinity ? "9223372036854775807" : String(v);
}

type Ctx = Context<string, string, Out>;
const at = (ctx: Ctx) => {
  const tc = ctx.timeContext("millis");
  return `at time ${long(tc.time())} watermark ${long(tc.currentWatermark())}`;
};

export function evalEvent(ctx: Ctx, r: unknown): void {
  emitObjects(ctx, `Processing input row ${String(r)} ${at(ctx)}`);
}
export function timerEvent(ctx: Ctx & { currentTimer(): string | null }): void {
  emitObjects(ctx, `Timer ${ctx.currentTimer()} fired ${at(ctx)}`);
}
export function createTimer(ctx: Ctx, name: string | null, t: number): void {
  emitObjects(ctx, name === null ? `Registering timer for ${long(t)} ${at(ctx)}` : `Registering timer ${name} for ${long(t)} ${at(ctx)}`);
  if (name === null) ctx.timeContext("millis").registerOnTime(t);
  else ctx.timeContext("millis").registerOnTime(name, t);
}
export function clearTimer(ctx: Ctx, nameOrTime: string | number): void {
  emitObjects(ctx, `Clearing timer ${typeof nameOrTime === "number" ? long(nameOrTime) : nameOrTime} ${at(ctx)}`);
  ctx.timeContext("millis").clearTimer(nameOrTime);
}
export function clearAll(ctx: Ctx): void {
  emitObjects(ctx, `Clearing all timers ${at(ctx)}`);
  ctx.clearAllTimers();
}

// ---- fixtures (§1) -------------------------------------------------------------------------------
export const TIMED_SOURCE_SCHEMA = Schema.newBuilder()
  .column("name", DataTypes.STRING())
  .column("score", DataTypes.INT())
  .column("ts", DataTypes.TIMESTAMP_LTZ(3))
  .watermark("ts", "ts - INTERVAL '0.001' SECOND")
  .build();

/** TIMED_SOURCE: per-record watermarks = max time − 1 ms (−1, 0, 1, ..., 5), then end of input. */
export function timedSource(env: TableEnvironment) {
  const rows = [["Bob", 1, 0], ["Alice", 1, 1], ["Bob", 2, 2], ["Bob", 3, 3], ["Bob", 4, 4], ["Bob", 5, 5], ["Bob", 6, 6]] as const;
  const t = env.fromValues(TIMED_SOURCE_SCHEMA, ...rows.map(([n, s, ts]) => Row.of(n, s, new Date(ts))));
  env.createTemporaryView("t", t as never);
  return t;
}

/** TIMED_SOURCE_LATE_EVENTS: Bob 2 at 99999 ms moves the watermark to 99998; Bob 3 and Bob 4 are then late. */
export function timedSourceLateEvents(env: TableEnvironment) {
  const rows = [["Bob", 1, 0], ["Alice", 1, 1], ["Bob", 2, 99999], ["Bob", 3, 3], ["Bob", 4, 4]] as const;
  const t = env.fromValues(TIMED_SOURCE_SCHEMA, ...rows.map(([n, s, ts]) => Row.of(n, s, new Date(ts))));
  env.createTemporaryView("t", t as never);
  return t;
}

// ---- functions (§2.4) ----------------------------------------------------------------------------
export const RequiredTimeFunction = ProcessTableFunction.define({
  args: { r: tableArg(ROW, ON_TIME) },
  output: OUT,
  eval(ctx, _s, { r }) { emitObjects(ctx, r); },
});

export const TimeConversionsFunction = ProcessTableFunction.define({
  args: { r: tableArg(ROW, ON_TIME) },
  output: OUT,
  eval(ctx) {
    const millis = ctx.timeContext("millis");
    const dates = ctx.timeContext();
    const three = (l: number | null, d: Date | null) =>
      `Long: ${long(l)}, Instant: ${d === null ? "null" : formatInstant(d)}, LocalDateTime: ${d === null ? "null" : formatLocalDateTime(d)}`;
    emitObjects(ctx, `Time (${three(millis.time(), dates.time())}), Watermark (${three(millis.currentWatermark(), dates.currentWatermark())})`);
  },
});

export const NamedTimersFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET, ON_TIME) },
  output: OUT,
  eval(ctx, _s, { r }) {
    const tc = ctx.timeContext("millis");
    if (tc.tableWatermark() !== tc.currentWatermark()) throw new Error("table watermark differs from current watermark");
    evalEvent(ctx, r);
    if (tc.time() === 0) {
      createTimer(ctx, "timeout1", 1);
      createTimer(ctx, "timeout2", 2);
      createTimer(ctx, "timeout3", 3);
      createTimer(ctx, "timeout4", Infinity);
      createTimer(ctx, "timeout5", Infinity);
    }
  },
  onTimer(ctx) {
    if (ctx.timeContext().tableWatermark() !== null) throw new Error("table watermark in onTimer");
    timerEvent(ctx);
    const time = ctx.timeContext("millis").time()!;
    if (ctx.currentTimer() === "timeout1") {
      createTimer(ctx, "timeout2", time + 4);
      clearTimer(ctx, "timeout3");
    } else if (ctx.currentTimer() === "timeout2") {
      clearAll(ctx);
    }
  },
});

export const UnnamedTimersFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET, ON_TIME) },
  output: OUT,
  eval(ctx, _s, { r }) {
    evalEvent(ctx, r);
    if (ctx.timeContext("millis").time() === 0) {
      createTimer(ctx, null, 1);
      createTimer(ctx, null, 2);
      createTimer(ctx, null, Infinity);
    }
  },
  onTimer(ctx) {
    timerEvent(ctx);
    const time = ctx.timeContext("millis").time()!;
    if (time === 1) {
      createTimer(ctx, null, time + 4);
      clearTimer(ctx, 2);
    } else if (time === 5) {
      clearAll(ctx);
    }
  },
});

export const LateTimersFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET, ON_TIME) },
  output: OUT,
  eval(ctx, _s, { r }) {
    evalEvent(ctx, r);
    if (r.name === "Bob") {
      createTimer(ctx, "bob", 0);
      createTimer(ctx, null, 0);
    } else {
      createTimer(ctx, "alice", 1);
    }
  },
  onTimer(ctx) {
    timerEvent(ctx);
    if (ctx.currentTimer() === "alice") createTimer(ctx, "alice-again", 0);
  },
});

export const OptionalOnTimeFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET) },
  output: OUT,
  eval(ctx, _s, { r }) {
    evalEvent(ctx, r);
    const wm = ctx.timeContext("millis").currentWatermark();
    createTimer(ctx, "t", wm === null || wm < 0 ? 1 : wm + 1);
  },
  onTimer(ctx) { timerEvent(ctx); },
});

export const EagerAndValueViewStateTimeFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET, ON_TIME) },
  state: { eager: valueState(Score), view: valueView(DataTypes.INT()) },
  output: OUT,
  eval(ctx, { eager, view }, { r }) {
    emitObjects(ctx, eager, view.getValue(), r);
    if (eager.i === null) {
      eager.i = 1;
      createTimer(ctx, "t", ctx.timeContext("millis").time()! + 2);
    } else {
      eager.i++;
    }
    const v = view.getValue();
    view.setValue(v === null ? 1 : v + 1);
  },
  onTimer(ctx, { eager, view }) {
    timerEvent(ctx);
    eager.i = eager.i! * 10;
    view.setValue(view.getValue()! + 100);
  },
});

export const ChainedSendingFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET, OPT_PB, ON_TIME) },
  output: OUT,
  eval(ctx, _s, { r }) {
    evalEvent(ctx, r);
    createTimer(ctx, "t", ctx.timeContext("millis").time()! + 1);
  },
  onTimer(ctx) {
    timerEvent(ctx);
    emitObjects(ctx, long(ctx.timeContext("millis").time()));
  },
});

export const ChainedReceivingFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET, OPT_PB, ON_TIME) },
  output: OUT,
  eval(ctx, _s, { r }) { evalEvent(ctx, r); },
});

export const InvalidRowSemanticTableTimersFunction = ProcessTableFunction.define({
  args: { r: tableArg(ROW) },
  output: OUT,
  eval(ctx) { ctx.timeContext("millis").registerOnTime(42); },
  onTimer() {},
});

export const InvalidPassThroughTimersFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET, PASS, ON_TIME) },
  output: OUT,
  eval(ctx) { ctx.timeContext("millis").registerOnTime(42); },
  onTimer() {},
});

/** ClearAllTimersKeepsStateFunction (catalogue §2.4): clearAllTimers keeps state. */
export const ClearAllTimersKeepsStateFunction = ProcessTableFunction.define({
  args: { r: tableArg(SET, ON_TIME) },
  state: { count: valueState<{ n: number | null }>({ n: null }) },
  output: DataTypes.STRING(),
  eval(ctx, { count }) {
    count.n = (count.n ?? 0) + 1;
    if (count.n === 1) ctx.timeContext("millis").registerOnTime("timeout", ctx.timeContext("millis").time()! + 1000);
    else if (count.n === 2) ctx.clearAllTimers();
    ctx.collect(`count ${count.n}`);
  },
  onTimer(ctx, { count }) { ctx.collect(`timeout with count ${count.n}`); },
});
