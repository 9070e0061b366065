import { setOwn } from "../../../types/own.js";
import type { ResolvedPtfCall } from "../../../ptf/resolved-call.js";
import type { ValueStateDecl } from "../../../ptf/state.js";
import { resolveStateTtls } from "../../../ptf/state-ttl.js";
import { ExecutionError, TableError } from "../../../types/errors.js";
import type { JobSettings } from "../../job-contract.js";
import type { MetricGroup } from "../../metrics.js";
import { BaseOperator, type Output } from "../../operator.js";
import { type CollectFn, makeCollector } from "./collector.js";
import { keyExtractor, primitiveKeyColumn } from "./keys.js";
import { fastPath } from "./fast-path.js";
import { type RowMaker, rowMakerFor, typedRowMaker } from "./rows.js";
import { ptfInspection } from "./inspect.js";
import { type Clearable, RuntimeContext } from "./runtime-context.js";
import { CallPhase, MAX_DATE_MS, type TimeHost } from "./time-context.js";
import { copyValue } from "./state-copy.js";
import { type Timer, type TimerSnapshot, TimerService } from "./timers.js";
import { type SortBufferFiles, type SortBufferSnapshot, SortBuffer } from "./sort-buffer.js";
import { type ValueStateEntry, ValueStateSlot } from "./value-state.js";
import { type StateAccess, stateAccess } from "./state-access.js";
import { type ChangeSink, ChangelogInput } from "./changelog-input.js";
import { modeInfo } from "../../../ptf/changelog.js";
import { Kind } from "../../../types/row.js";
import { KeyedStateListView, KeyedStateMapViewWithKeysNotNull, KeyedStateValueView } from "./views.js";
import { describeThrown, thrownIs } from "../../../types/describe-thrown.js";
import { describeStateDecl } from "./state-schema.js";
import { HASHMAP_BACKEND, type StoreFiles } from "../../state/keyed-store.js";
import type { ValueStateFiles } from "../../state/snapshot-store.js";

/** A checkpoint of a PTF operator's state. */
export interface PtfSnapshot {
  readonly uid: string | undefined;
  /** Per state entry its entries, or (disk backend, in a checkpoint) the files holding them. */
  readonly values: Readonly<Record<string, readonly ValueStateEntry[] | ValueStateFiles>>;
  readonly views: Readonly<Record<string, readonly (readonly [unknown, unknown])[] | StoreFiles>>;
  /** Registered timers in firing order: [key, name, time, record, input?]. */
  readonly timers?: readonly TimerSnapshot[];
  /** Sort buffers of ORDER BY table arguments, by argument name: rows not yet released (or, disk backend in a checkpoint, the files holding them). */
  readonly sortBuffers?: Readonly<Record<string, SortBufferSnapshot | SortBufferFiles>>;
  /** Late rows dropped by the sort buffers so far (the metric survives a restore, as for windows). */
  readonly numLateRecordsDropped?: number;
  /** Last row per upsert key of updating table arguments that need it, by argument name. */
  readonly changelogInputs?: Readonly<Record<string, readonly (readonly [unknown, readonly unknown[]])[]>>;
  /** NOTIFY_STATEFUL_SETS: per key, a row of it ([key, input, record]) that gives notified output its key columns. */
  readonly notifyKeys?: readonly (readonly [unknown, number, readonly unknown[]])[];
}

/** The key under which broadcast state is stored (one entry shared by all virtual processors). */
const BROADCAST_KEY = null;

type AnyView = KeyedStateValueView<unknown> | KeyedStateListView<unknown> | KeyedStateMapViewWithKeysNotNull<unknown, unknown>;

/** What differs per table argument: key extraction, row objects, the collector (its key columns), time. */
interface InputSide {
  readonly name: string;
  readonly keyOf: (r: readonly unknown[]) => unknown;
  readonly makeRow: RowMaker;
  readonly collect: CollectFn;
  readonly timeColumn: number;
  /** The sort buffer of an ORDER BY table argument. */
  readonly sort: SortBuffer | undefined;
  /** Upsert delivery of an input with UPDATE_BEFORE: those records are dropped (PTF rule 11). */
  readonly dropUpdateBefore: boolean;
  /** The input adapter of an updating table that needs the last row per key (retractions, full deletes). */
  readonly changes: ChangelogInput | undefined;
  /** A BROADCAST_SEMANTIC_TABLE argument, and whether it notifies stateful sets. */
  readonly broadcast: boolean;
  readonly notify: boolean;
}

/**
 * Runs a PTF call over one or several tables. Rows of set-semantics tables are grouped by their
 * PARTITION BY key into virtual processors: each key has its own state, kept in one `Map<key, state>`
 * per state entry; no key (row semantics, or OPTIONAL_PARTITION_BY without PARTITION BY) means a single
 * processor. With several (co-partitioned) tables the key values are equal across tables, so one
 * processor serves a key of all of them; eval sees the current input's row and null for the others.
 *
 * Per row: key lookup, state objects loaded into a reused holder, eval called, state kept or dropped.
 * No closure or object is created per row besides the output records eval collects and the input row
 * object, which is made only when eval reads the table argument. ORDER BY tables buffer their rows
 * (sort-buffer.ts) until the table's watermark passes their time.
 */
export class PtfOperator extends BaseOperator implements ChangeSink {
  outputs: Output[] = [];
  private readonly ctx: RuntimeContext;
  private readonly evalFn: (ctx: unknown, state: unknown, args: unknown) => void;
  private readonly sides: InputSide[];
  /** The input of the current record, and its key extraction / row maker. */
  private current = 0;
  private keyOf: (r: readonly unknown[]) => unknown;
  private makeRow: RowMaker;
  /** Whether any table argument has ORDER BY. */
  private readonly sorted: boolean;
  /** Several tables, ORDER BY or an adapted updating input: rows take the routing path. */
  private readonly routed: boolean;
  /** Reused objects passed to eval: state entries by name, arguments by name. */
  private readonly stateHolder: Record<string, unknown> = {};
  private readonly argsHolder: Record<string, unknown>;
  private readonly slots: ValueStateSlot[] = [];
  private readonly slotNames: string[] = [];
  private readonly views: AnyView[] = [];
  /** Broadcast state entries (StateKind.BROADCAST): stored under BROADCAST_KEY, shared by all keys. */
  private readonly bSlots: ValueStateSlot[] = [];
  private readonly bViews: AnyView[] = [];
  /** Inputs with broadcast semantics. */
  private readonly broadcastIndexes: number[];
  /** NOTIFY_STATEFUL_SETS only: a row per key that gives notified calls their key columns (insertion order). */
  private readonly keyRecords: Map<unknown, { input: number; record: unknown[] }> | undefined;
  /** Generated load / store of all state entries around eval and onTimer. */
  private readonly state: StateAccess;
  private readonly needsClock: boolean;
  private readonly clock: () => number;
  /** Event-time timers per key; undefined where Flink forbids timers (row semantics, pass-through). */
  readonly timers: TimerService | undefined;
  /** The current input: its kind and record, and the row object once eval asked for it. */
  kind = 0;
  record: unknown[] = [];
  row: object | undefined;
  /** Rows of ORDER BY tables dropped because they arrived at or behind their table's watermark. */
  numLateRecordsDropped = 0;
  /** The generated per-row path of the common case (fast-path.ts); undefined where it does not apply. */
  private readonly fast: ((kind: number, row: unknown[]) => void) | undefined;

  constructor(readonly call: ResolvedPtfCall, settings: JobSettings) {
    super(call.tables.length);
    const tables = call.tables;
    this.evalFn = call.fn.evalFn;
    this.clock = settings.clock;
    // keyed state goes to the job's backend; broadcast state (one entry) and timers stay in memory, as
    // Flink keeps broadcast state and (with state.backend.rocksdb.timer-service.factory HEAP) timers on the heap
    const backend = settings.stateBackend ?? HASHMAP_BACKEND;
    this.sides = tables.map((table) => {
      const prefix = call.prefix === "all" ? table.schema.columns.map((_, i) => i)
        // every table's key columns carry the current key (co-partitioned: equal values)
        : call.prefix === "keys" ? tables.filter((t) => t.setSemantics).flatMap(() => table.partitionKeys) : [];
      return {
        name: table.name,
        keyOf: keyExtractor(table.partitionKeys, table.schema.types),
        makeRow: table.decl.type ? typedRowMaker(table.decl.type, table.schema.types) : rowMakerFor(table.schema),
        collect: makeCollector({
          functionName: call.functionName, outputType: call.fn.outputType, columns: call.functionColumns, prefix,
          timeColumn: call.rowtime ? table.timeColumn : -1, mode: call.outputMode,
        }),
        timeColumn: table.timeColumn,
        sort: table.orderBy.length > 0 ? new SortBuffer(table.orderBy[0]!.column, table.orderBy, backend, `${call.functionName}.${table.name}.sortBuffer`) : undefined,
        dropUpdateBefore: table.delivery.dropUpdateBefore,
        changes: table.delivery.materializeKey.length > 0 ? new ChangelogInput(table.delivery, table.schema.types) : undefined,
        broadcast: table.broadcast,
        notify: table.broadcast && table.decl.has("NOTIFY_STATEFUL_SETS"),
      };
    });
    this.sorted = this.sides.some((s) => s.sort !== undefined);
    this.routed = this.sorted || this.sides.length > 1 || this.sides.some((x) => x.dropUpdateBefore || x.changes !== undefined);
    const first = this.sides[0]!;
    this.keyOf = first.keyOf;
    this.makeRow = first.makeRow;
    const ttls = resolveStateTtls(call, settings.config.get("table.exec.state.ttl"));
    const clearables: Clearable[] = [];
    call.fn.states.forEach((s, i) => {
      const ttl = ttls[i]!.ttl;
      const shared = s.decl.broadcast;
      switch (s.decl.kind) {
        case "value": {
          const slot = new ValueStateSlot(s.name, s.decl as ValueStateDecl<unknown>, ttl, shared ? HASHMAP_BACKEND : backend);
          slot.broadcast = shared;
          if (shared) this.bSlots.push(slot);
          else {
            this.slots.push(slot);
            this.slotNames.push(s.name);
          }
          clearables.push(slot);
          break;
        }
        case "valueView": this.addView(new KeyedStateValueView(s.name, ttl, shared ? HASHMAP_BACKEND : backend), clearables, shared); break;
        case "listView": this.addView(new KeyedStateListView(s.name, ttl, shared ? HASHMAP_BACKEND : backend), clearables, shared); break;
        case "mapView": this.addView(new KeyedStateMapViewWithKeysNotNull(s.name, ttl, shared ? HASHMAP_BACKEND : backend), clearables, shared); break;
      }
    });
    this.broadcastIndexes = this.sides.flatMap((x, i) => (x.broadcast ? [i] : []));
    this.keyRecords = this.sides.some((x) => x.notify) ? new Map() : undefined;
    this.needsClock = ttls.some((t) => t.ttl > 0);
    this.state = stateAccess(this.slots, this.slotNames, this.views, this.stateHolder);
    // table arguments are getters: the row object is made only if eval reads it (once per call); with
    // several tables only the current input's argument is non-null
    this.argsHolder = { ...call.scalars };
    if (tables.length === 1) {
      Object.defineProperty(this.argsHolder, first.name, { enumerable: true, get: () => this.input() });
    } else {
      tables.forEach((t, i) => {
        Object.defineProperty(this.argsHolder, t.name, { enumerable: true, get: () => (this.current === i ? this.input() : null) });
      });
    }
    // Flink allows timers on set-semantics tables without pass-through columns (multi-input: all are);
    // broadcast tables have no key (their rows cannot register timers)
    this.timers = tables.every((t) => t.broadcast || (t.setSemantics && !t.passThrough)) ? new TimerService(tables.map((t) => t.partitionKeys)) : undefined;
    const time: TimeHost = {
      functionName: call.functionName, timers: this.timers, hasOnTimer: call.fn.onTimerFn !== undefined,
      currentWatermark: () => this.currentWatermark, tableWatermark: () => this.inputWatermark(this.current),
    };
    this.ctx = new RuntimeContext(call.functionName, first.collect, tables, clearables, time);
    this.ctx.keyOf = first.keyOf;
    this.ctx.timeColumn = first.timeColumn;
    this.ctx.outputMode = modeInfo(call.outputMode);
    // one table, no routing, value state without TTL: the whole per-row path is generated
    this.fast = !this.routed && !this.needsClock && this.views.length === 0
      ? fastPath({
        host: this, ctx: this.ctx, evalFn: this.evalFn, stateHolder: this.stateHolder, argsHolder: this.argsHolder,
        slots: this.slots, names: this.slotNames, keyOf: first.keyOf,
        keyColumn: primitiveKeyColumn(tables[0]!.partitionKeys, tables[0]!.schema.types),
      })
      : undefined;
    if (ptfInspection.track) ptfInspection.operators.push(this);
  }

  /** Makes input `i` the current one (several table arguments only). */
  private switchTo(i: number): void {
    const side = this.sides[i]!;
    this.current = i;
    this.keyOf = side.keyOf;
    this.makeRow = side.makeRow;
    const ctx = this.ctx;
    ctx.collectFn = side.collect;
    ctx.keyOf = side.keyOf;
    ctx.input = i;
    ctx.timeColumn = side.timeColumn;
  }

  private addView(v: AnyView, clearables: Clearable[], shared: boolean): void {
    v.broadcast = shared;
    (shared ? this.bViews : this.views).push(v);
    setOwn(this.stateHolder, v.name, v);
    clearables.push(v);
  }

  override open(): void {
    this.ctx.out = this.out;
  }

  processElement(input: number, kind: number, row: unknown[]): void {
    const fast = this.fast;
    if (fast !== undefined) {
      fast(kind, row);
      return;
    }
    // one table without ORDER BY (TTL or views: no generated path) pays a single flag check here
    if (this.routed) {
      this.routeElement(input, kind, row);
      return;
    }
    this.evalRecord(kind, row, this.keyOf(row));
  }

  /**
   * Several tables, ORDER BY and/or an updating input that is adapted: switch to the row's input, adapt
   * its changes, then buffer it or eval it.
   */
  private routeElement(input: number, kind: number, row: unknown[]): void {
    if (input !== this.current) this.switchTo(input);
    const side = this.sides[input]!;
    if (side.broadcast) {
      this.evalBroadcast(side, kind, row);
      return;
    }
    if (kind === Kind.UPDATE_BEFORE && side.dropUpdateBefore) return;
    if (side.changes !== undefined) side.changes.process(kind, row, this);
    else this.deliver(kind, row);
  }

  /** A record of the current input as eval should see it: buffered (ORDER BY) or evaluated. */
  deliver(kind: number, row: unknown[]): void {
    const sort = this.sides[this.current]!.sort;
    if (sort !== undefined) this.buffer(sort, this.current, kind, row);
    else this.evalRecord(kind, row, this.keyOf(row));
  }

  /** eval for one record of the current input. */
  private evalRecord(kind: number, row: unknown[], key: unknown): void {
    const now = this.needsClock ? this.clock() : 0;
    const state = this.state;
    state.load(key, now);
    if (this.broadcastIndexes.length > 0) this.loadBroadcastReadOnly();
    const keys = this.keyRecords;
    if (keys !== undefined && !keys.has(key)) keys.set(key, { input: this.current, record: row });
    this.kind = kind;
    this.record = row;
    this.row = undefined;
    const ctx = this.ctx;
    ctx.record = row;
    ctx.inEval = true;
    try {
      this.evalFn(ctx, this.stateHolder, this.argsHolder);
    } catch (e) {
      throw this.failure(e);
    } finally {
      ctx.inEval = false;
    }
    state.store(key, now);
  }

  /**
   * Broadcast state for a main row, a timer or a notified set: read-only. Views reject writes; an eager
   * value is a copy, so changes to it are discarded (Flink: immutable broadcast entries). The copy is
   * the one allocation per row that eager broadcast state costs.
   */
  private loadBroadcastReadOnly(): void {
    const holder = this.stateHolder;
    for (const slot of this.bSlots) {
      const v = slot.peek(BROADCAST_KEY, 0);
      holder[slot.name] = v === undefined ? slot.fresh() : copyValue(v);
    }
    for (const v of this.bViews) {
      v.enter(BROADCAST_KEY, 0);
      v.readOnly = true;
    }
  }

  /**
   * A row of a broadcast table: eval without key context — keyed state entries are null, broadcast
   * state is writable, collect and timers fail. Then, with NOTIFY_STATEFUL_SETS, the same row once per
   * key holding state (notifySets).
   */
  private evalBroadcast(side: InputSide, kind: number, row: unknown[]): void {
    const holder = this.stateHolder;
    for (const name of this.slotNames) holder[name] = null;
    for (const v of this.views) holder[v.name] = null;
    const loaded: object[] = [];
    for (const slot of this.bSlots) {
      const v = slot.load(BROADCAST_KEY, 0);
      loaded.push(v);
      holder[slot.name] = v;
    }
    for (const v of this.bViews) {
      v.enter(BROADCAST_KEY, 0);
      v.readOnly = false;
    }
    this.kind = kind;
    this.record = row;
    this.row = undefined;
    const ctx = this.ctx;
    ctx.record = row;
    ctx.phase = CallPhase.BROADCAST;
    ctx.inEval = true;
    try {
      this.evalFn(ctx, holder, this.argsHolder);
    } catch (e) {
      throw this.failure(e);
    } finally {
      ctx.inEval = false;
      ctx.phase = CallPhase.MAIN;
      for (const v of this.views) holder[v.name] = v;
    }
    this.bSlots.forEach((slot, i) => slot.store(BROADCAST_KEY, loaded[i]!, 0));
    for (const v of this.bViews) v.leave();
    if (side.notify) this.notifySets(row);
  }

  /**
   * NOTIFY_STATEFUL_SETS: the broadcast row once per key that holds state, in the order the keys first
   * came, with that key's state (broadcast state read-only). Output rows carry the key's columns (from a
   * row of that key) and, with on_time, the broadcast row's time. Keys whose state is gone are forgotten.
   */
  private notifySets(row: unknown[]): void {
    const keys = this.keyRecords!;
    const broadcastInput = this.current;
    const side = this.sides[broadcastInput]!;
    const time = side.timeColumn >= 0 ? (row[side.timeColumn] as Date | null) : null;
    const ctx = this.ctx;
    const state = this.state;
    for (const [key, entry] of [...keys]) {
      const now = this.needsClock ? this.clock() : 0;
      if (!this.holdsState(key, now)) {
        keys.delete(key);
        continue;
      }
      state.load(key, now);
      this.loadBroadcastReadOnly();
      const main = this.sides[entry.input]!;
      ctx.collectFn = main.collect;
      ctx.keyOf = main.keyOf;
      ctx.input = entry.input;
      ctx.timeColumn = -1;
      ctx.record = entry.record;
      ctx.notifyTime = time === null ? NaN : time.getTime();
      ctx.timerDate = time === null ? undefined : time;
      ctx.phase = CallPhase.NOTIFY;
      ctx.inEval = true;
      try {
        this.evalFn(ctx, this.stateHolder, this.argsHolder);
      } catch (e) {
        throw this.failure(e);
      } finally {
        ctx.inEval = false;
        ctx.phase = CallPhase.MAIN;
        ctx.timerDate = undefined;
        ctx.notifyTime = NaN;
      }
      state.store(key, now);
    }
    this.current = -1;
    this.switchTo(broadcastInput);
  }

  /** Whether a key holds keyed state at `now`. */
  private holdsState(key: unknown, now: number): boolean {
    for (const s of this.slots) if (s.peek(key, now) !== undefined) return true;
    for (const v of this.views) if (v.peek(key, now) !== undefined) return true;
    return false;
  }

  /**
   * ORDER BY (PTF rule 10): a row waits in its table's sort buffer until the table's
   * watermark passes its time; a row at or behind that watermark on arrival is late and dropped.
   */
  private buffer(sort: SortBuffer, input: number, kind: number, row: unknown[]): void {
    const v = row[sort.timeColumn] as Date | null;
    if (v === null || v === undefined) {
      throw new ExecutionError(
        `Process table function '${this.call.functionName}': a row of table argument '${this.sides[input]!.name}' has a NULL ORDER BY time column (position ${sort.timeColumn}): [${row.map(String).join(", ")}]. A time attribute must not be null.`,
      );
    }
    const time = v.getTime();
    if (time <= this.inputWatermark(input)) {
      this.numLateRecordsDropped++;
      return;
    }
    sort.add(this.keyOf(row), kind, row, time);
  }

  /**
   * A table's watermark advances: its sorted rows up to the new watermark go to eval first, which still
   * sees the previous watermarks (P-083); then the operator's watermark is updated, timers fire and the
   * watermark is forwarded.
   */
  override processWatermark(input: number, wm: number): void {
    if (this.sorted) {
      const sort = this.sides[input]!.sort;
      if (sort !== undefined && sort.size() > 0 && wm > this.inputWatermark(input)) {
        if (input !== this.current) this.switchTo(input);
        for (let r = sort.pollDue(wm); r !== undefined; r = sort.pollDue(wm)) this.evalRecord(r.kind, r.record, r.key);
      }
    }
    super.processWatermark(input, wm);
  }

  /**
   * Fires the timers due at `wm` (time order; timers registered by onTimer at or before `wm` in the
   * same pass), then forwards the watermark: timer output is downstream before the watermark
   * (PTF rules 6-7).
   */
  protected override onWatermark(wm: number): void {
    const timers = this.timers;
    // checked here, per watermark (per record with per-record watermarks): most watermarks fire nothing
    if (timers !== undefined && timers.size() > 0 && timers.nextTime() <= wm) this.fireTimers(timers, wm);
    this.out.watermark(wm);
  }

  /**
   * A call with an ORDER BY table publishes its late rows as `<scope>.numLateRecordsDropped`, as windows
   * and OVER do (Flink's ProcessTableOperator counts them under the same name); other calls drop nothing.
   */
  setMetrics(group: MetricGroup): void {
    if (this.sorted) group.gauge("numLateRecordsDropped", () => this.numLateRecordsDropped);
  }

  private fireTimers(timers: TimerService, wm: number): void {
    const onTimer = this.call.fn.onTimerFn;
    if (onTimer === undefined) return;
    const ctx = this.ctx;
    const state = this.state;
    const holder = this.stateHolder;
    for (let t = timers.pollDue(wm); t !== undefined; t = timers.pollDue(wm)) {
      const key = t.key;
      const now = this.needsClock ? this.clock() : 0;
      state.load(key, now);
      if (this.broadcastIndexes.length > 0) this.loadBroadcastReadOnly();
      if (t.input !== this.current) this.switchTo(t.input);
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
      state.store(key, now);
    }
  }

  private timerFailure(e: unknown, t: Timer): Error {
    if (thrownIs(e, TableError)) return e;
    const which = t.name === null ? `the unnamed timer at ${t.time}` : `timer '${t.name}' at ${t.time}`;
    return new ExecutionError(`Process table function '${this.call.functionName}' failed in onTimer() for ${which}: ${describeThrown(e)}`, { cause: e });
  }

  /** The row object eval receives for the current input, made on first access. */
  private input(): object {
    return (this.row ??= this.makeRow(this.kind, this.record));
  }

  /** The error thrown for an exception of eval (also from the generated path). */
  failure(e: unknown): Error {
    if (thrownIs(e, TableError)) return e;
    return new ExecutionError(`Process table function '${this.call.functionName}' failed in eval() for row ${String(this.input())}: ${describeThrown(e)}`, { cause: e });
  }

  /** The declared state entries, checked against a checkpoint's when it is restored (state-schema.ts). */
  stateSchema(): Readonly<Record<string, string>> {
    return Object.fromEntries(this.call.fn.states.map((s) => [s.name, describeStateDecl(s.decl)]));
  }

  /**
   * The state of all virtual processors, by state entry name (checkpoints find it again by the call's
   * uid). Values are copies: later calls do not change a snapshot.
   */
  override snapshotState(): PtfSnapshot {
    return this.snapshotOf(true);
  }

  /** The snapshot referring to the live state objects, for the checkpoint writer (checkpoint/job-state.ts). */
  snapshotStateInPlace(): PtfSnapshot {
    return this.snapshotOf(false);
  }

  override restoreState(state: unknown): void {
    this.restoreFrom(state as PtfSnapshot, false);
  }

  /** Restores state decoded from a checkpoint file, keeping its objects as the state (no copies). */
  restoreStateOwned(state: unknown): void {
    this.restoreFrom(state as PtfSnapshot, true);
  }

  /** `copy`: values are copies (later calls do not change the snapshot), else the live objects. */
  private snapshotOf(copy: boolean): PtfSnapshot {
    return {
      uid: this.call.uid,
      values: Object.fromEntries([...this.slots, ...this.bSlots].map((s) => [s.name, s.snapshot(copy)])),
      views: Object.fromEntries([...this.views, ...this.bViews].map((v) => [v.name, v.snapshot(copy)])),
      timers: this.timers?.snapshot() ?? [],
      ...(this.sorted ? {
        sortBuffers: Object.fromEntries(this.sides.filter((x) => x.sort).map((x) => [x.name, x.sort!.snapshot()])),
        numLateRecordsDropped: this.numLateRecordsDropped,
      } : {}),
      ...(this.keyRecords ? { notifyKeys: [...this.keyRecords].map(([k, e]) => [k, e.input, [...e.record]] as const) } : {}),
      ...(this.sides.some((x) => x.changes) ? { changelogInputs: Object.fromEntries(this.sides.filter((x) => x.changes).map((x) => [x.name, x.changes!.snapshot()])) } : {}),
    };
  }

  /** `owned`: the snapshot's values may become the state as they are (else they are copied). */
  private restoreFrom(s: PtfSnapshot, owned: boolean): void {
    const now = this.clock();
    for (const slot of [...this.slots, ...this.bSlots]) slot.restore(s.values[slot.name] ?? [], now, owned);
    for (const v of [...this.views, ...this.bViews]) (v.restore as (e: readonly (readonly [unknown, unknown])[] | StoreFiles, owned: boolean) => void)(s.views[v.name] ?? [], owned);
    if (this.keyRecords !== undefined) for (const [k, input, record] of s.notifyKeys ?? []) this.keyRecords.set(k, { input, record: [...record] });
    // timers are state (restored); watermarks are not (PTF rule 19)
    this.timers?.restore(s.timers ?? []);
    this.numLateRecordsDropped = s.numLateRecordsDropped ?? 0;
    for (const side of this.sides) {
      const sort = side.sort;
      if (sort !== undefined) sort.restore(s.sortBuffers?.[side.name] ?? [], (r) => (r[sort.timeColumn] as Date).getTime());
      side.changes?.restore(s.changelogInputs?.[side.name] ?? []);
    }
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
    for (const s of this.call.fn.states) setOwn(out, s.name, undefined);
    for (const s of this.slots) setOwn(out, s.name, s.peek(key, now));
    for (const v of this.views) setOwn(out, v.name, v.peek(key, now));
    return out;
  }

  /** Keys whose virtual processor holds unexpired state at `now` (reads only, as peekState). */
  liveStateKeys(now: number): unknown[] {
    const keys = new Set<unknown>();
    for (const s of this.slots) for (const k of s.map.keys()) if (!keys.has(k) && s.peek(k, now) !== undefined) keys.add(k);
    for (const v of this.views) for (const k of v.map.keys()) if (!keys.has(k) && v.peek(k, now) !== undefined) keys.add(k);
    return [...keys];
  }

  /**
   * Keys holding state, cheaply, for a progress display: the largest key count of one state entry (exact
   * for a function with one entry; a lower bound otherwise, without walking the keys as stateKeyCount does).
   */
  stateKeys(): number {
    let n = 0;
    for (const s of this.slots) if (s.map.size > n) n = s.map.size;
    for (const v of this.views) if (v.map.size > n) n = v.map.size;
    return n;
  }

  /** Number of virtual processors (keys) holding state: benchmarks report memory per key from it. */
  stateKeyCount(): number {
    const keys = new Set<unknown>();
    for (const s of this.slots) for (const k of s.map.keys()) keys.add(k);
    for (const v of this.views) for (const k of v.map.keys()) keys.add(k);
    return keys.size;
  }
}
