import { getOwn, setOwn } from "../../types/own.js";
import { Decimal } from "decimal.js";
import { TableError } from "../../types/errors.js";
import type { DataType } from "../../types/data-type.js";
import { formatDouble, formatFloat, formatTimestampSql } from "../../types/format.js";
import { coerceValue } from "../../types/values.js";
import type { CsvFormat } from "./format.js";
import { JsonNumber } from "./json-exact.js";

/**
 * Values <-> text of the filesystem formats. Every decoder either returns a value of the column's type
 * or throws a FieldError saying why; the reader adds file, line and column. Encoders write what the
 * decoders read back exactly (round trip), e.g. a DOUBLE as Java prints it (`1.0E10`), a TIMESTAMP as
 * `2025-03-27 07:38:31.134`, a TIMESTAMP_LTZ with a trailing `Z`.
 */
export class FieldError extends Error {}

const INT_RE = /^[+-]?\d+$/;
const FLOAT_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^[+-]?Infinity$|^NaN$/;
const INTEGERS = ["TINYINT", "SMALLINT", "INT", "BIGINT"];

function shown(s: string): string {
  return `'${s.length > 40 ? s.slice(0, 40) + "..." : s}'`;
}

/** Wraps coerceValue's ValidationError into a FieldError. */
function coerce(type: DataType, v: unknown): unknown {
  try {
    return coerceValue(type, v, () => "value");
  } catch (e) {
    throw new FieldError(e instanceof TableError ? e.message.replace(/^value: /, "") : String(e));
  }
}

/** A CSV field (already unquoted; NULL handled by the caller) as a value of `type`. */
export function decodeText(type: DataType, s: string, f: CsvFormat): unknown {
  const root = type.root;
  if (INTEGERS.includes(root)) {
    const t = s.trim();
    if (!INT_RE.test(t)) throw new FieldError(`cannot parse ${shown(s)} as ${type}`);
    return coerce(type, Number(t));
  }
  switch (root) {
    case "CHAR":
    case "VARCHAR":
      return coerce(type, s);
    case "FLOAT":
    case "DOUBLE": {
      const t = s.trim();
      if (!FLOAT_RE.test(t)) throw new FieldError(`cannot parse ${shown(s)} as ${type}`);
      return Number(t);
    }
    case "BOOLEAN": {
      const t = s.trim().toLowerCase();
      if (t !== "true" && t !== "false") throw new FieldError(`cannot parse ${shown(s)} as BOOLEAN (expected true or false)`);
      return t === "true";
    }
    case "DECIMAL": {
      const t = s.trim();
      if (!FLOAT_RE.test(t) || t.includes("Infinity") || t === "NaN") throw new FieldError(`cannot parse ${shown(s)} as ${type}`);
      return coerce(type, t);
    }
    case "ARRAY": {
      const el = type.elementType!;
      if (s === "") return [];
      return s.split(f.arrayDelimiter).map((x) => (x === "" || x === f.nullLiteral ? null : decodeText(el, x, f)));
    }
    default:
      return coerce(type, s.trim());
  }
}

/** A value of a JSON document as a value of `type` (numbers in strings accepted, as Flink does). */
export function decodeJson(type: DataType, v: unknown, failOnMissing = false): unknown {
  if (v === null) return null;
  const root = type.root;
  if (v instanceof JsonNumber) return decodeJsonNumber(type, v.text);
  if (INTEGERS.includes(root) && typeof v === "string" && INT_RE.test(v.trim())) return exactly(type, v.trim(), BigInt(v.trim()));
  switch (root) {
    case "CHAR":
    case "VARCHAR":
      return coerce(type, typeof v === "string" ? v : typeof v === "object" ? stringifyExact(v) : String(v));
    case "FLOAT":
    case "DOUBLE":
      if (typeof v === "string" && FLOAT_RE.test(v.trim())) return Number(v.trim());
      return coerce(type, v);
    case "BOOLEAN":
      if (typeof v === "string" && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === "true";
      return coerce(type, v);
    case "ARRAY": {
      if (!Array.isArray(v)) throw new FieldError(`expected a JSON array for ${type}, got ${JSON.stringify(v)}`);
      const el = type.elementType!;
      return v.map((x) => decodeJson(el, x, failOnMissing));
    }
    case "MAP": {
      if (typeof v !== "object" || Array.isArray(v)) throw new FieldError(`expected a JSON object for ${type}, got ${JSON.stringify(v)}`);
      const m = new Map<unknown, unknown>();
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) m.set(k, decodeJson(type.valueType!, x, failOnMissing));
      return m;
    }
    case "MULTISET": {
      // Flink's JSON format writes a multiset as its map of element to count: {"a":2,"b":1}
      if (typeof v !== "object" || Array.isArray(v)) throw new FieldError(`expected a JSON object of element to count for ${type}, got ${JSON.stringify(v)}`);
      return coerce(type, new Map(Object.entries(v as Record<string, unknown>)));
    }
    case "ROW": {
      if (typeof v !== "object" || Array.isArray(v)) throw new FieldError(`expected a JSON object for ${type}, got ${JSON.stringify(v)}`);
      const out: Record<string, unknown> = {};
      for (const f of type.fields) {
        const x = getOwn(v, f.name);
        if (x === undefined && failOnMissing) throw new FieldError(`field '${f.name}' of ${type} is missing (json.fail-on-missing-field)`);
        setOwn(out, f.name, decodeJson(f.type, x ?? null, failOnMissing));
      }
      return out;
    }
    default:
      return coerce(type, v);
  }
}

/** JSON text of a parsed value, numbers kept as written (JsonNumber) — a STRING column given an object or array. */
function stringifyExact(v: unknown): string {
  if (v instanceof JsonNumber) return v.text;
  if (Array.isArray(v)) return `[${v.map(stringifyExact).join(",")}]`;
  if (v !== null && typeof v === "object") return `{${Object.keys(v).map((k) => `${JSON.stringify(k)}:${stringifyExact((v as Record<string, unknown>)[k])}`).join(",")}}`;
  return JSON.stringify(v);
}

/** Coerces `value` read from `text`; an error quotes the text as written. */
function exactly(type: DataType, text: string, value: unknown): unknown {
  try {
    return coerce(type, value);
  } catch (e) {
    if (e instanceof FieldError) throw new FieldError(`number ${text} does not fit ${type}: ${e.message}`);
    throw e;
  }
}

/** A JSON number kept as its text (json-exact.ts): DECIMAL and BIGINT from the digits as written. */
function decodeJsonNumber(type: DataType, text: string): unknown {
  const root = type.root;
  if (INTEGERS.includes(root) && /^-?[0-9]+$/.test(text)) return exactly(type, text, BigInt(text));
  switch (root) {
    case "DECIMAL": return exactly(type, text, text);
    case "CHAR":
    case "VARCHAR": return coerce(type, text);
    default: return exactly(type, text, Number(text));
  }
}

/** The text of a non-null value in CSV or JSON (scalars only). */
export function encodeScalar(type: DataType, v: unknown, isoTimestamps = false): string {
  switch (type.root) {
    case "DOUBLE": return formatDouble(v as number);
    case "FLOAT": return formatFloat(v as number);
    case "DECIMAL": return (v as Decimal).toFixed(type.scale ?? 0);
    case "TIMESTAMP":
    case "TIMESTAMP_LTZ": {
      const s = formatTimestampSql(v as Date, type.precision ?? 6);
      const t = isoTimestamps ? s.replace(" ", "T") : s;
      return type.root === "TIMESTAMP_LTZ" ? `${t}Z` : t;
    }
    default: return String(v);
  }
}

/** A CSV line (without the newline) of one record. */
export function encodeCsv(types: readonly DataType[], row: readonly unknown[], f: CsvFormat): string {
  let line = "";
  for (let i = 0; i < types.length; i++) {
    if (i > 0) line += f.delimiter;
    const v = row[i];
    const t = types[i]!;
    if (v === null || v === undefined) { line += f.nullLiteral ?? ""; continue; }
    let text: string;
    if (t.root === "ARRAY") {
      const el = t.elementType!;
      text = (v as unknown[]).map((x) => {
        if (x === null) return f.nullLiteral ?? "";
        const s = encodeScalar(el, x);
        if (s.includes(f.arrayDelimiter)) throw new FieldError(`array element ${shown(s)} contains the array element delimiter ${shown(f.arrayDelimiter)}`);
        return s;
      }).join(f.arrayDelimiter);
    } else {
      text = encodeScalar(t, v);
    }
    line += quoteField(text, f, t.root === "CHAR" || t.root === "VARCHAR" || t.root === "ARRAY");
  }
  return line;
}

/**
 * Quotes a field when it must be: it contains the delimiter, the quote, a line break or a comment mark
 * at the start; it is empty (an unquoted empty field is NULL); or it equals the null literal.
 */
function quoteField(text: string, f: CsvFormat, textual: boolean): string {
  const needs = text.includes(f.delimiter) || text.includes("\n") || text.includes("\r")
    || (f.quote !== false && text.includes(f.quote)) || (f.comments && text.startsWith("#"))
    || (textual && (text === "" || text === f.nullLiteral)) || (f.escape !== undefined && text.includes(f.escape));
  if (!needs) return text;
  if (f.quote === false) throw new FieldError(`value ${shown(text)} needs quoting, but csv.disable-quote-character is set`);
  const q = f.quote;
  const esc = f.escape;
  let body = esc !== undefined ? text.split(esc).join(esc + esc) : text;
  body = body.split(q).join(esc !== undefined ? esc + q : q + q);
  return q + body + q;
}

/** The JSON value of a field. */
export function encodeJson(type: DataType, v: unknown, iso: boolean): unknown {
  if (v === null || v === undefined) return null;
  switch (type.root) {
    case "DOUBLE":
    case "FLOAT":
      return Number.isFinite(v as number) ? v : encodeScalar(type, v);
    case "DECIMAL": {
      // a JSON number where a double holds it exactly; the exact text otherwise (read back either way)
      const text = (v as Decimal).toFixed(type.scale ?? 0);
      return new Decimal(Number(text)).eq(text) && Number.isSafeInteger(Math.trunc(Number(text))) ? Number(text) : text;
    }
    case "TIMESTAMP":
    case "TIMESTAMP_LTZ":
      return encodeScalar(type, v, iso);
    case "ARRAY":
      return (v as unknown[]).map((x) => encodeJson(type.elementType!, x, iso));
    case "MAP": {
      const o: Record<string, unknown> = {};
      for (const [k, x] of v as Map<unknown, unknown>) setOwn(o, String(k), encodeJson(type.valueType!, x, iso));
      return o;
    }
    case "MULTISET": {
      const o: Record<string, unknown> = {};
      for (const [k, n] of v as Map<unknown, number>) setOwn(o, String(k), n);
      return o;
    }
    case "ROW": {
      const o: Record<string, unknown> = {};
      for (const f of type.fields) setOwn(o, f.name, encodeJson(f.type, getOwn(v as object, f.name), iso));
      return o;
    }
    default:
      return v;
  }
}
