import { Kind } from "../../table/row.js";
import type { ResolvedSchema } from "../../table/types/resolved-schema.js";
import { valueKey } from "../aggregates/accumulator.js";
import { BaseOperator } from "../operator.js";

/** DISTINCT: a row is emitted (+I) on its first occurrence and deleted (-D) when its last copy is retracted. */
export class DistinctOperator extends BaseOperator {
  private readonly counts = new Map<unknown, number>();
  private readonly single: boolean;

  constructor(schema: ResolvedSchema) {
    super(1);
    this.single = schema.size === 1;
  }

  private key(row: unknown[]): unknown {
    return this.single ? valueKey(row[0]) : JSON.stringify(row.map((v) => (v === null ? null : [typeof v, valueKey(v)])));
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    const k = this.key(row);
    const n = this.counts.get(k) ?? 0;
    if (kind === Kind.INSERT || kind === Kind.UPDATE_AFTER) {
      this.counts.set(k, n + 1);
      if (n === 0) this.out.record(Kind.INSERT, row);
    } else if (n > 0) {
      if (n === 1) {
        this.counts.delete(k);
        this.out.record(Kind.DELETE, row);
      } else this.counts.set(k, n - 1);
    }
  }

  override snapshotState(): unknown { return [...this.counts]; }
  override restoreState(s: unknown): void { for (const [k, n] of s as [unknown, number][]) this.counts.set(k, n); }
}
