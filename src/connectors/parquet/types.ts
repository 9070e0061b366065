import { Decimal } from "decimal.js";
import type { DataType } from "../../types/data-type.js";
import { daysFromCivil } from "../../types/datetime-text.js";
import { ValidationError } from "../../types/errors.js";
import type { ConnectorColumn } from "../api/contract.js";

/**
 * Column types <-> Parquet, as Flink's parquet format maps them (ParquetSchemaConverter), with INT64
 * timestamps instead of the deprecated INT96: BOOLEAN, INT32 (INT_8 / INT_16 for TINYINT / SMALLINT),
 * INT64, FLOAT, DOUBLE, DECIMAL(p, s) as INT32 (p ≤ 9), INT64 (p ≤ 18) or FIXED_LEN_BYTE_ARRAY,
 * UTF8 BYTE_ARRAY for CHAR / VARCHAR, DATE (INT32 days), TIME_MILLIS (INT32), TIMESTAMP(MILLIS) INT64
 * not adjusted to UTC for TIMESTAMP and adjusted to UTC for TIMESTAMP_LTZ. Reading also accepts
 * TIMESTAMP in MICROS/NANOS and INT96 when the values are whole milliseconds, and TIME_MICROS likewise.
 */

/** The subset of hyparquet's SchemaElement the writer needs. */
export interface ParquetElement {
  name: string;
  type?: string;
  type_length?: number;
  repetition_type?: "REQUIRED" | "OPTIONAL" | "REPEATED";
  converted_type?: string;
  logical_type?: { type: string; isAdjustedToUTC?: boolean; unit?: string };
  scale?: number;
  precision?: number;
  num_children?: number;
}

export const PARQUET_TYPE_ROOTS = ["BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL", "CHAR", "VARCHAR", "DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ"] as const;

const isScalar = (t: DataType): boolean => (PARQUET_TYPE_ROOTS as readonly string[]).includes(t.root);

/** Whether the parquet connector maps `t`: the scalar types, and ARRAY / MAP / ROW of mapped types (nested.ts). */
export function mapsType(t: DataType): boolean {
  switch (t.root) {
    case "ARRAY": return mapsType(t.elementType!);
    case "MAP": return isScalar(t.keyType!) && mapsType(t.valueType!);
    // stored as Flink stores it: MAP<T, INT NOT NULL> of element to count (nested.ts)
    case "MULTISET": return isScalar(t.elementType!);
    case "ROW": return t.fields.length > 0 && t.fields.every((f) => mapsType(f.type));
    default: return isScalar(t);
  }
}

export function checkParquetTypes(columns: readonly ConnectorColumn[], tableName: string): void {
  for (const c of columns) {
    if (!mapsType(c.type)) {
      throw new ValidationError(`parquet table '${tableName}': column '${c.name}' has type ${c.type}, which the parquet connector does not map; supported: ${PARQUET_TYPE_ROOTS.join(", ")}, and ARRAY, MAP (scalar keys), MULTISET (scalar elements) and ROW of them`);
    }
  }
}

/** Bytes a two's-complement unscaled value of `precision` digits needs (Flink's computeMinBytesForDecimalPrecision). */
export function decimalBytes(precision: number): number {
  let n = 1;
  while (2n ** BigInt(8 * n - 1) < 10n ** BigInt(precision)) n++;
  return n;
}

/** The Parquet schema element of a column. */
export function parquetElement(c: ConnectorColumn): ParquetElement {
  const t = c.type;
  const base = { name: c.name, repetition_type: t.isNullable ? "OPTIONAL" as const : "REQUIRED" as const };
  switch (t.root) {
    case "BOOLEAN": return { ...base, type: "BOOLEAN" };
    case "TINYINT": return { ...base, type: "INT32", converted_type: "INT_8" };
    case "SMALLINT": return { ...base, type: "INT32", converted_type: "INT_16" };
    case "INT": return { ...base, type: "INT32" };
    case "BIGINT": return { ...base, type: "INT64" };
    case "FLOAT": return { ...base, type: "FLOAT" };
    case "DOUBLE": return { ...base, type: "DOUBLE" };
    case "DECIMAL": {
      const p = t.precision!;
      const physical = p <= 9 ? { type: "INT32" } : p <= 18 ? { type: "INT64" } : { type: "FIXED_LEN_BYTE_ARRAY", type_length: decimalBytes(p) };
      return { ...base, ...physical, converted_type: "DECIMAL", scale: t.scale!, precision: p };
    }
    case "CHAR": case "VARCHAR": return { ...base, type: "BYTE_ARRAY", converted_type: "UTF8" };
    case "DATE": return { ...base, type: "INT32", converted_type: "DATE" };
    case "TIME": return { ...base, type: "INT32", converted_type: "TIME_MILLIS" };
    case "TIMESTAMP": return { ...base, type: "INT64", logical_type: { type: "TIMESTAMP", isAdjustedToUTC: false, unit: "MILLIS" } };
    case "TIMESTAMP_LTZ": return { ...base, type: "INT64", logical_type: { type: "TIMESTAMP", isAdjustedToUTC: true, unit: "MILLIS" } };
    default: throw new ValidationError(`parquet: column '${c.name}' has type ${t}, which the parquet connector does not map`);
  }
}

const pow10 = (s: number): bigint => 10n ** BigInt(s);

/** A column's values as the writer takes them (one array per column chunk). */
export function writeConverter(type: DataType): ((v: unknown) => unknown) | undefined {
  switch (type.root) {
    case "BIGINT": return (v) => (v === null ? null : BigInt(v as number));
    case "DECIMAL": {
      // the unscaled value as a bigint, exact (the writer would scale a number through a double)
      const s = type.scale!;
      return (v) => (v === null ? null : BigInt((v as Decimal).toFixed(s).replace(".", "")));
    }
    case "DATE": return (v) => (v === null ? null : daysFromCivil(+(v as string).slice(0, 4), +(v as string).slice(5, 7), +(v as string).slice(8, 10)));
    case "TIME": return (v) => (v === null ? null : millisOfDay(v as string));
    default: return undefined;
  }
}

function millisOfDay(t: string): number {
  const [hms, frac = ""] = t.split(".");
  const [h, m, s] = hms!.split(":").map(Number);
  return ((h! * 60 + m!) * 60 + (s ?? 0)) * 1000 + Number(frac.slice(0, 3).padEnd(3, "0"));
}

const pad = (n: number, w = 2): string => String(n).padStart(w, "0");

function timeText(ms: number): string {
  const frac = ms % 1000;
  const s = Math.floor(ms / 1000);
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}${frac ? `.${pad(frac, 3)}` : ""}`;
}

/** A two's-complement big-endian integer (FIXED_LEN_BYTE_ARRAY / BYTE_ARRAY decimals). */
function signedBigInt(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  if (bytes.length > 0 && bytes[0]! & 0x80) v -= 1n << BigInt(8 * bytes.length);
  return v;
}

/** An unscaled integer and a scale as an exact Decimal (the text is built, no division rounds). */
function exactDecimal(unscaled: bigint, scale: number): Decimal {
  if (scale <= 0) return new Decimal((unscaled * pow10(-scale)).toString());
  const neg = unscaled < 0n;
  const digits = (neg ? -unscaled : unscaled).toString().padStart(scale + 1, "0");
  return new Decimal(`${neg ? "-" : ""}${digits.slice(0, -scale)}.${digits.slice(-scale)}`);
}

/**
 * A converter of the values hyparquet returns for a column (its DECIMAL and TIME columns are read raw: the
 * reader strips their logical types, as hyparquet would turn decimals into doubles), undefined when the
 * value is already tablestream's (the scan checks it against the column type either way).
 */
export function readConverter(type: DataType, file: ParquetElement | undefined): ((v: unknown) => unknown) | undefined {
  if (type.root === "BIGINT") {
    return (v) => {
      if (typeof v !== "bigint") return v ?? null;
      const n = Number(v);
      if (!Number.isSafeInteger(n)) throw new Error(`${v} is outside the exactly representable BIGINT range [-(2^53-1), 2^53-1]`);
      return n;
    };
  }
  if (type.root === "DECIMAL") {
    const scale = file?.scale ?? 0;
    return (v) => {
      if (v === null || v === undefined) return null;
      if (v instanceof Uint8Array) return exactDecimal(signedBigInt(v), scale);
      return exactDecimal(BigInt(v as number | bigint), scale);
    };
  }
  if (type.root === "TIME") {
    const micros = file?.converted_type === "TIME_MICROS" || file?.logical_type?.unit === "MICROS";
    return (v) => {
      if (v === null || v === undefined) return null;
      if (typeof v === "string") return v;
      let ms = Number(v);
      if (micros) {
        if (BigInt(v as bigint) % 1000n !== 0n) throw new Error(`TIME value ${String(v)} µs has sub-millisecond digits, which tablestream cannot represent`);
        ms = Number(BigInt(v as bigint) / 1000n);
      }
      return timeText(ms);
    };
  }
  return undefined;
}

/** hyparquet's parsers for dates and timestamps: DATE as `YYYY-MM-DD`, timestamps refused below a millisecond. */
export const PARQUET_PARSERS = {
  dateFromDays(days: number): string {
    const d = new Date(days * 86400000);
    return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  },
  timestampFromMicroseconds(micros: bigint): Date {
    if (micros % 1000n !== 0n) throw new Error(`timestamp ${micros} µs has sub-millisecond digits, which tablestream cannot represent`);
    return new Date(Number(micros / 1000n));
  },
  timestampFromNanoseconds(nanos: bigint): Date {
    if (nanos % 1000000n !== 0n) throw new Error(`timestamp ${nanos} ns has sub-millisecond digits, which tablestream cannot represent`);
    return new Date(Number(nanos / 1000000n));
  },
};
