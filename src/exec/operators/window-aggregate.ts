import type { FunctionResolver } from "../../expressions/compile.js";
import { ExecutionError } from "../../types/errors.js";
import type { WindowAggregateNode } from "../../plan/nodes.js";
import type { AggregateLayout, AggregateOptions } from "../aggregates/aggregate-layout.js";
import { DirectOutput } from "../aggregates/downstream.js";
import type { KeyCode } from "../aggregates/key-code.js";
import { EventTimeOperator } from "../windows/event-time-operator.js";
import { type WindowHost, type WindowState, compileWindowAggregate } from "../windows/window-code.js";

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
 * indexed by a per-window dense group id; nothing is allocated per record.
 *
 * A key or argument expression — or an accumulator — that fails on a record fails the job with the record
 * named (row-error.ts); nothing is emitted while a record is assigned, so every such error is the record's.
 */
export class WindowAggregateOperator extends EventTimeOperator implements WindowHost {
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

  constructor(node: WindowAggregateNode, resolveFunction?: FunctionResolver, options: AggregateOptions = {}) {
    const w = node.window;
    super(node.input.schema.indexOf(w.timeColumn), `window '${w.alias}' on column '${w.timeColumn}'`);
    if (w.type === "SESSION") throw new ExecutionError("WindowAggregateOperator does not run session windows (see SessionWindowAggregateOperator)");
    const code = compileWindowAggregate(node, this, this.down, resolveFunction, options);
    this.layout = code.layout;
    this.key = code.key;
    // an own property rather than a method calling it: one call less per record, and the caller's
    // (megamorphic) dispatch lands on this query's code directly
    this.processElement = code.processElement;
    this.emitWindow = code.emitWindow;
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
    const w: WindowState = { start, end, keys: this.key.newIndex(), cols: this.layout.newColumns() };
    this.windows.set(end, w);
    const ends = this.ends;
    let i = ends.length;
    while (i > 0 && ends[i - 1]! > end) i--;
    ends.splice(i, 0, end);
    return w;
  }

  protected override onWatermark(wm: number): void {
    const ends = this.ends;
    while (ends.length > 0 && ends[0]! - 1 <= wm) {
      const w = this.windows.get(ends.shift()!)!;
      // groups in order of creation: gids are dense per window and never reused
      this.emitWindow(w);
      this.windows.delete(w.end);
      if (this.last === w) this.last = undefined;
    }
    const down = this.down;
    down.target.processWatermark(down.input, wm);
  }

  override snapshotState(): unknown {
    const windows: { start: number; end: number; groups: { keys: unknown[]; state: unknown }[] }[] = [];
    for (const end of this.ends) {
      const w = this.windows.get(end)!;
      const groups: { keys: unknown[]; state: unknown }[] = [];
      w.keys.forEachGroup((gid, key) => groups.push({ keys: w.keys.valuesOf(key), state: this.layout.snapshot(w.cols, gid) }));
      windows.push({ start: w.start, end: w.end, groups });
    }
    return { windows, numLateRecordsDropped: this.numLateRecordsDropped };
  }

  override restoreState(state: unknown): void {
    const s = state as { windows: { start: number; end: number; groups: { keys: unknown[]; state: unknown }[] }[]; numLateRecordsDropped: number };
    this.numLateRecordsDropped = s.numLateRecordsDropped;
    for (const sw of s.windows) {
      const w = this.openWindow(sw.start, sw.end);
      for (const g of sw.groups) {
        const gid = w.cols.alloc();
        const key = w.keys.keyOf(g.keys);
        w.keys.add(w.keys.probeOf(key), key, gid);
        this.layout.restore(w.cols, gid, g.state as { rows: number; accs: unknown[] });
      }
    }
  }
}
