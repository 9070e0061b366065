import type { Decimal } from "decimal.js";
import type { PositionalRow } from "../types/row.js";
import type { ColumnList } from "../types/data-type.js";
import type { DataType } from "../types/data-type.js";
import type { TableTypeError } from "../expressions/type-level.js";

/** Sort direction of an ORDER BY column (Flink's `TableSemantics.SortDirection`). */
export type SortDirection = "ASC_NULLS_FIRST" | "ASC_NULLS_LAST" | "DESC_NULLS_FIRST" | "DESC_NULLS_LAST";

/**
 * How a table argument was passed to the current call (Flink's `TableSemantics`), from
 * `ctx.tableSemanticsFor("input")`.
 */
export interface TableSemantics {
  /** The row type: the declared type for typed table arguments, else the passed table's row type. */
  dataType(): DataType;
  /** Positions of the PARTITION BY columns (empty for row semantics or no PARTITION BY). */
  partitionByColumns(): number[];
  /** Positions of the ORDER BY columns (ORDER BY arrives with the time issue; empty until then). */
  orderByColumns(): number[];
  orderByDirections(): SortDirection[];
  /** Position of the `on_time` column in this table, or -1 when the call has no `on_time`. */
  timeColumn(): number;
  /**
   * The changelog mode in which the table's rows reach eval, e.g. `[INSERT]`, `[INSERT, UPDATE_AFTER]`
   * (upsert by the PARTITION BY key) or `[INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE]` (retract).
   */
  changelogMode(): ChangelogModeInfo;
}

/** A changelog mode as Flink prints it (`[INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE]`). */
export interface ChangelogModeInfo {
  readonly kinds: readonly ("INSERT" | "UPDATE_BEFORE" | "UPDATE_AFTER" | "DELETE")[];
  readonly keyOnlyDeletes: boolean;
  toString(): string;
}

/**
 * What `collect` accepts for an output type `O`: a value of the output type, or a `Row.of(...)` /
 * `Row.ofKind(...)` positional row (checked against the output type when the job runs). Rows of kinds
 * other than INSERT are only valid for functions whose `changelogMode` declares them.
 */
export type CollectValue<O> =
  [O] extends [never] ? never
  : IsScalarOutput<O> extends true ? O | PositionalRow<readonly [O]>
  : NonNullable<O> | PositionalRow;

/** Whether an output type is a scalar (one column `EXPR$0`) rather than a row or structured type. */
export type IsScalarOutput<O> =
  [NonNullable<O>] extends [never] ? true
  : NonNullable<O> extends string | number | boolean | bigint | Date | ColumnList | readonly unknown[] | ReadonlyMap<unknown, unknown> | Decimal
    ? true : false;

/**
 * The context given to `eval` as first argument (Flink's `ProcessTableFunction.Context`), plus
 * `collect`. One context object serves all calls of a function instance; do not keep it beyond `eval`.
 */
export interface Context<TableArgs extends string = string, StateNames extends string = string, O = unknown, NoTime extends null = null, Timers extends boolean = true> {
  /** Emits a row: a value of the output type (a scalar is wrapped into the column `EXPR$0`). */
  collect(value: CollectValue<O>): void;
  /** Information about a table argument of this call. */
  tableSemanticsFor(argName: TableArgs): TableSemantics;
  /**
   * The changelog mode of this call's output (Flink's `Context.getChangelogMode()`): what the
   * declaration's `changelogMode` gave for this call, `[INSERT]` by default.
   */
  changelogMode(): ChangelogModeInfo;
  /** Resets one state entry of the current key; the next call sees a fresh default. Applied when eval returns. */
  clearState(stateName: StateNames): void;
  /** Resets all state entries of the current key. */
  clearAllState(): void;
  /** Clears all state and all timers of the current key. */
  clearAll(): void;
  /** Deletes all timers (named and unnamed) of the current key; state is kept. */
  clearAllTimers(): void;
  /**
   * Time and timers of the current event (an input row in `eval`, the firing timer in `onTimer`),
   * Flink's `ctx.timeContext(Instant.class)`: time values are `Date`s. `timeContext("millis")` gives
   * epoch milliseconds (Flink's `Long.class`). No object is made per call.
   */
  timeContext(): TimeContextOf<Date, NoTime, Timers>;
  timeContext<K extends TimeKind>(kind: K): TimeContextOf<TimeOf<K>, NoTime, Timers>;
}

/**
 * The TimeContext `eval` sees: with timers when the function declares `onTimer` (`Timers`), else one whose
 * `registerOnTime` cannot be called, so that registering a timer that nothing would
 * handle is a compile error naming the fix (the run time refuses it as well).
 */
export type TimeContextOf<T, NoTime extends null, Timers extends boolean> =
  [Timers] extends [false] ? TimeContextWithoutTimers<T, NoTime> : TimeContext<T, NoTime>;

/** The message of `registerOnTime` in a function without `onTimer` (a string, so that messages print it, not a name). */
type NoOnTimer = "registerOnTime needs an onTimer declaration: add onTimer(ctx, state) { ... } to the function, which is called when the timer fires";

/**
 * A TimeContext of a function without `onTimer`: the time and watermarks; `registerOnTime` cannot be called.
 * (Its `this` type is the error, which keeps this type assignable to TimeContext: a helper typed with a
 * plain `Context` accepts every context.)
 */
export interface TimeContextWithoutTimers<T, NoTime extends null = null> extends Omit<TimeContext<T, NoTime>, "registerOnTime"> {
  /** Not available: declare `onTimer` to register timers. */
  registerOnTime(this: TableTypeError<NoOnTimer>, time: T | Date | number): void;
  registerOnTime(this: TableTypeError<NoOnTimer>, name: string, time: T | Date | number): void;
}

/** How a TimeContext represents time values: `"date"` (a `Date`, the default) or `"millis"` (epoch milliseconds). */
export type TimeKind = "date" | "millis";
/** The time value type of a TimeKind. */
export type TimeOf<K extends TimeKind> = K extends "millis" ? number : Date;

/**
 * Flink's `TimeContext`: the time of the current event, the watermarks, and the timers of the current
 * virtual processor. Times are epoch milliseconds underneath (no time zone applies). The end-of-input
 * watermark is `Infinity` in the `"millis"` form (Flink's `Long.MAX_VALUE`) and the largest `Date`
 * (`+275760-09-13T00:00:00Z`, 8.64e15 ms) in the `Date` form. Timer times may be given as a `Date` or
 * as epoch milliseconds in either form; `Infinity` is a timer that fires at end of input.
 */
export interface TimeContext<T, NoTime extends null = null> {
  /**
   * In `eval`: the row's value of the `on_time` column (null without `on_time`); in `onTimer`: the
   * timer's time. `NoTime` is what it gives when there is no time: `null`, or `never` (the type is
   * non-null) in `onTimer` and in the `eval` of a function whose table argument requires `on_time`
   * (REQUIRE_ON_TIME), where every row has a time.
   */
  time(): T | NoTime;
  /**
   * The operator's watermark (the minimum over its inputs): in `eval` the watermark emitted before the
   * current row, in `onTimer` the watermark that fired the timer. Null before the first watermark.
   */
  currentWatermark(): T | null;
  /** The watermark of the table of the current row; null in `onTimer` and before the table's first watermark. */
  tableWatermark(): T | null;
  /**
   * Registers an unnamed timer at `time` (identified by its time), or a named timer that replaces an
   * earlier timer of the same name: `registerOnTime(time)` / `registerOnTime("name", time)`. A time at
   * or before the current watermark fires at the next watermark (from `eval`) or right after the
   * current timer (from `onTimer`). Needs a set-semantics table without pass-through columns and an
   * `onTimer` declaration.
   */
  registerOnTime(time: T | Date | number): void;
  registerOnTime(name: string, time: T | Date | number): void;
  /** Deletes the named timer `name`, or the unnamed timer at a time (`clearTimer(time)`). */
  clearTimer(nameOrTime: string | T | Date | number): void;
}

/**
 * The context given to `onTimer` (Flink's `OnTimerContext`): the Context of `eval` plus the firing
 * timer's name.
 */
export interface OnTimerContext<TableArgs extends string = string, StateNames extends string = string, O = unknown>
  extends Context<TableArgs, StateNames, O, never> {
  /** The name of the firing timer; null for an unnamed timer. */
  currentTimer(): string | null;
}
