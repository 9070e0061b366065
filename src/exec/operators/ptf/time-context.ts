import type { TimeContext } from "../../../ptf/context.js";
import { ExecutionError, TableRuntimeException } from "../../../types/errors.js";
import type { TimerService } from "./timers.js";

/** The largest `Date` (8.64e15 ms): the `Date` form of the end-of-input watermark and of timers at +∞. */
export const MAX_DATE_MS = 8.64e15;

/**
 * What a TimeContext reads from the running call: set by the operator around each eval / onTimer.
 * `timers` is undefined where Flink forbids timers (row semantics, pass-through, no table).
 */
export interface TimeHost {
  readonly functionName: string;
  readonly timers: TimerService | undefined;
  /** Whether the function declares onTimer (a timer without a handler is a mistake). */
  readonly hasOnTimer: boolean;
  /** The operator's watermark (-Infinity before the first). */
  currentWatermark(): number;
  /** The watermark of the current row's table (-Infinity before the first). */
  tableWatermark(): number;
}

export const CallPhase = { MAIN: 0, BROADCAST: 1, NOTIFY: 2 } as const;
export type CallPhase = (typeof CallPhase)[keyof typeof CallPhase];

/**
 * The current call — its input record (or the firing timer's record), the firing timer — shared by the
 * context and the operator (the RuntimeContext is one).
 */
export class CallState {
  record: readonly unknown[] = [];
  /** The firing timer's time, or NaN in eval. */
  timerTime = NaN;
  timerName: string | null = null;
  /** The firing timer's time as the output's rowtime value; undefined in eval. */
  timerDate: Date | undefined = undefined;
  inTimer = false;
  /** The table argument (input index) of the current record; several only with several table arguments. */
  input = 0;
  /** Position of the on_time column in the current record, or -1. */
  timeColumn = -1;
  /**
   * What the current call processes: MAIN (a row of a row/set-semantics table, or a timer), BROADCAST (a
   * broadcast row without key context) or NOTIFY (a broadcast row delivered to one stateful set).
   */
  phase: CallPhase = CallPhase.MAIN;
  /** The broadcast row's time (epoch millis, NaN without on_time) while notifying stateful sets. */
  notifyTime = NaN;
  /** The virtual processor key of the current call (computed on demand in eval). */
  keyOf: (r: readonly unknown[]) => unknown = () => 0;
}

/** Epoch millis of a time value given by the user; a clear error for anything else. */
function toMillis(host: TimeHost, v: unknown, what: string): number {
  const ms = v instanceof Date ? v.getTime() : typeof v === "number" ? v : NaN;
  if (ms === Infinity || (Number.isInteger(ms) && Math.abs(ms) <= MAX_DATE_MS)) return ms;
  throw new ExecutionError(
    `${what} of function '${host.functionName}': expected a valid Date or integer epoch milliseconds (Infinity = end of input), got ${v instanceof Date ? "an invalid Date" : String(v)}`,
  );
}

/**
 * Flink's TimeContext over one operator. Two instances exist per operator (Date and millis form);
 * `ctx.timeContext()` returns one of them, so nothing is allocated per call.
 */
export class RuntimeTimeContext<T> implements TimeContext<T> {
  constructor(private readonly host: TimeHost, private readonly call: CallState, private readonly millis: boolean) {}

  private out(ms: number): T | null {
    if (ms === -Infinity || Number.isNaN(ms)) return null;
    if (this.millis) return ms as T;
    return new Date(ms > MAX_DATE_MS ? MAX_DATE_MS : ms) as T;
  }

  time(): T | null {
    const c = this.call;
    if (c.inTimer) return this.out(c.timerTime);
    if (c.phase === CallPhase.NOTIFY) return this.out(c.notifyTime);
    const col = c.timeColumn;
    if (col < 0) return null;
    const v = c.record[col] as Date | null;
    return v === null || v === undefined ? null : this.out(v.getTime());
  }

  currentWatermark(): T | null {
    return this.out(this.host.currentWatermark());
  }

  tableWatermark(): T | null {
    return this.call.inTimer ? null : this.out(this.host.tableWatermark());
  }

  registerOnTime(nameOrTime: unknown, time?: unknown): void {
    const named = typeof nameOrTime === "string";
    const timers = this.service();
    if (!this.host.hasOnTimer) {
      throw new ExecutionError(`Function '${this.host.functionName}' registers a timer but declares no onTimer(ctx, state): add onTimer to its declaration`);
    }
    const ms = toMillis(this.host, named ? time : nameOrTime, "registerOnTime()");
    const c = this.call;
    timers.register(c.keyOf(c.record), c.record, named ? nameOrTime : null, ms, c.input);
  }

  clearTimer(nameOrTime: unknown): void {
    const timers = this.service();
    const c = this.call;
    if (typeof nameOrTime === "string") timers.clearNamed(c.keyOf(c.record), nameOrTime);
    else timers.clearUnnamed(c.keyOf(c.record), toMillis(this.host, nameOrTime, "clearTimer()"));
  }

  private service(): TimerService {
    // a broadcast row has no key context (Flink's BroadcastInternalTimeContext)
    if (this.call.phase === CallPhase.BROADCAST) throw new TableRuntimeException("Timers are not supported while processing a table with broadcast semantics.");
    const t = this.host.timers;
    if (t === undefined) throw new TableRuntimeException("Timers are not supported in the current PTF declaration.");
    return t;
  }
}
