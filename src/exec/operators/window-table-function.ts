import { ExecutionError } from "../../types/errors.js";
import type { WindowTableFunctionNode } from "../../plan/nodes/window-table-function.js";
import { BaseOperator } from "../operator.js";

/**
 * Runs a windowing table function on its own (TUMBLE / HOP / CUMULATE in FROM without a window aggregate): each
 * row goes out once per window containing its time, with window_start, window_end and window_time (end - 1 ms)
 * appended, windows in order of their start then end, as Flink's window assigners list them. Stateless: as in
 * Flink, the table function drops no late row (only the window operators after it do).
 */
export class WindowTableFunctionOperator extends BaseOperator {
  private readonly timeIndex: number;
  private readonly width: number;
  private readonly type: WindowTableFunctionNode["window"]["type"];
  private readonly size: number;
  private readonly step: number;
  private readonly offset: number;

  constructor(node: WindowTableFunctionNode) {
    super(1);
    const w = node.window;
    this.timeIndex = node.input.schema.indexOf(w.timeColumn);
    this.width = node.input.schema.size;
    this.type = w.type;
    this.size = w.size;
    this.step = w.step ?? w.size;
    this.offset = w.offset ?? 0;
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    const t = row[this.timeIndex] as Date | null;
    if (t === null) throw new ExecutionError(`RowTime field should not be null, please convert it to a non-null long value (${this.type} on column index ${this.timeIndex})`);
    // with Flink's offset the windows are those of the epoch-aligned assignment of ts - offset, shifted back
    const off = this.offset;
    const ts = t.getTime() - off;
    const size = this.size;
    const step = this.step;
    switch (this.type) {
      case "TUMBLE": {
        const start = Math.floor(ts / size) * size;
        this.emit(kind, row, start + off, start + off + size);
        return;
      }
      case "HOP": {
        // the windows [s, s + size) with s a multiple of the slide and s <= ts < s + size, earliest first
        const last = Math.floor(ts / step) * step;
        for (let start = last - size + step; start <= last; start += step) this.emit(kind, row, start + off, start + off + size);
        return;
      }
      case "CUMULATE": {
        // within the cycle [c, c + size): the windows [c, c + k * step) that contain ts
        const start = Math.floor(ts / size) * size;
        for (let end = start + (Math.floor((ts - start) / step) + 1) * step; end <= start + size; end += step) this.emit(kind, row, start + off, end + off);
        return;
      }
    }
  }

  private emit(kind: number, row: readonly unknown[], start: number, end: number): void {
    const n = this.width;
    const out = new Array<unknown>(n + 3);
    for (let i = 0; i < n; i++) out[i] = row[i];
    out[n] = new Date(start);
    out[n + 1] = new Date(end);
    out[n + 2] = new Date(end - 1);
    this.out.record(kind, out);
  }
}
