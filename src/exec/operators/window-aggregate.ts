import type { FunctionResolver } from "../../expressions/compile.js";
import { ExecutionError } from "../../types/errors.js";
import type { WindowAggregateNode } from "../../plan/nodes.js";
import type { AggregateLayout, AggregateOptions } from "../aggregates/aggregate-layout.js";
import { DirectOutput } from "../aggregates/downstream.js";
import type { KeyCode } from "../aggregates/key-code.js";
import { EventTimeOperator } from "../windows/event-time-operator.js";
import type { ProcessingTimeService, ProcessingTimeTarget, UsesProcessingTime } from "../time/processing-time-service.js";
import { type WindowHost, type WindowState, compileWindowAggregate } from "../windows/window-code.js";
import { type WindowGroup, SpillingWindowIndex, WindowGroupStore, parseGroupKey } from "../windows/window-group-store.js";
import { isStoreFiles, type StateBackend, type StoreFiles } from "../state/keyed-store.js";
import { restoreStore, storeSnapshot } from "../state/snapshot-store.js";

/** A window in a snapshot: inline groups in arrival order (both backends), or with the disk backend's files their count. */
interface WindowSnapshot {
  start: number;
  end: number;
  groups?: { keys: unknown[]; state: unknown }[];
  /** With store files: the window's group count and next arrival number. */
  count?: number;
  next?: number;
}

/**
 * Group-window aggregation for windows at fixed positions on the time axis: TUMBLE, SLIDE (hop) and
 * CUMULATE. Flink's rules (WindowOperator / SlicingWindowOperator):
 * - a row belongs to every window containing its time; a window [start, end) fires when the watermark
 *   reaches end - 1 ms, emitting one `+I` per key, then forgets its state;
 * - a row is late for a window already fired; it still counts in the other windows it belongs to (a hop
 *   window not yet fired), and is dropped — counted in `numLateRecordsDropped` — when all of them fired;
 * - end of input (+∞ watermark) fires every remaining window.
 * Windows fire in order of their end; the keys of a window in order of their first row.
 *
 * The per-record path is one function generated for this operator instance: the windows of the row's
 * time for this window type, the key and arguments evaluated once, and per window the key probe and the
 * accumulator updates (AggregateLayout; built-in ones as typed-array updates). Firing is generated too,
 * building output rows as array literals of this query's shape. State: per open window a key index
 * (KeyIndex: a numeric key costs a 12-byte hash slot) and the accumulators' columns (GroupColumns),
 * indexed by a per-window dense group id; nothing is allocated per record. On the disk backend those columns
 * are a bounded cache in front of the backend's stores (windows/window-group-store.ts): the generated code
 * is the same, each window's key index loads and gives away groups behind it.
 *
 * A key or argument expression — or an accumulator — that fails on a record fails the job with the record
 * named (row-error.ts); nothing is emitted while a record is assigned, so every such error is the record's.
 */
export class WindowAggregateOperator extends EventTimeOperator implements WindowHost, UsesProcessingTime, ProcessingTimeTarget {
  private readonly windows = new Map<number, WindowState>();
  /** Ends of the open windows, ascending. */
  private readonly ends: number[] = [];
  /** The window the last row went to: consecutive rows mostly share it (read by the generated code). */
  last: WindowState | undefined;
  private readonly layout: AggregateLayout;
  private readonly key: KeyCode;
  /** Where the generated code delivers its records. */
  private readonly down = new DirectOutput(this);
  /** Generated (window-code.ts), installed as this instance's own `processElement`. */
  override readonly processElement: (input: number, kind: number, row: unknown[]) => void;
  /** Generated: emits a window's groups as `+I` rows. */
  private readonly emitWindow: (w: WindowState) => void;

  /**
   * Processing-time windows (on a `PROCTIME()` attribute): the time axis is the row's processing time, which
   * only increases. A row at processing time t first fires the windows that ended by t (Flink's
   * processing-time timers at end - 1 ms have passed), then is assigned; watermarks pass through without
   * firing anything, except the +∞ of the end of input, which fires every open window (as Flink does at the
   * end of a bounded input). `currentWatermark` is then the processing time fired up to.
   * Each window also registers one processing-time timer when it opens (or is restored): due once the job
   * clock reaches its end (its last millisecond, end - 1, has passed), so it fires while the input is idle.
   */
  private readonly procTime: boolean;
  private timers: ProcessingTimeService | undefined;
  /** Processing-time mode: the last watermark forwarded. */
  private forwarded = -Infinity;
  /** The windows' groups in the backend's stores (`state.backend.type = disk`), else undefined. */
  private readonly store: WindowGroupStore | undefined;

  /**
   * `projection`: the positions of the node's row to emit, in order (a projection of plain columns above the
   * window fused into it, core-operators.ts); the state is the same either way.
   */
  constructor(node: WindowAggregateNode, resolveFunction?: FunctionResolver, options: AggregateOptions = {}, backend?: StateBackend,
    projection?: readonly number[]) {
    const w = node.window;
    const timeIndex = node.input.schema.indexOf(w.timeColumn);
    super(timeIndex, `window '${w.alias}' on column '${w.timeColumn}'`);
    if (w.type === "SESSION") throw new ExecutionError("WindowAggregateOperator does not run session windows (see SessionWindowAggregateOperator)");
    const code = compileWindowAggregate(node, this, this.down, resolveFunction, options, projection);
    this.layout = code.layout;
    this.key = code.key;
    this.procTime = node.input.schema.columns[timeIndex]!.type.timeAttribute === "PROCTIME";
    // an own property rather than a method calling it: one call less per record, and the caller's
    // (megamorphic) dispatch lands on this query's code directly
    if (this.procTime) {
      const assign = code.processElement;
      this.processElement = (input, kind, row) => {
        const now = this.rowtime(row);
        if (now - 1 > this.currentWatermark) this.fire(now - 1);
        assign(input, kind, row);
      };
    } else {
      this.processElement = code.processElement;
    }
    this.emitWindow = code.emitWindow;
    this.store = backend?.cacheSize !== undefined
      ? new WindowGroupStore(backend, code.layout, code.key, backend.cacheSize, `WindowAggregate.${w.type}`)
      : undefined;
  }

  bindProcessingTime(service: ProcessingTimeService): void {
    if (this.procTime) this.timers = service;
  }

  /** The job clock reached a window's end: every window that ended by `now` fires. */
  onProcessingTime(now: number): void {
    if (now - 1 > this.currentWatermark) this.fire(now - 1);
  }

  override processWatermark(input: number, wm: number): void {
    if (!this.procTime) { super.processWatermark(input, wm); return; }
    if (wm <= this.forwarded) return;
    this.forwarded = wm;
    if (wm === Infinity) this.fire(Infinity);
    this.down.target.processWatermark(this.down.input, wm);
  }

  override inputWatermark(): number {
    return this.procTime ? this.forwarded : this.currentWatermark;
  }

  /** Number of (window, key) entries held (benchmarks report bytes per entry). */
  entryCount(): number {
    let n = 0;
    for (const w of this.windows.values()) n += w.keys.size;
    return n;
  }

  /** The open window ending at `end`, opened if needed; it becomes the last window (called by the generated code). */
  window(start: number, end: number): WindowState {
    const w = this.windows.get(end) ?? this.openWindow(start, end);
    this.last = w;
    return w;
  }

  private openWindow(start: number, end: number): WindowState {
    // a fired window's arrays are left to the GC rather than pooled: a pool would hold a second window's
    // worth of memory for the whole job to save a few array doublings per window
    const cols = this.layout.newColumns();
    const w: WindowState = { start, end, keys: this.store !== undefined ? this.store.newIndex(end, cols) : this.key.newIndex(), cols };
    this.windows.set(end, w);
    const ends = this.ends;
    let i = ends.length;
    while (i > 0 && ends[i - 1]! > end) i--;
    ends.splice(i, 0, end);
    this.timers?.register(this, end);
    return w;
  }

  protected override onWatermark(wm: number): void {
    this.fire(wm);
    const down = this.down;
    down.target.processWatermark(down.input, wm);
  }

  /** Emits and forgets every window whose end - 1 ms is at or before `time`, in order of their end. */
  private fire(time: number): void {
    if (time > this.currentWatermark) this.currentWatermark = time;
    const wm = time;
    const ends = this.ends;
    while (ends.length > 0 && ends[0]! - 1 <= wm) {
      const w = this.windows.get(ends.shift()!)!;
      // groups in order of creation: gids are dense per window and never reused (on disk: arrival numbers)
      if (this.store !== undefined) this.store.fire(w.keys as SpillingWindowIndex, w.start, this.emitWindow);
      else this.emitWindow(w);
      this.windows.delete(w.end);
      if (this.last === w) this.last = undefined;
    }
  }

  /**
   * `{ windows: [{ start, end, groups: [{ keys, state }] }], numLateRecordsDropped }`, groups in arrival order —
   * the same on both backends — or, on the disk backend during a checkpoint or savepoint, the windows with
   * their counts and the files of the two stores (`groups`, `index`).
   */
  override snapshotState(): unknown {
    const store = this.store;
    const windows: WindowSnapshot[] = [];
    let files: { groups: StoreFiles; index: StoreFiles } | undefined;
    if (store !== undefined) {
      store.writeBack();
      const groups = storeSnapshot(store.groups);
      if (groups !== undefined) files = { groups, index: storeSnapshot(store.index)! };
    }
    for (const end of this.ends) {
      const w = this.windows.get(end)!;
      if (files !== undefined) {
        const idx = w.keys as SpillingWindowIndex;
        windows.push({ start: w.start, end: w.end, count: idx.size, next: idx.next });
        continue;
      }
      const groups: { keys: unknown[]; state: unknown }[] = [];
      if (store !== undefined && (w.keys as SpillingWindowIndex).spilled) {
        for (const [, e] of store.groups.prefixEntries(`${end}/`)) groups.push({ keys: e.keys, state: { rows: e.rows, accs: e.accs } });
      } else {
        w.keys.forEachGroup((gid, key) => groups.push({ keys: w.keys.valuesOf(key), state: this.layout.snapshot(w.cols, gid) }));
      }
      windows.push({ start: w.start, end: w.end, groups });
    }
    const base = files !== undefined ? { windows, ...files } : { windows };
    return this.procTime
      ? { ...base, numLateRecordsDropped: this.numLateRecordsDropped, procTime: this.currentWatermark }
      : { ...base, numLateRecordsDropped: this.numLateRecordsDropped };
  }

  /** Restores a snapshot of either backend on either backend (inline groups or the disk backend's files). */
  override restoreState(state: unknown): void {
    const s = state as { windows: WindowSnapshot[]; numLateRecordsDropped: number; groups?: StoreFiles; index?: StoreFiles };
    this.numLateRecordsDropped = s.numLateRecordsDropped;
    // processing time fired up to survives a restore (event time restarts without a watermark, as in Flink)
    const fired = (state as { procTime?: number }).procTime;
    if (this.procTime && typeof fired === "number") this.currentWatermark = fired;
    const store = this.store;
    if (isStoreFiles(s.groups)) {
      if (store !== undefined) {
        restoreStore(s.groups, store.groups, undefined, (e) => e, 0);
        restoreStore(s.index, store.index, undefined, (e) => e, 0);
        for (const sw of s.windows) (this.openWindow(sw.start, sw.end).keys as SpillingWindowIndex).restoredFromFiles(sw.count ?? 0, sw.next ?? 0);
        return;
      }
      // the hashmap backend reads the files' groups back into the inline form, each window's in arrival order
      const read = new Map<unknown, unknown>();
      restoreStore(s.groups, read, undefined, (e) => e, 0);
      const byWindow = new Map<number, [number, WindowGroup][]>();
      for (const [k, e] of read) {
        const [end, seq] = parseGroupKey(k as string);
        let list = byWindow.get(end);
        if (list === undefined) byWindow.set(end, list = []);
        list.push([seq, e as WindowGroup]);
      }
      for (const sw of s.windows) {
        sw.groups = (byWindow.get(sw.end) ?? []).sort((a, b) => a[0] - b[0]).map(([, e]) => ({ keys: e.keys, state: { rows: e.rows, accs: e.accs } }));
      }
    }
    for (const sw of s.windows) {
      const w = this.openWindow(sw.start, sw.end);
      if (store !== undefined) {
        for (const g of sw.groups!) (w.keys as SpillingWindowIndex).restored(g.keys, g.state as { rows: number; accs: unknown[] });
        continue;
      }
      for (const g of sw.groups!) {
        const gid = w.cols.alloc();
        const key = w.keys.keyOf(g.keys);
        w.keys.add(w.keys.probeOf(key), key, gid);
        this.layout.restore(w.cols, gid, g.state as { rows: number; accs: unknown[] });
      }
    }
  }

  /** Groups held as columns (resident) and the most ever, on the disk backend (tests check the cache bound). */
  residentGroups(): { now: number; most: number } | undefined {
    return this.store === undefined ? undefined : { now: this.store.resident, most: this.store.mostResident };
  }
}
