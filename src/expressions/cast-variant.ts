import { Decimal } from "decimal.js";
import type { DataType } from "../types/data-type.js";
import { Variant } from "../types/variant.js";

/**
 * CAST / TRY_CAST from VARIANT, following Flink's VariantToPrimitiveCastRule and VariantToStringCastRule:
 * a cast succeeds only when the target holds the stored value unchanged, otherwise CAST fails and TRY_CAST
 * gives NULL (the caller turns `fail` into either).
 * - integer targets take an integer kind in the target's range (a DECIMAL is not read as an integer);
 * - FLOAT / DOUBLE take any numeric kind, failing only on a magnitude out of range;
 * - DECIMAL(p, s) takes an integer or DECIMAL kind that fits p and s without rounding;
 * - BOOLEAN takes BOOLEAN; CHAR / VARCHAR take any kind: a STRING unquoted, other scalars and arrays/objects
 *   as their JSON text; a value longer than the target length fails (no truncation, no padding);
 * - a JSON `null` casts to NULL when the target is nullable, and fails when it is NOT NULL;
 * - DATE / TIMESTAMP / TIMESTAMP_LTZ need a stored kind of their own, which PARSE_JSON never produces:
 *   such casts always fail. TIME and every other target are refused when the query is planned.
 */
type Convert = (v: unknown) => unknown;

const INTEGER_RANGE: Readonly<Record<string, readonly [bigint, bigint]>> = {
  TINYINT: [-128n, 127n], SMALLINT: [-32768n, 32767n], INT: [-2147483648n, 2147483647n],
  // tablestream's BIGINT is a JS number: exact only within ±(2^53-1) (docs/types.md)
  BIGINT: [-9007199254740991n, 9007199254740991n],
};
const INTEGER_KINDS = new Set(["TINYINT", "SMALLINT", "INT", "BIGINT"]);
const FLOAT_MAX = 3.4028234663852886e38;

/** The converter, or undefined when Flink has no cast from VARIANT to `to`. */
export function variantConverter(to: DataType, fail: (why: string) => never): Convert | undefined {
  const body = variantBody(to, fail);
  if (body === undefined) return undefined;
  const nullable = to.isNullable;
  return (v) => {
    const x = v as Variant;
    if (x.isNull()) return nullable ? null : fail("the variant holds a JSON null and the target type is NOT NULL");
    return body(x);
  };
}

function variantBody(to: DataType, fail: (why: string) => never): ((v: Variant) => unknown) | undefined {
  const mismatch = (v: Variant): never => fail(`the variant holds a ${v.kind}, not a value of ${to.root}`);
  switch (to.root) {
    case "BOOLEAN":
      return (v) => (v.kind === "BOOLEAN" ? v.primitiveValue : mismatch(v));
    case "TINYINT":
    case "SMALLINT":
    case "INT":
    case "BIGINT": {
      const [lo, hi] = INTEGER_RANGE[to.root]!;
      return (v) => {
        if (!INTEGER_KINDS.has(v.kind)) return mismatch(v);
        const n = v.primitiveValue as bigint;
        if (n < lo || n > hi) {
          return fail(to.root === "BIGINT" ? `${n} is outside the exactly representable BIGINT range [-(2^53-1), 2^53-1]` : `${n} is out of range of ${to.root} [${lo}, ${hi}]`);
        }
        return Number(n);
      };
    }
    case "FLOAT":
    case "DOUBLE": {
      const float = to.root === "FLOAT";
      return (v) => {
        let d: number;
        if (INTEGER_KINDS.has(v.kind)) d = Number(v.primitiveValue as bigint);
        else if (v.kind === "DECIMAL") d = Number(v.primitiveValue as string);
        else if (v.kind === "DOUBLE") d = v.primitiveValue as number;
        else return mismatch(v);
        if (float && Number.isFinite(d) && Math.abs(d) > FLOAT_MAX) return fail(`${v.toJson()} is out of range of FLOAT`);
        return d;
      };
    }
    case "DECIMAL": {
      const p = to.precision!;
      const s = to.scale!;
      return (v) => {
        if (!INTEGER_KINDS.has(v.kind) && v.kind !== "DECIMAL") return mismatch(v);
        const d = new Decimal(String(v.primitiveValue));
        if (d.decimalPlaces() > s) return fail(`${v.toJson()} has more than ${s} digits after the decimal point for DECIMAL(${p}, ${s})`);
        const intDigits = d.abs().truncated().isZero() ? 0 : d.abs().truncated().toFixed(0).length;
        if (intDigits > p - s) return fail(`${v.toJson()} has more than ${p - s} digits before the decimal point for DECIMAL(${p}, ${s})`);
        return d;
      };
    }
    case "CHAR":
    case "VARCHAR": {
      const n = to.length ?? Infinity;
      return (v) => {
        const text = v.kind === "STRING" ? (v.primitiveValue as string) : v.toJson();
        if (text.length > n && Array.from(text).length > n) return fail(`the value has more than ${n} characters for ${to.root}(${n})`);
        return text;
      };
    }
    case "DATE":
    case "TIMESTAMP":
    case "TIMESTAMP_LTZ":
      return mismatch;
    default:
      return undefined;
  }
}
