import { ValidationError } from "../types/errors.js";
import type { DataType } from "../types/data-type.js";
import { commonType } from "../types/values.js";
import type { CodegenContext } from "./compile.js";
import {
  type Compiled, T, anyNullable, arity, bind, category, coerceTo, displayName, isApprox, isBoolean, isDecimal,
  isInteger, isInterval, isString, isTimestamp, nullSafe, requireArg, share, withSetups,
} from "./compile-support.js";
import { type CallNode, nodeToString } from "./node.js";
import { type BuiltinFunction, builtin } from "./builtin-function.js";

/**
 * Comparisons, SQL three-valued logic, IS [NOT] NULL/TRUE/FALSE, BETWEEN, IN, IF, COALESCE, IFNULL.
 * A comparison with a NULL operand is NULL; AND is FALSE if any operand is FALSE, else NULL if any is
 * NULL; OR is TRUE if any operand is TRUE, else NULL if any is NULL.
 */

const CMP_OPS: Record<string, string> = {
  equals: "=", notEquals: "<>", greaterThan: ">", greaterThanOrEqual: ">=", lessThan: "<", lessThanOrEqual: "<=",
};
export const COMPARISONS = Object.keys(CMP_OPS);

/** Values JS compares correctly with its own operators (numbers, strings, booleans). */
const primitive = (t: DataType): boolean =>
  isInteger(t) || isApprox(t) || isString(t) || isBoolean(t) || t.root === "DATE" || t.root === "TIME" || isInterval(t);

const jsOp = (op: string): string => (op === "=" ? "===" : op === "<>" ? "!==" : op);

/** Comparison code for two non-null operands of comparable types. */
function cmpCode(a: DataType, b: DataType, op: string, x: string, y: string): string {
  if (primitive(a) && primitive(b)) return `${x}${jsOp(op)}${y}`;
  if (isTimestamp(a) && isTimestamp(b)) return `${x}.getTime()${jsOp(op)}${y}.getTime()`;
  if (isDecimal(a) && (isDecimal(b) || isInteger(b) || isApprox(b))) return `${x}.cmp(${y})${jsOp(op)}0`;
  if (isDecimal(b) && (isInteger(a) || isApprox(a))) return `0${jsOp(op)}${y}.cmp(${x})`;
  if (op === "=") return `h.eq(${x},${y})`;
  if (op === "<>") return `!h.eq(${x},${y})`;
  return `h.cmp(${x},${y})${op}0`;
}

const ORDERED_ROOTS = new Set(["ARRAY", "MAP", "MULTISET", "ROW", "DESCRIPTOR", "RAW"]);

function checkComparable(node: CallNode, a: DataType, b: DataType, ordering: boolean): void {
  if (a.root === "NULL" || b.root === "NULL") return;
  const ca = category(a);
  const cb = category(b);
  const ok = ca === cb || (a.root === "DATE" && isString(b)) || (isString(a) && b.root === "DATE");
  if (!ok) throw new ValidationError(`cannot compare ${ca} with ${cb} in ${nodeToString(node)}`);
  if (ca === "INTERVAL" && a.root !== b.root) {
    throw new ValidationError(`cannot compare ${a} with ${b} in ${nodeToString(node)}`);
  }
  if (ordering && (ORDERED_ROOTS.has(a.root) || ORDERED_ROOTS.has(b.root))) {
    throw new ValidationError(`${displayName(node)} cannot order values of type ${ORDERED_ROOTS.has(a.root) ? a : b}; only = and <> compare them, in ${nodeToString(node)}`);
  }
}

export function compileComparison(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  arity(node, args, 2);
  const [a, b] = args as [Compiled, Compiled];
  const op = CMP_OPS[node.fn]!;
  checkComparable(node, a.type, b.type, op !== "=" && op !== "<>");
  return { type: T.BOOLEAN(anyNullable(args)), src: nullSafe(ctx, args, ([x, y]) => cmpCode(a.type, b.type, op, x!, y!)) };
}

/**
 * Three-valued AND / OR over compiled BOOLEAN operands. Without nullable operands this is plain `&&`
 * / `||`. Otherwise each operand is bound to a temp: the dominant value (FALSE for AND, TRUE for OR)
 * decides at once, else NULL if any operand was NULL.
 */
function logic3(ctx: CodegenContext, and: boolean, args: readonly Compiled[]): Compiled {
  if (!anyNullable(args)) return { type: T.BOOLEAN(false), src: `(${args.map((a) => a.src).join(and ? "&&" : "||")})` };
  const dominant = and ? "false" : "true";
  const other = and ? "true" : "false";
  const temps = args.map((a) => (a.type.isNullable ? ctx.temp() : ""));
  const decide = args.map((a, i) => (temps[i] ? `(${temps[i]}=${a.src})===${dominant}` : and ? `!${a.src}` : `${a.src}`)).join("||");
  // each temp has been assigned when the null test runs: the dominant value short-circuits before it
  const nulls = temps.filter((t) => t !== "").map((t) => `${t}===null`).join("||");
  return { type: T.BOOLEAN(true), src: `((${decide})?${dominant}:(${nulls})?null:${other})` };
}

export function compileLogic(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  args.forEach((a, i) => requireArg(node, i, a, isBoolean, "a BOOLEAN"));
  if (node.fn === "not") {
    arity(node, args, 1);
    return { type: T.BOOLEAN(anyNullable(args)), src: nullSafe(ctx, args, ([x]) => `!${x}`) };
  }
  arity(node, args, 2, Infinity);
  return logic3(ctx, node.fn === "and", args);
}

/** IS NULL, IS NOT NULL, IS [NOT] TRUE, IS [NOT] FALSE: never NULL themselves. */
export function compileTest(node: CallNode, args: Compiled[]): Compiled {
  arity(node, args, 1);
  const a = args[0]!;
  if (node.fn !== "isNull" && node.fn !== "isNotNull") requireArg(node, 0, a, isBoolean, "a BOOLEAN");
  const test = ({ isNull: "===null", isNotNull: "!==null", isTrue: "===true", isFalse: "===false", isNotTrue: "!==true", isNotFalse: "!==false" } as Record<string, string>)[node.fn]!;
  return { type: T.BOOLEAN(false), src: `(${a.src}${test})` };
}

/**
 * `x BETWEEN lo AND hi` is `x >= lo AND x <= hi` in three-valued logic (so `6 BETWEEN NULL AND 5` is
 * FALSE); `x NOT BETWEEN lo AND hi` is `x < lo OR x > hi`. Each operand is evaluated once.
 */
export function compileBetween(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  arity(node, args, 3);
  const [x, lo, hi] = args.map((a) => share(ctx, a)) as [ReturnType<typeof share>, ReturnType<typeof share>, ReturnType<typeof share>];
  checkComparable(node, x.value.type, lo.value.type, true);
  checkComparable(node, x.value.type, hi.value.type, true);
  const negated = node.fn === "notBetween";
  const part = (bound: Compiled, op: string): Compiled => ({
    type: T.BOOLEAN(x.value.type.isNullable || bound.type.isNullable),
    src: nullSafe(ctx, [x.value, bound], ([v, b]) => cmpCode(x.value.type, bound.type, op, v!, b!)),
  });
  const parts = negated ? [part(lo.value, "<"), part(hi.value, ">")] : [part(lo.value, ">="), part(hi.value, "<=")];
  const result = logic3(ctx, !negated, parts);
  return { type: result.type, src: withSetups([x.setup, lo.setup, hi.setup], result.src) };
}

/**
 * `x IN (a, b, ...)`: TRUE if x equals one of them; else NULL if x or any of them is NULL; else FALSE.
 * A list of string or number literals becomes one Set lookup.
 */
export function compileIn(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  arity(node, args, 2, Infinity);
  const [a, ...list] = args as [Compiled, ...Compiled[]];
  list.forEach((l) => checkComparable(node, a.type, l.type, false));
  const listNullable = list.some((l) => l.type.isNullable);
  const values = node.args.slice(1).map((n) => (n.kind === "Literal" ? n.value : undefined));
  const allStrings = values.every((v) => typeof v === "string");
  const allNumbers = values.every((v) => typeof v === "number");
  if ((allStrings && isString(a.type)) || (allNumbers && (isInteger(a.type) || isApprox(a.type)))) {
    const set = ctx.constant(new Set<unknown>(values));
    return { type: T.BOOLEAN(a.type.isNullable), src: nullSafe(ctx, [a], ([x]) => `${set}.has(${x})`) };
  }
  const x = bind(ctx, a);
  const items = list.map((l) => bind(ctx, l));
  const anyMatch = items.map((it, i) => `(${it.test ? `!${it.test}&&` : ""}${cmpCode(a.type, list[i]!.type, "=", x.ref, it.ref)})`).join("||");
  const anyNull = items.filter((it) => it.test).map((it) => `${it.ref}===null`).join("||");
  const src = `(${x.test ? `${x.test}?null:` : ""}(${anyMatch})?true:${anyNull ? `(${anyNull})?null:` : ""}false)`;
  return { type: T.BOOLEAN(a.type.isNullable || listNullable), src };
}

function common(node: CallNode, types: readonly DataType[], what: string): DataType {
  let t = types[0]!;
  for (const u of types.slice(1)) t = commonType(t, u, () => `${what} of ${nodeToString(node)}`);
  return t;
}

/** ifThenElse(condition, a, b): `b` when the condition is FALSE or NULL; the type is the common type of a and b. */
export function compileIf(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  arity(node, args, 3);
  const [c, a, b] = args as [Compiled, Compiled, Compiled];
  requireArg(node, 0, c, isBoolean, "a BOOLEAN");
  const type = common(node, [a.type, b.type], "the branches");
  const x = coerceTo(ctx, a, type);
  const y = coerceTo(ctx, b, type);
  const test = c.type.isNullable ? `(${c.src})===true` : c.src;
  return { type: type.withNullability(x.type.isNullable || y.type.isNullable), src: `(${test}?${x.src}:${y.src})` };
}

/** coalesce(a, b, ...): the first non-null argument; arguments after a NOT NULL one are never evaluated. */
export function compileCoalesce(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  arity(node, args, 1, Infinity);
  const type = common(node, args.map((a) => a.type), "the arguments").withNullability(args.every((a) => a.type.isNullable));
  const firstNotNull = args.findIndex((a) => !a.type.isNullable);
  const used = firstNotNull >= 0 ? args.slice(0, firstNotNull + 1) : args;
  const coerced = used.map((a) => coerceTo(ctx, a, type));
  return { type, src: chain(ctx, coerced) };
}

/** `(t=a)!==null?t:((u=b)!==null?u:c)` */
function chain(ctx: CodegenContext, args: readonly Compiled[]): string {
  let src = args[args.length - 1]!.src;
  for (let i = args.length - 2; i >= 0; i--) {
    const t = ctx.temp();
    src = `((${t}=${args[i]!.src})!==null?${t}:${src})`;
  }
  return src;
}

/**
 * ifNull(input, replacement), Flink's IfNullTypeStrategy: a NOT NULL input keeps its type; otherwise
 * the common type, NOT NULL when the replacement is NOT NULL.
 */
export function compileIfNull(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  arity(node, args, 2);
  const [a, b] = args as [Compiled, Compiled];
  const type = common(node, [a.type, b.type], "the arguments");
  if (!a.type.isNullable) return a;
  const result = type.withNullability(b.type.isNullable);
  return { type: result, src: chain(ctx, [coerceTo(ctx, a, result), coerceTo(ctx, b, result)]) };
}

/** Comparisons, logic, tests, conditionals; `IF`, `COALESCE` and `IFNULL` are SQL functions, the rest SQL syntax. */
export const LOGIC_BUILTINS: readonly BuiltinFunction[] = [
  ...COMPARISONS.map((name) => builtin(name, compileComparison)),
  builtin("between", compileBetween),
  builtin("notBetween", compileBetween),
  builtin("in", compileIn),
  builtin("and", compileLogic),
  builtin("or", compileLogic),
  builtin("not", compileLogic),
  ...["isNull", "isNotNull", "isTrue", "isFalse", "isNotTrue", "isNotFalse"].map((name) => builtin(name, (n, a) => compileTest(n, a))),
  builtin("if", compileIf, ["IF", 3]),
  builtin("coalesce", compileCoalesce, ["COALESCE", 1, Infinity]),
  builtin("ifNull", compileIfNull, ["IFNULL", 2]),
];
