import { performance } from "node:perf_hooks";
import type { SourceBatch, SourceReader } from "../api/contract.js";
import type { FieldGenerator } from "./fields.js";

/** Longest single wait of a paced source: cancellation is noticed within this time. */
const MAX_WAIT_MS = 50;
/** Rows per batch at most (a batch is generated when the job asks for rows). */
const BATCH_ROWS = 1024;

/** Where a datagen reader stands: rows generated, the seed, the state of every field's random stream. */
export type DatagenPosition = {
  readonly emitted: number;
  readonly seed: string;
  readonly rng: readonly (readonly number[])[];
};

/**
 * Reads a datagen table: batches of generated physical values, paced at `rows-per-second` (the first row at
 * once, then one every 1000/rate ms on average; a batch holds the rows that are due, at most 1024). Bounded by
 * `number-of-rows` or the shortest sequence field; unbounded otherwise — it then runs until the job is
 * cancelled. While no row is due, `read` returns a Promise (at most 50 ms long, so a cancelled job stops
 * promptly). The position is replayable: from it the reader generates the same values again.
 */
export class DatagenReader implements SourceReader {
  private emitted = 0;
  private start = -1;
  private closed = false;
  private readonly gens: (() => unknown)[];

  constructor(private readonly fields: readonly FieldGenerator[], private readonly seed: string, private readonly rowsPerSecond: number, private readonly total: number) {
    this.gens = fields.map((f) => f.next);
  }

  read(): SourceBatch | null | Promise<SourceBatch | null> {
    if (this.closed || this.emitted >= this.total) return null;
    const now = performance.now();
    // a restored reader keeps its pace: the rows it emitted before count as already due
    if (this.start < 0) this.start = now - (this.emitted * 1000) / this.rowsPerSecond;
    const due = Math.min(this.total, Math.floor(((now - this.start) * this.rowsPerSecond) / 1000) + 1);
    const n = Math.min(BATCH_ROWS, due - this.emitted);
    if (n <= 0) {
      const nextAt = this.start + (this.emitted * 1000) / this.rowsPerSecond;
      const wait = Math.min(MAX_WAIT_MS, Math.max(1, Math.ceil(nextAt - now)));
      // after the wait the rows then due (or, for a cancelled job, the end)
      return new Promise((resolve) => setTimeout(() => resolve(this.read()), wait));
    }
    const gens = this.gens;
    const width = gens.length;
    const rows = new Array<unknown[]>(n);
    for (let k = 0; k < n; k++) {
      const row = new Array<unknown>(width);
      for (let i = 0; i < width; i++) row[i] = gens[i]!();
      rows[k] = row;
    }
    this.emitted += n;
    return { rows };
  }

  position(): DatagenPosition {
    return { emitted: this.emitted, seed: this.seed, rng: this.fields.map((f) => f.rng.state()) };
  }

  /** Continues after `p` (a restored job): the random streams as they were, sequences after `emitted` values. */
  seek(p: DatagenPosition): void {
    this.emitted = p.emitted;
    p.rng.forEach((s, i) => this.fields[i]!.rng.restore(s));
    for (const f of this.fields) f.skip?.(p.emitted);
  }

  close(): void {
    this.closed = true;
  }
}
