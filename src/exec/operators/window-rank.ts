import { ExecutionError } from "../../types/errors.js";
import type { WindowRankNode } from "../../plan/nodes/window-rank.js";
import { Kind } from "../../types/row.js";
import { encodeKeyPart } from "../aggregates/value-key.js";
import { BaseOperator } from "../operator.js";
import { type RowComparator, rowComparator } from "./sort/row-comparator.js";
import type { StateBackend } from "../state/keyed-store.js";
import { type TaggedRow, type WindowRowFiles, WindowRowStore, isWindowRowFiles, readWindowRowFiles } from "../windows/window-row-store.js";

/** The rows of one window end, by window start and partition key, in arrival order. */
type Pending = Map<string, unknown[][]>;

/**
 * Window top-N and window deduplication (Flink's WindowRankOperator): rows are buffered per window and partition
 * key until the watermark reaches the window's end - 1 ms; then each buffer is sorted (stable: ties keep arrival
 * order) and its ranks offset + 1 .. offset + fetch are emitted as +I, with the row number when asked for. A row
 * whose window already fired is dropped and counted in numLateRecordsDropped. Windows fire in order of their end.
 *
 * On the disk backend (`state.backend.type = disk`) the buffered rows are in a store (windows/window-row-store.ts),
 * tagged with their partition key; a firing window's rows are read back in arrival order and grouped by key in
 * order of the key's first row, which is the order of the in-memory buffers.
 */
export class WindowRankOperator extends BaseOperator {
  private readonly pending = new Map<number, Pending>();
  private readonly compare: RowComparator;
  numLateRecordsDropped = 0;
  /** The buffered rows on the disk backend, else undefined (`pending` holds them). */
  private readonly rows: WindowRowStore | undefined;

  constructor(private readonly node: WindowRankNode, backend?: StateBackend) {
    super(1);
    this.compare = rowComparator(node.orderKeys);
    this.rows = backend?.cacheSize !== undefined ? new WindowRowStore(backend, "WindowRank.rows") : undefined;
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    if (kind !== Kind.INSERT) throw new ExecutionError("a window top-N consumes insert-only rows");
    const end = row[this.node.windowEnd] as Date | null;
    const start = row[this.node.windowStart] as Date | null;
    if (end === null || start === null) throw new ExecutionError("a window top-N needs non-NULL window_start and window_end");
    const t = end.getTime();
    if (t - 1 <= this.currentWatermark) { this.numLateRecordsDropped++; return; }
    let key = String(start.getTime());
    for (const k of this.node.partitionKeys) key += "|" + encodeKeyPart(row[k]);
    if (this.rows !== undefined) { this.rows.add(t, key, row); return; }
    let w = this.pending.get(t);
    if (w === undefined) { w = new Map(); this.pending.set(t, w); }
    const rows = w.get(key);
    if (rows === undefined) w.set(key, [row]);
    else rows.push(row);
  }

  protected override onWatermark(wm: number): void {
    const store = this.rows;
    if (store !== undefined && store.windowCount > 0) {
      const due = [...store.ends()].filter((t) => t - 1 <= wm).sort((a, b) => a - b);
      for (const t of due) for (const rows of byKey(store.take(t)).values()) this.emit(rows);
    }
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

  /**
   * `{ windows: [[end, [[key, rows]]]], numLateRecordsDropped }` on both backends, or on the disk backend
   * during a checkpoint or savepoint `{ buffers: <the store's files>, numLateRecordsDropped }`.
   */
  override snapshotState(): unknown {
    const store = this.rows;
    if (store === undefined) return { windows: [...this.pending].map(([t, w]) => [t, [...w]]), numLateRecordsDropped: this.numLateRecordsDropped };
    const files = store.files();
    if (files !== undefined) return { buffers: files, numLateRecordsDropped: this.numLateRecordsDropped };
    const ends = [...store.ends()].sort((a, b) => a - b);
    return { windows: ends.map((t) => [t, [...byKey(store.peek(t))]]), numLateRecordsDropped: this.numLateRecordsDropped };
  }

  override restoreState(state: unknown): void {
    if (state === null || state === undefined) return;
    const s = state as { windows?: [number, [string, unknown[][]][]][]; buffers?: WindowRowFiles; numLateRecordsDropped: number };
    this.pending.clear();
    this.numLateRecordsDropped = s.numLateRecordsDropped;
    let windows = s.windows ?? [];
    if (isWindowRowFiles(s.buffers)) {
      if (this.rows !== undefined) { this.rows.restoreFiles(s.buffers); return; }
      windows = [...readWindowRowFiles(s.buffers)].map(([t, rows]) => [t, [...byKey(rows)]]);
    }
    for (const [t, w] of windows) {
      if (this.rows !== undefined) {
        for (const [k, rows] of w) for (const r of rows) this.rows.add(t, k, r);
      } else {
        this.pending.set(t, new Map(w.map(([k, rows]) => [k, rows.slice()])));
      }
    }
  }
}

/** A window's tagged rows grouped by partition key, keys in order of their first row, rows in arrival order. */
function byKey(rows: readonly TaggedRow[]): Map<string, unknown[][]> {
  const out = new Map<string, unknown[][]>();
  for (const [k, r] of rows) {
    const list = out.get(k as string);
    if (list === undefined) out.set(k as string, [r]);
    else list.push(r);
  }
  return out;
}
