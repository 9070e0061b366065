/** Records produced by one slice of a job: kinds and positional values side by side. */
export interface Slice {
  readonly kinds: number[];
  readonly rows: (readonly unknown[])[];
}

const DONE: IteratorReturnResult<void> = Object.freeze({ done: true, value: undefined });

/**
 * `TableResult.collect()`'s iterator: hands out the rows of each batch one by one. The batches are those of
 * `batches()` — the row objects are made by the job (by the operator in front of the result sink, or by the
 * columnar path's own loop) — so `collect()` runs the same job as `batches()` and costs, on top of it, one
 * already-resolved promise per row; only moving to the next batch awaits the job. An `async *` generator
 * with `yield` per row would cost several promises and microtask hops per row (it awaits each yielded value
 * and queues each request).
 *
 * Same contract as such a generator: `return()` (a `break` in `for await`) finishes the batch generator,
 * which cancels the job; a job failure rejects `next()` after the rows of the failing slice, and the
 * iterator is done afterwards. Calls to `next()` that overlap a batch fetch are served in order.
 */
export class RowIterator<T> implements AsyncGenerator<T, void, undefined> {
  private rows: readonly T[] = [];
  private index = 0;
  private finished = false;
  /** The fetch of the next batch in progress, which later `next()` calls wait behind. */
  private pending: Promise<IteratorResult<T, void>> | undefined;

  constructor(private readonly batches: AsyncGenerator<T[]>) {}

  next(): Promise<IteratorResult<T, void>> {
    if (this.pending !== undefined) return this.pending.then(() => this.next(), () => this.next());
    const i = this.index;
    if (i < this.rows.length) {
      this.index = i + 1;
      return Promise.resolve({ done: false, value: this.rows[i]! });
    }
    if (this.finished) return Promise.resolve(DONE);
    const p = this.fetch();
    this.pending = p;
    const clear = () => { if (this.pending === p) this.pending = undefined; };
    p.then(clear, clear);
    return p;
  }

  /** Reads the next batch (batches are never empty) and returns its first row. */
  private async fetch(): Promise<IteratorResult<T, void>> {
    try {
      const r = await this.batches.next();
      if (r.done) {
        this.finished = true;
        this.rows = [];
        return DONE;
      }
      this.rows = r.value;
      this.index = 1;
      return { done: false, value: this.rows[0]! };
    } catch (e) {
      this.finished = true;
      this.rows = [];
      throw e;
    }
  }

  async return(): Promise<IteratorResult<T, void>> {
    this.finished = true;
    this.rows = [];
    await this.batches.return(undefined);
    return DONE;
  }

  async throw(e?: unknown): Promise<IteratorResult<T, void>> {
    this.finished = true;
    this.rows = [];
    await this.batches.return(undefined);
    throw e;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
