import { ExecutionError } from "../../types/errors.js";
import type { WindowRankNode } from "../../plan/nodes/window-rank.js";
import { Kind } from "../../types/row.js";
import { encodeKeyPart } from "../aggregates/value-key.js";
import { BaseOperator } from "../operator.js";
import { type RowComparator, rowComparator } from "./sort/row-comparator.js";

/** The rows of one window end, by window start and partition key, in arrival order. */
type Pending = Map<string, unknown[][]>;

/**
 * Window top-N and window deduplication (Flink's WindowRankOperator): rows are buffered per window and partition
 * key until the watermark reaches the window's end - 1 ms; then each buffer is sorted (stable: ties keep arrival
 * order) and its ranks offset + 1 .. offset + fetch are emitted as +I, with the row number when asked for. A row
 * whose window already fired is dropped and counted in numLateRecordsDropped. Windows fire in order of their end.
 */
export class WindowRankOperator extends BaseOperator {
  private readonly pending = new Map<number, Pending>();
  private readonly compare: RowComparator;
  numLateRecordsDropped = 0;

  constructor(private readonly node: WindowRankNode) {
    super(1);
    this.compare = rowComparator(node.orderKeys);
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    if (kind !== Kind.INSERT) throw new ExecutionError("a window top-N consumes insert-only rows");
    const end = row[this.node.windowEnd] as Date | null;
    const start = row[this.node.windowStart] as Date | null;
    if (end === null || start === null) throw new ExecutionError("a window top-N needs non-NULL window_start and window_end");
    const t = end.getTime();
    if (t - 1 <= this.currentWatermark) { this.numLateRecordsDropped++; return; }
    let w = this.pending.get(t);
    if (w === undefined) { w = new Map(); this.pending.set(t, w); }
    let key = String(start.getTime());
    for (const k of this.node.partitionKeys) key += "|" + encodeKeyPart(row[k]);
    const rows = w.get(key);
    if (rows === undefined) w.set(key, [row]);
    else rows.push(row);
  }

  protected override onWatermark(wm: number): void {
    if (this.pending.size > 0) {
      const due = [...this.pending.keys()].filter((t) => t - 1 <= wm).sort((a, b) => a - b);
      for (const t of due) {
        for (const rows of this.pending.get(t)!.values()) this.emit(rows);
        this.pending.delete(t);
      }
    }
    this.out.watermark(wm);
  }

  private emit(rows: unknown[][]): void {
    const sorted = rows.length > 1 ? rows.slice().sort(this.compare) : rows;
    const { offset, fetch, rowNumber } = this.node;
    const last = Math.min(sorted.length, offset + fetch);
    for (let i = offset; i < last; i++) {
      const r = sorted[i]!;
      this.out.record(Kind.INSERT, rowNumber === undefined ? r : [...r, i + 1]);
    }
  }

  override snapshotState(): unknown {
    return { windows: [...this.pending].map(([t, w]) => [t, [...w]]), numLateRecordsDropped: this.numLateRecordsDropped };
  }

  override restoreState(state: unknown): void {
    if (state === null || state === undefined) return;
    const s = state as { windows: [number, [string, unknown[][]][]][]; numLateRecordsDropped: number };
    this.pending.clear();
    for (const [t, w] of s.windows) this.pending.set(t, new Map(w.map(([k, rows]) => [k, rows.slice()])));
    this.numLateRecordsDropped = s.numLateRecordsDropped;
  }
}
