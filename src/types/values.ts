import { formatTimeOfDay, parseDateText, parseTimeText, parseTimestampText } from "./datetime-text.js";
import { getOwn, setOwn } from "./own.js";
import { Decimal } from "decimal.js";
import { ValidationError } from "./errors.js";
import { DataType, MAX_LENGTH } from "./data-type.js";
import { PositionalRow } from "./row.js";
import { Variant } from "./variant.js";

const INT_RANGES: Record<string, [number, number]> = {
  TINYINT: [-128, 127],
  SMALLINT: [-32768, 32767],
  INT: [-2147483648, 2147483647],
  BIGINT: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/** Describes where a value sits, for error messages; built only when an error is raised. */
export type Where = () => string;

function fail(where: Where, type: DataType, value: unknown, why?: string): never {
  const shown = typeof value === "string" ? `'${value}'` : typeof value === "bigint" ? `${value}n` : String(value);
  throw new ValidationError(`${where()}: ${why ?? `value ${shown} (${describe(value)}) does not fit type ${type}`}`);
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (v instanceof Date) return "Date";
  if (Array.isArray(v)) return "array";
  if (v instanceof Map) return "Map";
  if (Decimal.isDecimal(v)) return "Decimal";
  return typeof v;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object") return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === Object.prototype;
}

const FLOAT_MAX = 3.4028234663852886e38;


/** Code points of a string: CHAR/VARCHAR lengths count characters, as Flink. */
function charCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
/**
 * Parses timestamp text (see datetime-text.ts) as UTC; undefined when malformed or when non-zero digits below
 * the millisecond are set (they cannot be represented).
 */
export function parseTimestamp(s: string): Date | undefined {
  const t = parseTimestampText(s);
  if (!t.ok || /[1-9]/.test(t.value.fraction.slice(3))) return undefined;
  return new Date(t.value.epochMillis);
}

/**
 * Checks a JavaScript value against a data type and returns its tablestream representation
 * (e.g. a numeric string for DECIMAL becomes a Decimal, a plain object for MAP becomes a Map).
 * Raises a ValidationError naming `where` for anything that cannot be represented exactly.
 */
export function coerceValue(type: DataType, value: unknown, where: Where): unknown {
  if (value === null || value === undefined) {
    if (!type.isNullable) fail(where, type, value, `null value for NOT NULL type ${type}`);
    return null;
  }
  switch (type.root) {
    case "CHAR":
    case "VARCHAR": {
      if (typeof value !== "string") fail(where, type, value);
      const max = type.length ?? MAX_LENGTH;
      if (value.length > max && charCount(value) > max) {
        fail(where, type, value, `string '${value}' is longer than ${type} allows (${charCount(value)} > ${max} characters)`);
      }
      return value;
    }
    case "BOOLEAN":
      if (typeof value !== "boolean") fail(where, type, value);
      return value;
    case "TINYINT":
    case "SMALLINT":
    case "INT":
    case "BIGINT": {
      const [min, max] = INT_RANGES[type.root]!;
      const n = typeof value === "bigint" ? Number(value) : value;
      if (typeof n !== "number" || !Number.isInteger(n)) fail(where, type, value);
      if (n < min || n > max || (typeof value === "bigint" && BigInt(n) !== value)) {
        fail(where, type, value, type.root === "BIGINT"
          ? `value ${String(value)} is outside the exactly representable BIGINT range [-(2^53-1), 2^53-1]`
          : `value ${String(value)} is outside the range of ${type.root} [${min}, ${max}]`);
      }
      return n;
    }
    case "FLOAT":
    case "DOUBLE":
      if (typeof value !== "number") fail(where, type, value);
      if (type.root === "FLOAT" && Number.isFinite(value) && Math.abs(value) > FLOAT_MAX) {
        fail(where, type, value, `value ${value} is outside the range of FLOAT (±3.4028235E38)`);
      }
      return value;
    case "DECIMAL":
      return coerceDecimal(type, value, where);
    case "DATE": {
      if (value instanceof Date) {
        if (Number.isNaN(value.getTime()) || value.getTime() % 86400000 !== 0) {
          fail(where, type, value, `a Date for a DATE column must be midnight UTC, got ${Number.isNaN(value.getTime()) ? "an invalid Date" : value.toISOString()}`);
        }
        return value.toISOString().slice(0, 10);
      }
      if (typeof value !== "string") fail(where, type, value, `value ${String(value)} (${describe(value)}) is not a date 'YYYY-MM-DD'`);
      const d = parseDateText(value);
      if (!d.ok) fail(where, type, value, `'${value}' is not a date 'YYYY-MM-DD': ${d.reason}`);
      return d.value;
    }
    case "TIME":
      return coerceTime(type, value, where);
    case "TIMESTAMP":
    case "TIMESTAMP_LTZ": {
      let d: Date | undefined;
      if (value instanceof Date) d = value;
      else if (typeof value === "number" && Number.isInteger(value)) d = new Date(value);
      else if (typeof value === "string") {
        const t = parseTimestampText(value);
        if (!t.ok) fail(where, type, value, `'${value}' is not a timestamp of the form 'YYYY-MM-DD HH:mm:ss[.SSS]': ${t.reason}`);
        if (/[1-9]/.test(t.value.fraction.slice(3))) {
          fail(where, type, value, `'${value}' is not a timestamp of the form 'YYYY-MM-DD HH:mm:ss[.SSS]' (sub-millisecond digits cannot be represented)`);
        }
        d = new Date(t.value.epochMillis);
      }
      if (!d || Number.isNaN(d.getTime())) fail(where, type, value);
      const p = type.precision ?? 6;
      if (p < 3) {
        const unit = 10 ** (3 - p);
        if (d.getTime() % unit !== 0) {
          fail(where, type, value, `timestamp ${d.toISOString()} has more fractional digits than ${type} allows`);
        }
      }
      return d;
    }
    case "INTERVAL_DAY_TIME":
    case "INTERVAL_YEAR_MONTH":
      if (typeof value !== "number" || !Number.isInteger(value)) fail(where, type, value);
      return value;
    case "ARRAY": {
      if (!Array.isArray(value)) fail(where, type, value);
      const el = type.elementType!;
      return value.map((v, i) => coerceValue(el, v, () => `${where()}[${i}]`));
    }
    case "MULTISET": {
      // a Map of element to count; an array lists the elements (repeats counted)
      const out = new Map<unknown, number>();
      if (Array.isArray(value)) {
        value.forEach((x, i) => { const el = coerceValue(type.elementType!, x, () => `${where()}[${i}]`); out.set(el, (out.get(el) ?? 0) + 1); });
        return out;
      }
      if (!(value instanceof Map)) return fail(where, type, value, `value ${String(value)} (${describe(value)}) is not a multiset (a Map of element to count, or an array of elements)`);
      for (const [k, n] of value) {
        const el = coerceValue(type.elementType!, k, () => `${where()} element`);
        if (typeof n !== "number" || !Number.isInteger(n) || n < 1) return fail(where, type, value, `the count of element ${String(k)} is ${String(n)}; a multiset counts each element by a positive integer`);
        out.set(el, (out.get(el) ?? 0) + n);
      }
      return out;
    }
    case "MAP": {
      const entries = value instanceof Map ? [...value.entries()] : isPlainObject(value) ? Object.entries(value) : fail(where, type, value);
      const out = new Map();
      for (const [k, v] of entries) {
        const key = coerceValue(type.keyType!, k, () => `${where()} key`);
        out.set(key, coerceValue(type.valueType!, v, () => `${where()}[${String(k)}]`));
      }
      return out;
    }
    case "ROW":
      return coerceRow(type, value, where);
    case "NULL":
      return fail(where, type, value);
    case "DESCRIPTOR":
      return value;
    case "VARIANT":
      // a Variant is made by PARSE_JSON / parseJsonVariant: a plain JS object would leave its kinds open
      if (!(value instanceof Variant)) fail(where, type, value, `value ${String(value)} (${describe(value)}) is not a Variant (make one with parseJsonVariant or PARSE_JSON)`);
      return value;
    default:
      return value;
  }
}

/** TIME(p) values are `HH:mm:ss` plus p fraction digits (p <= 3: milliseconds); `HH:mm` is accepted. */
function coerceTime(type: DataType, value: unknown, where: Where): string {
  if (typeof value !== "string") return fail(where, type, value, `value ${String(value)} (${describe(value)}) is not a time 'HH:mm:ss[.SSS]'`);
  const t = parseTimeText(value);
  if (!t.ok) return fail(where, type, value, `'${value}' is not a time 'HH:mm:ss[.SSS]': ${t.reason}`);
  const fraction = t.value.fraction.replace(/0+$/, "");
  const p = Math.min(type.precision ?? 0, 3);
  if (fraction.length > p) {
    fail(where, type, value, `time '${value}' has more fractional digits than ${type} allows${p === 3 ? " (TIME values have millisecond precision)" : ""}`);
  }
  return formatTimeOfDay(t.value, p);
}

function coerceRow(type: DataType, value: unknown, where: Where): Record<string, unknown> {
  const fields = type.fields;
  // a structured type keeps its class (Flink's POJO conversion class): toArray() rows hold instances
  const cls = type.structuredClass;
  const out = (cls !== undefined ? new cls() : {}) as Record<string, unknown>;
  const put = (f: { name: string }, v: unknown) => setOwn(out, f.name, v);
  if (value instanceof PositionalRow || Array.isArray(value)) {
    const vals = value instanceof PositionalRow ? value.values : value;
    if (vals.length !== fields.length) {
      fail(where, type, value, `row has ${vals.length} fields but ${type} has ${fields.length}`);
    }
    fields.forEach((f, i) => { put(f, coerceValue(f.type, vals[i], () => `${where()}.${f.name}`)); });
    return out;
  }
  if (!isPlainObject(value)) fail(where, type, value);
  for (const k of Object.keys(value)) {
    if (!fields.some((f) => f.name === k)) {
      fail(where, type, value, `field '${k}' is not in ${type}`);
    }
  }
  for (const f of fields) put(f, coerceValue(f.type, getOwn(value, f.name), () => `${where()}.${f.name}`));
  return out;
}

function coerceDecimal(type: DataType, value: unknown, where: Where): Decimal {
  let d: Decimal;
  try {
    if (Decimal.isDecimal(value)) d = value as Decimal;
    else if (typeof value === "number" || typeof value === "string" || typeof value === "bigint") d = new Decimal(value.toString());
    else return fail(where, type, value);
  } catch {
    return fail(where, type, value);
  }
  if (!d.isFinite()) fail(where, type, value);
  // no silent rounding: a value with more fractional digits than the scale is an error, not a rounded value
  if (d.decimalPlaces() > type.scale!) {
    fail(where, type, value, `value ${d.toFixed()} has ${d.decimalPlaces()} digits after the decimal point but ${type} allows ${type.scale}`);
  }
  return fitDecimal(d, type.precision!, type.scale!, () => fail(where, type, value,
    `value ${d.toFixed()} has more than ${type.precision! - type.scale!} digits before the decimal point allowed by ${type}`));
}

/** Rounds half-up to `scale` (as Flink's CAST) and checks the integer digits; calls `overflow` when they do not fit. */
export function fitDecimal(d: Decimal, precision: number, scale: number, overflow: () => never): Decimal {
  const r = d.toDecimalPlaces(scale, Decimal.ROUND_HALF_UP);
  const intDigits = r.abs().truncated().isZero() ? 0 : r.abs().truncated().toFixed(0).length;
  if (intDigits > precision - scale) overflow();
  return r;
}

/** Infers a NOT NULL data type from a JavaScript value (`fromValues` without an explicit type). */
export function inferType(value: unknown, where: Where): DataType {
  if (value === null || value === undefined) return new DataType("NULL", true);
  switch (typeof value) {
    case "string": return new DataType("CHAR", false, { length: Math.max(1, value.length) });
    case "boolean": return new DataType("BOOLEAN", false);
    case "bigint":
      if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
        throw new ValidationError(`${where()}: value ${value}n is outside the exactly representable BIGINT range`);
      }
      return new DataType("BIGINT", false);
    case "number":
      if (Number.isInteger(value)) {
        if (value >= -2147483648 && value <= 2147483647) return new DataType("INT", false);
        if (Number.isSafeInteger(value)) return new DataType("BIGINT", false);
      }
      return new DataType("DOUBLE", false);
    default:
  }
  if (value instanceof Date) return new DataType("TIMESTAMP_LTZ", false, { precision: 3 });
  if (Decimal.isDecimal(value)) {
    // as Flink types a BigDecimal: precision = its digits, DECIMAL(s, s) below 1 (0.05 is DECIMAL(2, 2))
    const d = value as Decimal;
    const scale = Math.max(0, d.decimalPlaces());
    const intDigits = d.abs().truncated().isZero() ? 0 : d.abs().truncated().toFixed(0).length;
    const precision = Math.max(1, intDigits + scale);
    if (precision > 38 || !d.isFinite()) {
      throw new ValidationError(`${where()}: value ${d.toString()} needs ${precision} digits; DECIMAL holds at most 38`);
    }
    return new DataType("DECIMAL", false, { precision, scale });
  }
  if (Array.isArray(value)) {
    let el: DataType | undefined;
    value.forEach((v, i) => {
      const t = inferType(v, () => `${where()}[${i}]`);
      el = el === undefined ? t : commonType(el, t, where);
    });
    return new DataType("ARRAY", false, { element: el ?? new DataType("NULL", true) });
  }
  if (value instanceof Map) {
    let k: DataType = new DataType("NULL", true);
    let v: DataType = new DataType("NULL", true);
    for (const [mk, mv] of value) {
      k = commonType(k, inferType(mk, where), where);
      v = commonType(v, inferType(mv, where), where);
    }
    return new DataType("MAP", false, { keyType: k, valueType: v });
  }
  if (value instanceof PositionalRow) {
    return new DataType("ROW", false, {
      fields: value.values.map((v: unknown, i: number) => ({ name: `f${i}`, type: inferType(v, () => `${where()}.f${i}`) })),
    });
  }
  if (isPlainObject(value)) {
    return new DataType("ROW", false, {
      fields: Object.entries(value).map(([k, v]) => ({ name: k, type: inferType(v, () => `${where()}.${k}`) })),
    });
  }
  throw new ValidationError(`${where()}: cannot infer a data type for a value of type ${describe(value)}`);
}

const NUMERIC_ORDER = ["TINYINT", "SMALLINT", "INT", "BIGINT", "DECIMAL", "FLOAT", "DOUBLE"];
const INTEGER_DIGITS: Record<string, number> = { TINYINT: 3, SMALLINT: 5, INT: 10, BIGINT: 19 };

/** Least restrictive common type of two types (Flink's type merging for VALUES), or a ValidationError. */
export function commonType(a: DataType, b: DataType, where: Where): DataType {
  if (a.root === "NULL") return b.withNullability(true);
  if (b.root === "NULL") return a.withNullability(true);
  const nullable = a.isNullable || b.isNullable;
  if ((a.root === "CHAR" || a.root === "VARCHAR") && (b.root === "CHAR" || b.root === "VARCHAR")) {
    const len = Math.max(a.length!, b.length!);
    const root = a.root === "CHAR" && b.root === "CHAR" && a.length === b.length ? "CHAR" : "VARCHAR";
    return new DataType(root, nullable, { length: len });
  }
  const ia = NUMERIC_ORDER.indexOf(a.root);
  const ib = NUMERIC_ORDER.indexOf(b.root);
  if (ia >= 0 && ib >= 0) {
    if (a.root === "DECIMAL" || b.root === "DECIMAL") {
      // Flink's LogicalTypeMerging: DECIMAL with an approximate type is DOUBLE; with exact types the
      // integer digits and the scale are kept (the scale gives way above 38 digits)
      if (ia > NUMERIC_ORDER.indexOf("DECIMAL") || ib > NUMERIC_ORDER.indexOf("DECIMAL")) return new DataType("DOUBLE", nullable);
      const [p1, s1] = a.root === "DECIMAL" ? [a.precision!, a.scale!] : [INTEGER_DIGITS[a.root]!, 0];
      const [p2, s2] = b.root === "DECIMAL" ? [b.precision!, b.scale!] : [INTEGER_DIGITS[b.root]!, 0];
      const intDigits = Math.min(Math.max(p1 - s1, p2 - s2), 38);
      const scale = Math.min(Math.max(s1, s2), 38 - intDigits);
      return new DataType("DECIMAL", nullable, { precision: Math.max(1, intDigits + scale), scale });
    }
    return new DataType(NUMERIC_ORDER[Math.max(ia, ib)] as never, nullable);
  }
  if ((a.root === "TIMESTAMP" || a.root === "TIMESTAMP_LTZ") && (b.root === "TIMESTAMP" || b.root === "TIMESTAMP_LTZ") && a.root !== b.root) {
    return new DataType("TIMESTAMP_LTZ", nullable, { precision: Math.max(a.precision!, b.precision!) });
  }
  if (a.root === b.root) {
    switch (a.root) {
      case "TIMESTAMP":
      case "TIMESTAMP_LTZ":
      case "TIME":
        return new DataType(a.root, nullable, { precision: Math.max(a.precision!, b.precision!) });
      case "ARRAY":
        return new DataType("ARRAY", nullable, { element: commonType(a.elementType!, b.elementType!, where) });
      case "MULTISET":
        return new DataType("MULTISET", nullable, { element: commonType(a.elementType!, b.elementType!, where) });
      case "MAP":
        return new DataType("MAP", nullable, {
          keyType: commonType(a.keyType!, b.keyType!, where), valueType: commonType(a.valueType!, b.valueType!, where),
        });
      case "ROW": {
        if (a.fields.length !== b.fields.length) break;
        return new DataType("ROW", nullable, {
          fields: a.fields.map((f, i) => ({ name: f.name, type: commonType(f.type, b.fields[i]!.type, where) })),
        });
      }
      default:
        return a.withNullability(nullable);
    }
  }
  throw new ValidationError(`${where()}: types ${a} and ${b} have no common type`);
}

/** Whether values of `from` can be assigned to a column of type `to` without a cast (implicit widening). */
export function isImplicitlyAssignable(from: DataType, to: DataType): boolean {
  if (from.root === "NULL") return to.isNullable;
  if (from.isNullable && !to.isNullable) return false;
  if ((from.root === "CHAR" || from.root === "VARCHAR") && (to.root === "CHAR" || to.root === "VARCHAR")) return true;
  const ia = NUMERIC_ORDER.indexOf(from.root);
  const ib = NUMERIC_ORDER.indexOf(to.root);
  if (ia >= 0 && ib >= 0) return ia <= ib;
  if (from.root === to.root) return true;
  return false;
}
