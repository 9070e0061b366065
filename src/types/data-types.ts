import type { Decimal } from "decimal.js";
import { ValidationError } from "./errors.js";
import type { Variant } from "./variant.js";
import {
  type ColumnList, DataType, type DayTimeInterval, MAX_LENGTH, type RowFieldDef, type YearMonthInterval,
} from "./data-type.js";

/** Object type of a list of ROW fields: `{ name: string | null; age: number | null }`. */
export type RowValueOf<F extends readonly RowFieldDef[]> = {
  [E in F[number] as E["name"]]: E extends RowFieldDef<string, infer T> ? T : never;
};

function checkPrecision(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ValidationError(`${name} must be an integer between ${min} and ${max}, got ${value}`);
  }
  return value;
}

/** Interval resolutions for `DataTypes.INTERVAL(...)`. */
export type DayTimeResolution = "DAY" | "HOUR" | "MINUTE" | "SECOND" | "DAY TO HOUR" | "DAY TO MINUTE" | "DAY TO SECOND"
  | "HOUR TO MINUTE" | "HOUR TO SECOND" | "MINUTE TO SECOND";
export type YearMonthResolution = "YEAR" | "MONTH" | "YEAR TO MONTH";

/**
 * Factory of Flink data types, named as in Flink. Every type is nullable unless `.notNull()` is called.
 * Value representation (see docs/types.md): BIGINT is a JS number restricted to the safe-integer range;
 * DECIMAL is a decimal.js `Decimal`; TIMESTAMP and TIMESTAMP_LTZ are `Date` (millisecond precision);
 * DATE is an ISO `YYYY-MM-DD` string and TIME an `HH:mm:ss[.SSS]` string; intervals are numbers
 * (milliseconds or months).
 */
export const DataTypes = {
  STRING: (): DataType<string | null> => new DataType("VARCHAR", true, { length: MAX_LENGTH }),
  CHAR: (n: number): DataType<string | null> =>
    new DataType("CHAR", true, { length: checkPrecision("CHAR length", n, 1, MAX_LENGTH) }),
  VARCHAR: (n: number): DataType<string | null> =>
    new DataType("VARCHAR", true, { length: checkPrecision("VARCHAR length", n, 1, MAX_LENGTH) }),
  BOOLEAN: (): DataType<boolean | null> => new DataType("BOOLEAN", true),
  TINYINT: (): DataType<number | null> => new DataType("TINYINT", true),
  SMALLINT: (): DataType<number | null> => new DataType("SMALLINT", true),
  INT: (): DataType<number | null> => new DataType("INT", true),
  BIGINT: (): DataType<number | null> => new DataType("BIGINT", true),
  FLOAT: (): DataType<number | null> => new DataType("FLOAT", true),
  DOUBLE: (): DataType<number | null> => new DataType("DOUBLE", true),
  DECIMAL: (precision: number, scale: number): DataType<Decimal | null> => {
    checkPrecision("DECIMAL precision", precision, 1, 38);
    checkPrecision("DECIMAL scale", scale, 0, precision);
    return new DataType("DECIMAL", true, { precision, scale });
  },
  DATE: (): DataType<string | null> => new DataType("DATE", true),
  TIME: (precision = 0): DataType<string | null> =>
    new DataType("TIME", true, { precision: checkPrecision("TIME precision", precision, 0, 9) }),
  TIMESTAMP: (precision = 6): DataType<Date | null> =>
    new DataType("TIMESTAMP", true, { precision: checkPrecision("TIMESTAMP precision", precision, 0, 9) }),
  TIMESTAMP_LTZ: (precision = 6): DataType<Date | null> =>
    new DataType("TIMESTAMP_LTZ", true, { precision: checkPrecision("TIMESTAMP_LTZ precision", precision, 0, 9) }),
  /** `INTERVAL("DAY TO SECOND")` (milliseconds) or `INTERVAL("YEAR TO MONTH")` (months). */
  INTERVAL<R extends DayTimeResolution | YearMonthResolution = "DAY TO SECOND">(
    resolution?: R,
  ): DataType<(R extends YearMonthResolution ? YearMonthInterval : DayTimeInterval) | null> {
    const r = resolution ?? "DAY TO SECOND";
    const yearMonth = r === "YEAR" || r === "MONTH" || r === "YEAR TO MONTH";
    const units = yearMonth ? (r === "MONTH" ? "MONTH" : r === "YEAR" ? "YEAR(2)" : "YEAR(2) TO MONTH")
      : r.replace("DAY", "DAY(2)").replace(/SECOND$/, "SECOND(3)");
    return new DataType(yearMonth ? "INTERVAL_YEAR_MONTH" : "INTERVAL_DAY_TIME", true, { intervalUnits: units }) as never;
  },
  ARRAY: <T>(element: DataType<T>): DataType<T[] | null> => new DataType("ARRAY", true, { element }),
  /**
   * Flink's MULTISET<T>: a bag, each distinct element with the number of times it occurs. A value is a `Map` of
   * element to count (a positive integer), as Flink's MapData of element to INT; printed `{a=2, b=1}`.
   */
  MULTISET: <T>(element: DataType<T>): DataType<Map<T, number> | null> => new DataType("MULTISET", true, { element }),
  MAP: <K, V>(key: DataType<K>, value: DataType<V>): DataType<Map<K, V> | null> =>
    new DataType("MAP", true, { keyType: key, valueType: value }),
  FIELD: <N extends string, T>(name: N, type: DataType<T>, description?: string): RowFieldDef<N, T> => {
    if (typeof name !== "string" || name.length === 0) throw new ValidationError("FIELD name must be a non-empty string");
    return description === undefined ? { name, type } : { name, type, description };
  },
  ROW: <const F extends readonly RowFieldDef[]>(...fields: F): DataType<RowValueOf<F> | null> => {
    const seen = new Set<string>();
    for (const f of fields) {
      if (seen.has(f.name)) throw new ValidationError(`ROW field '${f.name}' is declared twice`);
      seen.add(f.name);
    }
    return new DataType("ROW", true, { fields }) as never;
  },
  NULL: (): DataType<null> => new DataType("NULL", true),
  DESCRIPTOR: (): DataType<ColumnList | null> => new DataType("DESCRIPTOR", true),
  /** Semi-structured data (JSON kinds kept exact), as Flink's VARIANT; values are `Variant` (`PARSE_JSON`). */
  VARIANT: (): DataType<Variant | null> => new DataType("VARIANT", true),
} as const;
