import { Decimal } from "decimal.js";
import type { DataType } from "../../types/data-type.js";
import { formatTimestampSql } from "../../types/format.js";
import { decodeJson, encodeJson } from "../filesystem/codec.js";
import { parseJsonLine } from "../filesystem/json-exact.js";
import type { ValueCodec } from "../jdbc/driver.js";

/**
 * SQLite values <-> tablestream values. SQLite stores INTEGER, REAL, TEXT and BLOB whatever a column
 * declares; integers are read as bigint (better-sqlite3's safe integers), so a BIGINT beyond ±(2^53−1)
 * is an error instead of a rounded number. BOOLEAN is 0/1, DECIMAL is TEXT (exact; a NUMERIC column
 * would store it as a double), dates and times are TEXT as SQLite's date functions read them
 * (`2025-01-01`, `10:30:00.250`, `2025-01-01 10:30:00.250`, TIMESTAMP_LTZ with a trailing `Z`); an
 * INTEGER in a timestamp column is read as milliseconds since the epoch. ARRAY, MAP and ROW values are JSON
 * text, written and read as the `json` format writes and reads a field (MAP keys are strings; numbers are read
 * from their digits, so DECIMAL and BIGINT elements stay exact).
 */
function asNumber(raw: unknown): unknown {
  return typeof raw === "bigint" ? Number(raw) : raw;
}

function decoder(type: DataType): (raw: unknown) => unknown {
  switch (type.root) {
    case "BOOLEAN":
      return (raw) => {
        if (raw === 1n || raw === 1 || raw === "true" || raw === "1") return true;
        if (raw === 0n || raw === 0 || raw === "false" || raw === "0") return false;
        throw new Error(`${String(raw)} is not a boolean (0 or 1)`);
      };
    case "TINYINT": case "SMALLINT": case "INT": case "BIGINT":
      return (raw) => {
        if (typeof raw === "bigint") {
          const n = Number(raw);
          if (!Number.isSafeInteger(n)) throw new Error(`${raw} is outside the exactly representable BIGINT range [-(2^53-1), 2^53-1]`);
          return n;
        }
        if (typeof raw === "number" && Number.isInteger(raw)) return raw;
        throw new Error(`${typeof raw === "string" ? `'${raw}'` : String(raw)} is not an integer (${type})`);
      };
    case "FLOAT": case "DOUBLE":
      return (raw) => {
        if (typeof raw === "number" || typeof raw === "bigint") return Number(raw);
        throw new Error(`'${String(raw)}' is not a number`);
      };
    case "DECIMAL":
      return (raw) => {
        if (typeof raw === "string" || typeof raw === "number" || typeof raw === "bigint") return new Decimal(raw.toString());
        throw new Error(`${String(raw)} is not a number`);
      };
    case "TIMESTAMP": case "TIMESTAMP_LTZ":
      return asNumber;
    case "ARRAY": case "MAP": case "ROW":
      return (raw) => {
        if (typeof raw !== "string") throw new Error(`${String(raw)} is not JSON text`);
        let parsed: unknown;
        try {
          parsed = parseJsonLine(raw, true);
        } catch (e) {
          throw new Error(`'${raw}' is not JSON: ${(e as Error).message}`);
        }
        return decodeJson(type, parsed);
      };
    default:
      return (raw) => {
        if (typeof raw === "string") return raw;
        throw new Error(`${String(raw)} (${typeof raw === "bigint" ? "INTEGER" : typeof raw === "number" ? "REAL" : "BLOB"}) is not text`);
      };
  }
}

function encoder(type: DataType): (value: unknown) => unknown {
  switch (type.root) {
    case "BOOLEAN":
      return (v) => (v === null ? null : v ? 1 : 0);
    case "DECIMAL":
      return (v) => (v === null ? null : (v as Decimal).toFixed());
    case "TIMESTAMP": {
      const p = Math.min(type.precision ?? 6, 3);
      return (v) => (v === null ? null : formatTimestampSql(v as Date, p));
    }
    case "TIMESTAMP_LTZ": {
      const p = Math.min(type.precision ?? 6, 3);
      return (v) => (v === null ? null : `${formatTimestampSql(v as Date, p)}Z`);
    }
    case "ARRAY": case "MAP": case "ROW":
      return (v) => (v === null ? null : JSON.stringify(encodeJson(type, v, false)));
    default:
      return (v) => v;
  }
}

function columnType(type: DataType): string {
  switch (type.root) {
    case "BOOLEAN": case "TINYINT": case "SMALLINT": case "INT": case "BIGINT": return "INTEGER";
    case "FLOAT": case "DOUBLE": return "REAL";
    default: return "TEXT";
  }
}

export const SQLITE_CODEC: ValueCodec = { decoder, encoder, columnType };
