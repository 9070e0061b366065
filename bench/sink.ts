/**
 * The sink both sides write into: it keeps the last 1024 outputs (and their kinds) in a ring, so the
 * work cannot be optimised away and memory does not grow with the output.
 */
import type { JobSink } from "../src/table/executor.js";

/** Where a baseline loop writes its outputs (row objects with a numeric kind: 0 +I, 1 -U, 2 +U, 3 -D). */
export interface BaselineSink {
  push(kind: number, row: object): void;
}

export const RING_SIZE = 1024;
const MASK = RING_SIZE - 1;

export class RingSink implements JobSink, BaselineSink {
  readonly rows: unknown[] = new Array<unknown>(RING_SIZE).fill(null);
  readonly kinds = new Uint8Array(RING_SIZE);
  /** How many outputs were written in total. */
  count = 0;

  /** Takes an output of the Table API job (a positional record with its numeric kind). */
  record(kind: number, values: readonly unknown[]): void {
    const i = this.count++ & MASK;
    this.kinds[i] = kind;
    this.rows[i] = values;
  }

  /** Takes an output of a baseline loop (a row object with its numeric kind). */
  push(kind: number, row: object): void {
    const i = this.count++ & MASK;
    this.kinds[i] = kind;
    this.rows[i] = row;
  }

  /** The most recent output (checks that both sides did the same work). */
  last(): { kind: number; row: unknown } | undefined {
    if (this.count === 0) return undefined;
    const i = (this.count - 1) & MASK;
    return { kind: this.kinds[i]!, row: this.rows[i] };
  }
}

/** Where a columnar consumer (either side) writes a batch: `length` rows, their kinds, columns by name. */
export interface ColumnSink {
  batch(length: number, kinds: Uint8Array, columns: Readonly<Record<string, ArrayLike<unknown>>>): void;
}

/**
 * The columnar counterpart of RingSink: keeps the last batch (its arrays stay alive until the next one
 * arrives, as a consumer holding a batch would) and counts the rows, so neither side can skip the work.
 */
export class ColumnRing implements ColumnSink {
  count = 0;
  private lastBatch: { length: number; kinds: Uint8Array; columns: Readonly<Record<string, ArrayLike<unknown>>> } | undefined;

  batch(length: number, kinds: Uint8Array, columns: Readonly<Record<string, ArrayLike<unknown>>>): void {
    this.count += length;
    this.lastBatch = { length, kinds, columns };
  }

  /** The most recent row, values in column order. */
  last(): { kind: number; row: unknown[] } | undefined {
    const b = this.lastBatch;
    if (b === undefined || b.length === 0) return undefined;
    const i = b.length - 1;
    return { kind: b.kinds[i]!, row: Object.keys(b.columns).map((n) => b.columns[n]![i]) };
  }
}
