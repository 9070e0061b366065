import { DataType } from "../types/data-type.js";
import type { CodegenContext } from "./compile.js";
import { type Compiled, arity, isBoolean, isInteger, isString, nullSafe, requireArg, where } from "./compile-support.js";
import type { CallNode } from "./node.js";
import { type BuiltinFunction, builtin } from "./builtin-function.js";

/**
 * VARIANT built-ins, with Flink's types: `PARSE_JSON(s [, allowDuplicateKeys])` is VARIANT (nullable when s
 * is), `TRY_PARSE_JSON(s [, allowDuplicateKeys])` a nullable VARIANT, `v[key]` / `v[index]` (`v.at(...)`) a
 * nullable VARIANT. The rules and messages are in helpers-variant.ts; casts from VARIANT in cast-variant.ts.
 */
const VARIANT = (nullable: boolean): DataType => new DataType("VARIANT", nullable);
const isVariant = (t: DataType): boolean => t.root === "VARIANT";

function compileParse(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  arity(node, args, 1, 2);
  requireArg(node, 0, args[0]!, isString, "a STRING");
  if (args[1] !== undefined) requireArg(node, 1, args[1], isBoolean, "a BOOLEAN (allowDuplicateKeys)");
  const s = args[0]!;
  const allow = args[1]?.src ?? "false";
  if (node.fn === "tryParseJson") {
    return { type: VARIANT(true), src: nullSafe(ctx, [s], ([x]) => `h.tryParseJson(${x},${allow})`) };
  }
  const w = where(ctx, node);
  return { type: VARIANT(s.type.isNullable), src: nullSafe(ctx, [s], ([x]) => `h.parseJson(${x},${allow},${w})`) };
}

function compileAt(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  arity(node, args, 2);
  requireArg(node, 0, args[0]!, isVariant, "a VARIANT (element access on ARRAY and MAP values is not supported yet)");
  requireArg(node, 1, args[1]!, (t) => isString(t) || (isInteger(t) && t.root !== "BIGINT"), "a STRING key or an INT index");
  return { type: VARIANT(true), src: nullSafe(ctx, args, ([v, k]) => `h.variantAt(${v},${k})`) };
}

export const VARIANT_BUILTINS: readonly BuiltinFunction[] = [
  builtin("parseJson", compileParse, ["PARSE_JSON", 1, 2]),
  builtin("tryParseJson", compileParse, ["TRY_PARSE_JSON", 1, 2]),
  builtin("at", compileAt),
];
