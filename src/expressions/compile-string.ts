import { ValidationError } from "../types/errors.js";
import { DataType, MAX_LENGTH } from "../types/data-type.js";
import type { CodegenContext } from "./compile.js";
import {
  type Compiled, T, anyNullable, arity, isInteger, isString, literalInt, literalString, nullSafe, requireArg, where,
} from "./compile-support.js";
import { likeToRegExp } from "./helpers-string.js";
import { type CallNode, nodeToString } from "./node.js";
import { type BuiltinFunction, builtin } from "./builtin-function.js";

/**
 * String functions, with Flink's result types: upper/lower/initCap keep their argument's type,
 * substring and trim return VARCHAR of the argument's length, concat VARCHAR of the summed lengths,
 * replace/repeat/lpad/rpad STRING, charLength/position INT. Lengths and positions count code points.
 */

/** An INT-like argument (TINYINT, SMALLINT, INT): what Flink's `logical(INTEGER)` accepts with implicit casts. */
const isIntLike = (t: DataType): boolean => isInteger(t) && t.root !== "BIGINT";

/** VARCHAR of the same length as a CHAR / VARCHAR type (Flink's varyingString). */
function varying(t: DataType, nullable: boolean): DataType {
  if (t.root === "CHAR") return T.VARCHAR(t.length!, nullable);
  if (t.root === "VARCHAR") return t.withNullability(nullable);
  return T.STRING(nullable);
}

function requireStrings(node: CallNode, args: readonly Compiled[], positions: readonly number[]): void {
  for (const i of positions) if (args[i]) requireArg(node, i, args[i]!, isString, "a STRING");
}

/** The string built-ins and their SQL spellings (`TRIM(...)`, `POSITION(a IN b)` have SQL syntax of their own). */
export const STRING_BUILTINS: readonly BuiltinFunction[] = [
  builtin("upper", compileStringFunction, ["UPPER", 1]),
  builtin("lower", compileStringFunction, ["LOWER", 1]),
  builtin("initCap", compileStringFunction, ["INITCAP", 1]),
  builtin("charLength", compileStringFunction, ["CHAR_LENGTH", 1], ["CHARACTER_LENGTH", 1]),
  builtin("substring", compileStringFunction, ["SUBSTRING", 2, 3], ["SUBSTR", 2, 3]),
  builtin("trim", compileStringFunction),
  builtin("trimLeading", compileStringFunction, ["LTRIM", 1]),
  builtin("trimTrailing", compileStringFunction, ["RTRIM", 1]),
  builtin("like", compileStringFunction),
  builtin("concat", compileStringFunction, ["CONCAT", 1, Infinity]),
  builtin("replace", compileStringFunction, ["REPLACE", 3]),
  builtin("repeat", compileStringFunction, ["REPEAT", 2]),
  builtin("lpad", compileStringFunction, ["LPAD", 3]),
  builtin("rpad", compileStringFunction, ["RPAD", 3]),
  builtin("position", compileStringFunction),
  // REVERSE(s): the code points of s in reverse order, a VARCHAR of s's length (NULL for NULL)
  builtin("reverse", (node, args, ctx) => {
    arity(node, args, 1);
    requireStrings(node, args, [0]);
    return { type: varying(args[0]!.type, anyNullable(args)), src: nullSafe(ctx, args, ([x]) => `h.reverse(${x})`) };
  }, ["REVERSE", 1]),
];

export function compileStringFunction(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  const fn = node.fn;
  const nullable = anyNullable(args);
  switch (fn) {
    case "upper":
    case "lower":
    case "initCap": {
      arity(node, args, 1);
      requireStrings(node, args, [0]);
      const m = fn === "upper" ? ".toUpperCase()" : fn === "lower" ? ".toLowerCase()" : "";
      const type = args[0]!.type.root === "NULL" ? T.STRING(true) : args[0]!.type;
      return { type, src: nullSafe(ctx, args, ([x]) => (fn === "initCap" ? `h.initCap(${x})` : `${x}${m}`)) };
    }
    case "charLength": {
      arity(node, args, 1);
      requireStrings(node, args, [0]);
      return { type: T.INT(nullable), src: nullSafe(ctx, args, ([x]) => `h.charLength(${x})`) };
    }
    case "substring": {
      arity(node, args, 2, 3);
      requireStrings(node, args, [0]);
      args.slice(1).forEach((a, i) => requireArg(node, i + 1, a, isIntLike, "an INT"));
      // a negative length gives NULL (as Flink): the result is NOT NULL only when that cannot happen
      const len = args.length === 3 ? literalInt(node.args[2]) : 0;
      const type = varying(args[0]!.type, nullable || len === undefined || len < 0);
      return { type, src: nullSafe(ctx, args, (r) => `h.substring(${r.join(",")})`) };
    }
    case "trim":
    case "trimLeading":
    case "trimTrailing": {
      arity(node, args, 1, 2);
      requireStrings(node, args, [0, 1]);
      const lead = fn !== "trimTrailing";
      const trail = fn !== "trimLeading";
      const chars = args.length === 2 ? literalString(node.args[1]) : " ";
      const type = varying(args[0]!.type, nullable);
      if (chars === " ") return { type, src: nullSafe(ctx, [args[0]!], ([x]) => `h.trimSpaces(${x},${lead},${trail})`) };
      return { type, src: nullSafe(ctx, args, ([x, c]) => `h.trim(${x},${c},${lead},${trail})`) };
    }
    case "like":
      return compileLike(node, args, ctx);
    case "concat": {
      arity(node, args, 1, Infinity);
      requireStrings(node, args, args.map((_, i) => i));
      const length = args.reduce((n, a) => n + (a.type.length ?? 0), 0);
      const type = length >= MAX_LENGTH ? T.STRING(nullable) : T.VARCHAR(Math.max(1, length), nullable);
      return { type, src: nullSafe(ctx, args, (r) => r.join("+")) };
    }
    case "replace": {
      arity(node, args, 3);
      requireStrings(node, args, [0, 1, 2]);
      return { type: T.STRING(nullable), src: nullSafe(ctx, args, ([x, a, b]) => `h.replace(${x},${a},${b})`) };
    }
    case "repeat": {
      arity(node, args, 2);
      requireStrings(node, args, [0]);
      requireArg(node, 1, args[1]!, isIntLike, "an INT");
      return { type: T.STRING(nullable), src: nullSafe(ctx, args, ([x, n]) => `h.repeat(${x},${n},${where(ctx, node)})`) };
    }
    case "lpad":
    case "rpad": {
      arity(node, args, 3);
      requireStrings(node, args, [0, 2]);
      requireArg(node, 1, args[1]!, isIntLike, "an INT");
      // Flink returns NULL for a negative length or an empty pad: NOT NULL only when neither can happen
      const len = literalInt(node.args[1]);
      const pad = literalString(node.args[2]);
      const mayBeNull = len === undefined || len < 0 || pad === undefined || pad === "";
      return { type: T.STRING(nullable || mayBeNull), src: nullSafe(ctx, args, ([x, n, p]) => `h.${fn}(${x},${n},${p})`) };
    }
    case "position": {
      arity(node, args, 2);
      requireStrings(node, args, [0, 1]);
      return { type: T.INT(nullable), src: nullSafe(ctx, args, ([needle, haystack]) => `h.position(${needle},${haystack})`) };
    }
    default:
      throw new ValidationError(`unknown string function '${fn}' in ${nodeToString(node)}`);
  }
}

/**
 * `s LIKE pattern [ESCAPE e]`: `%` matches any sequence, `_` one character. Without an escape
 * character every other character, `\` included, stands for itself (Flink's 2-argument LIKE); with
 * one, the escape character makes the next `%`, `_` or escape character literal.
 */
function compileLike(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  arity(node, args, 2, 3);
  requireStrings(node, args, [0, 1, 2]);
  let escape: string | null = null;
  if (args.length === 3) {
    const e = literalString(node.args[2]);
    if (e === undefined || [...e].length !== 1) {
      throw new ValidationError(`like: the escape character must be a single-character string literal, got ${nodeToString(node.args[2]!)} in ${nodeToString(node)}`);
    }
    escape = e;
  }
  const pattern = literalString(node.args[1]);
  if (pattern !== undefined) {
    let re: RegExp;
    try {
      re = likeToRegExp(pattern, escape);
    } catch (e) {
      throw new ValidationError(`${(e as Error).message} in ${nodeToString(node)}`);
    }
    return { type: T.BOOLEAN(args[0]!.type.isNullable), src: nullSafe(ctx, [args[0]!], ([x]) => `${ctx.constant(re)}.test(${x})`) };
  }
  const esc = escape === null ? "null" : JSON.stringify(escape);
  const w = where(ctx, node);
  return { type: T.BOOLEAN(anyNullable(args.slice(0, 2))), src: nullSafe(ctx, args.slice(0, 2), ([x, p]) => `h.like(${x},${p},${esc},${w})`) };
}
