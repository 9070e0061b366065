import type { ResolvedPtfCall } from "../../../ptf/resolved-call.js";
import type { ValueStateDecl } from "../../../ptf/state.js";
import { resolveStateTtls } from "../../../ptf/state-ttl.js";
import { ExecutionError, TableError } from "../../../table/errors.js";
import type { JobSettings } from "../../../table/executor.js";
import { BaseOperator, type Output } from "../../operator.js";
import { type CollectFn, makeCollector } from "./collector.js";
import { keyExtractor } from "./keys.js";
import { type RowMaker, rowMakerFor, typedRowMaker } from "./rows.js";
import { ptfInspection } from "./inspect.js";
import { type Clearable, RuntimeContext } from "./runtime-context.js";
import { MAX_DATE_MS, type TimeHost } from "./time-context.js";
import { type Timer, type TimerSnapshot, TimerService } from "./timers.js";
import { ValueStateSlot } from "./value-state.js";
import { KeyedStateListView, KeyedStateMapViewWithKeysNotNull, KeyedStateValueView } from "./views.js";

/** A checkpoint of a PTF operator's state. */
export interface PtfSnapshot {
  readonly uid: string | undefined;
  readonly values: Readonly<Record<string, readonly (readonly [unknown, object, number | undefined])[]>>;
  readonly views: Readonly<Record<string, readonly (readonly [unknown, unknown])[]>>;
  /** Registered timers in firing order: [key, name, time, record]. */
  readonly timers?: readonly TimerSnapshot[];
}

type AnyView = KeyedStateValueView<unknown> | KeyedStateListView<unknown> | KeyedStateMapViewWithKeysNotNull<unknown, unknown>;

/**
 * Runs a PTF call over one table. Rows of a set-semantics table are grouped by their PARTITION BY key
 * into virtual processors: each key has its own state, kept in one `Map<key, state>` per state entry;
 * no key (row semantics, or OPTIONAL_PARTITION_BY without PARTITION BY) means a single processor.
 *
 * Per row: key lookup, state objects loaded into a reused holder, eval called, state kept or dropped.
 * No closure or object is created per row besides the output records eval collects and the input row
 * object, which is made only when eval reads the table argument.
 */
export class PtfOperator extends BaseOperator {
  outputs: Output[] = [];
  private readonly ctx: RuntimeContext;
  private readonly evalFn: (ctx: unknown, state: unknown, args: unknown) => void;
  private readonly keyOf: (r: readonly unknown[]) => unknown;
  private readonly makeRow: RowMaker;
  /** Reused objects passed to eval: state entries by name, arguments by name. */
  private readonly stateHolder: Record<string, unknown> = {};
  private readonly argsHolder: Record<string, unknown>;
  private readonly slots: ValueStateSlot[] = [];
  private readonly slotNames: string[] = [];
  private readonly loaded: object[] = [];
  private readonly views: AnyView[] = [];
  private readonly needsClock: boolean;
  private readonly clock: () => number;
  /** Event-time timers per key; undefined where Flink forbids timers (row semantics, pass-through). */
  readonly timers: TimerService | undefined;
  /** The current input: its kind and record, and the row object once eval asked for it. */
  private kind = 0;
  private record: unknown[] = [];
  private row: object | undefined;

  constructor(readonly call: ResolvedPtfCall, settings: JobSettings) {
    super(1);
    const table = call.tables[0]!;
    this.evalFn = call.fn.evalFn;
    this.clock = settings.clock;
    this.keyOf = keyExtractor(table.partitionKeys, table.schema.types);
    this.makeRow = table.decl.type ? typedRowMaker(table.decl.type, table.schema.types) : rowMakerFor(table.schema);
    const ttls = resolveStateTtls(call, settings.config.get("table.exec.state.ttl"));
    const clearables: Clearable[] = [];
    call.fn.states.forEach((s, i) => {
      const ttl = ttls[i]!.ttl;
      switch (s.decl.kind) {
        case "value": {
          const slot = new ValueStateSlot(s.name, s.decl as ValueStateDecl<unknown>, ttl);
          this.slots.push(slot);
          this.slotNames.push(s.name);
          clearables.push(slot);
          break;
        }
        case "valueView": this.addView(new KeyedStateValueView(s.name, ttl), clearables); break;
        case "listView": this.addView(new KeyedStateListView(s.name, ttl), clearables); break;
        case "mapView": this.addView(new KeyedStateMapViewWithKeysNotNull(s.name, ttl), clearables); break;
      }
    });
    this.needsClock = ttls.some((t) => t.ttl > 0);
    // the table argument is a getter: the row object is made only if eval reads it (once per call)
    this.argsHolder = { ...call.scalars };
    Object.defineProperty(this.argsHolder, table.name, { enumerable: true, get: () => this.input() });
    const prefix = call.prefix === "all" ? table.schema.columns.map((_, i) => i) : call.prefix === "keys" ? [...table.partitionKeys] : [];
    const collect: CollectFn = makeCollector({
      functionName: call.functionName, outputType: call.fn.outputType, columns: call.functionColumns, prefix,
      timeColumn: call.rowtime ? table.timeColumn : -1,
    });
    this.timers = table.setSemantics && !table.passThrough ? new TimerService() : undefined;
    const time: TimeHost = {
      functionName: call.functionName, timers: this.timers, hasOnTimer: call.fn.onTimerFn !== undefined, timeColumn: table.timeColumn,
      currentWatermark: () => this.currentWatermark, tableWatermark: () => this.inputWatermark(0),
    };
    this.ctx = new RuntimeContext(call.functionName, collect, call.tables, clearables, time);
    this.ctx.keyOf = this.keyOf;
    if (ptfInspection.track) ptfInspection.operators.push(this);
  }

  private addView(v: AnyView, clearables: Clearable[]): void {
    this.views.push(v);
    this.stateHolder[v.name] = v;
    clearables.push(v);
  }

  override open(): void {
    this.ctx.out = this.out;
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    const key = this.keyOf(row);
    const now = this.needsClock ? this.clock() : 0;
    const slots = this.slots;
    const holder = this.stateHolder;
    for (let i = 0; i < slots.length; i++) {
      const v = slots[i]!.load(key, now);
      this.loaded[i] = v;
      holder[this.slotNames[i]!] = v;
    }
    const views = this.views;
    for (let i = 0; i < views.length; i++) views[i]!.enter(key, now);
    this.kind = kind;
    this.record = row;
    this.row = undefined;
    const ctx = this.ctx;
    ctx.record = row;
    ctx.inEval = true;
    try {
      this.evalFn(ctx, holder, this.argsHolder);
    } catch (e) {
      throw this.failure(e);
    } finally {
      ctx.inEval = false;
    }
    for (let i = 0; i < slots.length; i++) slots[i]!.store(key, this.loaded[i]!, now);
    for (let i = 0; i < views.length; i++) views[i]!.leave();
  }

  /**
   * Fires the timers due at `wm` (time order; timers registered by onTimer at or before `wm` in the
   * same pass), then forwards the watermark: timer output is downstream before the watermark
   * (FLINK-SEMANTICS rules 6-7).
   */
  protected override onWatermark(wm: number): void {
    const timers = this.timers;
    if (timers !== undefined && timers.size() > 0) this.fireTimers(timers, wm);
    this.out.watermark(wm);
  }

  private fireTimers(timers: TimerService, wm: number): void {
    const onTimer = this.call.fn.onTimerFn;
    if (onTimer === undefined) return;
    const ctx = this.ctx;
    const slots = this.slots;
    const views = this.views;
    const holder = this.stateHolder;
    for (let t = timers.pollDue(wm); t !== undefined; t = timers.pollDue(wm)) {
      const key = t.key;
      const now = this.needsClock ? this.clock() : 0;
      for (let i = 0; i < slots.length; i++) {
        const v = slots[i]!.load(key, now);
        this.loaded[i] = v;
        holder[this.slotNames[i]!] = v;
      }
      for (let i = 0; i < views.length; i++) views[i]!.enter(key, now);
      ctx.record = t.record;
      ctx.inTimer = true;
      ctx.timerTime = t.time;
      ctx.timerName = t.name;
      ctx.timerDate = new Date(t.time > MAX_DATE_MS ? MAX_DATE_MS : t.time);
      ctx.inEval = true;
      try {
        onTimer(ctx, holder);
      } catch (e) {
        throw this.timerFailure(e, t);
      } finally {
        ctx.inEval = false;
        ctx.inTimer = false;
        ctx.timerDate = undefined;
        ctx.timerName = null;
        ctx.timerTime = NaN;
      }
      for (let i = 0; i < slots.length; i++) slots[i]!.store(key, this.loaded[i]!, now);
      for (let i = 0; i < views.length; i++) views[i]!.leave();
    }
  }

  private timerFailure(e: unknown, t: Timer): Error {
    if (e instanceof TableError) return e;
    const which = t.name === null ? `the unnamed timer at ${t.time}` : `timer '${t.name}' at ${t.time}`;
    return new ExecutionError(`Process table function '${this.call.functionName}' failed in onTimer() for ${which}: ${(e as Error)?.message ?? String(e)}`, { cause: e });
  }

  /** The row object eval receives for the current input, made on first access. */
  private input(): object {
    return (this.row ??= this.makeRow(this.kind, this.record));
  }

  private failure(e: unknown): Error {
    if (e instanceof TableError) return e;
    return new ExecutionError(`Process table function '${this.call.functionName}' failed in eval() for row ${String(this.input())}: ${(e as Error)?.message ?? String(e)}`, { cause: e });
  }

  /**
   * The state of all virtual processors, by state entry name (checkpoints find it again by the call's
   * uid). Values are copies: later calls do not change a snapshot.
   */
  override snapshotState(): PtfSnapshot {
    return {
      uid: this.call.uid,
      values: Object.fromEntries(this.slots.map((s) => [s.name, s.snapshot()])),
      views: Object.fromEntries(this.views.map((v) => [v.name, v.snapshot()])),
      timers: this.timers?.snapshot() ?? [],
    };
  }

  override restoreState(state: unknown): void {
    const s = state as PtfSnapshot;
    const now = this.clock();
    for (const slot of this.slots) slot.restore(s.values[slot.name] ?? [], now);
    for (const v of this.views) (v.restore as (e: readonly (readonly [unknown, unknown])[]) => void)(s.views[v.name] ?? []);
    // timers are state (restored); watermarks are not (FLINK-SEMANTICS rule 19)
    this.timers?.restore(s.timers ?? []);
  }

  /**
   * The state of one virtual processor as eval would see it at processing time `now`, by state entry
   * name in declaration order: the value state object, a view's value, list elements (new array) or
   * map entries (new Map); undefined where an entry holds nothing unexpired. Reads only — no TTL
   * cleanup, no fresh defaults — and copies no value: the test harness (src/testing/ptf-harness.ts)
   * copies and freezes what it shows.
   */
  peekState(key: unknown, now: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const s of this.call.fn.states) out[s.name] = undefined;
    for (const s of this.slots) out[s.name] = s.peek(key, now);
    for (const v of this.views) out[v.name] = v.peek(key, now);
    return out;
  }

  /** Keys whose virtual processor holds unexpired state at `now` (reads only, as peekState). */
  liveStateKeys(now: number): unknown[] {
    const keys = new Set<unknown>();
    for (const s of this.slots) for (const k of s.map.keys()) if (!keys.has(k) && s.peek(k, now) !== undefined) keys.add(k);
    for (const v of this.views) for (const k of v.map.keys()) if (!keys.has(k) && v.peek(k, now) !== undefined) keys.add(k);
    return [...keys];
  }

  /** Number of virtual processors (keys) holding state: benchmarks report memory per key from it. */
  stateKeyCount(): number {
    const keys = new Set<unknown>();
    for (const s of this.slots) for (const k of s.map.keys()) keys.add(k);
    for (const v of this.views) for (const k of v.map.keys()) keys.add(k);
    return keys.size;
  }
}
