import { Decimal } from "decimal.js";
import type { DataType } from "../../types/data-type.js";
import { parseTimestampText } from "../../types/datetime-text.js";
import { formatTimestampSql } from "../../types/format.js";
import type { ValueCodec } from "../jdbc/driver.js";
import { formatArrayLiteral, parseArrayLiteral } from "./array-literal.js";

/**
 * PostgreSQL values <-> tablestream values. Every value is read as PostgreSQL's text output (the client
 * is set to parse nothing itself), so BIGINT and NUMERIC keep every digit and dates are never shifted by
 * the client's time zone; parameters are sent as text and typed by the statement (the column they go
 * into, or the column they are compared with). Values that do not fit are errors, never rounded:
 * a bigint beyond ±(2^53−1), a timestamp with microseconds (tablestream keeps milliseconds), a DATE
 * before year 1 (`… BC`), `infinity`. Range and length checks of the column type follow in the scan.
 */
const INTEGER = /^-?\d+$/;

function parseInteger(text: string, type: DataType): number {
  if (!INTEGER.test(text)) throw new Error(`'${text}' is not an integer (${type})`);
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new Error(`${text} is outside the exactly representable BIGINT range [-(2^53-1), 2^53-1]`);
  return n;
}

function noSubMillis(text: string, fraction: string): void {
  if (/[1-9]/.test(fraction.slice(3))) throw new Error(`'${text}' has sub-millisecond digits, which tablestream cannot represent (declare the column timestamp(3) / time(3) in PostgreSQL)`);
}

/** timestamptz text: `2025-01-01 10:00:00.123+01`, `…-03:30`, `…+05:30:15` (the session's time zone). */
const ZONED = /^(.*?)([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?$/;

function parseTimestampLtz(text: string): Date {
  const m = ZONED.exec(text);
  if (!m || !/\d{2}:\d{2}/.test(m[1]!)) throw new Error(`'${text}' is not a timestamp with time zone`);
  const t = parseTimestampText(m[1]!, false);
  if (!t.ok) throw new Error(`'${text}' is not a timestamp with time zone: ${t.reason}`);
  noSubMillis(text, t.value.fraction);
  const offset = (Number(m[3]) * 3600 + Number(m[4] ?? 0) * 60 + Number(m[5] ?? 0)) * 1000 * (m[2] === "-" ? -1 : 1);
  return new Date(t.value.epochMillis - offset);
}

function parseTimestamp(text: string): Date {
  const t = parseTimestampText(text, false);
  if (!t.ok) throw new Error(`'${text}' is not a timestamp: ${t.reason}`);
  noSubMillis(text, t.value.fraction);
  return new Date(t.value.epochMillis);
}

function decoder(type: DataType): (raw: unknown) => unknown {
  switch (type.root) {
    case "BOOLEAN":
      return (raw) => {
        if (raw === "t" || raw === "true") return true;
        if (raw === "f" || raw === "false") return false;
        throw new Error(`'${String(raw)}' is not a boolean`);
      };
    case "TINYINT": case "SMALLINT": case "INT": case "BIGINT":
      return (raw) => parseInteger(raw as string, type);
    case "FLOAT": case "DOUBLE":
      return (raw) => {
        const n = Number(raw);
        if (Number.isNaN(n) && raw !== "NaN") throw new Error(`'${String(raw)}' is not a number`);
        return n;
      };
    case "DECIMAL":
      return (raw) => {
        if (raw === "NaN" || raw === "Infinity" || raw === "-Infinity") throw new Error(`${String(raw)} has no DECIMAL value`);
        return new Decimal(raw as string);
      };
    case "DATE":
      return (raw) => {
        const s = raw as string;
        if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) throw new Error(`'${s}' is not a date between 0001-01-01 and 9999-12-31`);
        return s;
      };
    case "TIME":
      return (raw) => {
        const s = raw as string;
        const dot = s.indexOf(".");
        if (dot >= 0) noSubMillis(s, s.slice(dot + 1));
        return s;
      };
    case "TIMESTAMP":
      return (raw) => parseTimestamp(raw as string);
    case "TIMESTAMP_LTZ":
      return (raw) => parseTimestampLtz(raw as string);
    case "ARRAY": {
      // `{1,NULL,3}`: each element read as a value of the element type (NULL elements stay null)
      const el = decoder(type.elementType!);
      return (raw) => parseArrayLiteral(raw as string).map((e, i) => {
        if (e === null) return null;
        try {
          return el(e);
        } catch (err) {
          throw new Error(`element ${i + 1}: ${(err as Error).message}`);
        }
      });
    }
    default:
      return (raw) => raw;
  }
}

function encoder(type: DataType): (value: unknown) => unknown {
  switch (type.root) {
    case "DECIMAL":
      return (v) => (v === null ? null : (v as Decimal).toFixed());
    case "FLOAT": case "DOUBLE":
      return (v) => (v === null ? null : String(v));
    case "TIMESTAMP":
      return (v) => (v === null ? null : formatTimestampSql(v as Date, 3));
    case "TIMESTAMP_LTZ":
      return (v) => (v === null ? null : (v as Date).toISOString());
    case "ARRAY": {
      const el = encoder(type.elementType!);
      return (v) => (v === null ? null : formatArrayLiteral((v as unknown[]).map((x) => {
        const e = x === null ? null : el(x);
        return e === null ? null : String(e);
      })));
    }
    default:
      return (v) => v;
  }
}

function columnType(type: DataType): string {
  switch (type.root) {
    case "BOOLEAN": return "boolean";
    case "TINYINT": case "SMALLINT": return "smallint";
    case "INT": return "integer";
    case "BIGINT": return "bigint";
    case "FLOAT": return "real";
    case "DOUBLE": return "double precision";
    case "DECIMAL": return `numeric(${type.precision}, ${type.scale})`;
    case "CHAR": return `char(${type.length})`;
    case "VARCHAR": return type.length === 2147483647 ? "text" : `varchar(${type.length})`;
    case "DATE": return "date";
    case "TIME": return `time(${Math.min(type.precision ?? 0, 3)})`;
    case "TIMESTAMP": return `timestamp(${Math.min(type.precision ?? 6, 3)})`;
    case "TIMESTAMP_LTZ": return `timestamptz(${Math.min(type.precision ?? 6, 3)})`;
    case "ARRAY": return `${columnType(type.elementType!)}[]`;
    default: return "text";
  }
}

export const POSTGRES_CODEC: ValueCodec = { decoder, encoder, columnType };

