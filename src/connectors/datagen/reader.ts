import { performance } from "node:perf_hooks";
import type { Output } from "../../exec/operator.js";
import type { PollResult, SourceReader } from "../../exec/source.js";
import type { FieldGenerator } from "./fields.js";

/** Longest single wait of a paced source: cancellation is noticed within this time. */
const MAX_WAIT_MS = 50;

/**
 * Reads a datagen table: rows of generated physical values, paced at `rows-per-second` (the first row at
 * once, then one every 1000/rate ms on average; a poll emits every row that is due). Bounded by
 * `number-of-rows` or the shortest sequence field; unbounded otherwise — it then runs until the job is
 * cancelled. While no row is due, `poll` returns a Promise (at most 50 ms long, so a cancelled job stops
 * promptly).
 */
export class DatagenReader implements SourceReader {
  private emitted = 0;
  private start = -1;
  private closed = false;
  private readonly gens: (() => unknown)[];

  constructor(private readonly fields: readonly FieldGenerator[], private readonly rowsPerSecond: number, private readonly total: number) {
    this.gens = fields.map((f) => f.next);
  }

  poll(out: Output, max: number): PollResult {
    if (this.closed) return "end";
    if (this.emitted >= this.total) return this.end(out);
    const now = performance.now();
    // a restored reader keeps its pace: the rows it emitted before count as already due
    if (this.start < 0) this.start = now - (this.emitted * 1000) / this.rowsPerSecond;
    const due = Math.min(this.total, Math.floor(((now - this.start) * this.rowsPerSecond) / 1000) + 1);
    const n = Math.min(max, due - this.emitted);
    if (n <= 0) {
      const nextAt = this.start + (this.emitted * 1000) / this.rowsPerSecond;
      const wait = Math.min(MAX_WAIT_MS, Math.max(1, Math.ceil(nextAt - now)));
      return new Promise<void>((resolve) => setTimeout(resolve, wait));
    }
    const gens = this.gens;
    const width = gens.length;
    for (let k = 0; k < n; k++) {
      const row = new Array<unknown>(width);
      for (let i = 0; i < width; i++) row[i] = gens[i]!();
      out.record(0, row);
    }
    this.emitted += n;
    if (this.emitted >= this.total) return this.end(out);
    return "more";
  }

  private end(out: Output): "end" {
    out.watermark(Infinity);
    out.endInput();
    this.closed = true;
    return "end";
  }

  /** Rows emitted and the state of every field's random stream. */
  position(): unknown {
    return { emitted: this.emitted, rng: this.fields.map((f) => f.rng.state()) };
  }

  seek(position: unknown): void {
    const p = position as { emitted: number; rng: number[][] };
    this.emitted = p.emitted;
    p.rng.forEach((s, i) => this.fields[i]!.rng.restore(s));
    for (const f of this.fields) f.skip?.(p.emitted);
  }

  close(): void {
    this.closed = true;
  }
}
