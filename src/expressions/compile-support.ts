import { ValidationError } from "../types/errors.js";
import { DataType, MAX_LENGTH } from "../types/data-type.js";
import type { CodegenContext } from "./compile.js";
import { type CallNode, type ExprNode, nodeToString } from "./node.js";

/**
 * Shared pieces of expression code generation: type predicates, the null-handling combinators and
 * argument validation. Every `compile-*.ts` file builds on these.
 */

export interface Compiled {
  readonly type: DataType;
  /** A JS expression over the record (`r`, `r0`, ...), constants `c`, helpers `h`, temporaries `t<n>`. */
  readonly src: string;
}

export const T = {
  BOOLEAN: (nullable: boolean): DataType => new DataType("BOOLEAN", nullable),
  INT: (nullable: boolean): DataType => new DataType("INT", nullable),
  BIGINT: (nullable: boolean): DataType => new DataType("BIGINT", nullable),
  DOUBLE: (nullable: boolean): DataType => new DataType("DOUBLE", nullable),
  STRING: (nullable: boolean): DataType => new DataType("VARCHAR", nullable, { length: MAX_LENGTH }),
  VARCHAR: (length: number, nullable: boolean): DataType => new DataType("VARCHAR", nullable, { length }),
};

const INTEGER_ROOTS = new Set(["TINYINT", "SMALLINT", "INT", "BIGINT"]);
/** Digits of the integer types when they take part in DECIMAL arithmetic (Flink's getPrecision). */
export const INT_PRECISION: Readonly<Record<string, number>> = { TINYINT: 3, SMALLINT: 5, INT: 10, BIGINT: 19 };

export const isNullType = (t: DataType): boolean => t.root === "NULL";
export const isInteger = (t: DataType): boolean => INTEGER_ROOTS.has(t.root);
export const isDecimal = (t: DataType): boolean => t.root === "DECIMAL";
export const isExact = (t: DataType): boolean => INTEGER_ROOTS.has(t.root) || t.root === "DECIMAL";
export const isApprox = (t: DataType): boolean => t.root === "FLOAT" || t.root === "DOUBLE";
export const isNumeric = (t: DataType): boolean => isExact(t) || isApprox(t);
export const isString = (t: DataType): boolean => t.root === "CHAR" || t.root === "VARCHAR";
export const isTimestamp = (t: DataType): boolean => t.root === "TIMESTAMP" || t.root === "TIMESTAMP_LTZ";
export const isInterval = (t: DataType): boolean => t.root === "INTERVAL_DAY_TIME" || t.root === "INTERVAL_YEAR_MONTH";
export const isBoolean = (t: DataType): boolean => t.root === "BOOLEAN";

/** Category name as used in messages (matches the type-level messages). */
export function category(t: DataType): string {
  if (t.root === "NULL") return "NULL";
  if (isNumeric(t)) return "NUMERIC";
  if (isString(t)) return "STRING";
  if (t.root === "BOOLEAN") return "BOOLEAN";
  if (isTimestamp(t)) return "TIMESTAMP";
  if (isInterval(t)) return "INTERVAL";
  return t.root;
}

/** The name a call is shown with in messages (Flink's Table API name). */
export function displayName(node: CallNode): string {
  return node.fn === "if" ? "ifThenElse" : node.fn;
}

/** A constant holding the call rendered for error messages: "`dividedBy(score, 0)`". */
export function where(ctx: CodegenContext, node: ExprNode): string {
  // rendered when a message needs it, not per level at compile time: eager text made deep expressions
  // quadratic (each level of a 1000-level chain would render the whole subtree below it)
  let text: string | undefined;
  return ctx.constant({ toString: () => (text ??= `\`${nodeToString(node)}\``) });
}

/** Binds a compiled operand to a temp when it can be null, so that it is evaluated once. */
export function bind(ctx: CodegenContext, c: Compiled): { test: string; ref: string } {
  if (!c.type.isNullable) return { test: "", ref: c.src };
  if (c.src === "null") return { test: "true", ref: "null" };
  const t = ctx.temp();
  return { test: `(${t}=${c.src})===null`, ref: t };
}

/**
 * `null` if any nullable operand is null, else `expr(refs)`. Operands are evaluated left to right,
 * once; NOT NULL operands are used as they are, without a test.
 */
export function nullSafe(ctx: CodegenContext, args: readonly Compiled[], expr: (refs: string[]) => string): string {
  const bound = args.map((a) => bind(ctx, a));
  const tests = bound.filter((b) => b.test !== "").map((b) => b.test);
  const body = expr(bound.map((b) => b.ref));
  return tests.length === 0 ? `(${body})` : `(${tests.join("||")}?null:${body})`;
}

export const anyNullable = (args: readonly Compiled[]): boolean => args.some((a) => a.type.isNullable);

const SIMPLE_SRC = /^(?:[A-Za-z_$][\w$]*(?:\[\d+\])?|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|"(?:[^"\\]|\\.)*"|true|false|null)$/;

/**
 * Makes an operand safe to reference several times: row fields, literals and temps are used as they
 * are; anything else is evaluated once into a temp by `setup` (to be run before the references).
 */
export function share(ctx: CodegenContext, c: Compiled): { setup: string; value: Compiled } {
  if (SIMPLE_SRC.test(c.src)) return { setup: "", value: c };
  const t = ctx.temp();
  return { setup: `${t}=${c.src}`, value: { type: c.type, src: t } };
}

/** `(setup1,setup2,body)`: runs the setups of `share` before the body. */
export function withSetups(setups: readonly string[], body: string): string {
  const s = setups.filter((x) => x !== "");
  return s.length === 0 ? body : `(${s.join(",")},${body})`;
}

export function arity(node: CallNode, args: readonly unknown[], min: number, max = min): void {
  if (args.length < min || args.length > max) {
    const expected = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
    throw new ValidationError(`${displayName(node)} expects ${expected} argument${min === 1 && max === 1 ? "" : "s"}, got ${args.length} in ${nodeToString(node)}`);
  }
}

/** Checks the type family of argument `i` (a NULL literal fits everything). */
export function requireArg(node: CallNode, i: number, a: Compiled, ok: (t: DataType) => boolean, expected: string): void {
  if (a.type.root === "NULL") return;
  if (!ok(a.type)) {
    throw new ValidationError(`${displayName(node)} expects ${expected} for argument ${i + 1}, got ${a.type} in ${nodeToString(node)}`);
  }
}

/** The value of a literal argument node (undefined when the argument is not a literal). */
export function literalValue(n: ExprNode | undefined): { value: unknown } | undefined {
  return n !== undefined && n.kind === "Literal" ? { value: n.value } : undefined;
}

/** A literal integer argument, e.g. the places of `round(2)`; undefined when not a literal number. */
export function literalInt(n: ExprNode | undefined): number | undefined {
  const v = literalValue(n)?.value;
  return typeof v === "number" && Number.isInteger(v) ? v : undefined;
}

/** A literal string argument; undefined when not a string literal. */
export function literalString(n: ExprNode | undefined): string | undefined {
  const v = literalValue(n)?.value;
  return typeof v === "string" ? v : undefined;
}

/**
 * Converts a value of type `c.type` to the representation of `to` where the two differ (an INT
 * branch of an ifThenElse whose common type is DECIMAL becomes a Decimal; a DECIMAL in a DOUBLE
 * context becomes a number). Types are assumed compatible (a common type of both).
 */
export function coerceTo(ctx: CodegenContext, c: Compiled, to: DataType): Compiled {
  const type = to.withNullability(c.type.isNullable);
  if (c.src === "null") return { type: to.withNullability(true), src: "null" };
  if (to.root === "DECIMAL" && (isInteger(c.type) || isApprox(c.type))) {
    return { type, src: nullSafe(ctx, [c], ([x]) => `h.dec(${x})`) };
  }
  if (isApprox(to) && c.type.root === "DECIMAL") {
    return { type, src: nullSafe(ctx, [c], ([x]) => `${x}.toNumber()`) };
  }
  return { type, src: c.src };
}

/** A numeric operand as a JS number (DECIMAL values are converted). */
export function asNumber(t: DataType, ref: string): string {
  return t.root === "DECIMAL" ? `${ref}.toNumber()` : ref;
}
