import type { ChangelogMode } from "../../plan/changelog-mode.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import { Kind } from "../../types/row.js";
import { BaseOperator } from "../operator.js";
import { MaterializedRows } from "./collect-sink.js";

/**
 * Batch mode after an operator that emits a changelog (top-N, deduplication, EXCEPT): applies it and
 * emits the final rows as inserts at end of input, so that a batch result is insert-only, as Flink's batch
 * operators compute it once over the whole input. The same table the collect sink materializes with.
 */
export class MaterializeOperator extends BaseOperator {
  private readonly table: MaterializedRows;

  constructor(schema: ResolvedSchema, mode: ChangelogMode) {
    super(1);
    this.table = new MaterializedRows(schema, mode);
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    this.table.apply(kind, row);
  }

  protected override onWatermark(wm: number): void {
    if (wm !== Infinity) this.out.watermark(wm);
  }

  protected override onEndOfInput(): void {
    this.table.forEach((row) => this.out.record(Kind.INSERT, row));
    this.out.watermark(Infinity);
    this.out.endInput();
  }
}
