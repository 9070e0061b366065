import { DataTypes, type PositionalRow, Row, Schema, type TableEnvironment } from "../../src/index.js";

/**
 * Flink's test catalogue §6.3: the common `window_source_t` — `rowtime AS TO_TIMESTAMP(ts)` and
 * `WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND` (the unused `proctime AS PROCTIME()` column is left out).
 */
export const windowSourceSchema = Schema.newBuilder()
  .column("ts", DataTypes.STRING())
  .column("a_int", DataTypes.INT())
  .column("b_double", DataTypes.DOUBLE())
  .column("c_float", DataTypes.FLOAT())
  .column("d_bigdec", DataTypes.DECIMAL(10, 2))
  .column("comment", DataTypes.STRING())
  .column("name", DataTypes.STRING())
  .columnByExpression("rowtime", "TO_TIMESTAMP(`ts`)")
  .watermark("rowtime", "`rowtime` - INTERVAL '1' SECOND")
  .build();

/** Rows before the restore point, in order (one is out of order, one late). */
export const windowBefore = [
  Row.of("2020-10-10 00:00:01", 1, 1.0, 1.0, "1.11", "Hi", "a"),
  Row.of("2020-10-10 00:00:02", 2, 2.0, 2.0, "2.22", "Comment#1", "a"),
  Row.of("2020-10-10 00:00:03", 2, 2.0, 2.0, "2.22", "Comment#1", "a"),
  Row.of("2020-10-10 00:00:04", 5, 5.0, 5.0, "5.55", null, "a"),
  Row.of("2020-10-10 00:00:07", 3, 3.0, 3.0, null, "Hello", "b"),
  Row.of("2020-10-10 00:00:06", 6, 6.0, 6.0, "6.66", "Hi", "b"),
  Row.of("2020-10-10 00:00:08", 3, null, 3.0, "3.33", "Comment#2", "a"),
  Row.of("2020-10-10 00:00:04", 5, 5.0, null, "5.55", "Hi", "a"),
  Row.of("2020-10-10 00:00:16", 4, 4.0, 4.0, "4.44", "Hi", "b"),
  Row.of("2020-10-10 00:00:32", 7, 7.0, 7.0, "7.77", null, null),
  Row.of("2020-10-10 00:00:34", 1, 3.0, 3.0, "3.33", "Comment#3", "b"),
];

/** Rows after the restore point (window TVF cases B-09, B-11). */
export const windowAfter = [
  Row.of("2020-10-10 00:00:40", 10, 3.0, 3.0, "4.44", "Comment#4", "a"),
  Row.of("2020-10-10 00:00:42", 11, 4.0, 4.0, "5.44", "Comment#5", "d"),
  Row.of("2020-10-10 00:00:43", 12, 5.0, 5.0, "6.44", "Comment#6", "c"),
  Row.of("2020-10-10 00:00:44", 13, 6.0, 6.0, "7.44", "Comment#7", "d"),
];

/** Rows after the restore point of the session case B-13 (the first one at 00:00:41). */
export const sessionAfter = [
  Row.of("2020-10-10 00:00:41", 10, 3.0, 3.0, "4.44", "Comment#4", "a"),
  ...windowAfter.slice(1),
];

export function windowSource(env: TableEnvironment, after: readonly PositionalRow[] = windowAfter) {
  return env.fromValues(windowSourceSchema, ...windowBefore, ...after);
}

/** B-15 / B-17 input: `source_t (key STRING, val BIGINT, ts BIGINT)`, append-only. */
export function overSource(env: TableEnvironment) {
  const type = DataTypes.ROW(
    DataTypes.FIELD("key", DataTypes.STRING()), DataTypes.FIELD("val", DataTypes.BIGINT()), DataTypes.FIELD("ts", DataTypes.BIGINT()),
  );
  return env.fromValues(type,
    Row.of("key1", 1, 100), Row.of("key1", 2, 200), Row.of("key1", 5, 500), Row.of("key1", 6, 600),
    Row.of("key2", 1, 100), Row.of("key2", 2, 200),
    Row.of("key1", 4, 400)); // after restore
}

/** Multiset comparison helper: sorts a copy. */
export const sorted = (rows: readonly string[]): string[] => [...rows].sort();
