import { Decimal } from "decimal.js";
import { ExecutionError } from "../table/errors.js";
import type { DataType } from "../table/types/data-type.js";
import { fitDecimal, parseTimestamp } from "../table/types/values.js";
import { formatTimestampSql, toSqlString } from "../table/types/format.js";

/**
 * Run-time helpers called from generated expression code (`h.name(...)`). They stay small and
 * monomorphic; the generated code inlines the common cases (arithmetic, comparison) itself.
 */

function fail(msg: string): never {
  throw new ExecutionError(msg);
}

const likeCache = new Map<string, RegExp>();

/** SQL LIKE pattern to RegExp (`%` any, `_` one, `\` escapes). */
export function likeToRegExp(pattern: string): RegExp {
  let re = likeCache.get(pattern);
  if (re) return re;
  let src = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "\\" && i + 1 < pattern.length) { src += escapeRe(pattern[++i]!); continue; }
    src += ch === "%" ? "[\\s\\S]*" : ch === "_" ? "[\\s\\S]" : escapeRe(ch);
  }
  re = new RegExp(`^${src}$`, "u");
  if (likeCache.size < 1000) likeCache.set(pattern, re);
  return re;
}
const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

const DAY = 86400000;

export const helpers = {
  /** Checks an INT result; Flink would wrap around silently, tablestream raises instead (docs/semantics.md). */
  i32(v: number, where: string): number {
    if (v > 2147483647 || v < -2147483648) fail(`integer overflow in ${where}: ${v} does not fit INT`);
    return v;
  },
  i16(v: number, where: string): number {
    if (v > 32767 || v < -32768) fail(`integer overflow in ${where}: ${v} does not fit SMALLINT`);
    return v;
  },
  i8(v: number, where: string): number {
    if (v > 127 || v < -128) fail(`integer overflow in ${where}: ${v} does not fit TINYINT`);
    return v;
  },
  i64(v: number, where: string): number {
    if (v > Number.MAX_SAFE_INTEGER || v < Number.MIN_SAFE_INTEGER) {
      fail(`integer overflow in ${where}: the result leaves the exactly representable BIGINT range [-(2^53-1), 2^53-1]`);
    }
    return v;
  },
  idiv(a: number, b: number, where: string): number {
    if (b === 0) fail(`Division by zero in ${where}`);
    return Math.trunc(a / b);
  },
  imod(a: number, b: number, where: string): number {
    if (b === 0) fail(`Division by zero in ${where}`);
    return a % b;
  },
  dec(v: unknown): Decimal {
    return Decimal.isDecimal(v) ? (v as Decimal) : new Decimal(v as number);
  },
  decFit(v: Decimal, p: number, s: number, where: string): Decimal {
    return fitDecimal(v, p, s, () => fail(`numeric overflow in ${where}: ${v.toString()} does not fit DECIMAL(${p}, ${s})`));
  },
  decDiv(a: Decimal, b: Decimal, p: number, s: number, where: string): Decimal {
    if (b.isZero()) fail(`Division by zero in ${where}`);
    return helpers.decFit(a.div(b), p, s, where);
  },
  decCmp(a: unknown, b: unknown): number {
    return helpers.dec(a).cmp(helpers.dec(b));
  },
  /** Deep equality for values that are not primitives (arrays, maps, rows, decimals, dates). */
  eq(a: unknown, b: unknown): boolean {
    if (a === b) return true;
    if (a === null || b === null || typeof a !== "object" || typeof b !== "object") {
      if (typeof a === "number" && Decimal.isDecimal(b)) return (b as Decimal).eq(a);
      if (typeof b === "number" && Decimal.isDecimal(a)) return (a as Decimal).eq(b);
      return false;
    }
    if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
    if (Decimal.isDecimal(a) || Decimal.isDecimal(b)) return helpers.dec(a).eq(helpers.dec(b));
    if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => helpers.eq(x, b[i]));
    if (a instanceof Map && b instanceof Map) {
      if (a.size !== b.size) return false;
      for (const [k, v] of a) if (!b.has(k) || !helpers.eq(v, b.get(k))) return false;
      return true;
    }
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => helpers.eq((a as never)[k], (b as never)[k]));
  },
  /** Total order used by comparisons of non-numeric values (strings, dates, booleans, decimals). */
  cmp(a: unknown, b: unknown): number {
    if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
    if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
    if (Decimal.isDecimal(a) || Decimal.isDecimal(b)) return helpers.decCmp(a, b);
    if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
    if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
    return fail(`cannot compare ${String(a)} with ${String(b)}`);
  },
  like(s: string, pattern: string): boolean {
    return likeToRegExp(pattern).test(s);
  },
  /** SQL SUBSTRING(s FROM start [FOR len]), 1-based; a negative start counts from the end (as Flink). */
  substring(s: string, start: number, len?: number | null): string {
    const cps = Array.from(s);
    let from = start > 0 ? start - 1 : start < 0 ? Math.max(0, cps.length + start) : 0;
    if (len !== undefined && len !== null && len < 0) fail(`SUBSTRING length must not be negative, got ${len}`);
    if (from > cps.length) return "";
    const to = len === undefined || len === null ? cps.length : Math.min(cps.length, from + len);
    if (start === 0 && len !== undefined && len !== null) from = 0;
    return cps.slice(from, to).join("");
  },
  charLength(s: string): number {
    let n = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff) i++;
      n++;
    }
    return n;
  },
  trim(s: string, ch: string, leading: boolean, trailing: boolean): string {
    let a = 0;
    let b = s.length;
    if (leading) while (a < b && ch.includes(s[a]!)) a++;
    if (trailing) while (b > a && ch.includes(s[b - 1]!)) b--;
    return s.slice(a, b);
  },
  initCap(s: string): string {
    return s.toLowerCase().replace(/(^|[^\p{L}\p{N}])(\p{L})/gu, (_m, p: string, c: string) => p + c.toUpperCase());
  },
  repeat(s: string, n: number): string { return n <= 0 ? "" : s.repeat(n); },
  lpad(s: string, n: number, p: string): string | null {
    if (n < 0) return null;
    if (s.length >= n) return s.slice(0, n);
    if (p.length === 0) return s;
    return (p.repeat(Math.ceil((n - s.length) / p.length)).slice(0, n - s.length)) + s;
  },
  rpad(s: string, n: number, p: string): string | null {
    if (n < 0) return null;
    if (s.length >= n) return s.slice(0, n);
    if (p.length === 0) return s;
    return s + p.repeat(Math.ceil((n - s.length) / p.length)).slice(0, n - s.length);
  },
  position(needle: string, haystack: string): number { return haystack.indexOf(needle) + 1; },
  /** ROUND half away from zero (Java's HALF_UP) for doubles. */
  roundDouble(v: number, places: number): number {
    if (!Number.isFinite(v)) return v;
    return new Decimal(v).toDecimalPlaces(places, Decimal.ROUND_HALF_UP).toNumber();
  },
  roundInt(v: number, places: number): number {
    if (places >= 0) return v;
    const f = 10 ** -places;
    return Math.sign(v) * Math.round(Math.abs(v) / f) * f;
  },
  extract(unit: string, v: unknown, root: string): number {
    if (root === "TIME") {
      const [h, m, s] = String(v).split(":");
      switch (unit) {
        case "HOUR": return Number(h);
        case "MINUTE": return Number(m);
        case "SECOND": return Math.floor(Number(s ?? 0));
        case "MILLISECOND": return Math.round(Number(s ?? 0) * 1000) % 1000;
        default: return fail(`EXTRACT(${unit}) is not defined for TIME`);
      }
    }
    const d = root === "DATE" ? new Date(`${v as string}T00:00:00Z`) : (v as Date);
    switch (unit) {
      case "YEAR": return d.getUTCFullYear();
      case "QUARTER": return Math.floor(d.getUTCMonth() / 3) + 1;
      case "MONTH": return d.getUTCMonth() + 1;
      case "WEEK": return isoWeek(d);
      case "DAY": return d.getUTCDate();
      case "HOUR": return d.getUTCHours();
      case "MINUTE": return d.getUTCMinutes();
      case "SECOND": return d.getUTCSeconds();
      case "MILLISECOND": return d.getUTCMilliseconds();
      default: return fail(`unknown time unit ${unit}`);
    }
  },
  floorTime(d: Date, unit: string, ceil: boolean): Date {
    const t = d.getTime();
    let f: number;
    switch (unit) {
      case "MILLISECOND": return d;
      case "SECOND": f = t - mod(t, 1000); break;
      case "MINUTE": f = t - mod(t, 60000); break;
      case "HOUR": f = t - mod(t, 3600000); break;
      case "DAY": f = t - mod(t, DAY); break;
      case "WEEK": { const day = t - mod(t, DAY); const dow = (new Date(day).getUTCDay() + 6) % 7; f = day - dow * DAY; break; }
      case "MONTH": f = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1); break;
      case "QUARTER": f = Date.UTC(d.getUTCFullYear(), Math.floor(d.getUTCMonth() / 3) * 3, 1); break;
      case "YEAR": f = Date.UTC(d.getUTCFullYear(), 0, 1); break;
      default: return fail(`unknown time unit ${unit}`);
    }
    if (!ceil || f === t) return new Date(f);
    const next = new Date(f);
    switch (unit) {
      case "MONTH": next.setUTCMonth(next.getUTCMonth() + 1); break;
      case "QUARTER": next.setUTCMonth(next.getUTCMonth() + 3); break;
      case "YEAR": next.setUTCFullYear(next.getUTCFullYear() + 1); break;
      case "WEEK": return new Date(f + 7 * DAY);
      default: return new Date(f + ({ SECOND: 1000, MINUTE: 60000, HOUR: 3600000, DAY } as Record<string, number>)[unit]!);
    }
    return next;
  },
  addMonths(d: Date, months: number): Date {
    const r = new Date(d.getTime());
    const day = r.getUTCDate();
    r.setUTCDate(1);
    r.setUTCMonth(r.getUTCMonth() + months);
    const last = new Date(Date.UTC(r.getUTCFullYear(), r.getUTCMonth() + 1, 0)).getUTCDate();
    r.setUTCDate(Math.min(day, last));
    return r;
  },
  /** CAST between types; `safe` (TRY_CAST) returns null instead of failing. */
  cast(v: unknown, from: DataType, to: DataType, safe: boolean, where: string): unknown {
    try {
      return castValue(v, from, to, where);
    } catch (e) {
      if (safe) return null;
      throw e;
    }
  },
};

function mod(a: number, b: number): number { return ((a % b) + b) % b; }

function isoWeek(d: Date): number {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const day = (t.getUTCDay() + 6) % 7;
  t.setUTCDate(t.getUTCDate() - day + 3);
  const firstThursday = new Date(Date.UTC(t.getUTCFullYear(), 0, 4));
  return 1 + Math.round(((t.getTime() - firstThursday.getTime()) / DAY - 3 + ((firstThursday.getUTCDay() + 6) % 7)) / 7);
}

const INT_LIMITS: Record<string, [number, number]> = {
  TINYINT: [-128, 127], SMALLINT: [-32768, 32767], INT: [-2147483648, 2147483647],
  BIGINT: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

function castValue(v: unknown, from: DataType, to: DataType, where: string): unknown {
  if (v === null) return null;
  const bad = (why?: string): never =>
    fail(`cannot cast ${typeof v === "string" ? `'${v}'` : String(v)} from ${from} to ${to} in ${where}${why ? `: ${why}` : ""}`);
  switch (to.root) {
    case "CHAR":
    case "VARCHAR": {
      const s = from.root === "CHAR" || from.root === "VARCHAR" ? (v as string) : toSqlString(from, v)!;
      return to.length !== undefined && s.length > to.length ? s.slice(0, to.length) : s;
    }
    case "BOOLEAN":
      if (typeof v === "boolean") return v;
      if (typeof v === "string") {
        const s = v.trim().toLowerCase();
        if (s === "true") return true;
        if (s === "false") return false;
        return bad();
      }
      if (typeof v === "number") return v !== 0;
      return bad();
    case "TINYINT":
    case "SMALLINT":
    case "INT":
    case "BIGINT": {
      let n: number;
      if (typeof v === "number") n = Math.trunc(v);
      else if (Decimal.isDecimal(v)) n = (v as Decimal).trunc().toNumber();
      else if (typeof v === "string") {
        const s = v.trim();
        if (!/^[+-]?\d+$/.test(s)) return bad("not an integer");
        n = Number(s);
      } else if (typeof v === "boolean") n = v ? 1 : 0;
      else return bad();
      const [lo, hi] = INT_LIMITS[to.root]!;
      if (n < lo || n > hi || !Number.isFinite(n)) return bad(`out of range of ${to.root}`);
      return n;
    }
    case "FLOAT":
    case "DOUBLE": {
      if (typeof v === "number") return to.root === "FLOAT" ? Math.fround(v) : v;
      if (Decimal.isDecimal(v)) return (v as Decimal).toNumber();
      if (typeof v === "string") {
        const n = Number(v.trim());
        if (v.trim() === "" || Number.isNaN(n)) return bad("not a number");
        return n;
      }
      if (typeof v === "boolean") return v ? 1 : 0;
      return bad();
    }
    case "DECIMAL": {
      let d: Decimal;
      try {
        d = typeof v === "boolean" ? new Decimal(v ? 1 : 0) : new Decimal(typeof v === "string" ? v.trim() : (v as number));
      } catch {
        return bad("not a number");
      }
      return fitDecimal(d, to.precision!, to.scale!, () => bad(`too many digits for ${to}`));
    }
    case "DATE":
      if (v instanceof Date) return v.toISOString().slice(0, 10);
      if (typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v.trim())) return v.trim();
      if (typeof v === "string") { const d = parseTimestamp(v.trim()); if (d) return d.toISOString().slice(0, 10); }
      return bad();
    case "TIME":
      if (v instanceof Date) return formatTimestampSql(v, 0).slice(11);
      if (typeof v === "string" && /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v.trim())) return v.trim();
      return bad();
    case "TIMESTAMP":
    case "TIMESTAMP_LTZ": {
      if (v instanceof Date) return v;
      if (typeof v === "string") {
        const s = v.trim();
        const d = /^\d{4}-\d{2}-\d{2}$/.test(s) ? new Date(`${s}T00:00:00Z`) : parseTimestamp(s);
        if (!d || Number.isNaN(d.getTime())) return bad("not a timestamp 'YYYY-MM-DD HH:mm:ss[.SSS]'");
        return d;
      }
      if (typeof v === "number" && from.root !== "DOUBLE") return new Date(v * 1000);
      return bad();
    }
    default:
      if (from.root === to.root) return v;
      return bad("this conversion is not supported");
  }
}
