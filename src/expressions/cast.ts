import { formatTimeOfDay, parseDateText, parseTimeText, parseTimestampText } from "../types/datetime-text.js";
import { getOwn, setOwn } from "../types/own.js";
import { Decimal } from "decimal.js";
import { ExecutionError, ValidationError } from "../types/errors.js";
import type { DataType } from "../types/data-type.js";
import { formatTimestampSql, toSqlString } from "../types/format.js";
import { fitDecimal } from "../types/values.js";
import { variantConverter } from "./cast-variant.js";

/**
 * CAST and TRY_CAST. `castFunction(from, to)` checks at planning time that Flink supports the
 * conversion (a ValidationError otherwise) and returns one converter, called per row. A value that
 * cannot be converted fails the job with a message naming the value, both types and the expression;
 * TRY_CAST returns NULL instead. Rules follow Flink's cast rules (flink-table-planner
 * functions/casting); where Flink returns NULL or wraps around silently, CAST fails instead
 * (docs/types.md, "Deviations").
 */

type Convert = (v: unknown) => unknown;

/** A value that does not convert; carries the reason for the message. */
class CastFailure extends Error {}

const no = (why: string): never => {
  throw new CastFailure(why);
};

const INT_RANGE: Record<string, [number, number]> = {
  TINYINT: [-128, 127], SMALLINT: [-32768, 32767], INT: [-2147483648, 2147483647],
  BIGINT: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};
const FLOAT_MAX = 3.4028234663852886e38;

const isStr = (t: DataType): boolean => t.root === "CHAR" || t.root === "VARCHAR";
const isInt = (t: DataType): boolean => t.root in INT_RANGE;
const isApprox = (t: DataType): boolean => t.root === "FLOAT" || t.root === "DOUBLE";
const isNum = (t: DataType): boolean => isInt(t) || isApprox(t) || t.root === "DECIMAL";
const isTs = (t: DataType): boolean => t.root === "TIMESTAMP" || t.root === "TIMESTAMP_LTZ";
const isInterval = (t: DataType): boolean => t.root === "INTERVAL_DAY_TIME" || t.root === "INTERVAL_YEAR_MONTH";

function show(v: unknown): string {
  if (typeof v === "string") return `'${v}'`;
  if (v instanceof Date) return formatTimestampSql(v, 3);
  if (Decimal.isDecimal(v)) return (v as Decimal).toFixed();
  return String(v);
}

/**
 * The converter for CAST(from AS to); `where` names the expression for messages. With `safe`
 * (TRY_CAST) a value that does not convert gives NULL.
 */
export function castFunction(from: DataType, to: DataType, where: string, safe: boolean): Convert {
  const convert = converter(from, to, where);
  if (safe) {
    return (v) => {
      try {
        return convert(v);
      } catch (e) {
        if (e instanceof CastFailure) return null;
        throw e;
      }
    };
  }
  return (v) => {
    try {
      return convert(v);
    } catch (e) {
      if (e instanceof CastFailure) {
        throw new ExecutionError(`cannot cast ${show(v)} from ${from.withNullability(true)} to ${to.withNullability(true)} in ${where}: ${e.message}`);
      }
      throw e;
    }
  };
}

/** Whether CAST(from AS to) needs no conversion of the value at all. */
export function isIdentityCast(from: DataType, to: DataType): boolean {
  if (from.root === "NULL") return true;
  if (from.withNullability(true).equals(to.withNullability(true))) return true;
  // widening between integer types, integer to DOUBLE, FLOAT to DOUBLE: the JS number is the same
  if (isInt(from) && isInt(to)) return INT_ORDER.indexOf(from.root) <= INT_ORDER.indexOf(to.root);
  if (isInt(from) && to.root === "DOUBLE") return true;
  if (from.root === "FLOAT" && to.root === "DOUBLE") return true;
  if (isStr(from) && to.root === "VARCHAR" && to.length !== undefined && (from.length ?? Infinity) <= to.length) return true;
  return false;
}
const INT_ORDER = ["TINYINT", "SMALLINT", "INT", "BIGINT"];

function unsupported(from: DataType, to: DataType, where: string): never {
  throw new ValidationError(`cast from ${from.withNullability(true)} to ${to.withNullability(true)} is not supported in ${where}`);
}

function converter(from: DataType, to: DataType, where: string): Convert {
  if (from.root === "NULL") return () => null;
  if (from.root === "VARIANT" && to.root !== "VARIANT") return variantConverter(to, no) ?? unsupported(from, to, where);
  switch (to.root) {
    case "CHAR":
    case "VARCHAR":
      return toCharacter(from, to, where);
    case "BOOLEAN":
      return toBoolean(from, to, where);
    case "TINYINT":
    case "SMALLINT":
    case "INT":
    case "BIGINT":
      return toInteger(from, to, where);
    case "FLOAT":
    case "DOUBLE":
      return toApprox(from, to, where);
    case "DECIMAL":
      return toDecimal(from, to, where);
    case "DATE":
      return toDate(from, to, where);
    case "TIME":
      return toTime(from, to, where);
    case "TIMESTAMP":
    case "TIMESTAMP_LTZ":
      return toTimestamp(from, to, where);
    case "INTERVAL_DAY_TIME":
    case "INTERVAL_YEAR_MONTH":
      if (isInt(from) || from.root === to.root) return (v) => v;
      return unsupported(from, to, where);
    case "ARRAY": {
      if (from.root !== "ARRAY") return unsupported(from, to, where);
      const el = converter(from.elementType!, to.elementType!, where);
      return (v) => (v as unknown[]).map((x) => (x === null ? null : el(x)));
    }
    case "MULTISET": {
      // Flink casts a multiset element-wise; elements that become equal add their counts
      if (from.root !== "MULTISET") return unsupported(from, to, where);
      const el = converter(from.elementType!, to.elementType!, where);
      return (v) => {
        const out = new Map<unknown, number>();
        for (const [a, n] of v as Map<unknown, number>) {
          const k = a === null ? null : el(a);
          out.set(k, (out.get(k) ?? 0) + n);
        }
        return out;
      };
    }
    case "MAP": {
      if (from.root !== "MAP") return unsupported(from, to, where);
      const k = converter(from.keyType!, to.keyType!, where);
      const val = converter(from.valueType!, to.valueType!, where);
      return (v) => {
        const out = new Map();
        for (const [a, b] of v as Map<unknown, unknown>) out.set(a === null ? null : k(a), b === null ? null : val(b));
        return out;
      };
    }
    case "ROW": {
      if (from.root !== "ROW" || from.fields.length !== to.fields.length) return unsupported(from, to, where);
      const fs = to.fields.map((f, i) => ({ name: f.name, src: from.fields[i]!.name, c: converter(from.fields[i]!.type, f.type, where) }));
      return (v) => {
        const o = v as Record<string, unknown>;
        const out: Record<string, unknown> = {};
        for (const f of fs) {
          const x = getOwn(o, f.src);
          setOwn(out, f.name, x === null || x === undefined ? null : f.c(x));
        }
        return out;
      };
    }
    default:
      if (from.root === to.root) return (v) => v;
      return unsupported(from, to, where);
  }
}

/** To CHAR(n) / VARCHAR(n): the SQL rendering of the value, cut to n characters (CHAR pads with spaces), as Flink. */
function toCharacter(from: DataType, to: DataType, where: string): Convert {
  if (from.root === "DESCRIPTOR" || from.root === "RAW") return unsupported(from, to, where);
  const render: Convert = isStr(from) ? (v) => v : (v) => toSqlString(from, v);
  const n = to.length ?? Infinity;
  const pad = to.root === "CHAR";
  return (v) => {
    const s = render(v) as string;
    if (s.length <= n && !pad) return s;
    const cps = Array.from(s);
    if (cps.length > n) return cps.slice(0, n).join("");
    return pad && cps.length < n ? s + " ".repeat(n - cps.length) : s;
  };
}

const TRUE_STRINGS = new Set(["t", "true", "y", "yes", "1"]);
const FALSE_STRINGS = new Set(["f", "false", "n", "no", "0"]);

function toBoolean(from: DataType, to: DataType, where: string): Convert {
  if (from.root === "BOOLEAN") return (v) => v;
  if (isStr(from)) {
    return (v) => {
      const s = (v as string).trim().toLowerCase();
      if (TRUE_STRINGS.has(s)) return true;
      if (FALSE_STRINGS.has(s)) return false;
      return no("not a BOOLEAN (true/false, t/f, yes/no, y/n, 1/0)");
    };
  }
  if (from.root === "DECIMAL") return (v) => !(v as Decimal).isZero();
  if (isNum(from)) return (v) => v !== 0;
  return unsupported(from, to, where);
}

/** Flink's string-to-integer parsing: an optional sign, digits, and an optional fraction that is cut off. */
const INTEGER_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

function inRange(to: DataType, n: number): number {
  const [lo, hi] = INT_RANGE[to.root]!;
  if (!(n >= lo && n <= hi)) {
    return no(to.root === "BIGINT" ? "outside the exactly representable BIGINT range [-(2^53-1), 2^53-1]" : `out of range of ${to.root} [${lo}, ${hi}]`);
  }
  return n + 0;
}

function toInteger(from: DataType, to: DataType, where: string): Convert {
  if (isInt(from) || isInterval(from)) return (v) => inRange(to, v as number);
  if (isApprox(from)) return (v) => (Number.isNaN(v) ? no("NaN is not a number") : inRange(to, Math.trunc(v as number)));
  if (from.root === "DECIMAL") return (v) => inRange(to, (v as Decimal).trunc().toNumber());
  if (from.root === "BOOLEAN") return (v) => (v ? 1 : 0);
  if (from.root === "TIMESTAMP_LTZ") return (v) => inRange(to, Math.floor((v as Date).getTime() / 1000));
  if (isStr(from)) {
    return (v) => {
      const s = (v as string).trim();
      if (!INTEGER_TEXT.test(s)) return no("not an integer");
      const whole = s.split(".")[0]!;
      const digits = whole.replace(/^[+-]?0*/, "");
      if (digits.length > 16) return inRange(to, Infinity);
      return inRange(to, Number(whole === "" || whole === "+" || whole === "-" ? 0 : whole));
    };
  }
  return unsupported(from, to, where);
}

/** Java's Double.parseDouble syntax (decimal forms, NaN, Infinity, an optional f/d suffix). */
const DOUBLE_TEXT = /^[+-]?(?:NaN|Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)[fFdD]?$/;

function toApprox(from: DataType, to: DataType, where: string): Convert {
  const float = to.root === "FLOAT";
  const fit = (n: number): number => {
    if (!float) return n;
    if (Number.isFinite(n) && Math.abs(n) > FLOAT_MAX) return no("out of range of FLOAT");
    return n; // FLOAT values are JS numbers; they print with Float.toString's digits
  };
  if (isInt(from) || isApprox(from)) return (v) => fit(v as number);
  if (from.root === "DECIMAL") return (v) => fit((v as Decimal).toNumber());
  if (from.root === "BOOLEAN") return (v) => (v ? 1 : 0);
  if (from.root === "TIMESTAMP_LTZ") return (v) => (v as Date).getTime() / 1000;
  if (isStr(from)) {
    return (v) => {
      const s = (v as string).trim();
      if (!DOUBLE_TEXT.test(s)) return no(`not a ${to.root}`);
      return fit(Number(s.replace(/[fFdD]$/, "")));
    };
  }
  return unsupported(from, to, where);
}

/** BigDecimal's string syntax. */
const DECIMAL_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function toDecimal(from: DataType, to: DataType, where: string): Convert {
  const p = to.precision!;
  const s = to.scale!;
  const fit = (d: Decimal): Decimal => fitDecimal(d, p, s, () => no(`more than ${p - s} digits before the decimal point for DECIMAL(${p}, ${s})`));
  if (from.root === "DECIMAL") return (v) => fit(v as Decimal);
  if (isInt(from)) return (v) => fit(new Decimal(v as number));
  if (isApprox(from)) return (v) => (Number.isFinite(v) ? fit(new Decimal(v as number)) : no("not a finite number"));
  if (from.root === "BOOLEAN") return (v) => fit(new Decimal(v ? 1 : 0));
  if (isStr(from)) {
    return (v) => {
      const t = (v as string).trim();
      if (!DECIMAL_TEXT.test(t)) return no("not a number");
      return fit(new Decimal(t));
    };
  }
  return unsupported(from, to, where);
}

const pad2 = (n: number | string): string => String(n).padStart(2, "0");

/** A valid calendar date as `YYYY-MM-DD`, or undefined. */
export function dateString(y: number, m: number, d: number): string | undefined {
  if (m < 1 || m > 12 || d < 1) return undefined;
  const last = m === 2 ? ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;
  if (d > last) return undefined;
  return `${String(y).padStart(4, "0")}-${pad2(m)}-${pad2(d)}`;
}

function utcDateOf(d: Date): string {
  const y = d.getUTCFullYear();
  return `${String(y).padStart(4, "0")}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

function toDate(from: DataType, to: DataType, where: string): Convert {
  if (from.root === "DATE") return (v) => v;
  if (isTs(from)) return (v) => utcDateOf(v as Date);
  if (isStr(from)) {
    return (v) => {
      const d = parseDateText(v as string);
      return d.ok ? d.value : no(`not a date 'YYYY-MM-DD': ${d.reason}`);
    };
  }
  return unsupported(from, to, where);
}


/** A TIME value `HH:mm:ss` plus `precision` fraction digits (at most 3: milliseconds). */
export function timeString(h: number, m: number, s: number, fraction: string, precision: number): string | undefined {
  if (h > 23 || m > 59 || s > 59) return undefined;
  const base = `${pad2(h)}:${pad2(m)}:${pad2(s)}`;
  const p = Math.min(precision, 3);
  return p === 0 ? base : `${base}.${fraction.slice(0, p).padEnd(p, "0")}`;
}

function toTime(from: DataType, to: DataType, where: string): Convert {
  const p = to.precision ?? 0;
  if (from.root === "TIME") return (v) => { const s = v as string; return timeString(+s.slice(0, 2), +s.slice(3, 5), +s.slice(6, 8), s.slice(9), p); };
  if (isTs(from)) {
    return (v) => {
      const d = v as Date;
      return timeString(d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), String(d.getUTCMilliseconds()).padStart(3, "0"), p);
    };
  }
  if (isStr(from)) {
    return (v) => {
      const t = parseTimeText(v as string);
      return t.ok ? formatTimeOfDay(t.value, p) : no(`not a time 'HH:mm:ss[.SSS]': ${t.reason}`);
    };
  }
  return unsupported(from, to, where);
}


/** Keeps `precision` fraction digits of a millisecond timestamp (TIMESTAMP(0) drops the milliseconds). */
function truncate(t: number, precision: number): number {
  if (precision >= 3) return t;
  const unit = 10 ** (3 - precision);
  return t - (((t % unit) + unit) % unit);
}

function toTimestamp(from: DataType, to: DataType, where: string): Convert {
  const p = to.precision ?? 6;
  if (isTs(from)) {
    return (v) => {
      const t = (v as Date).getTime();
      const u = truncate(t, p);
      return u === t ? v : new Date(u);
    };
  }
  if (from.root === "DATE") return (v) => new Date(`${v as string}T00:00:00Z`);
  if (from.root === "TIME") return (v) => new Date(`1970-01-01T${(v as string).slice(0, 12)}Z`);
  if (to.root === "TIMESTAMP_LTZ" && (isInt(from) || isApprox(from) || from.root === "DECIMAL")) {
    // Flink: a number is seconds since the epoch, only for TIMESTAMP_LTZ
    return (v) => {
      const seconds = from.root === "DECIMAL" ? (v as Decimal).toNumber() : (v as number);
      const t = Math.floor(seconds * 1000);
      return Math.abs(t) <= 8.64e15 ? new Date(truncate(t, p)) : no("outside the range of a timestamp");
    };
  }
  if (isStr(from)) {
    return (v) => {
      const t = parseTimestampText(v as string);
      if (!t.ok) return no(`not a timestamp 'YYYY-MM-DD HH:mm:ss[.SSS]': ${t.reason}`);
      const fraction = t.value.fraction;
      // digits past the target precision are cut off (as Flink); sub-millisecond digits that would be kept cannot be represented
      if (p > 3 && /[1-9]/.test(fraction.slice(3, p))) {
        return no(`sub-millisecond digits cannot be represented (timestamps have millisecond precision); cast to TIMESTAMP(3)`);
      }
      const d = new Date(truncate(t.value.epochMillis, p));
      return d;
    };
  }
  return unsupported(from, to, where);
}
