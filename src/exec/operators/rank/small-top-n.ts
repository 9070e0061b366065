/**
 * The partitions of an insert-only ROW_NUMBER top-N with a small rankEnd on the hashmap backend: instead of one
 * growing array per partition, one flat array of `cap` (rankEnd) slots per partition id plus a length per id.
 * An insert-only top-N never keeps more than rankEnd rows per partition, so a slot block never overflows; a new
 * row is shifted in place (no array per partition, nothing allocated per row). The operator emits exactly what
 * the general path emits (rank-operator.ts `insertSmall`); snapshots are the general `[key, rows]` form.
 */
import { anchorShape } from "../../shape-anchors.js";

export const SMALL_TOP_N_MAX = 8;

export class SmallTopN {
  /** Row of partition `gid` at rank position `p` is `rows[gid * cap + p]`. */
  rows: (unknown[] | undefined)[] = [];
  lens = new Int32Array(1024);

  constructor(readonly cap: number) {}

  /** Makes `gid` an empty partition (new or reused id). */
  reset(gid: number): void {
    if (gid >= this.lens.length) {
      let n = this.lens.length * 2;
      while (n <= gid) n *= 2;
      const lens = new Int32Array(n);
      lens.set(this.lens);
      this.lens = lens;
    }
    this.lens[gid] = 0;
    const base = gid * this.cap;
    const rows = this.rows;
    while (rows.length < base + this.cap) rows.push(undefined);
    for (let p = 0; p < this.cap; p++) rows[base + p] = undefined;
  }

  /** The rows of `gid` in rank order (a new array). */
  get(gid: number): unknown[][] {
    const n = this.lens[gid]!;
    const base = gid * this.cap;
    const out: unknown[][] = [];
    for (let p = 0; p < n; p++) out.push(this.rows[base + p]!);
    return out;
  }

  /** Replaces the rows of `gid` (at most `cap`). */
  set(gid: number, rows: readonly unknown[][]): void {
    const base = gid * this.cap;
    for (let p = 0; p < this.cap; p++) this.rows[base + p] = p < rows.length ? rows[p] : undefined;
    this.lens[gid] = rows.length;
  }

  clear(): void {
    this.rows = [];
    this.lens = new Int32Array(1024);
  }
}

// its shape outlives the jobs (exec/shape-anchors.ts)
anchorShape(new SmallTopN(3));
