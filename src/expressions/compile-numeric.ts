import { ValidationError } from "../types/errors.js";
import { DataType } from "../types/data-type.js";
import type { CodegenContext } from "./compile.js";
import {
  type Compiled, INT_PRECISION, T, anyNullable, arity, asNumber, category, displayName, isApprox, isDecimal, isExact,
  isInteger, isInterval, isNullType, isNumeric, isTimestamp, literalInt, nullSafe, requireArg, where,
} from "./compile-support.js";
import { compileIntervalArith, compileTimestampShift } from "./compile-temporal.js";
import { type CallNode, nodeToString } from "./node.js";
import { type BuiltinFunction, builtin } from "./builtin-function.js";

/**
 * Arithmetic and numeric functions. Result types follow Flink's type inference (BuiltInFunctionDefinitions
 * and LogicalTypeMerging): integer op integer is the wider integer type, MOD has the type of its second
 * argument, anything with DOUBLE is DOUBLE, DECIMAL follows the SQL Server style precision rules. Integer
 * results are range-checked (Flink wraps around silently; we fail the job, see docs/types.md).
 */

const MAX_DECIMAL_PRECISION = 38;
const MINIMUM_ADJUSTED_SCALE = 6;

/** Flink's adjustPrecisionScale: above 38 digits, the scale gives way (keeping at least 6 digits) to the integer part. */
function decimalType(precision: number, scale: number, nullable: boolean): DataType {
  if (precision <= MAX_DECIMAL_PRECISION) return new DataType("DECIMAL", nullable, { precision, scale });
  const intDigits = precision - scale;
  const minScale = Math.min(scale, MINIMUM_ADJUSTED_SCALE);
  const adjusted = Math.max(MAX_DECIMAL_PRECISION - intDigits, minScale);
  return new DataType("DECIMAL", nullable, { precision: MAX_DECIMAL_PRECISION, scale: adjusted });
}

/** Precision and scale an exact type takes part in DECIMAL arithmetic with. */
function ps(t: DataType): [number, number] {
  return t.root === "DECIMAL" ? [t.precision!, t.scale!] : [INT_PRECISION[t.root]!, 0];
}

const INTEGER_ORDER = ["TINYINT", "SMALLINT", "INT", "BIGINT"];

/** Result type of a binary arithmetic operation on two numeric types. */
export function arithResultType(fn: string, a: DataType, b: DataType, nullable: boolean): DataType {
  if (isExact(a) && isExact(b) && (isDecimal(a) || isDecimal(b))) {
    const [p1, s1] = ps(a);
    const [p2, s2] = ps(b);
    switch (fn) {
      case "plus":
      case "minus": {
        const s = Math.max(s1, s2);
        return decimalType(Math.max(p1 - s1, p2 - s2) + s + 1, s, nullable);
      }
      case "times":
        return decimalType(p1 + p2 + 1, s1 + s2, nullable);
      case "dividedBy": {
        const s = Math.max(6, s1 + p2 + 1);
        return decimalType(p1 - s1 + s2 + s, s, nullable);
      }
      default: {
        const s = Math.max(s1, s2);
        return decimalType(Math.min(p1 - s1, p2 - s2) + s, s, nullable);
      }
    }
  }
  if (fn === "mod") return b.withNullability(nullable);
  if (isInteger(a) && isInteger(b)) {
    return new DataType(INTEGER_ORDER[Math.max(INTEGER_ORDER.indexOf(a.root), INTEGER_ORDER.indexOf(b.root))] as never, nullable);
  }
  const float = (a.root === "FLOAT" && !isDecimal(b) && b.root !== "DOUBLE") || (b.root === "FLOAT" && !isDecimal(a) && a.root !== "DOUBLE");
  return new DataType(float ? "FLOAT" : "DOUBLE", nullable);
}

const CHECK: Record<string, string> = { TINYINT: "i8", SMALLINT: "i16", INT: "i32", BIGINT: "i64" };

/** Wraps an integer result in its range check (which also turns -0 into 0). */
function intResult(t: DataType, src: string, w: string): string {
  return `h.${CHECK[t.root]}(${src},${w})`;
}

const SYMBOL: Record<string, string> = { plus: "+", minus: "-", times: "*", dividedBy: "/", mod: "%" };
const DECIMAL_OP: Record<string, string> = { plus: "decAdd", minus: "decSub", times: "decMul", dividedBy: "decDiv", mod: "decMod" };

export function compileArith(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  arity(node, args, 2);
  const [a, b] = args as [Compiled, Compiled];
  const fn = node.fn;
  const nullable = anyNullable(args);
  if (fn === "plus" || fn === "minus") {
    if (isTimestamp(a.type) && isInterval(b.type)) return compileTimestampShift(node, a, b, fn === "minus", ctx);
    if (fn === "plus" && isInterval(a.type) && isTimestamp(b.type)) return compileTimestampShift(node, b, a, false, ctx, true);
  }
  if (isInterval(a.type) || isInterval(b.type)) return compileIntervalArith(node, a, b, ctx);
  const okA = isNumeric(a.type) || isNullType(a.type);
  const okB = isNumeric(b.type) || isNullType(b.type);
  if (!okA || !okB) {
    throw new ValidationError(`${displayName(node)} needs NUMERIC operands, got ${category(a.type)} and ${category(b.type)} in ${nodeToString(node)}`);
  }
  if (isNullType(a.type) && isNullType(b.type)) return { type: new DataType("NULL", true), src: "null" };
  const ta = isNullType(a.type) ? b.type : a.type;
  const tb = isNullType(b.type) ? a.type : b.type;
  if (fn === "mod" && (!isExact(ta) || !isExact(tb))) {
    throw new ValidationError(`mod needs exact numeric operands (TINYINT, SMALLINT, INT, BIGINT, DECIMAL), got ${ta} and ${tb} in ${nodeToString(node)}; cast DOUBLE/FLOAT operands first`);
  }
  const type = arithResultType(fn, ta, tb, nullable);
  const w = where(ctx, node);
  if (type.root === "DECIMAL") {
    const op = DECIMAL_OP[fn]!;
    return { type, src: nullSafe(ctx, args, ([x, y]) => `h.${op}(${x},${y},${type.precision},${type.scale},${w})`) };
  }
  if (isInteger(type)) {
    // a literal divisor other than 0 needs no zero test (and other than -1, no overflow test either)
    const divisor = literalInt(node.args[1]);
    const constant = divisor !== undefined && divisor !== 0;
    if (constant && fn === "mod") return { type, src: nullSafe(ctx, args, ([x]) => `${x}%${divisor}+0`) };
    if (constant && fn === "dividedBy" && divisor !== -1) return { type, src: nullSafe(ctx, args, ([x]) => `Math.trunc(${x}/${divisor})+0`) };
    const body = fn === "dividedBy" ? (x: string, y: string) => `h.idiv(${x},${y},${w})`
      : fn === "mod" ? (x: string, y: string) => `h.imod(${x},${y},${w})`
        : (x: string, y: string) => `${x}${SYMBOL[fn]}${y}`;
    // MOD's result is smaller than its divisor, so it always fits the divisor's type
    return { type, src: nullSafe(ctx, args, ([x, y]) => (fn === "mod" ? body(x!, y!) : intResult(type, body(x!, y!), w))) };
  }
  // FLOAT / DOUBLE: IEEE semantics as Java (x / 0.0 is Infinity); DECIMAL operands are converted
  // FLOAT values are JS numbers computed in double precision; they print with Float.toString's digits
  return { type, src: nullSafe(ctx, args, ([x, y]) => `${asNumber(ta, x!)}${SYMBOL[fn]}${asNumber(tb, y!)}`) };
}

/** negate, abs, floor, ceil (numeric), round, power, sqrt, exp, ln, log10. */
export function compileNumericFunction(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  const fn = node.fn;
  switch (fn) {
    case "negate":
    case "abs": {
      arity(node, args, 1);
      const a = args[0]!;
      requireArg(node, 0, a, (t) => isNumeric(t) || isInterval(t), "a NUMERIC or INTERVAL value");
      const t = a.type;
      if (isNullType(t)) return a;
      const w = where(ctx, node);
      const src = nullSafe(ctx, args, ([x]) => {
        if (isDecimal(t)) return fn === "negate" ? `${x}.neg()` : `${x}.abs()`;
        if (isApprox(t)) return fn === "negate" ? `(-${x})` : `Math.abs(${x})`;
        const e = fn === "negate" ? `(0-${x})` : `Math.abs(${x})`;
        return isInteger(t) ? intResult(t, e, w) : e; // intervals: the range of their representation
      });
      return { type: t, src };
    }
    case "floor":
    case "ceil": {
      arity(node, args, 1);
      const a = args[0]!;
      requireArg(node, 0, a, isNumeric, "a NUMERIC value");
      const t = a.type;
      if (isDecimal(t)) {
        // Flink's DECIMAL_SCALE_0: DECIMAL(p, s) -> DECIMAL(p, 0)
        const rt = t.scale === 0 ? t : new DataType("DECIMAL", t.isNullable, { precision: t.precision, scale: 0 });
        return { type: rt, src: nullSafe(ctx, args, ([x]) => `${x}.${fn}()`) };
      }
      if (isApprox(t)) return { type: t, src: nullSafe(ctx, args, ([x]) => `Math.${fn}(${x})`) };
      return a; // integers are their own floor and ceiling
    }
    case "round":
      return compileRound(node, args, ctx);
    case "power":
    case "sqrt":
    case "exp":
    case "ln":
    case "log10": {
      arity(node, args, fn === "power" ? 2 : 1);
      args.forEach((a, i) => requireArg(node, i, a, isNumeric, "a NUMERIC value"));
      const js = fn === "power" ? "pow" : fn === "ln" ? "log" : fn;
      return {
        type: T.DOUBLE(anyNullable(args)),
        src: nullSafe(ctx, args, (refs) => `Math.${js}(${refs.map((r, i) => asNumber(args[i]!.type, r)).join(",")})`),
      };
    }
    default:
      throw new ValidationError(`unknown numeric function '${fn}' in ${nodeToString(node)}`);
  }
}

/** Flink's findRoundDecimalType. */
function roundDecimalType(t: DataType, places: number): DataType {
  const p = t.precision!;
  const s = t.scale!;
  if (places >= s) return t;
  if (places < 0) return new DataType("DECIMAL", t.isNullable, { precision: Math.min(MAX_DECIMAL_PRECISION, 1 + p - s), scale: 0 });
  return new DataType("DECIMAL", t.isNullable, { precision: Math.min(MAX_DECIMAL_PRECISION, 1 + p - s + places), scale: places });
}

/** ROUND(x, n): half away from zero (Java's HALF_UP) at n decimal places; n < 0 rounds to tens, hundreds, ... */
function compileRound(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  arity(node, args, 1, 2);
  const a = args[0]!;
  requireArg(node, 0, a, isNumeric, "a NUMERIC value");
  const placesArg = args[1];
  if (placesArg) requireArg(node, 1, placesArg, (t) => isInteger(t) && t.root !== "BIGINT", "an INT");
  const literal = placesArg ? literalInt(node.args[1]) : 0;
  if (placesArg && literal === undefined && node.args[1]!.kind === "Literal") {
    throw new ValidationError(`round expects an integer number of places, got ${nodeToString(node.args[1]!)} in ${nodeToString(node)}`);
  }
  const t = a.type;
  if (isNullType(t)) return a;
  const w = where(ctx, node);
  const operands = placesArg && literal === undefined ? [a, placesArg] : [a];
  const nullable = anyNullable(operands);
  const n = (refs: string[]) => (literal === undefined ? refs[1]! : String(literal));
  if (isDecimal(t)) {
    const rt = (literal === undefined ? t : roundDecimalType(t, literal)).withNullability(nullable);
    return { type: rt, src: nullSafe(ctx, operands, (r) => `h.roundDecimal(${r[0]},${n(r)},${rt.precision},${rt.scale},${w})`) };
  }
  const rt = t.withNullability(nullable);
  if (isInteger(t)) {
    if (literal !== undefined && literal >= 0) return { type: rt, src: a.src };
    return { type: rt, src: nullSafe(ctx, operands, (r) => intResult(t, `h.roundInteger(${r[0]},${n(r)})`, w)) };
  }
  return { type: rt, src: nullSafe(ctx, operands, (r) => `h.roundDouble(${r[0]},${n(r)})`) };
}

/** The numeric built-ins and their SQL spellings (operators `+ - * / %` and `FLOOR`/`CEIL`/`ROUND` have SQL syntax of their own). */
export const NUMERIC_BUILTINS: readonly BuiltinFunction[] = [
  builtin("plus", compileArith),
  builtin("minus", compileArith),
  builtin("times", compileArith),
  builtin("dividedBy", compileArith),
  builtin("mod", compileArith, ["MOD", 2]),
  builtin("negate", compileNumericFunction),
  builtin("abs", compileNumericFunction, ["ABS", 1]),
  builtin("floor", compileNumericFunction),
  builtin("ceil", compileNumericFunction),
  builtin("round", compileNumericFunction),
  builtin("power", compileNumericFunction, ["POWER", 2]),
  builtin("sqrt", compileNumericFunction, ["SQRT", 1]),
  builtin("exp", compileNumericFunction, ["EXP", 1]),
  builtin("ln", compileNumericFunction, ["LN", 1]),
  builtin("log10", compileNumericFunction, ["LOG10", 1]),
];
