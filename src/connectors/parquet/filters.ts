import type { ConnectorColumn, PushedFilter } from "../api/contract.js";

/**
 * Filters the Parquet source applies itself (Flink's SupportsFilterPushDown): comparisons of integer,
 * floating, string, boolean, date and timestamp columns with a literal. The source evaluates them on
 * every row exactly as the plan would (a NULL passes only IS NULL; NaN passes only `<>`), and skips row
 * groups whose statistics rule a filter out (integer and floating columns).
 */
const FILTERABLE = ["TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "CHAR", "VARCHAR", "BOOLEAN", "DATE", "TIMESTAMP", "TIMESTAMP_LTZ"];
const NUMERIC = ["TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE"];

export function acceptsFilter(f: PushedFilter, columns: readonly ConnectorColumn[]): boolean {
  if (f.op === "OR") return false; // row-group statistics are read per comparison
  const c = columns.find((x) => x.name === f.column);
  if (c === undefined || !FILTERABLE.includes(c.type.root)) return false;
  if (c.type.root === "BOOLEAN" && !["=", "<>", "IS NULL", "IS NOT NULL"].includes(f.op)) return false;
  return true;
}

/** Comparable form of a value: epoch millis for timestamps, the value itself otherwise. */
const key = (v: unknown): unknown => (v instanceof Date ? v.getTime() : v);

/** A row predicate for one filter on the column at `index` of the rows read. */
export function rowPredicate(f: PushedFilter, index: number): (row: readonly unknown[]) => boolean {
  const lit = Array.isArray(f.value) ? f.value.map(key) : key(f.value);
  switch (f.op) {
    case "IS NULL": return (r) => r[index] === null;
    case "IS NOT NULL": return (r) => r[index] !== null;
    case "IN": {
      const set = new Set(lit as unknown[]);
      return (r) => r[index] !== null && set.has(key(r[index]));
    }
    case "=": return (r) => r[index] !== null && key(r[index]) === lit;
    case "<>": return (r) => r[index] !== null && key(r[index]) !== lit;
    case "<": return (r) => r[index] !== null && (key(r[index]) as number) < (lit as number);
    case "<=": return (r) => r[index] !== null && (key(r[index]) as number) <= (lit as number);
    case ">": return (r) => r[index] !== null && (key(r[index]) as number) > (lit as number);
    case ">=": return (r) => r[index] !== null && (key(r[index]) as number) >= (lit as number);
    case "OR": throw new Error("an OR filter is not pushed into parquet scans (acceptsFilter refuses it)");
  }
}

/** Column chunk statistics as hyparquet returns them. */
export interface ChunkStats {
  readonly min_value?: unknown;
  readonly max_value?: unknown;
  readonly null_count?: bigint | number;
}

/**
 * Whether a row group may hold a row passing the filter, from its column statistics (numeric columns
 * only; anything else, or missing statistics, keeps the group).
 */
export function groupMayMatch(f: PushedFilter, type: ConnectorColumn["type"], stats: ChunkStats | undefined, rows: number): boolean {
  if (stats === undefined) return true;
  const nulls = stats.null_count === undefined ? undefined : Number(stats.null_count);
  if (f.op === "IS NULL") return nulls === undefined || nulls > 0;
  if (f.op === "IS NOT NULL") return nulls === undefined || nulls < rows;
  if (!NUMERIC.includes(type.root) || stats.min_value === undefined || stats.max_value === undefined || stats.min_value === null || stats.max_value === null) return true;
  const min = Number(stats.min_value);
  const max = Number(stats.max_value);
  if (Number.isNaN(min) || Number.isNaN(max)) return true;
  const values = (Array.isArray(f.value) ? f.value : [f.value]) as number[];
  const v = values[0]!;
  switch (f.op) {
    case "=": return v >= min && v <= max;
    case "IN": return values.some((x) => x >= min && x <= max);
    case "<": return min < v;
    case "<=": return min <= v;
    case ">": return max > v;
    case ">=": return max >= v;
    default: return true;
  }
}
