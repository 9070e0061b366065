import * as arrow from "apache-arrow";
import { Decimal } from "decimal.js";
import { ValidationError } from "../../types/errors.js";
import type { DataType } from "../../types/data-type.js";

/**
 * Column codecs between tablestream values (positional records) and Arrow data: one typed buffer per
 * column plus a validity bitmap, filled in one loop per column (no per-row objects).
 */

const DAY = 86_400_000;
const TWO64 = 1n << 64n;
const TWO128 = 1n << 128n;

export function dateToDays(s: string): number {
  return Date.UTC(Number(s.slice(0, s.length - 6)), Number(s.slice(-5, -3)) - 1, Number(s.slice(-2))) / DAY;
}
export function daysToDate(days: number): string {
  return new Date(days * DAY).toISOString().slice(0, 10);
}
export function timeToMillis(s: string): number {
  const ms = s.length > 8 ? Number(s.slice(9, 12).padEnd(3, "0")) : 0;
  return Number(s.slice(0, 2)) * 3_600_000 + Number(s.slice(3, 5)) * 60_000 + Number(s.slice(6, 8)) * 1000 + ms;
}
export function millisToTime(ms: number, precision: number): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  const base = `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}`;
  return precision > 0 ? `${base}.${pad(ms % 1000, 3).slice(0, precision).padEnd(precision, "0")}` : base;
}

/** One Arrow column (a Data chunk) from column `j` of `rows`. */
export function columnData(type: DataType, at: arrow.DataType, rows: readonly (readonly unknown[])[], j: number): arrow.Data {
  const n = rows.length;
  const bitmap = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    if (rows[i]![j] === null) nulls++;
    else bitmap[i >> 3]! |= 1 << (i & 7);
  }
  const props = { type: at, length: n, nullCount: nulls, nullBitmap: nulls > 0 ? bitmap : undefined };
  switch (type.root) {
    case "BOOLEAN": {
      const data = new Uint8Array((n + 7) >> 3);
      for (let i = 0; i < n; i++) if (rows[i]![j] === true) data[i >> 3]! |= 1 << (i & 7);
      return arrow.makeData({ ...props, type: at as arrow.Bool, data });
    }
    case "TINYINT": return fill(props, new Int8Array(n), rows, j, (v) => v as number);
    case "SMALLINT": return fill(props, new Int16Array(n), rows, j, (v) => v as number);
    case "INT": return fill(props, new Int32Array(n), rows, j, (v) => v as number);
    case "FLOAT": return fill(props, new Float32Array(n), rows, j, (v) => v as number);
    case "DOUBLE": return fill(props, new Float64Array(n), rows, j, (v) => v as number);
    case "DATE": return fill(props, new Int32Array(n), rows, j, (v) => dateToDays(v as string));
    case "TIME": return fill(props, new Int32Array(n), rows, j, (v) => timeToMillis(v as string));
    case "BIGINT": {
      const data = new BigInt64Array(n);
      for (let i = 0; i < n; i++) { const v = rows[i]![j]; if (v !== null) data[i] = BigInt(v as number); }
      return arrow.makeData({ ...props, type: at as arrow.Int64, data });
    }
    case "TIMESTAMP":
    case "TIMESTAMP_LTZ": {
      const data = new BigInt64Array(n);
      for (let i = 0; i < n; i++) { const v = rows[i]![j]; if (v !== null) data[i] = BigInt((v as Date).getTime()); }
      return arrow.makeData({ ...props, type: at as arrow.Timestamp, data });
    }
    case "DECIMAL": {
      // 128-bit two's complement little-endian words of the unscaled value
      const data = new BigUint64Array(n * 2);
      const scale = type.scale!;
      for (let i = 0; i < n; i++) {
        const v = rows[i]![j] as Decimal | null;
        if (v === null) continue;
        // toFixed is exact (no rounding to decimal.js' working precision); the value fits its scale already
        let u = BigInt(v.toFixed(scale).replace(".", ""));
        if (u < 0n) u += TWO128;
        data[2 * i] = u % TWO64;
        data[2 * i + 1] = u / TWO64;
      }
      return arrow.makeData({ ...props, type: at as arrow.Decimal, data: new Uint32Array(data.buffer) });
    }
    case "CHAR":
    case "VARCHAR": {
      const enc = new TextEncoder();
      const offsets = new Int32Array(n + 1);
      let bytes = new Uint8Array(Math.max(16, n * 8));
      let pos = 0;
      for (let i = 0; i < n; i++) {
        const v = rows[i]![j] as string | null;
        if (v !== null) {
          const need = pos + v.length * 3;
          if (need > bytes.length) { const b = new Uint8Array(Math.max(need, bytes.length * 2)); b.set(bytes.subarray(0, pos)); bytes = b; }
          pos += enc.encodeInto(v, bytes.subarray(pos)).written;
        }
        offsets[i + 1] = pos;
      }
      return arrow.makeData({ ...props, type: at as arrow.Utf8, valueOffsets: offsets, data: bytes.subarray(0, pos) });
    }
    default:
      throw new ValidationError(`toArrow: type ${type} has no Arrow mapping yet`);
  }
}

function fill<A extends Int8Array | Int16Array | Int32Array | Float32Array | Float64Array>(
  props: { type: arrow.DataType; length: number; nullCount: number; nullBitmap: Uint8Array | undefined },
  data: A, rows: readonly (readonly unknown[])[], j: number, conv: (v: unknown) => number,
): arrow.Data {
  for (let i = 0; i < rows.length; i++) { const v = rows[i]![j]; if (v !== null) data[i] = conv(v); }
  return arrow.makeData({ ...props, data } as never);
}

/** Reads column values of an Arrow vector into `out[i][j]` (tablestream values), one loop per column. */
export function readColumn(vec: arrow.Vector, type: DataType, out: unknown[][], j: number, column: string): void {
  const at = vec.type as arrow.DataType;
  const n = vec.length;
  const isDecimal = at.typeId === arrow.Type.Decimal;
  const isTs = at.typeId === arrow.Type.Timestamp;
  const isDate = at.typeId === arrow.Type.Date;
  const isTime = at.typeId === arrow.Type.Time;
  const unitMs = isTs || isTime ? [1000, 1, 1e-3, 1e-6][(at as arrow.Timestamp).unit]! : 1;
  let i = 0;
  for (const d of vec.data) {
    const values = d.values as ArrayLike<number | bigint>;
    for (let k = 0; k < d.length; k++, i++) {
      const row = out[i]!;
      if (!d.getValid(k)) { row[j] = null; continue; }
      const at_ = d.offset + k;
      if (isDecimal) {
        const w = values as unknown as Uint32Array;
        const words = new BigUint64Array(w.buffer, w.byteOffset + at_ * 16, 2);
        let u = words[0]! + (words[1]! << 64n);
        if (u >= TWO128 / 2n) u -= TWO128;
        row[j] = unscaledToDecimal(u, (at as arrow.Decimal).scale);
      } else if (isTs) {
        row[j] = new Date(Math.floor(Number(values[at_]) * unitMs));
      } else if (isDate) {
        const v = Number(values[at_]);
        row[j] = daysToDate((at as arrow.Date_).unit === arrow.DateUnit.DAY ? v : Math.floor(v / DAY));
      } else if (isTime) {
        row[j] = millisToTime(Math.floor(Number(values[at_]) * unitMs), type.precision ?? 0);
      } else if (at.typeId === arrow.Type.Int && (at as arrow.Int).bitWidth === 64) {
        const v = values[at_] as bigint;
        if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) {
          throw new ValidationError(`fromArrow: column '${column}' row ${i + 1}: ${v} is outside the BIGINT range tablestream holds exactly (±2^53-1)`);
        }
        row[j] = Number(v);
      } else {
        row[j] = vec.get(i); // booleans, 8..32-bit integers, floats, strings (dictionaries decoded)
      }
    }
  }
  if (i !== n) throw new Error("fromArrow: vector length mismatch");
}

/** The exact Decimal of an unscaled integer and a scale (string digits: no rounding to a working precision). */
function unscaledToDecimal(u: bigint, scale: number): Decimal {
  const neg = u < 0n;
  const digits = (neg ? -u : u).toString().padStart(scale + 1, "0");
  const text = scale > 0 ? `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}` : digits;
  return new Decimal(neg ? "-" + text : text);
}
