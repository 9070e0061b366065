import { getOwn } from "./own.js";
import { Decimal } from "decimal.js";
import { PositionalRow } from "./row.js";
import type { DataType } from "./data-type.js";

/**
 * Renders values as Flink does. Two styles exist in Flink and both are needed:
 * - SQL style (`CAST(x AS STRING)`, the tableau printer): `2025-03-27 07:38:31.134`, `1.5`, `true`;
 * - Java `toString` style (Row.toString in Flink's test oracles): `1970-01-01T00:00:00.001Z`, `2020-10-10T00:00`.
 */

/** Java's Double.toString: shortest round-trip digits, at least one fraction digit, E notation outside [1e-3, 1e7). */
export function formatDouble(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "Infinity";
  if (v === -Infinity) return "-Infinity";
  if (v === 0) return Object.is(v, -0) ? "-0.0" : "0.0";
  return javaStyle(v, javaDigits(Math.abs(v), String(Math.abs(v)), (x) => x === Math.abs(v)));
}

/**
 * Java (JDK 19+) picks the shortest decimal that reads back as the value, but when that has a single
 * digit it considers two-digit decimals too and takes the closest: Double.MIN_VALUE is `4.9E-324`,
 * not `5.0E-324`. `toPrecision(2)` is the closest two-digit decimal; it is used when it reads back.
 */
function javaDigits(abs: number, shortest: string, readsBack: (x: number) => boolean): string {
  if (/^\d(?:e[+-]\d+)?$|^0\.0*\d(?:e[+-]\d+)?$/.test(shortest)) {
    const two = abs.toPrecision(2);
    // "1.0e+21" is the one-digit decimal again; "4.9e-324" is a closer one
    if (readsBack(Number(two)) && !/0(?:e[+-]\d+)?$/.test(two)) return two;
  }
  return shortest;
}

/** Java's Float.toString for a value stored as float (shortest digits that round-trip through Math.fround). */
export function formatFloat(v: number): string {
  if (!Number.isFinite(v) || v === 0) return formatDouble(v);
  const f = Math.fround(v);
  let digits = String(Math.abs(f));
  for (let p = 1; p <= 9; p++) {
    const s = Math.abs(f).toPrecision(p);
    if (Math.fround(Number(s)) === Math.abs(f)) { digits = String(Number(s)); break; }
  }
  return javaStyle(f, javaDigits(Math.abs(f), digits, (x) => Math.fround(x) === Math.abs(f)));
}

function javaStyle(v: number, absDigits: string): string {
  const sign = v < 0 ? "-" : "";
  const abs = Math.abs(v);
  // decompose into digits and exponent
  let mantissa: string;
  let exp: number;
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(absDigits);
  if (!m) return sign + absDigits;
  const intPart = m[1]!;
  const frac = m[2] ?? "";
  const e = m[3] ? Number(m[3]) : 0;
  // normalise to d.ddd x 10^exp
  const all = (intPart + frac).replace(/^0+/, "");
  const leadingZerosInFrac = intPart === "0" ? (frac.length - frac.replace(/^0+/, "").length) : 0;
  exp = intPart === "0" ? -(leadingZerosInFrac + 1) + e : intPart.length - 1 + e;
  mantissa = all.replace(/0+$/, "") || "0";
  if (abs >= 1e-3 && abs < 1e7) {
    // plain notation
    if (exp >= 0) {
      const ip = mantissa.slice(0, exp + 1).padEnd(exp + 1, "0");
      const fp = mantissa.slice(exp + 1) || "0";
      return `${sign}${ip}.${fp}`;
    }
    return `${sign}0.${"0".repeat(-exp - 1)}${mantissa}`;
  }
  const fp = mantissa.slice(1) || "0";
  return `${sign}${mantissa[0]}.${fp}E${exp}`;
}

const pad = (n: number, w = 2): string => String(n).padStart(w, "0");

/** `YYYY-MM-DD HH:mm:ss[.fff]` in UTC with exactly `precision` fraction digits (0..9; digits past 3 are 0). */
export function formatTimestampSql(d: Date, precision: number): string {
  const base = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  if (precision === 0) return base;
  return `${base}.${pad(d.getUTCMilliseconds(), 3).padEnd(precision, "0").slice(0, precision)}`;
}

/** Java's Instant.toString: `1970-01-01T00:00:00Z`, `...00.001Z` (millis only when non-zero). */
export function formatInstant(d: Date): string {
  const ms = d.getUTCMilliseconds();
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${ms ? "." + pad(ms, 3) : ""}Z`;
}

/** Java's LocalDateTime.toString: seconds omitted when seconds and millis are zero. */
export function formatLocalDateTime(d: Date): string {
  const s = d.getUTCSeconds();
  const ms = d.getUTCMilliseconds();
  const base = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  if (s === 0 && ms === 0) return base;
  return `${base}:${pad(s)}${ms ? "." + pad(ms, 3) : ""}`;
}

/** Java's LocalTime.toString of a TIME value `HH:mm:ss[.fff]`: `10:30`, `10:30:05`, `10:30:05.100`. */
export function formatLocalTime(t: string): string {
  const fraction = t.length > 9 ? t.slice(9).replace(/0+$/, "") : "";
  if (fraction !== "") return `${t.slice(0, 8)}.${fraction.padEnd(3, "0")}`;
  return t.slice(6, 8) === "00" ? t.slice(0, 5) : t.slice(0, 8);
}

/** Flink's rendering of a day-time interval in SQL style: `+0 01:00:00.000`. */
export function formatDayTimeInterval(ms: number): string {
  const sign = ms < 0 ? "-" : "+";
  let a = Math.abs(ms);
  const days = Math.floor(a / 86400000); a -= days * 86400000;
  const h = Math.floor(a / 3600000); a -= h * 3600000;
  const m = Math.floor(a / 60000); a -= m * 60000;
  const s = Math.floor(a / 1000); a -= s * 1000;
  return `${sign}${days} ${pad(h)}:${pad(m)}:${pad(s)}.${pad(a, 3)}`;
}

export function formatYearMonthInterval(months: number): string {
  const sign = months < 0 ? "-" : "+";
  const a = Math.abs(months);
  return `${sign}${Math.floor(a / 12)}-${pad(a % 12)}`;
}

/** Java Duration.toString, e.g. `PT1S`, `PT2H30M`. */
export function formatDuration(ms: number): string {
  if (ms === 0) return "PT0S";
  const neg = ms < 0;
  let a = Math.abs(ms);
  const h = Math.floor(a / 3600000); a -= h * 3600000;
  const m = Math.floor(a / 60000); a -= m * 60000;
  const s = a / 1000;
  const sg = neg ? "-" : "";
  return `PT${h ? sg + h + "H" : ""}${m ? sg + m + "M" : ""}${s ? sg + String(s) + "S" : ""}`;
}

/** Java Period.toString for a number of months: `P1Y`, `P1Y2M`. */
export function formatPeriod(months: number): string {
  if (months === 0) return "P0D";
  const y = Math.trunc(months / 12);
  const m = months % 12;
  return `P${y ? y + "Y" : ""}${m ? m + "M" : ""}`;
}

/** SQL-style string of a value of a known type (CAST AS STRING, tableau printing). Null → null. */
export function toSqlString(type: DataType, v: unknown): string | null {
  if (v === null || v === undefined) return null;
  switch (type.root) {
    case "BOOLEAN": return v ? "TRUE" : "FALSE";
    case "DOUBLE": return formatDouble(v as number);
    case "FLOAT": return formatFloat(v as number);
    case "DECIMAL": return (v as Decimal).toFixed(type.scale ?? 0);
    case "TIMESTAMP":
    case "TIMESTAMP_LTZ": return formatTimestampSql(v as Date, type.precision ?? 6);
    case "INTERVAL_DAY_TIME": return formatDayTimeInterval(v as number);
    case "INTERVAL_YEAR_MONTH": return formatYearMonthInterval(v as number);
    case "ARRAY": {
      const el = type.elementType!;
      return `[${(v as unknown[]).map((x) => toSqlString(el, x) ?? "NULL").join(", ")}]`;
    }
    case "MULTISET": {
      // Flink prints a multiset as the map of element to count it is: {a=2, b=1}
      const parts: string[] = [];
      for (const [k, n] of v as Map<unknown, number>) parts.push(`${toSqlString(type.elementType!, k) ?? "NULL"}=${n}`);
      return `{${parts.join(", ")}}`;
    }
    case "MAP": {
      const parts: string[] = [];
      for (const [k, x] of v as Map<unknown, unknown>) parts.push(`${toSqlString(type.keyType!, k) ?? "NULL"}=${toSqlString(type.valueType!, x) ?? "NULL"}`);
      return `{${parts.join(", ")}}`;
    }
    case "ROW": {
      const obj = v as Record<string, unknown>;
      // a structured value prints its fields by name, as Flink prints a POJO column: (amount=6.99, currency=USD)
      if (type.structuredClass !== undefined) return `(${type.fields.map((f) => `${f.name}=${toSqlString(f.type, getOwn(obj, f.name)) ?? "NULL"}`).join(", ")})`;
      return `(${type.fields.map((f) => toSqlString(f.type, getOwn(obj, f.name)) ?? "NULL").join(", ")})`;
    }
    default:
      return String(v);
  }
}

/**
 * Java `toString` rendering as used by Flink's test oracles (`+I[Bob, 12]`), for a value whose type is
 * known. Rows render as `+I[...]` (nested rows too), timestamps as Instant/LocalDateTime, null as `null`.
 */
export function toJavaString(type: DataType | undefined, v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (type) {
    switch (type.root) {
      case "DOUBLE": return formatDouble(v as number);
      case "FLOAT": return formatFloat(v as number);
      case "DECIMAL": return (v as Decimal).toFixed(type.scale ?? 0);
      case "TIMESTAMP_LTZ": return formatInstant(v as Date);
      case "TIMESTAMP": return formatLocalDateTime(v as Date);
      case "TIME": return formatLocalTime(v as string);
      case "INTERVAL_DAY_TIME": return formatDuration(v as number);
      case "INTERVAL_YEAR_MONTH": return formatPeriod(v as number);
      case "ARRAY": return `[${(v as unknown[]).map((x) => toJavaString(type.elementType, x)).join(", ")}]`;
      case "MULTISET": {
        const parts: string[] = [];
        for (const [k, n] of v as Map<unknown, number>) parts.push(`${toJavaString(type.elementType, k)}=${n}`);
        return `{${parts.join(", ")}}`;
      }
      case "MAP": {
        const parts: string[] = [];
        for (const [k, x] of v as Map<unknown, unknown>) parts.push(`${toJavaString(type.keyType, k)}=${toJavaString(type.valueType, x)}`);
        return `{${parts.join(", ")}}`;
      }
      case "ROW": {
        const obj = v as Record<string, unknown>;
        return `+I[${type.fields.map((f) => toJavaString(f.type, getOwn(obj, f.name))).join(", ")}]`;
      }
      default:
    }
  }
  return untypedJavaString(v);
}

/** Best-effort Java rendering of a value without its declared type (user objects inside PTF output). */
export function untypedJavaString(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : formatDouble(v);
  if (v instanceof Date) return formatInstant(v);
  if (Decimal.isDecimal(v)) return (v as Decimal).toFixed();
  if (v instanceof PositionalRow) return `${v.kind}[${v.values.map(untypedJavaString).join(", ")}]`;
  if (Array.isArray(v)) return `[${v.map(untypedJavaString).join(", ")}]`;
  if (v instanceof Map) return `{${[...v].map(([k, x]) => `${untypedJavaString(k)}=${untypedJavaString(x)}`).join(", ")}}`;
  if (typeof v === "object") {
    const s = (v as { toString(): string }).toString();
    if (s !== "[object Object]") return s;
    return `{${Object.entries(v).map(([k, x]) => `${k}=${untypedJavaString(x)}`).join(", ")}}`;
  }
  return String(v);
}
