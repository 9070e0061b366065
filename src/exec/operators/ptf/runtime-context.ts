import type { ChangelogModeInfo, Context, SortDirection, TableSemantics, TimeContext, TimeKind } from "../../../ptf/context.js";
import type { ResolvedTableArg } from "../../../ptf/resolved-call.js";
import { ExecutionError, TableRuntimeException } from "../../../types/errors.js";
import { INSERT_ONLY } from "../../../plan/changelog-mode.js";
import { modeInfo } from "../../../ptf/changelog.js";
import { DataType } from "../../../types/data-type.js";
import type { Output } from "../../operator.js";
import type { CollectFn } from "./collector.js";
import { CallPhase, CallState, RuntimeTimeContext, type TimeHost } from "./time-context.js";

/** Something `ctx.clearState(name)` can reset: a value state slot or a data view. */
export interface Clearable {
  readonly name: string;
  cleared: boolean;
  /** A broadcast state entry: cleared only while a broadcast row is processed. */
  readonly broadcast: boolean;
}

/** Flink's TableSemantics of one table argument of a call; built once per operator. */
export class RuntimeTableSemantics implements TableSemantics {
  private readonly type: DataType;
  private readonly mode: ChangelogModeInfo;

  constructor(private readonly arg: ResolvedTableArg) {
    // the table's row type as Flink's DataTypes.ROW(...) gives it: nullable (prints without NOT NULL)
    this.type = arg.decl.type ?? new DataType("ROW", true, { fields: arg.schema.columns });
    this.mode = modeInfo(arg.changelog);
  }

  dataType(): DataType { return this.type; }
  partitionByColumns(): number[] { return [...this.arg.partitionKeys]; }
  orderByColumns(): number[] { return this.arg.orderBy.map((o) => o.column); }
  orderByDirections(): SortDirection[] { return this.arg.orderBy.map((o) => o.direction); }
  timeColumn(): number { return this.arg.timeColumn; }
  changelogMode(): ChangelogModeInfo { return this.mode; }
}

const INSERT_ONLY_INFO = modeInfo(INSERT_ONLY);

/** Time of a PTF without a time host (a generator): no time, no watermark, no timers. */
const NO_TIME: TimeHost = {
  functionName: "", timers: undefined, hasOnTimer: false,
  currentWatermark: () => -Infinity, tableWatermark: () => -Infinity,
};

/**
 * The `ctx` handed to eval and onTimer: one object per operator, reused for every call (no allocation
 * per row). `record` is the current input record (prefix columns of the output come from it; in
 * onTimer the record the timer was registered with) and `out` the output; both are set by the owner
 * before the call.
 */
// (Context, not OnTimerContext: the time is typed non-null only where the run time guarantees one)
export class RuntimeContext extends CallState implements Context<string, string, unknown> {
  out!: Output;
  inEval = false;
  /** The call's output mode (`ctx.changelogMode()`), set by the owner. */
  outputMode: ChangelogModeInfo = INSERT_ONLY_INFO;
  private readonly semantics: Map<string, RuntimeTableSemantics>;
  private readonly dateTime: RuntimeTimeContext<Date>;
  private readonly millisTime: RuntimeTimeContext<number>;

  constructor(
    private readonly functionName: string,
    /** The collector of the current input (one per table argument: its key columns feed the output). */
    public collectFn: CollectFn,
    tables: readonly ResolvedTableArg[],
    private readonly states: readonly Clearable[],
    private readonly time: TimeHost = NO_TIME,
  ) {
    super();
    this.dateTime = new RuntimeTimeContext<Date>(time, this, false);
    this.millisTime = new RuntimeTimeContext<number>(time, this, true);
    this.semantics = new Map(tables.map((t) => [t.name, new RuntimeTableSemantics(t)]));
  }

  collect(value: unknown): void {
    if (!this.inEval) throw new ExecutionError(`collect() of function '${this.functionName}' was called outside eval(); keep no reference to ctx`);
    if (this.phase === CallPhase.BROADCAST) {
      throw new TableRuntimeException("Emitting results via collect() is not supported while processing a table with broadcast semantics.");
    }
    this.collectFn(value, this.record, this.out, this.timerDate);
  }

  changelogMode(): ChangelogModeInfo {
    return this.outputMode;
  }

  tableSemanticsFor(argName: string): TableSemantics {
    const s = this.semantics.get(argName);
    if (s === undefined) {
      throw new TableRuntimeException(`Unknown table argument: ${argName}. Table arguments of '${this.functionName}': [${[...this.semantics.keys()].join(", ")}]`);
    }
    return s;
  }

  clearState(stateName: string): void {
    const s = this.states.find((x) => x.name === stateName);
    if (s === undefined) {
      throw new TableRuntimeException(`Unknown state entry: ${stateName}. State entries of '${this.functionName}': [${this.states.map((x) => x.name).join(", ")}]`);
    }
    // a broadcast row has no key context: keyed state cannot be cleared there (Flink: a no-op)
    if (s.broadcast !== (this.phase === CallPhase.BROADCAST)) {
      if (!s.broadcast) return;
      throw new TableRuntimeException(
        `Broadcast state entry '${s.name}' is read-only while processing a table with row or set semantics or while notifying stateful sets.`,
      );
    }
    s.cleared = true;
  }

  /** Clears the state the current call may write: broadcast state for a broadcast row, else the key's state. */
  clearAllState(): void {
    const broadcast = this.phase === CallPhase.BROADCAST;
    for (const s of this.states) if (s.broadcast === broadcast) s.cleared = true;
  }

  clearAll(): void {
    this.clearAllState();
    this.clearAllTimers();
  }

  clearAllTimers(): void {
    // nothing to clear where timers are not supported (Flink's clearAll works there too); a broadcast
    // row has no key and so no timers
    if (this.phase === CallPhase.BROADCAST) return;
    this.time.timers?.clearAll(this.keyOf(this.record));
  }

  timeContext(): TimeContext<Date>;
  timeContext<K extends TimeKind>(kind: K): TimeContext<K extends "millis" ? number : Date>;
  timeContext(kind?: TimeKind): TimeContext<Date> | TimeContext<number> {
    if (kind === undefined || kind === "date") return this.dateTime;
    if (kind === "millis") return this.millisTime;
    throw new TableRuntimeException(`timeContext(): unknown time kind '${String(kind)}'; expected "date" (Date values, the default) or "millis" (epoch milliseconds)`);
  }

  currentTimer(): string | null {
    return this.inTimer ? this.timerName : null;
  }
}
