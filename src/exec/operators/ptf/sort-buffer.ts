import { helpers } from "../../../expressions/helpers.js";
import type { OrderColumn } from "../../../ptf/order-by.js";
import { heapPop, heapPush, type Less } from "./heap.js";

/** A buffered row of an ORDER BY table: its key, kind, record and time (epoch ms). */
export interface SortedRow {
  readonly key: unknown;
  readonly kind: number;
  readonly record: unknown[];
  readonly time: number;
  readonly seq: number;
}

/** A sort buffer in a checkpoint: [key, kind, record] in release order. */
export type SortBufferSnapshot = readonly (readonly [unknown, number, readonly unknown[]])[];

type Compare = (a: SortedRow, b: SortedRow) => number;

/** (time, secondary ORDER BY columns in their directions, arrival): equal rows keep their arrival order. */
function comparator(orderBy: readonly OrderColumn[]): Compare {
  const cols = orderBy.slice(1).map((o) => ({
    i: o.column,
    dir: o.direction.startsWith("ASC") ? 1 : -1,
    nulls: o.direction.endsWith("NULLS_FIRST") ? -1 : 1,
  }));
  return (a, b) => {
    if (a.time !== b.time) return a.time < b.time ? -1 : 1;
    for (let j = 0; j < cols.length; j++) {
      const { i, dir, nulls } = cols[j]!;
      const x = a.record[i];
      const y = b.record[i];
      if (x === y) continue;
      if (x === null || y === null || x === undefined || y === undefined) return x == null ? nulls : -nulls;
      const c = typeof x === "number" && typeof y === "number" ? (x < y ? -1 : 1) : helpers.cmp(x, y);
      if (c !== 0) return c * dir;
    }
    return a.seq - b.seq;
  };
}

/**
 * The sort buffer of one ORDER BY table argument (PTF rule 10): rows wait until the
 * table's watermark passes their time and are then released in (time, secondary keys) order. One
 * min-heap holds the rows of all keys: released in time order across keys, which is the order within
 * each key as well.
 */
export class SortBuffer {
  private heap: SortedRow[] = [];
  private seq = 0;
  private readonly compare: Compare;
  private readonly less: Less<SortedRow>;

  constructor(readonly timeColumn: number, orderBy: readonly OrderColumn[]) {
    const compare = comparator(orderBy);
    this.compare = compare;
    this.less = (a, b) => compare(a, b) < 0;
  }

  size(): number {
    return this.heap.length;
  }

  add(key: unknown, kind: number, record: unknown[], time: number): void {
    heapPush(this.heap, { key, kind, record, time, seq: this.seq++ }, this.less);
  }

  /** Removes and returns the first row with time ≤ `watermark`, or undefined. */
  pollDue(watermark: number): SortedRow | undefined {
    const h = this.heap;
    if (h.length === 0 || h[0]!.time > watermark) return undefined;
    return heapPop(h, this.less);
  }

  /** The buffered rows in release order (plain data for checkpoints). */
  snapshot(): SortBufferSnapshot {
    return [...this.heap].sort(this.compare).map((r) => [r.key, r.kind, [...r.record]] as const);
  }

  restore(rows: SortBufferSnapshot, timeOf: (record: readonly unknown[]) => number): void {
    this.heap = [];
    this.seq = 0;
    for (const [key, kind, record] of rows) this.add(key, kind, [...record], timeOf(record));
  }
}
