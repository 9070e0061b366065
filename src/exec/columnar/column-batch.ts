import type { DataType } from "../../types/data-type.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";

/**
 * A job's output in columns: `length` rows, `kinds[i]` the kind (0 +I, 1 -U, 2 +U, 3 -D) of row i and
 * `columns[j][i]` its value in column j. A NOT NULL column whose values are JavaScript numbers is a typed
 * array (see `columnTypeOf`), every other column a plain array. A batch belongs to its consumer: the job
 * never writes into it again.
 */
export interface ColumnarBatch {
  readonly length: number;
  readonly kinds: Uint8Array;
  readonly columns: readonly (Int32Array | Float64Array | unknown[])[];
}

/** How a column is stored: `int32` (Int32Array), `float64` (Float64Array) or `any` (a plain array). */
export type ColumnType = "int32" | "float64" | "any";

/**
 * TINYINT / SMALLINT / INT NOT NULL go into an Int32Array; BIGINT (exact up to 2^53), FLOAT, DOUBLE and the
 * intervals NOT NULL into a Float64Array (those are JavaScript numbers, and a Float64Array holds every one of
 * them exactly, -0 and NaN included). Nullable columns, DECIMAL, strings, booleans, temporal values and
 * nested types stay plain arrays: a typed array cannot hold `null` or an object.
 */
export function columnTypeOf(type: DataType): ColumnType {
  if (type.isNullable) return "any";
  switch (type.root) {
    case "TINYINT":
    case "SMALLINT":
    case "INT":
      return "int32";
    case "BIGINT":
    case "FLOAT":
    case "DOUBLE":
    case "INTERVAL_DAY_TIME":
    case "INTERVAL_YEAR_MONTH":
      return "float64";
    default:
      return "any";
  }
}

export function columnTypesOf(schema: ResolvedSchema): ColumnType[] {
  return schema.types.map(columnTypeOf);
}

export function allocateColumn(type: ColumnType, n: number): Int32Array | Float64Array | unknown[] {
  return type === "int32" ? new Int32Array(n) : type === "float64" ? new Float64Array(n) : new Array<unknown>(n);
}

/** The most slots a batch array is allocated with before its rows arrive. */
const MAX_PREALLOCATED = 32_768;

/**
 * The array for the next batch of a result sink, with the last batch's size and an eighth more (at most
 * MAX_PREALLOCATED: a burst, such as the end of a batch aggregate, must not make every later batch that big),
 * to be filled by index and cut to its length when taken (in place: V8 trims an array's store without a
 * copy). Growing each batch from an empty array by `push` copied it a dozen times on the way to its thousands
 * of rows; sized exactly at the last batch's size, every batch a little larger than the one before (W8's
 * vary by a tenth) still grew once, a copy of the whole array (W8: 7.9 MB of copies per pass of 1.37M rows,
 * gone with the eighth; W2, whose batches do not vary, allocates 2 MB more in unused slots; bench:alloc).
 * Shared by ColumnGatherer and the row-object batches (table/row-batch-sink.ts).
 */
export function nextBatchArray<T>(lastSize: number): T[] {
  const n = lastSize + (lastSize >> 3) + 16;
  return new Array<T>(n < MAX_PREALLOCATED ? n : MAX_PREALLOCATED);
}

/**
 * Gathers positional records (from a row job) into columnar batches: the row fallback of a columnar
 * consumer for plans the columnar path does not run. `take()` hands over what arrived since the last call.
 */
export class ColumnGatherer {
  /** The kinds of the rows gathered so far (reused from batch to batch; grows by doubling). */
  private kinds = new Uint8Array(1024);
  /** The records gathered so far: each batch's array from nextBatchArray, filled by index. */
  private rows: (readonly unknown[])[] = [];
  private n = 0;
  private readonly types: readonly ColumnType[];

  constructor(schema: ResolvedSchema) {
    this.types = columnTypesOf(schema);
  }

  record(kind: number, values: readonly unknown[]): void {
    const n = this.n;
    if (n === this.kinds.length) {
      const k = new Uint8Array(2 * n);
      k.set(this.kinds);
      this.kinds = k;
    }
    this.kinds[n] = kind;
    const rows = this.rows;
    if (n < rows.length) rows[n] = values;
    else rows.push(values);
    this.n = n + 1;
  }

  take(): ColumnarBatch | undefined {
    const n = this.n;
    if (n === 0) return undefined;
    const rows = this.rows;
    const kinds = this.kinds.slice(0, n);
    this.rows = nextBatchArray(n);
    this.n = 0;
    const types = this.types;
    const columns: (Int32Array | Float64Array | unknown[])[] = [];
    for (let j = 0; j < types.length; j++) {
      const col = allocateColumn(types[j]!, n);
      for (let i = 0; i < n; i++) col[i] = rows[i]![j] as number;
      columns.push(col);
    }
    return { length: n, kinds, columns };
  }
}
