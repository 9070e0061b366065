import { Decimal } from "decimal.js";
import { ExecutionError, TableError } from "../types/errors.js";
import { DataType, MAX_LENGTH } from "../types/data-type.js";
import { coerceValue } from "../types/values.js";
import { describeThrown, thrownIs } from "../types/describe-thrown.js";

/**
 * Checks values that user code hands back (a scalar function's result, a table function's collected
 * row, an aggregate's getValue) against the declared type. TypeScript checks the declaration, but a
 * cast or an `any` can still smuggle a wrong value in, and a wrong value must fail the job with the
 * function's name rather than flow on silently. Primitive types get a typeof test; structured types
 * go through coerceValue (which also turns plain objects into MAPs / ROWs as tablestream represents them).
 */
export type ValueCheck = (v: unknown) => unknown;

function shown(v: unknown): string {
  if (v === undefined) return "undefined";
  if (typeof v === "string") return `'${v.length > 40 ? v.slice(0, 40) + "..." : v}'`;
  if (v instanceof Date) return `Date(${Number.isNaN(v.getTime()) ? "Invalid" : v.toISOString()})`;
  if (Array.isArray(v)) return "an array";
  if (v !== null && typeof v === "object") return Decimal.isDecimal(v) ? String(v) : "an object";
  return String(v);
}

const INT_RANGES: Record<string, readonly [number, number]> = {
  TINYINT: [-128, 127], SMALLINT: [-32768, 32767], INT: [-2147483648, 2147483647],
  BIGINT: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/** `what()` describes the producer for the message, e.g. "function 'hash'". */
export function valueCheck(type: DataType, what: () => string): ValueCheck {
  const bad = (v: unknown, why?: string): never => {
    throw new ExecutionError(`${what()} returned ${shown(v)}, which is not a value of its declared type ${type}${why ? `: ${why}` : ""}`);
  };
  const nullable = type.isNullable;
  const onNull = (v: unknown): null => {
    if (v === undefined) bad(v, "return null for SQL NULL");
    if (!nullable) bad(v, "the type is NOT NULL");
    return null;
  };
  switch (type.root) {
    case "CHAR":
    case "VARCHAR": {
      const max = type.length ?? MAX_LENGTH;
      return (v) => {
        if (typeof v === "string") return v.length <= max ? v : bad(v, `longer than ${max} characters`);
        return v == null ? onNull(v) : bad(v);
      };
    }
    case "BOOLEAN":
      return (v) => (typeof v === "boolean" ? v : v == null ? onNull(v) : bad(v));
    case "TINYINT":
    case "SMALLINT":
    case "INT":
    case "BIGINT": {
      const [lo, hi] = INT_RANGES[type.root]!;
      return (v) => {
        if (typeof v === "number") return Number.isInteger(v) && v >= lo && v <= hi ? v : bad(v, `not an integer in [${lo}, ${hi}]`);
        return v == null ? onNull(v) : bad(v);
      };
    }
    case "FLOAT":
    case "DOUBLE":
      return (v) => (typeof v === "number" ? v : v == null ? onNull(v) : bad(v));
    case "TIMESTAMP":
    case "TIMESTAMP_LTZ":
      return (v) => {
        if (v instanceof Date) return Number.isNaN(v.getTime()) ? bad(v) : v;
        return v == null ? onNull(v) : bad(v);
      };
    default:
      return (v) => {
        if (v == null) return onNull(v);
        try {
          return coerceValue(type, v, () => "value");
        } catch (e) {
          return bad(v, describeThrown(e));
        }
      };
  }
}

/** Wraps a failure thrown by user code into an ExecutionError naming the function and its arguments. */
export function userCodeFailure(what: string, args: readonly unknown[], cause: unknown): ExecutionError {
  if (thrownIs(cause, ExecutionError)) return cause;
  const msg = describeThrown(cause);
  return new ExecutionError(`${what} failed for arguments (${args.map(shown).join(", ")}): ${msg}`, { cause });
}

export { DataType };
