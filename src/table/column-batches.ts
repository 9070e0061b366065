import type { ColumnarBatch } from "../exec/columnar/column-batch.js";
import { ColumnGatherer } from "../exec/columnar/column-batch.js";
import type { JobSink } from "../exec/job-contract.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";
import { setOwn } from "../types/own.js";
import type { ColumnBatch } from "./column-batch-typing.js";

/**
 * The sink of a columnar consumer (`TableResult.columnBatches()`): a plan the columnar path runs hands it
 * whole batches (`columns`); any other plan runs as a row job whose records are gathered into columns per
 * slice (`record`). `take()` returns what the last slice produced, keyed by column name.
 */
export class ColumnBatchSink<R extends object> implements JobSink {
  private readonly gatherer: ColumnGatherer;
  private readonly names: readonly string[];
  private ready: ColumnarBatch[] = [];

  constructor(schema: ResolvedSchema) {
    this.gatherer = new ColumnGatherer(schema);
    this.names = schema.names;
  }

  record(kind: number, values: readonly unknown[]): void {
    this.gatherer.record(kind, values);
  }

  columns(batch: ColumnarBatch): void {
    this.ready.push(batch);
  }

  take(): ColumnBatch<R> | undefined {
    const ready = this.ready;
    const b = ready.length === 0 ? this.gatherer.take() : ready.length === 1 ? ready.pop() : concat(ready.splice(0));
    return b === undefined ? undefined : this.keyed(b);
  }

  private keyed(b: ColumnarBatch): ColumnBatch<R> {
    const columns = {};
    // own data properties also for names Object.prototype has (`constructor`, `__proto__`)
    for (let j = 0; j < this.names.length; j++) setOwn(columns, this.names[j]!, b.columns[j]);
    return { length: b.length, kinds: b.kinds, columns: columns as ColumnBatch<R>["columns"] };
  }
}

/** Several batches of one slice as one. */
function concat(bs: readonly ColumnarBatch[]): ColumnarBatch {
  let n = 0;
  for (const b of bs) n += b.length;
  const kinds = new Uint8Array(n);
  const columns = bs[0]!.columns.map((c) => Array.isArray(c) ? new Array<unknown>(n) : new (c.constructor as Int32ArrayConstructor | Float64ArrayConstructor)(n));
  let at = 0;
  for (const b of bs) {
    kinds.set(b.kinds, at);
    b.columns.forEach((c, j) => {
      const out = columns[j]!;
      for (let i = 0; i < b.length; i++) out[at + i] = c[i] as number;
    });
    at += b.length;
  }
  return { length: n, kinds, columns };
}
