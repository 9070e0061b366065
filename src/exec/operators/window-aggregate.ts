import type { FunctionResolver } from "../../expressions/compile.js";
import { ExecutionError } from "../../table/errors.js";
import type { WindowAggregateNode, WindowProperty } from "../../table/plan/nodes.js";
import { Kind } from "../../table/row.js";
import { type GroupKeys, createGroupKeys } from "../aggregates/group-keys.js";
import type { MetricGroup } from "../metrics.js";
import { BaseOperator } from "../operator.js";
import { errorWithRow } from "./row-error.js";
import { AggregateSet } from "../windows/aggregate-set.js";

/** One window [start, end) and its groups: ids are dense per window, so a firing walks 0..size in arrival order. */
interface WindowState {
  start: number;
  end: number;
  keys: GroupKeys;
  aggs: AggregateSet;
  /** Number of groups (the next gid). */
  size: number;
}

/** Start of the window of size `size` aligned to the epoch that contains `t` (`%` on doubles is a slow fmod call). */
const alignDown = (t: number, size: number): number => Math.floor(t / size) * size;

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
 * State: per open window a key index (GroupKeys: a numeric key costs a 12-byte hash slot) and the
 * accumulators' typed columns, indexed by a per-window dense group id. Per record: one key lookup per
 * window the row is in, the accumulator updates, no allocation.
 *
 * A key or argument expression that fails on a record fails the job with the record named (row-error.ts);
 * arguments are evaluated and accumulated in one generated call, so an accumulator's own error (SUM
 * overflow) names the record too.
 */
export class WindowAggregateOperator extends BaseOperator {
  /** Rows dropped because every window they belong to had fired (Flink's `numLateRecordsDropped`). */
  numLateRecordsDropped = 0;

  /** Publishes the late-row count as `<scope>.numLateRecordsDropped` (read only when a snapshot is taken). */
  setMetrics(group: MetricGroup): void {
    group.gauge("numLateRecordsDropped", () => this.numLateRecordsDropped);
  }

  private readonly windows = new Map<number, WindowState>();
  /** Ends of the open windows, ascending. */
  private readonly ends: number[] = [];
  /** The window the last row went to: consecutive rows mostly share it. */
  private last: WindowState | undefined;
  private readonly timeIndex: number;
  private readonly type: WindowAggregateNode["window"]["type"];
  private readonly size: number;
  private readonly step: number;
  private readonly keyCount: number;
  private readonly properties: readonly WindowProperty[];

  constructor(private readonly node: WindowAggregateNode, private readonly resolveFunction?: FunctionResolver) {
    super(1);
    const w = node.window;
    if (w.type === "SESSION") throw new ExecutionError("WindowAggregateOperator does not run session windows (see SessionWindowAggregateOperator)");
    this.type = w.type;
    this.size = w.size;
    this.step = w.step ?? w.size;
    this.timeIndex = node.input.schema.indexOf(w.timeColumn);
    this.keyCount = node.groupKeys.length;
    this.properties = node.properties;
  }

  /** Number of (window, key) entries held (benchmarks report bytes per entry). */
  entryCount(): number {
    let n = 0;
    for (const w of this.windows.values()) n += w.size;
    return n;
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    const t = row[this.timeIndex] as Date | null;
    if (t === null) {
      throw new ExecutionError(`RowTime field should not be null, please convert it to a non-null long value (window '${this.node.window.alias}' on column '${this.node.window.timeColumn}')`);
    }
    try {
      this.assign(t.getTime(), row);
    } catch (e) {
      // nothing is emitted while a record is assigned: every error here comes from this record
      throw errorWithRow(e, kind, row, this.node.input.schema);
    }
  }

  /** Adds the record to every window containing `ts` that has not fired; counts it late when there is none. */
  private assign(ts: number, row: unknown[]): void {
    const wm = this.currentWatermark;
    let accepted = false;
    switch (this.type) {
      case "TUMBLE": {
        const start = alignDown(ts, this.size);
        const end = start + this.size;
        if (end - 1 <= wm) break;
        this.add(start, end, row);
        accepted = true;
        break;
      }
      case "SLIDE": {
        // windows [s, s + size) with s a multiple of the slide and s <= ts < s + size, earliest end first
        const first = alignDown(ts, this.step);
        let s = first;
        while (s - this.step > ts - this.size) s -= this.step;
        for (; s <= first; s += this.step) {
          const end = s + this.size;
          if (end - 1 <= wm) continue;
          this.add(s, end, row);
          accepted = true;
        }
        break;
      }
      case "CUMULATE": {
        // windows [cycle start, cycle start + k * step) that contain ts
        const start = alignDown(ts, this.size);
        const stop = start + this.size;
        for (let end = start + (Math.floor((ts - start) / this.step) + 1) * this.step; end <= stop; end += this.step) {
          if (end - 1 <= wm) continue;
          this.add(start, end, row);
          accepted = true;
        }
        break;
      }
      default:
    }
    if (!accepted) this.numLateRecordsDropped++;
  }

  private add(start: number, end: number, row: unknown[]): void {
    let w = this.last;
    if (w === undefined || w.end !== end) {
      w = this.windows.get(end) ?? this.openWindow(start, end);
      this.last = w;
    }
    const keys = w.keys;
    let gid = keys.find(row);
    if (gid < 0) {
      gid = w.size++;
      w.aggs.grow(w.size);
      w.aggs.reset(gid);
      keys.add(gid);
    }
    w.aggs.accumulateRow(gid, row);
  }

  private openWindow(start: number, end: number): WindowState {
    // a fired window's arrays are left to the GC rather than pooled: a pool would hold a second window's
    // worth of memory for the whole job to save a few array doublings per window
    const keys = createGroupKeys(this.node.groupKeys, this.node.input.schema, this.resolveFunction);
    const aggs = new AggregateSet(this.node.aggCalls, false, this.node.input.schema, this.resolveFunction);
    const w: WindowState = { start, end, keys, aggs, size: 0 };
    this.windows.set(end, w);
    const ends = this.ends;
    let i = ends.length;
    while (i > 0 && ends[i - 1]! > end) i--;
    ends.splice(i, 0, end);
    return w;
  }

  protected override onWatermark(wm: number): void {
    const ends = this.ends;
    while (ends.length > 0 && ends[0]! - 1 <= wm) this.fire(this.windows.get(ends.shift()!)!);
    this.out.watermark(wm);
  }

  private fire(w: WindowState): void {
    const out = this.out;
    const k = this.keyCount;
    const n = this.node.aggCalls.length;
    const props = this.properties;
    const width = k + n + props.length;
    const { keys, aggs, start, end } = w;
    // groups in order of creation: gids are dense per window and never reused
    keys.forEachGroup((gid) => {
      const row = new Array<unknown>(width);
      keys.write(row);
      aggs.write(gid, row, k);
      for (let i = 0; i < props.length; i++) {
        const p = props[i];
        row[k + n + i] = new Date(p === "start" ? start : p === "end" ? end : end - 1);
      }
      out.record(Kind.INSERT, row);
    });
    this.windows.delete(end);
    if (this.last === w) this.last = undefined;
  }

  override snapshotState(): unknown {
    const windows: { start: number; end: number; groups: { keys: unknown[]; state: unknown }[] }[] = [];
    for (const end of this.ends) {
      const w = this.windows.get(end)!;
      const groups: { keys: unknown[]; state: unknown }[] = [];
      w.keys.forEach((keys, gid) => groups.push({ keys, state: w.aggs.snapshot(gid) }));
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
        const gid = w.size++;
        w.aggs.grow(w.size);
        w.keys.restore(g.keys, gid);
        w.aggs.restore(gid, g.state);
      }
    }
  }
}
