import type { JobSink } from "./executor.js";
import type { RowObjectSink } from "../exec/columnar/columnar-job.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";
import { type RowConverter, insertRowConstructor, rowConstructors, rowConverter } from "./row-converter.js";

/**
 * Where a job's rows gather into the batches of `batches()` / `collect()` / `forEachBatch()`: records are
 * converted to row objects, operators and the columnar path that build row objects themselves hand them to
 * `add` / `batch`. A class rather than closures made per result: every job calls the same `add` and
 * `record`, so their call sites stay monomorphic and their code warm from one job to the next (closures
 * made per `execute()` started cold in each job and turned the operators' call into them megamorphic).
 */
export class RowBatchSink<R> implements JobSink, RowObjectSink {
  private rows: R[] = [];
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
  }

  record(kind: number, values: readonly unknown[]): void {
    this.rows.push(this.convert(kind, values));
  }

  add(row: object): void {
    this.rows.push(row as R);
  }

  batch(rows: object[]): void {
    if (this.rows.length === 0) this.rows = rows as R[];
    else for (let i = 0; i < rows.length; i++) this.rows.push(rows[i] as R);
  }

  /** The rows gathered since the last call (a new array: the consumer keeps it), or undefined if none. */
  take(): R[] | undefined {
    const out = this.rows;
    if (out.length === 0) return undefined;
    this.rows = [];
    return out;
  }
}
