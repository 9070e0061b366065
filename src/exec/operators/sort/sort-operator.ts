import type { SortKey } from "../../../plan/nodes/sort.js";
import { Kind } from "../../../types/row.js";
import { BaseOperator } from "../../operator.js";
import { type RowComparator, rowComparator, rowsEqual } from "./row-comparator.js";

/**
 * ORDER BY [OFFSET] [FETCH] over a bounded input (batch, and the streaming non-temporal sort Flink enables
 * with `table.exec.non-temporal-sort.enabled`): rows are buffered (a retraction removes an equal row) and
 * emitted sorted at end of input, ties in arrival order.
 */
export class SortOperator extends BaseOperator {
  private rows: unknown[][] = [];
  private readonly compare: RowComparator;

  constructor(keys: readonly SortKey[], private readonly offset: number, private readonly fetch: number | undefined) {
    super(1);
    this.compare = rowComparator(keys);
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    if (kind === Kind.INSERT || kind === Kind.UPDATE_AFTER) {
      this.rows.push(row);
      return;
    }
    const rows = this.rows;
    for (let i = rows.length - 1; i >= 0; i--) {
      if (rowsEqual(rows[i]!, row)) {
        rows.splice(i, 1);
        return;
      }
    }
  }

  protected override onWatermark(wm: number): void {
    // the sorted rows go out at end of input, before its watermark
    if (wm !== Infinity) this.out.watermark(wm);
  }

  protected override onEndOfInput(): void {
    const rows = this.rows.sort(this.compare);
    const end = this.fetch === undefined ? rows.length : Math.min(rows.length, this.offset + this.fetch);
    for (let i = this.offset; i < end; i++) this.out.record(Kind.INSERT, rows[i]!);
    this.rows = [];
    this.out.watermark(Infinity);
    this.out.endInput();
  }

  override snapshotState(): unknown {
    return this.rows.map((r) => r.slice());
  }

  override restoreState(state: unknown): void {
    this.rows = (state as unknown[][]).map((r) => r.slice());
  }
}
