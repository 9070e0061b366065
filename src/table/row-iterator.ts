import type { RowConverter } from "./row-converter.js";

/** Records produced by one slice of a job: kinds and positional values side by side. */
export interface Slice {
  readonly kinds: number[];
  readonly rows: (readonly unknown[])[];
}

const DONE: IteratorReturnResult<void> = Object.freeze({ done: true, value: undefined });

/**
 * `TableResult.collect()`'s iterator: hands out the rows of a slice one by one, converting each when it is
 * asked for. An `async *` generator with `yield` per row costs several promises and microtask hops per row
 * (it awaits each yielded value and queues each request), which made `collect()` ~10x slower than the job
 * itself on W0; here a row is one already-resolved promise, and only moving to the next slice awaits the job.
 *
 * Same contract as the generator it replaces: `return()` (a `break` in `for await`) finishes the slice
 * generator, which cancels the job; a job failure rejects `next()` after the rows of the failing slice,
 * and the iterator is done afterwards. Calls to `next()` that overlap a slice fetch are served in order.
 */
export class RowIterator<T> implements AsyncGenerator<T, void, undefined> {
  private kinds: number[] = [];
  private rows: (readonly unknown[])[] = [];
  private index = 0;
  private finished = false;
  /** The fetch of the next slice in progress, which later `next()` calls wait behind. */
  private pending: Promise<IteratorResult<T, void>> | undefined;

  constructor(private readonly slices: AsyncGenerator<Slice>, private readonly convert: RowConverter<T>) {}

  next(): Promise<IteratorResult<T, void>> {
    if (this.pending !== undefined) return this.pending.then(() => this.next(), () => this.next());
    const i = this.index;
    if (i < this.rows.length) {
      this.index = i + 1;
      return Promise.resolve({ done: false, value: this.convert(this.kinds[i]!, this.rows[i]!) });
    }
    if (this.finished) return Promise.resolve(DONE);
    const p = this.fetch();
    this.pending = p;
    const clear = () => { if (this.pending === p) this.pending = undefined; };
    p.then(clear, clear);
    return p;
  }

  /** Reads slices until one has rows (or the job ends) and returns its first row. */
  private async fetch(): Promise<IteratorResult<T, void>> {
    try {
      const r = await this.slices.next();
      if (r.done) {
        this.finished = true;
        this.rows = [];
        return DONE;
      }
      this.kinds = r.value.kinds;
      this.rows = r.value.rows;
      this.index = 1;
      return { done: false, value: this.convert(this.kinds[0]!, this.rows[0]!) };
    } catch (e) {
      this.finished = true;
      this.rows = [];
      throw e;
    }
  }

  async return(): Promise<IteratorResult<T, void>> {
    this.finished = true;
    this.rows = [];
    await this.slices.return(undefined);
    return DONE;
  }

  async throw(e?: unknown): Promise<IteratorResult<T, void>> {
    this.finished = true;
    this.rows = [];
    await this.slices.return(undefined);
    throw e;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
