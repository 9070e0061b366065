import type { FunctionResolver } from "../../../expressions/compile.js";
import type { WindowJoinNode } from "../../../plan/nodes/window-join.js";
import { ExecutionError } from "../../../types/errors.js";
import { ResolvedSchema } from "../../../types/resolved-schema.js";
import { Kind } from "../../../types/row.js";
import { BaseOperator } from "../../operator.js";
import { compileCombine, compileJoinKey, compilePad, compileResidual } from "./join-code.js";
import type { StateBackend } from "../../state/keyed-store.js";
import { type TaggedRow, type WindowRowFiles, WindowRowStore, isWindowRowFiles, readWindowRowFiles } from "../../windows/window-row-store.js";

/** One window's rows of both sides, in arrival order. */
interface WindowRows { left: unknown[][]; right: unknown[][] }

/**
 * Window joins (Flink's WindowJoinOperator): rows are buffered per window end on each side; when the watermark
 * (the smaller of both inputs') reaches end - 1 ms the window is joined — left rows in arrival order with their
 * partners of equal key (a NULL key never matches) for which the residual holds, then, for RIGHT / FULL, the right
 * rows without partner — emitted as +I and forgotten. A row whose window was already joined is dropped as late.
 *
 * On the disk backend (`state.backend.type = disk`) both sides' rows are in one store, tagged with their side
 * (windows/window-row-store.ts); a window due is read back in arrival order and split into its two sides.
 */
export class WindowJoinOperator extends BaseOperator {
  private readonly windows = new Map<number, WindowRows>();
  private readonly leftKey: (r: unknown[]) => unknown;
  private readonly rightKey: (r: unknown[]) => unknown;
  private readonly combine: (l: unknown[], r: unknown[]) => unknown[];
  private readonly padLeft: (l: unknown[]) => unknown[];
  private readonly padRight: (r: unknown[]) => unknown[];
  private readonly residual: ((row: unknown[]) => boolean) | undefined;
  numLateRecordsDropped = 0;
  /** Both sides' buffered rows on the disk backend, else undefined (`windows` holds them). */
  private readonly rows: WindowRowStore | undefined;

  constructor(private readonly node: WindowJoinNode, resolve?: FunctionResolver, backend?: StateBackend) {
    super(2);
    this.rows = backend?.cacheSize !== undefined ? new WindowRowStore(backend, "WindowJoin.rows") : undefined;
    const ls = node.left.schema.size;
    const rs = node.right.schema.size;
    this.leftKey = compileJoinKey(node.leftKeys, node.left.schema, resolve);
    this.rightKey = compileJoinKey(node.rightKeys, node.right.schema, resolve);
    this.combine = compileCombine(ls, rs);
    this.padLeft = compilePad(ls, rs, true);
    this.padRight = compilePad(ls, rs, false);
    this.residual = compileResidual(node.residual, new ResolvedSchema([...node.left.schema.columns, ...node.right.schema.columns]), resolve);
  }

  processElement(input: number, kind: number, row: unknown[]): void {
    if (kind !== Kind.INSERT) throw new ExecutionError("a window join consumes insert-only rows");
    const end = row[input === 0 ? this.node.leftWindowEnd : this.node.rightWindowEnd] as Date | null;
    if (end === null) throw new ExecutionError("a window join needs a non-NULL window_end");
    const t = end.getTime();
    if (t - 1 <= this.currentWatermark) { this.numLateRecordsDropped++; return; }
    if (this.rows !== undefined) { this.rows.add(t, input, row); return; }
    let w = this.windows.get(t);
    if (w === undefined) { w = { left: [], right: [] }; this.windows.set(t, w); }
    (input === 0 ? w.left : w.right).push(row);
  }

  protected override onWatermark(wm: number): void {
    const store = this.rows;
    if (store !== undefined && store.windowCount > 0) {
      const due = [...store.ends()].filter((t) => t - 1 <= wm).sort((a, b) => a - b);
      for (const t of due) this.join(sides(store.take(t)));
    }
    if (this.windows.size > 0) {
      const due = [...this.windows.keys()].filter((t) => t - 1 <= wm).sort((a, b) => a - b);
      for (const t of due) {
        this.join(this.windows.get(t)!);
        this.windows.delete(t);
      }
    }
    this.out.watermark(wm);
  }

  private join(w: WindowRows): void {
    const type = this.node.joinType;
    const out = this.out;
    const byKey = new Map<unknown, number[]>();
    w.right.forEach((r, i) => {
      const k = this.rightKey(r);
      if (k === null) return;
      const list = byKey.get(k);
      if (list === undefined) byKey.set(k, [i]); else list.push(i);
    });
    const rightMatched = type === "RIGHT" || type === "FULL" ? new Array<boolean>(w.right.length).fill(false) : undefined;
    for (const l of w.left) {
      const k = this.leftKey(l);
      const partners = k === null ? undefined : byKey.get(k);
      let n = 0;
      if (partners !== undefined) {
        for (const i of partners) {
          const joined = this.combine(l, w.right[i]!);
          if (this.residual !== undefined && !this.residual(joined)) continue;
          n++;
          if (type === "SEMI" || type === "ANTI") break;
          if (rightMatched !== undefined) rightMatched[i] = true;
          out.record(Kind.INSERT, joined);
        }
      }
      if (type === "SEMI" ? n > 0 : type === "ANTI" ? n === 0 : false) out.record(Kind.INSERT, l);
      if (n === 0 && (type === "LEFT" || type === "FULL")) out.record(Kind.INSERT, this.padLeft(l));
    }
    if (rightMatched !== undefined) rightMatched.forEach((m, i) => { if (!m) out.record(Kind.INSERT, this.padRight(w.right[i]!)); });
  }

  /**
   * `{ windows: [[end, left rows, right rows]], numLateRecordsDropped }` on both backends, or on the disk
   * backend during a checkpoint or savepoint `{ buffers: <the store's files>, numLateRecordsDropped }`.
   */
  override snapshotState(): unknown {
    const store = this.rows;
    if (store === undefined) {
      return { windows: [...this.windows].map(([t, w]) => [t, w.left.slice(), w.right.slice()]), numLateRecordsDropped: this.numLateRecordsDropped };
    }
    const files = store.files();
    if (files !== undefined) return { buffers: files, numLateRecordsDropped: this.numLateRecordsDropped };
    const windows = [...store.ends()].sort((a, b) => a - b).map((t) => { const w = sides(store.peek(t)); return [t, w.left, w.right]; });
    return { windows, numLateRecordsDropped: this.numLateRecordsDropped };
  }

  override restoreState(state: unknown): void {
    if (state === null || state === undefined) return;
    const s = state as { windows?: [number, unknown[][], unknown[][]][]; buffers?: WindowRowFiles; numLateRecordsDropped: number };
    this.windows.clear();
    this.numLateRecordsDropped = s.numLateRecordsDropped;
    let windows = s.windows ?? [];
    if (isWindowRowFiles(s.buffers)) {
      if (this.rows !== undefined) { this.rows.restoreFiles(s.buffers); return; }
      windows = [...readWindowRowFiles(s.buffers)].map(([t, rows]) => { const w = sides(rows); return [t, w.left, w.right]; });
    }
    for (const [t, left, right] of windows) {
      if (this.rows !== undefined) {
        // each side keeps its order; the join reads the sides apart, so how they interleave does not matter
        for (const r of left) this.rows.add(t, 0, r);
        for (const r of right) this.rows.add(t, 1, r);
      } else {
        this.windows.set(t, { left: left.slice(), right: right.slice() });
      }
    }
  }
}

/** A window's rows of both sides (tagged 0: left, 1: right) split into its sides, each in arrival order. */
function sides(rows: readonly TaggedRow[]): WindowRows {
  const w: WindowRows = { left: [], right: [] };
  for (const [side, r] of rows) (side === 0 ? w.left : w.right).push(r);
  return w;
}
