/**
 * The columnar form of a result (`TableResult.columnBatches()`), typed from the result's row type `R`:
 * a column of a NOT NULL number column (`number` in `R`) is a typed array — an `Int32Array` for TINYINT,
 * SMALLINT and INT, a `Float64Array` for BIGINT, FLOAT, DOUBLE and the intervals — and every other column
 * (nullable, DECIMAL, strings, booleans, temporal and nested values) an array of its values.
 */

/** The column of a NOT NULL numeric column: index it like an array of numbers. */
export type NumberColumn = Int32Array | Float64Array;

/** The column type for a field type `T` of the row type. */
export type ColumnOf<T> = [T] extends [number] ? NumberColumn : T[];

/**
 * One batch of a columnar result: `length` rows; row `i` has the kind `kinds[i]` (0 `+I`, 1 `-U`, 2 `+U`,
 * 3 `-D`) and the value `columns.<name>[i]` in each column. Every column has exactly `length` entries; the
 * batch and its arrays belong to the consumer (the job never writes into them again).
 */
export interface ColumnBatch<R extends object> {
  readonly length: number;
  readonly kinds: Uint8Array;
  readonly columns: { readonly [K in keyof R]: ColumnOf<R[K]> };
}
