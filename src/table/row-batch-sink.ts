import type { JobSink } from "./executor.js";
import type { RowObjectSink } from "../exec/columnar/columnar-job.js";
import { nextBatchArray } from "../exec/columnar/column-batch.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";
import { type RowConverter, insertRowConstructor, rowConstructors, rowConverter } from "./row-converter.js";
import { anchorFirst } from "../exec/shape-anchors.js";

/**
 * Where a job's rows gather into the batches of `batches()` / `collect()` / `forEachBatch()`: records are
 * converted to row objects, operators and the columnar path that build row objects themselves hand them to
 * `add` / `batch`. A class rather than closures made per result: every job calls the same `add` and
 * `record`, so their call sites stay monomorphic and their code warm from one job to the next (closures
 * made per `execute()` started cold in each job and turned the operators' call into them megamorphic).
 * A batch's array comes from `nextBatchArray` (the last batch's size and an eighth, filled by index and cut
 * to length; W2 through `batches()` about a fifth faster a pass than growing it by push, docs/benchmarks.md).
 */
export class RowBatchSink<R> implements JobSink, RowObjectSink {
  private rows: R[] = [];
  /** Rows in `rows` (its length is the capacity, from nextBatchArray). */
  private n = 0;
  private readonly convert: RowConverter<R>;
  readonly construct: RowObjectSink["construct"];
  readonly constructors: RowObjectSink["constructors"];
  /** The sink takes row objects (this). */
  readonly rowObjects: RowObjectSink = this;

  constructor(schema: ResolvedSchema) {
    this.convert = rowConverter<R>(schema);
    // a projection / filter over fromValues builds its rows with `construct` in its own loop (exec/columnar/);
    // the operator in front of the result sink builds its output rows with `constructors` (collect-sink.ts)
    this.construct = insertRowConstructor(schema);
    this.constructors = rowConstructors(schema);
    // the first sink of the process stays alive for its shape (exec/shape-anchors.ts); it holds no rows
    // once taken from, only an empty array of the last batch's size
    anchorFirst(this);
  }

  record(kind: number, values: readonly unknown[]): void {
    this.add(this.convert(kind, values) as object);
  }

  add(row: object): void {
    const rows = this.rows;
    const n = this.n;
    // written into the slots allocated up front; past them the array grows as any array does
    if (n < rows.length) rows[n] = row as R;
    else rows.push(row as R);
    this.n = n + 1;
  }

  batch(rows: object[]): void {
    if (this.n === 0) {
      this.rows = rows as R[];
      this.n = rows.length;
    } else for (let i = 0; i < rows.length; i++) this.add(rows[i]!);
  }

  /** The rows gathered since the last call (a new array: the consumer keeps it), or undefined if none. */
  take(): R[] | undefined {
    const n = this.n;
    if (n === 0) return undefined;
    const out = this.rows;
    if (out.length > n) out.length = n;
    this.rows = nextBatchArray(n);
    this.n = 0;
    return out;
  }
}
