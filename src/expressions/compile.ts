import { ValidationError } from "../table/errors.js";
import { DataType } from "../table/types/data-type.js";
import type { ResolvedSchema } from "../table/types/resolved-schema.js";
import { commonType, inferType } from "../table/types/values.js";
import { helpers, likeToRegExp } from "./helpers.js";
import { type CallNode, type ExprNode, nodeToString } from "./node.js";

/**
 * Resolves expression trees against a schema (type inference + validation) and generates JavaScript
 * source for them. A whole operator's expressions become ONE generated function, so rows never walk a
 * tree: `$("price").times(0.908)` over a NOT NULL DOUBLE column compiles to `r[2]*0.908`.
 *
 * Null handling follows SQL: operands that may be null are bound to temporaries and tested once;
 * operands whose type is NOT NULL skip the test.
 */
export interface Compiled {
  readonly type: DataType;
  /** A JS expression over the record `r`, constants `c`, helpers `h`, temporaries `t<n>`. */
  readonly src: string;
}

/** A resolver for names outside the built-ins (user functions by name); returns undefined when unknown. */
export type FunctionResolver = (name: string, args: Compiled[], ctx: CodegenContext, node: CallNode) => Compiled | undefined;

export class CodegenContext {
  /** Constants and temporaries are shared by all stages of one generated function. */
  private readonly pool: { consts: unknown[]; temps: number };

  constructor(
    readonly schema: ResolvedSchema,
    readonly resolveFunction?: FunctionResolver,
    /** Name of the variable holding the input record. */
    readonly rowVar = "r",
    pool?: { consts: unknown[]; temps: number },
  ) {
    this.pool = pool ?? { consts: [], temps: 0 };
  }

  /** A context over another record variable and schema that shares this one's constants and temporaries. */
  stage(schema: ResolvedSchema, rowVar: string): CodegenContext {
    return new CodegenContext(schema, this.resolveFunction, rowVar, this.pool);
  }

  get consts(): unknown[] {
    return this.pool.consts;
  }

  constant(v: unknown): string {
    this.pool.consts.push(v);
    return `c[${this.pool.consts.length - 1}]`;
  }

  temp(): string {
    return `t${this.pool.temps++}`;
  }

  tempDeclarations(): string {
    if (this.pool.temps === 0) return "";
    return `let ${Array.from({ length: this.pool.temps }, (_, i) => `t${i}`).join(",")};`;
  }

  /**
   * Builds `(c, h) => <factory body>`; `body` is the source of a function expression using the
   * constants and helpers. Called once per operator at planning time.
   */
  build<F>(body: string): F {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    return new Function("c", "h", `"use strict"; return ${body};`)(this.consts, helpers) as F;
  }
}

const T = {
  BOOLEAN: (nullable: boolean) => new DataType("BOOLEAN", nullable),
  INT: (nullable: boolean) => new DataType("INT", nullable),
  BIGINT: (nullable: boolean) => new DataType("BIGINT", nullable),
  DOUBLE: (nullable: boolean) => new DataType("DOUBLE", nullable),
  STRING: (nullable: boolean) => new DataType("VARCHAR", nullable, { length: 2147483647 }),
};

const INTEGER_ROOTS = ["TINYINT", "SMALLINT", "INT", "BIGINT"];
const NUMERIC_ROOTS = ["TINYINT", "SMALLINT", "INT", "BIGINT", "DECIMAL", "FLOAT", "DOUBLE"];
const STRING_ROOTS = ["CHAR", "VARCHAR"];
const isInteger = (t: DataType) => INTEGER_ROOTS.includes(t.root);
const isNumeric = (t: DataType) => NUMERIC_ROOTS.includes(t.root);
const isString = (t: DataType) => STRING_ROOTS.includes(t.root);
const isTemporal = (t: DataType) => t.root === "TIMESTAMP" || t.root === "TIMESTAMP_LTZ";
const INT_PRECISION: Record<string, number> = { TINYINT: 3, SMALLINT: 5, INT: 10, BIGINT: 19 };

/** Category name as used in messages (matches the type-level messages). */
function category(t: DataType): string {
  if (t.root === "NULL") return "NULL";
  if (isNumeric(t)) return "NUMERIC";
  if (isString(t)) return "STRING";
  if (t.root === "BOOLEAN") return "BOOLEAN";
  if (isTemporal(t)) return "TIMESTAMP";
  if (t.root.startsWith("INTERVAL")) return "INTERVAL";
  return t.root;
}

export function compileExpr(node: ExprNode, ctx: CodegenContext): Compiled {
  switch (node.kind) {
    case "Column": {
      const i = ctx.schema.indexOf(node.name);
      return { type: ctx.schema.columns[i]!.type, src: `${ctx.rowVar}[${i}]` };
    }
    case "Literal":
      return compileLiteral(node.value, node.type, ctx);
    case "Alias":
      return compileExpr(node.expr, ctx);
    case "Call":
      return compileCall(node, ctx);
    case "Sort":
      return compileExpr(node.expr, ctx);
    case "Agg":
      throw new ValidationError(`aggregate ${nodeToString(node)} is only allowed in groupBy(...).select(...), select() or aggregate()`);
    default:
      throw new ValidationError(`${nodeToString(node)} cannot be used as a value expression`);
  }
}

function compileLiteral(value: unknown, type: DataType | undefined, ctx: CodegenContext): Compiled {
  const t = type ?? literalType(value);
  if (value === null || value === undefined) return { type: t.withNullability(true), src: "null" };
  if (typeof value === "number" && Number.isFinite(value)) return { type: t, src: Object.is(value, -0) ? "-0" : String(value) };
  if (typeof value === "boolean") return { type: t, src: String(value) };
  return { type: t, src: ctx.constant(value) };
}

function literalType(value: unknown): DataType {
  if (typeof value === "number" && !Number.isInteger(value)) return T.DOUBLE(false);
  return inferType(value, () => "literal");
}

/** Binds a compiled operand to a temp when it can be null, so that it is evaluated once. */
function bind(ctx: CodegenContext, c: Compiled): { test: string; ref: string; src: string } {
  if (!c.type.isNullable) return { test: "", ref: c.src, src: c.src };
  if (c.src === "null") return { test: "true", ref: "null", src: "null" };
  const t = ctx.temp();
  return { test: `(${t}=${c.src})===null`, ref: t, src: c.src };
}

/** `null` if any nullable operand is null, else `expr(refs)`. Operands are evaluated left to right once. */
function nullSafe(ctx: CodegenContext, args: Compiled[], expr: (refs: string[]) => string): string {
  const bound = args.map((a) => bind(ctx, a));
  const tests = bound.filter((b) => b.test !== "").map((b) => b.test);
  const body = expr(bound.map((b) => b.ref));
  return tests.length === 0 ? `(${body})` : `(${tests.join("||")}?null:${body})`;
}

const anyNullable = (args: Compiled[]) => args.some((a) => a.type.isNullable);

function arity(node: CallNode, args: Compiled[], min: number, max = min): void {
  if (args.length < min || args.length > max) {
    throw new ValidationError(`${node.fn} expects ${min === max ? min : `${min} to ${max}`} arguments, got ${args.length} in ${nodeToString(node)}`);
  }
}

function requireCat(node: CallNode, i: number, a: Compiled, ok: (t: DataType) => boolean, expected: string): void {
  if (a.type.root === "NULL") return;
  if (!ok(a.type)) {
    throw new ValidationError(`${node.fn} expects ${expected} for argument ${i + 1}, got ${a.type} in ${nodeToString(node)}`);
  }
}

function constString(ctx: CodegenContext, node: ExprNode): string | undefined {
  return node.kind === "Literal" && typeof node.value === "string" ? node.value : undefined;
}

/** Result type of arithmetic between two numeric types (Flink's rules, DECIMAL precision capped at 38). */
function arithType(fn: string, a: DataType, b: DataType, nullable: boolean): DataType {
  if (a.root === "DOUBLE" || b.root === "DOUBLE" || a.root === "FLOAT" || b.root === "FLOAT") {
    return new DataType(a.root === "FLOAT" && b.root === "FLOAT" ? "FLOAT" : "DOUBLE", nullable);
  }
  if (a.root === "DECIMAL" || b.root === "DECIMAL") {
    const [p1, s1] = a.root === "DECIMAL" ? [a.precision!, a.scale!] : [INT_PRECISION[a.root]!, 0];
    const [p2, s2] = b.root === "DECIMAL" ? [b.precision!, b.scale!] : [INT_PRECISION[b.root]!, 0];
    let p: number;
    let s: number;
    switch (fn) {
      case "plus":
      case "minus": s = Math.max(s1, s2); p = Math.max(p1 - s1, p2 - s2) + s + 1; break;
      case "times": s = s1 + s2; p = p1 + p2; break;
      case "dividedBy": s = Math.max(6, s1 + p2 + 1); p = p1 - s1 + s2 + s; break;
      default: s = Math.max(s1, s2); p = Math.min(p1 - s1, p2 - s2) + s; break;
    }
    if (p > 38) { s = Math.max(Math.min(s, 6), s - (p - 38)); p = 38; }
    return new DataType("DECIMAL", nullable, { precision: p, scale: Math.min(s, p) });
  }
  const order = INTEGER_ROOTS;
  return new DataType(order[Math.max(order.indexOf(a.root), order.indexOf(b.root))] as never, nullable);
}

function intCheck(ctx: CodegenContext, t: DataType, src: string, node: CallNode): string {
  const where = ctx.constant(`\`${nodeToString(node)}\``);
  switch (t.root) {
    case "INT": return `h.i32(${src},${where})`;
    case "BIGINT": return `h.i64(${src},${where})`;
    case "SMALLINT": return `h.i16(${src},${where})`;
    case "TINYINT": return `h.i8(${src},${where})`;
    default: return src;
  }
}

function compileArith(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  arity(node, args, 2);
  const [a, b] = args as [Compiled, Compiled];
  const nullable = anyNullable(args);
  // temporal arithmetic
  if (isTemporal(a.type) && (node.fn === "plus" || node.fn === "minus") && b.type.root.startsWith("INTERVAL")) {
    const sign = node.fn === "plus" ? "" : "-";
    const src = b.type.root === "INTERVAL_YEAR_MONTH"
      ? nullSafe(ctx, args, ([x, y]) => `h.addMonths(${x},${sign}${y})`)
      : nullSafe(ctx, args, ([x, y]) => `new Date(${x}.getTime()${node.fn === "plus" ? "+" : "-"}${y})`);
    return { type: a.type.withNullability(nullable), src };
  }
  if (a.type.root.startsWith("INTERVAL") && b.type.root === a.type.root && (node.fn === "plus" || node.fn === "minus")) {
    return { type: a.type.withNullability(nullable), src: nullSafe(ctx, args, ([x, y]) => `${x}${node.fn === "plus" ? "+" : "-"}${y}`) };
  }
  if (a.type.root.startsWith("INTERVAL") && isNumeric(b.type) && node.fn === "times") {
    return { type: a.type.withNullability(nullable), src: nullSafe(ctx, args, ([x, y]) => `Math.round(${x}*${y})`) };
  }
  const okA = isNumeric(a.type) || a.type.root === "NULL";
  const okB = isNumeric(b.type) || b.type.root === "NULL";
  if (!okA || !okB) {
    throw new ValidationError(`arithmetic needs NUMERIC operands, got ${category(a.type)} and ${category(b.type)} in ${nodeToString(node)}`);
  }
  const ta = a.type.root === "NULL" ? b.type : a.type;
  const tb = b.type.root === "NULL" ? a.type : b.type;
  const type = arithType(node.fn, ta, tb, nullable);
  const sym = ({ plus: "+", minus: "-", times: "*", dividedBy: "/", mod: "%" } as Record<string, string>)[node.fn]!;
  const where = () => ctx.constant(`\`${nodeToString(node)}\``);
  if (type.root === "DECIMAL") {
    const m = ({ plus: "plus", minus: "minus", times: "times", mod: "mod" } as Record<string, string>)[node.fn];
    const p = type.precision!;
    const s = type.scale!;
    const w = where();
    const src = node.fn === "dividedBy"
      ? nullSafe(ctx, args, ([x, y]) => `h.decDiv(h.dec(${x}),h.dec(${y}),${p},${s},${w})`)
      : nullSafe(ctx, args, ([x, y]) => `h.decFit(h.dec(${x}).${m}(h.dec(${y})),${p},${s},${w})`);
    return { type, src };
  }
  if (isInteger(type)) {
    if (node.fn === "dividedBy") return { type, src: nullSafe(ctx, args, ([x, y]) => `h.idiv(${x},${y},${where()})`) };
    if (node.fn === "mod") return { type, src: nullSafe(ctx, args, ([x, y]) => `h.imod(${x},${y},${where()})`) };
    return { type, src: nullSafe(ctx, args, ([x, y]) => intCheck(ctx, type, `${x}${sym}${y}`, node)) };
  }
  // DOUBLE / FLOAT: IEEE semantics as Java (x/0.0 is Infinity); Decimal operands converted
  const num = (t: DataType, r: string) => (t.root === "DECIMAL" ? `${r}.toNumber()` : r);
  return { type, src: nullSafe(ctx, args, ([x, y]) => `${num(a.type, x!)}${sym}${num(b.type, y!)}`) };
}

/** Comparison code for two bound operands of compatible types. */
function cmpCode(a: DataType, b: DataType, op: string, x: string, y: string): string {
  const prim = (t: DataType) => INTEGER_ROOTS.includes(t.root) || t.root === "DOUBLE" || t.root === "FLOAT"
    || isString(t) || t.root === "BOOLEAN" || t.root === "DATE" || t.root === "TIME" || t.root.startsWith("INTERVAL");
  if (prim(a) && prim(b)) {
    const jsOp = op === "=" ? "===" : op === "<>" ? "!==" : op;
    return `${x}${jsOp}${y}`;
  }
  if (isTemporal(a) && isTemporal(b)) {
    const jsOp = op === "=" ? "===" : op === "<>" ? "!==" : op;
    return `${x}.getTime()${jsOp}${y}.getTime()`;
  }
  if (op === "=") return `h.eq(${x},${y})`;
  if (op === "<>") return `!h.eq(${x},${y})`;
  return `h.cmp(${x},${y})${op}0`;
}

function checkComparable(node: CallNode, a: DataType, b: DataType): void {
  if (a.root === "NULL" || b.root === "NULL") return;
  const ca = category(a);
  const cb = category(b);
  const ok = ca === cb || (a.root === "DATE" && isString(b)) || (isString(a) && b.root === "DATE");
  if (!ok) throw new ValidationError(`cannot compare ${ca} with ${cb} in ${nodeToString(node)}`);
}

const CMP_OPS: Record<string, string> = {
  equals: "=", notEquals: "<>", greaterThan: ">", greaterThanOrEqual: ">=", lessThan: "<", lessThanOrEqual: "<=",
};

function compileLogic(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  args.forEach((a, i) => requireCat(node, i, a, (t) => t.root === "BOOLEAN", "BOOLEAN"));
  const nullable = anyNullable(args);
  if (node.fn === "not") {
    arity(node, args, 1);
    return { type: T.BOOLEAN(nullable), src: nullSafe(ctx, args, ([x]) => `!${x}`) };
  }
  if (args.length < 2) arity(node, args, 2, Infinity);
  const dominant = node.fn === "and" ? "false" : "true";
  const other = node.fn === "and" ? "true" : "false";
  if (!nullable) return { type: T.BOOLEAN(false), src: `(${args.map((a) => a.src).join(node.fn === "and" ? "&&" : "||")})` };
  // three-valued: dominant value wins, otherwise null if any null
  const temps = args.map(() => ctx.temp());
  const assigns = args.map((a, i) => `(${temps[i]}=${a.src})===${dominant}`).join("||");
  const nulls = temps.map((t) => `${t}===null`).join("||");
  // every temp is assigned when the null test is reached (the dominant value short-circuits before it)
  return { type: T.BOOLEAN(true), src: `((${assigns})?${dominant}:(${nulls})?null:${other})` };
}

function compileCall(node: CallNode, ctx: CodegenContext): Compiled {
  const fn = node.fn;
  if (fn === "cast" || fn === "tryCast") {
    const arg = compileExpr(node.args[0]!, ctx);
    const to = (node.args[1] as { type: DataType }).type;
    const target = to.withNullability(arg.type.isNullable || fn === "tryCast");
    if (arg.type.equals(target.withNullability(arg.type.isNullable))) return { type: target, src: arg.src };
    const from = ctx.constant(arg.type);
    const toC = ctx.constant(target);
    const where = ctx.constant(`\`${nodeToString(node)}\``);
    return { type: target, src: nullSafe(ctx, [arg], ([x]) => `h.cast(${x},${from},${toC},${fn === "tryCast"},${where})`) };
  }
  const args = node.args.map((a) => compileExpr(a, ctx));
  switch (fn) {
    case "plus": case "minus": case "times": case "dividedBy": case "mod":
      return compileArith(node, args, ctx);
    case "negate": {
      arity(node, args, 1);
      requireCat(node, 0, args[0]!, isNumeric, "NUMERIC");
      const t = args[0]!.type;
      return { type: t, src: nullSafe(ctx, args, ([x]) => (t.root === "DECIMAL" ? `${x}.neg()` : `(-${x})`)) };
    }
    case "abs": case "floor": case "ceil": {
      arity(node, args, 1);
      requireCat(node, 0, args[0]!, isNumeric, "NUMERIC");
      const t = args[0]!.type;
      const m = fn === "abs" ? "abs" : fn;
      if (t.root === "DECIMAL") {
        const dm = fn === "abs" ? "abs()" : fn === "floor" ? "floor()" : "ceil()";
        const rt = fn === "abs" ? t : new DataType("DECIMAL", t.isNullable, { precision: Math.min(38, t.precision! - t.scale! + 1), scale: 0 });
        return { type: rt, src: nullSafe(ctx, args, ([x]) => `${x}.${dm}`) };
      }
      return { type: t, src: nullSafe(ctx, args, ([x]) => `Math.${m}(${x})`) };
    }
    case "round": {
      arity(node, args, 2);
      requireCat(node, 0, args[0]!, isNumeric, "NUMERIC");
      const t = args[0]!.type;
      const places = node.args[1]!.kind === "Literal" ? Number((node.args[1] as { value: unknown }).value) : 0;
      if (t.root === "DECIMAL") {
        const s = Math.max(0, Math.min(places, t.scale!));
        const rt = new DataType("DECIMAL", t.isNullable, { precision: Math.min(38, t.precision! - t.scale! + s + 1), scale: s });
        return { type: rt, src: nullSafe(ctx, [args[0]!], ([x]) => `${x}.toDecimalPlaces(${places},4)`) };
      }
      if (isInteger(t)) return { type: t, src: nullSafe(ctx, [args[0]!], ([x]) => `h.roundInt(${x},${places})`) };
      return { type: t, src: nullSafe(ctx, [args[0]!], ([x]) => `h.roundDouble(${x},${places})`) };
    }
    case "power": case "sqrt": case "exp": case "ln": case "log10": {
      arity(node, args, fn === "power" ? 2 : 1);
      args.forEach((a, i) => requireCat(node, i, a, isNumeric, "NUMERIC"));
      const num = (a: Compiled, r: string) => (a.type.root === "DECIMAL" ? `${r}.toNumber()` : r);
      const js = fn === "power" ? "pow" : fn === "ln" ? "log" : fn;
      return { type: T.DOUBLE(anyNullable(args)), src: nullSafe(ctx, args, (refs) => `Math.${js}(${refs.map((r, i) => num(args[i]!, r)).join(",")})`) };
    }
    case "equals": case "notEquals": case "greaterThan": case "greaterThanOrEqual": case "lessThan": case "lessThanOrEqual": {
      arity(node, args, 2);
      const [a, b] = args as [Compiled, Compiled];
      checkComparable(node, a.type, b.type);
      return { type: T.BOOLEAN(anyNullable(args)), src: nullSafe(ctx, args, ([x, y]) => cmpCode(a.type, b.type, CMP_OPS[fn]!, x!, y!)) };
    }
    case "between": case "notBetween": {
      arity(node, args, 3);
      const [a, lo, hi] = args as [Compiled, Compiled, Compiled];
      checkComparable(node, a.type, lo.type);
      checkComparable(node, a.type, hi.type);
      const neg = fn === "notBetween";
      return {
        type: T.BOOLEAN(anyNullable(args)),
        src: nullSafe(ctx, args, ([x, l, h]) => `${neg ? "!" : ""}(${cmpCode(a.type, lo.type, ">=", x!, l!)}&&${cmpCode(a.type, hi.type, "<=", x!, h!)})`),
      };
    }
    case "in": {
      if (args.length < 2) arity(node, args, 2, Infinity);
      const [a, ...list] = args as [Compiled, ...Compiled[]];
      list.forEach((l) => checkComparable(node, a.type, l.type));
      const literals = node.args.slice(1).every((n) => n.kind === "Literal" && (typeof n.value === "string" || typeof n.value === "number"));
      const listNullable = list.some((l) => l.type.isNullable);
      if (literals && !listNullable && (isString(a.type) || (isNumeric(a.type) && a.type.root !== "DECIMAL"))) {
        const set = ctx.constant(new Set(node.args.slice(1).map((n) => (n as { value: unknown }).value)));
        return { type: T.BOOLEAN(a.type.isNullable), src: nullSafe(ctx, [a], ([x]) => `${set}.has(${x})`) };
      }
      const x = bind(ctx, a);
      const items = list.map((l) => bind(ctx, l));
      const anyMatch = items.map((it, i) => `(${it.test ? `!${it.test}&&` : ""}${cmpCode(a.type, list[i]!.type, "=", x.ref, it.ref)})`).join("||");
      const anyNull = items.filter((it) => it.test).map((it) => `${it.ref}===null`).join("||");
      const src = `(${x.test ? `${x.test}?null:` : ""}(${anyMatch})?true:${anyNull ? `(${anyNull})?null:` : ""}false)`;
      return { type: T.BOOLEAN(a.type.isNullable || listNullable), src };
    }
    case "isNull": return { type: T.BOOLEAN(false), src: `(${args[0]!.src}===null)` };
    case "isNotNull": return { type: T.BOOLEAN(false), src: `(${args[0]!.src}!==null)` };
    case "isTrue": case "isFalse": case "isNotTrue": case "isNotFalse": {
      requireCat(node, 0, args[0]!, (t) => t.root === "BOOLEAN", "BOOLEAN");
      const cmp = { isTrue: "===true", isFalse: "===false", isNotTrue: "!==true", isNotFalse: "!==false" }[fn];
      return { type: T.BOOLEAN(false), src: `(${args[0]!.src}${cmp})` };
    }
    case "and": case "or": case "not":
      return compileLogic(node, args, ctx);
    case "if": {
      arity(node, args, 3);
      const [c, a, b] = args as [Compiled, Compiled, Compiled];
      requireCat(node, 0, c, (t) => t.root === "BOOLEAN", "BOOLEAN");
      const type = commonType(a.type, b.type, () => `ifThenElse branches of ${nodeToString(node)}`);
      return { type, src: `((${c.src})===true?${a.src}:${b.src})` };
    }
    case "coalesce": case "ifNull": {
      if (args.length < 1) arity(node, args, 1, Infinity);
      let type = args[0]!.type;
      for (const a of args.slice(1)) type = commonType(type, a.type, () => `arguments of ${nodeToString(node)}`);
      type = type.withNullability(args.every((a) => a.type.isNullable));
      let src = args[args.length - 1]!.src;
      for (let i = args.length - 2; i >= 0; i--) {
        const t = ctx.temp();
        src = `((${t}=${args[i]!.src})!==null?${t}:${src})`;
      }
      return { type, src };
    }
    case "upper": case "lower": case "initCap": {
      arity(node, args, 1);
      requireCat(node, 0, args[0]!, isString, "STRING");
      const m = fn === "upper" ? ".toUpperCase()" : fn === "lower" ? ".toLowerCase()" : "";
      return { type: T.STRING(anyNullable(args)), src: nullSafe(ctx, args, ([x]) => (fn === "initCap" ? `h.initCap(${x})` : `${x}${m}`)) };
    }
    case "charLength": {
      arity(node, args, 1);
      requireCat(node, 0, args[0]!, isString, "STRING");
      return { type: T.INT(anyNullable(args)), src: nullSafe(ctx, args, ([x]) => `h.charLength(${x})`) };
    }
    case "substring": {
      arity(node, args, 2, 3);
      requireCat(node, 0, args[0]!, isString, "STRING");
      args.slice(1).forEach((a, i) => requireCat(node, i + 1, a, isInteger, "an integer"));
      return { type: T.STRING(anyNullable(args)), src: nullSafe(ctx, args, (r) => `h.substring(${r.join(",")})`) };
    }
    case "trim": case "trimLeading": case "trimTrailing": {
      requireCat(node, 0, args[0]!, isString, "STRING");
      const lead = fn !== "trimTrailing";
      const trail = fn !== "trimLeading";
      return { type: T.STRING(anyNullable(args)), src: nullSafe(ctx, args, ([x, ch]) => `h.trim(${x},${ch},${lead},${trail})`) };
    }
    case "like": {
      arity(node, args, 2);
      args.forEach((a, i) => requireCat(node, i, a, isString, "STRING"));
      const pattern = constString(ctx, node.args[1]!);
      if (pattern !== undefined) {
        const re = ctx.constant(likeToRegExp(pattern));
        return { type: T.BOOLEAN(args[0]!.type.isNullable), src: nullSafe(ctx, [args[0]!], ([x]) => `${re}.test(${x})`) };
      }
      return { type: T.BOOLEAN(anyNullable(args)), src: nullSafe(ctx, args, ([x, p]) => `h.like(${x},${p})`) };
    }
    case "concat": {
      args.forEach((a, i) => requireCat(node, i, a, isString, "STRING"));
      return { type: T.STRING(anyNullable(args)), src: nullSafe(ctx, args, (r) => r.join("+")) };
    }
    case "replace": {
      arity(node, args, 3);
      args.forEach((a, i) => requireCat(node, i, a, isString, "STRING"));
      return { type: T.STRING(anyNullable(args)), src: nullSafe(ctx, args, ([x, a, b]) => `${x}.split(${a}).join(${b})`) };
    }
    case "repeat": case "lpad": case "rpad": case "position": {
      const rt = fn === "position" ? T.INT(anyNullable(args)) : T.STRING(anyNullable(args) || fn !== "repeat");
      return { type: rt, src: nullSafe(ctx, args, (r) => `h.${fn}(${r.join(",")})`) };
    }
    case "extract": {
      const a = args[0]!;
      requireCat(node, 0, a, (t) => isTemporal(t) || t.root === "DATE" || t.root === "TIME", "a temporal value");
      const unit = ctx.constant((node.args[1] as { value: string }).value);
      const root = ctx.constant(a.type.root);
      return { type: T.BIGINT(a.type.isNullable), src: nullSafe(ctx, [a], ([x]) => `h.extract(${unit},${x},${root})`) };
    }
    case "floorTime": case "ceilTime": {
      const a = args[0]!;
      requireCat(node, 0, a, isTemporal, "TIMESTAMP");
      const unit = ctx.constant((node.args[1] as { value: string }).value);
      return { type: a.type, src: nullSafe(ctx, [a], ([x]) => `h.floorTime(${x},${unit},${fn === "ceilTime"})`) };
    }
    case "intervalYears": case "intervalQuarters": case "intervalMonths":
    case "intervalWeeks": case "intervalDays": case "intervalHours": case "intervalMinutes": case "intervalSeconds": case "intervalMillis": {
      arity(node, args, 1);
      requireCat(node, 0, args[0]!, isNumeric, "NUMERIC");
      const factor = {
        intervalYears: 12, intervalQuarters: 3, intervalMonths: 1, intervalWeeks: 604800000, intervalDays: 86400000,
        intervalHours: 3600000, intervalMinutes: 60000, intervalSeconds: 1000, intervalMillis: 1,
      }[fn];
      const yearMonth = fn === "intervalYears" || fn === "intervalQuarters" || fn === "intervalMonths";
      const type = new DataType(yearMonth ? "INTERVAL_YEAR_MONTH" : "INTERVAL_DAY_TIME", args[0]!.type.isNullable);
      const a = args[0]!;
      const num = a.type.root === "DECIMAL" ? (r: string) => `${r}.toNumber()` : (r: string) => r;
      return { type, src: nullSafe(ctx, [a], ([x]) => `Math.round(${num(x!)}*${factor})`) };
    }
    default: {
      const resolved = ctx.resolveFunction?.(fn, args, ctx, node);
      if (resolved) return resolved;
      throw new ValidationError(`unknown function '${fn}' in ${nodeToString(node)}`);
    }
  }
}

/** The display name Flink's Table API derives for an unnamed select item at position i. */
export function outputName(node: ExprNode, i: number): string {
  if (node.kind === "Alias") return node.name;
  if (node.kind === "Column") return node.name;
  return `_c${i}`;
}
