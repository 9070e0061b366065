import { hasOwn } from "../types/own.js";
import { Decimal } from "decimal.js";
import { ExecutionError } from "../types/errors.js";
import { fitDecimal } from "../types/values.js";

/**
 * Run-time helpers for numbers, called from generated code as `h.name(...)`. `where` is the
 * expression as the user wrote it (e.g. "`dividedBy(score, 0)`"); the Calc operator adds the row.
 */

function fail(msg: string): never {
  throw new ExecutionError(msg);
}

/**
 * Decimal arithmetic at 100 significant digits, truncating: every operand has at most 38 digits, so
 * sums and products are exact and a quotient truncated at 100 digits rounds (HALF_UP, to the result
 * scale) exactly as the true quotient would. Results are turned back into the exported `Decimal`,
 * so users never see this configuration.
 */
const Wide = Decimal.clone({ precision: 100, rounding: Decimal.ROUND_DOWN, modulo: Decimal.ROUND_DOWN });

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

export const numericHelpers = {
  /** Checks an INT result; Flink wraps around silently, tablestream fails the job (docs/types.md). `+0` turns -0 into 0. */
  i32(v: number, where: string): number {
    if (v > 2147483647 || v < -2147483648) fail(`integer overflow in ${where}: ${v} does not fit INT`);
    return v + 0;
  },
  i16(v: number, where: string): number {
    if (v > 32767 || v < -32768) fail(`integer overflow in ${where}: ${v} does not fit SMALLINT`);
    return v + 0;
  },
  i8(v: number, where: string): number {
    if (v > 127 || v < -128) fail(`integer overflow in ${where}: ${v} does not fit TINYINT`);
    return v + 0;
  },
  i64(v: number, where: string): number {
    if (v > MAX_SAFE || v < -MAX_SAFE || v !== v) {
      fail(`integer overflow in ${where}: the result leaves the exactly representable BIGINT range [-(2^53-1), 2^53-1]`);
    }
    return v + 0;
  },
  /** Integer division truncates toward zero, as Java. */
  idiv(a: number, b: number, where: string): number {
    if (b === 0) fail(`Division by zero in ${where}`);
    return Math.trunc(a / b) + 0;
  },
  /** Integer remainder with the sign of the dividend, as Java's `%`. */
  imod(a: number, b: number, where: string): number {
    if (b === 0) fail(`Division by zero in ${where}`);
    return (a % b) + 0;
  },
  nonZero(b: number | Decimal, where: string): void {
    if (b === 0 || (typeof b === "object" && b.isZero())) fail(`Division by zero in ${where}`);
  },
  /** A number or Decimal as a Decimal. */
  dec(v: unknown): Decimal {
    return Decimal.isDecimal(v) ? (v as Decimal) : new Decimal(v as number);
  },
  /** Rounds half-up to the scale and checks the integer digits of DECIMAL(p, s). */
  decFit(v: Decimal, p: number, s: number, where: string): Decimal {
    const d = v.constructor === Decimal ? v : new Decimal(v);
    return fitDecimal(d, p, s, () => fail(`numeric overflow in ${where}: ${d.toFixed()} does not fit DECIMAL(${p}, ${s})`));
  },
  decAdd(a: Decimal | number, b: Decimal | number, p: number, s: number, where: string): Decimal {
    return numericHelpers.decFit(new Wide(a).plus(b), p, s, where);
  },
  decSub(a: Decimal | number, b: Decimal | number, p: number, s: number, where: string): Decimal {
    return numericHelpers.decFit(new Wide(a).minus(b), p, s, where);
  },
  decMul(a: Decimal | number, b: Decimal | number, p: number, s: number, where: string): Decimal {
    return numericHelpers.decFit(new Wide(a).times(b), p, s, where);
  },
  decDiv(a: Decimal | number, b: Decimal | number, p: number, s: number, where: string): Decimal {
    numericHelpers.nonZero(b, where);
    return numericHelpers.decFit(new Wide(a).div(b), p, s, where);
  },
  decMod(a: Decimal | number, b: Decimal | number, p: number, s: number, where: string): Decimal {
    numericHelpers.nonZero(b, where);
    return numericHelpers.decFit(new Wide(a).mod(b), p, s, where);
  },
  /**
   * ROUND for DOUBLE as Flink: `BigDecimal.valueOf(x)` (the shortest decimal digits of x, which is what
   * decimal.js reads from a number too) rounded HALF_UP, so `round(2.675, 2)` is 2.68 and `round(-2.5)` -3.
   */
  roundDouble(v: number, places: number): number {
    if (!Number.isFinite(v)) return v;
    return roundWide(new Wide(v), places).toNumber() + 0; // BigDecimal has no -0: round(-0.4) is 0.0
  },
  /** ROUND for integers: identity for places >= 0; otherwise half away from zero at 10^-places. */
  roundInteger(v: number, places: number): number {
    if (places >= 0) return v;
    if (places < -16) return 0;
    const f = 10 ** -places;
    const q = Math.trunc(v / f);
    const rem = v - q * f;
    return (Math.abs(rem) * 2 >= f ? q + Math.sign(v) : q) * f + 0;
  },
  /** ROUND for DECIMAL, fitted into the result type DECIMAL(p, s). */
  roundDecimal(v: Decimal, places: number, p: number, s: number, where: string): Decimal {
    return numericHelpers.decFit(roundWide(new Wide(v), places), p, s, where);
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
    if (Decimal.isDecimal(a) || Decimal.isDecimal(b)) return numericHelpers.dec(a).eq(numericHelpers.dec(b));
    if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => numericHelpers.eq(x, b[i]));
    if (a instanceof Map && b instanceof Map) {
      if (a.size !== b.size) return false;
      for (const [k, v] of a) if (!b.has(k) || !numericHelpers.eq(v, b.get(k))) return false;
      return true;
    }
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => hasOwn(b as object, k) && numericHelpers.eq((a as never)[k], (b as never)[k]));
  },
  /**
   * Total order used by sorting (ORDER BY, top-N, OVER, a PTF's ORDER BY), by comparisons of non-primitive
   * values (dates, decimals) and by MIN/MAX. Numbers in Java's `Double.compare` order: NaN above every other
   * number, -0.0 below 0.0 (see compareDoubles).
   */
  cmp(a: unknown, b: unknown): number {
    if (typeof a === "number" && typeof b === "number") return compareDoubles(a, b);
    if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
    if (Decimal.isDecimal(a) || Decimal.isDecimal(b)) return numericHelpers.dec(a).cmp(numericHelpers.dec(b));
    if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
    if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
    return fail(`cannot compare ${String(a)} with ${String(b)}`);
  },
};

/** HALF_UP rounding at `places` decimal places (negative: tens, hundreds, ...). */
function roundWide(v: Decimal, places: number): Decimal {
  if (places >= 0) return v.toDecimalPlaces(places, Decimal.ROUND_HALF_UP);
  const f = new Wide(10).pow(-places);
  return v.div(f).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).times(f);
}

/**
 * Java's `Double.compare`: NaN above +Infinity (all NaNs equal), -0.0 below 0.0. The order Flink's
 * retracting MIN/MAX (`compareTo`) and its batch sort (normalized keys) put numbers in; a consistent total
 * order, which JS's `<` / `>` are not once a NaN is involved (a sort with them returns garbage).
 */
export function compareDoubles(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === b) {
    if (a !== 0) return 0;
    const ia = 1 / a;
    const ib = 1 / b;
    return ia === ib ? 0 : ia < ib ? -1 : 1;
  }
  const aNaN = a !== a;
  return aNaN === (b !== b) ? 0 : aNaN ? 1 : -1;
}
