import { generate, shapeName } from "./codegen.js";
import { ValidationError } from "../types/errors.js";
import { DataType } from "../types/data-type.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";
import { coerceValue, inferType } from "../types/values.js";
import { castFunction, isIdentityCast } from "./cast.js";
import { type BuiltinCompile, builtin } from "./builtin-function.js";
import { COMPARISONS } from "./compile-logic.js";
import { BUILTINS } from "./builtins.js";
import { type Compiled, arity, isNullType, nullSafe } from "./compile-support.js";
import { checkExpressionDepth } from "./depth.js";
import { helpers } from "./helpers.js";
import { type CallNode, type ExprNode, type LiteralNode, nodeToString } from "./node.js";

export type { Compiled } from "./compile-support.js";

/**
 * Resolves expression trees against a schema (type inference + validation) and generates JavaScript
 * source for them. A whole operator's expressions become ONE generated function, so rows never walk a
 * tree: `$("price").times(0.908)` over a NOT NULL DOUBLE column compiles to `r[2]*0.908`.
 *
 * Null handling follows SQL: operands that may be null are bound to temporaries and tested once;
 * operands whose type is NOT NULL skip the test. The functions themselves live in compile-numeric,
 * compile-logic, compile-string, compile-temporal and cast; docs/expressions.md lists their rules.
 */

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

  /**
   * The job's processing-time clock (JobSettings.clock) that `PROCTIME()` reads; set by the operators that
   * evaluate it (scans, calcs). Without one `PROCTIME()` reads the wall clock.
   */
  clock: (() => number) | undefined = undefined;

  /** Sets the processing-time clock `PROCTIME()` reads in this context's code; returns this context. */
  withClock(clock: () => number): this {
    this.clock = clock;
    return this;
  }

  /** A context over another record variable and schema that shares this one's constants and temporaries. */
  stage(schema: ResolvedSchema, rowVar: string): CodegenContext {
    const next = new CodegenContext(schema, this.resolveFunction, rowVar, this.pool);
    next.clock = this.clock;
    return next;
  }

  get consts(): unknown[] {
    return this.pool.consts;
  }

  /** A reference (`c[i]`) to a value the generated code needs: a RegExp, a Set, a converter, a message. */
  constant(v: unknown): string {
    this.pool.consts.push(v);
    return `c[${this.pool.consts.length - 1}]`;
  }

  temp(): string {
    return `t${this.pool.temps++}`;
  }

  /** Temporaries allocated so far (in this context's pool). */
  get tempCount(): number {
    return this.pool.temps;
  }

  tempDeclarations(): string {
    if (this.pool.temps === 0) return "";
    return `let ${Array.from({ length: this.pool.temps }, (_, i) => `t${i}`).join(",")};`;
  }

  /**
   * Builds `(c, h) => <factory body>`; `body` is the source of a function expression using the
   * constants and helpers. Called once per operator at planning time.
   */
  build<F>(body: string, site = "expr", name?: string): F {
    const text = `"use strict"; return ${body};`;
    return generate<F>(site, name ?? shapeName(text), ["c", "h"], text, [this.consts, helpers]);
  }
}

export function compileExpr(node: ExprNode, ctx: CodegenContext): Compiled {
  // a whole expression (not a sub-expression of one being compiled) is checked for depth first
  if (compiling === 0) checkExpressionDepth(node);
  compiling++;
  try {
    const c = compileNode(node, ctx);
    lastCompiled.set(node, c);
    return c;
  } finally {
    compiling--;
  }
}

/** Nesting of compileExpr calls in progress (0: the next call compiles a whole expression). */
let compiling = 0;

function compileNode(node: ExprNode, ctx: CodegenContext): Compiled {
  switch (node.kind) {
    case "Column": {
      const i = ctx.schema.indexOf(node.name);
      return { type: ctx.schema.columns[i]!.type, src: `${ctx.rowVar}[${i}]` };
    }
    case "Literal":
      return compileLiteral(node, ctx);
    case "Alias":
    case "Sort":
      return compileExpr(node.expr, ctx);
    case "Call":
      return compileCall(node, ctx);
    case "Agg":
      throw new ValidationError(`aggregate ${nodeToString(node)} is only allowed in groupBy(...).select(...), select() or aggregate()`);
    default:
      throw new ValidationError(`${nodeToString(node)} cannot be used as a value expression`);
  }
}

/**
 * A literal's type is given (`lit(1, DataTypes.BIGINT())`) or inferred from the JS value: an integer
 * is INT (BIGINT beyond INT's range), another number DOUBLE, a string CHAR(n), a Date TIMESTAMP_LTZ(3),
 * a Decimal DECIMAL(p, s). The value is checked against the type like a `fromValues` value.
 */
function compileLiteral(node: LiteralNode, ctx: CodegenContext): Compiled {
  const raw = node.value === undefined ? null : node.value;
  const shown = () => `literal ${nodeToString(node)}`;
  const type = node.type ?? (typeof raw === "number" && !Number.isInteger(raw) ? new DataType("DOUBLE", false) : inferType(raw, shown));
  const value = coerceValue(type, raw, shown);
  if (value === null) return { type: type.withNullability(true), src: "null" };
  if (typeof value === "number" && Number.isFinite(value)) {
    // -0 exists only in floating point: lit(-0) as INT is 0, lit(-0, DOUBLE) stays -0.0
    return { type, src: Object.is(value, -0) && (type.root === "DOUBLE" || type.root === "FLOAT") ? "-0" : String(value + 0) };
  }
  if (typeof value === "boolean") return { type, src: String(value) };
  if (typeof value === "string") return { type, src: JSON.stringify(value) };
  return { type, src: ctx.constant(value) };
}

/**
 * CAST / TRY_CAST. The result has the target type, nullable when the operand is (CAST) or always
 * (TRY_CAST). Conversions that only relabel the value (INT to BIGINT, CHAR to STRING) cost nothing.
 */
function compileCast(node: CallNode, ctx: CodegenContext): Compiled {
  arity(node, node.args, 2);
  const arg = compileExpr(node.args[0]!, ctx);
  const to = node.args[1]!.kind === "Literal" ? node.args[1]!.type : undefined;
  if (to === undefined) throw new ValidationError(`${node.fn} needs a data type as its second argument in ${nodeToString(node)}`);
  const safe = node.fn === "tryCast";
  const type = to.withNullability(arg.type.isNullable || safe);
  if (isNullType(arg.type)) return { type: type.withNullability(true), src: "null" };
  // from VARIANT a JSON null is NULL only where the result may be NULL (Flink's VariantToPrimitiveCastRule)
  const target = arg.type.root === "VARIANT" ? type : to;
  const convert = castFunction(arg.type, target, `\`${nodeToString(node)}\``, safe); // validates the conversion now
  if (isIdentityCast(arg.type, to)) return { type, src: arg.src };
  const c = ctx.constant(convert);
  return { type, src: nullSafe(ctx, [arg], ([x]) => `${c}(${x})`) };
}

type Handler = BuiltinCompile;

/** The compile rule of every call name: the built-ins (builtins.ts) and the plan-internal `$field`. */
const HANDLERS = new Map<string, Handler>([...BUILTINS, builtin("$field", (n, a, c) => compileRowField(n, a, c))].map((f) => [f.name, f.compile]));

/**
 * `$field(row, 'name')`: one field of a ROW value (plan-internal: the row-based operations map and
 * aggregate flatten a function's ROW result with it). NULL when the row is NULL.
 */
export const ROW_FIELD = "$field";

function compileRowField(node: CallNode, args: Compiled[], ctx: CodegenContext): Compiled {
  arity(node, args, 2);
  const [row] = args;
  const name = node.args[1]!.kind === "Literal" ? node.args[1]!.value : undefined;
  const field = row!.type.root === "ROW" ? row!.type.fields.find((f) => f.name === name) : undefined;
  if (field === undefined) throw new ValidationError(`${nodeToString(node)}: ${row!.type} has no field ${JSON.stringify(name)}`);
  const key = JSON.stringify(name);
  if (!row!.type.isNullable) return { type: field.type, src: `${row!.src}[${key}]` };
  const t = ctx.temp();
  return { type: field.type.withNullability(true), src: `((${t}=${row!.src})===null?null:${t}[${key}])` };
}

function compileCall(node: CallNode, ctx: CodegenContext): Compiled {
  const tempsBefore = ctx.tempCount;
  const c = compileCallNode(node, ctx);
  return splitIfDeep(c, node, ctx, tempsBefore);
}

function compileCallNode(node: CallNode, ctx: CodegenContext): Compiled {
  if (node.fn === "cast" || node.fn === "tryCast") return compileCast(node, ctx);
  const args = node.args.map((a) => compileExpr(a, ctx));
  if (node.udf === undefined && (COMPARISONS.includes(node.fn) || node.fn === "between" || node.fn === "notBetween" || node.fn === "in")) {
    coerceTemporalLiterals(node, args, ctx);
  }
  const handler = node.udf === undefined ? HANDLERS.get(node.fn) : undefined;
  if (handler) return handler(node, args, ctx);
  const resolved = ctx.resolveFunction?.(node.fn, args, ctx, node);
  if (resolved) return resolved;
  throw new ValidationError(`unknown function '${node.fn}' in ${nodeToString(node)}`);
}

const TEMPORAL = new Set(["TIMESTAMP", "TIMESTAMP_LTZ", "TIME"]);

/**
 * Flink's implicit cast in comparisons: a string literal compared with a TIMESTAMP, TIMESTAMP_LTZ or TIME operand
 * (`ts = '2020-01-01 10:00:00'`, `ts BETWEEN '...' AND '...'`, `ts IN ('...')`) is read as a value of that type
 * once, when the expression is compiled; a literal that is no such value is a ValidationError naming it.
 * (Numbers and strings are not compared: Flink rejects `1 = '1'`.) Replaces entries of `args` in place.
 */
function coerceTemporalLiterals(node: CallNode, args: Compiled[], ctx: CodegenContext): void {
  const target = args.find((a) => TEMPORAL.has(a.type.root));
  if (target === undefined) return;
  node.args.forEach((a, i) => {
    if (a.kind !== "Literal" || typeof a.value !== "string" || (a.type !== undefined && a.type.root !== "VARCHAR" && a.type.root !== "CHAR")) return;
    if (!(args[i]!.type.root === "CHAR" || args[i]!.type.root === "VARCHAR")) return;
    const to = target.type.withNullability(false).withTimeAttribute(undefined);
    let value: unknown;
    try {
      value = castFunction(args[i]!.type, to, `\`${nodeToString(node)}\``, false)(a.value);
    } catch (e) {
      throw new ValidationError(`'${a.value}' in ${nodeToString(node)} is not a ${to} value: ${(e as Error).message}`, { cause: e });
    }
    args[i] = { type: to, src: ctx.constant(value) };
  });
}

/**
 * Deep expressions (a thousand nested `plus`, a long CASE chain, a long `||` chain) nest their generated
 * source as deeply — parentheses, conditional operators — and V8's parser gives up at a nesting of about a
 * thousand, at compile time or, for lazily compiled functions, on the first row. So every SPLIT_DEPTH levels
 * of calls, the subtree's source becomes a function of its own, called where the source stood:
 * `c[k](r)`. The call keeps the evaluation order and laziness (a CASE branch not taken is not evaluated),
 * each function's source stays shallow, and a 1000-level chain costs ~30 nested calls per row. The
 * subtree's temporaries are declared again inside its function (they are local to the subtree's source);
 * constants and helpers are the operator's. Expressions below the depth compile exactly as before.
 */
const SPLIT_DEPTH = 32;
/** Call levels above the last split, per compiled result (absent: 0 — columns, literals, split results). */
const heights = new WeakMap<Compiled, number>();

function splitIfDeep(c: Compiled, node: CallNode, ctx: CodegenContext, tempsBefore: number): Compiled {
  let h = 0;
  for (const a of node.args) h = Math.max(h, heightOf(a));
  h += 1;
  if (h < SPLIT_DEPTH) {
    heights.set(c, h);
    return c;
  }
  const temps = Array.from({ length: ctx.tempCount - tempsBefore }, (_, i) => `t${tempsBefore + i}`);
  const fn = ctx.build<(row: unknown) => unknown>(
    `function(${ctx.rowVar}){${temps.length > 0 ? `let ${temps.join(",")};` : ""}return ${c.src};}`);
  return { type: c.type, src: `${ctx.constant(fn)}(${ctx.rowVar})` };
}

/** Call levels of an argument's last compilation, found through the node → result memo of compileExpr. */
function heightOf(node: ExprNode): number {
  const c = lastCompiled.get(node);
  return c === undefined ? 0 : heights.get(c) ?? 0;
}

/** The result of each node's latest compilation (heights are read right after the arguments compiled). */
const lastCompiled = new WeakMap<ExprNode, Compiled>();

/** The display name Flink's Table API derives for an unnamed select item at position i. */
export function outputName(node: ExprNode, i: number): string {
  if (node.kind === "Alias") return node.name;
  if (node.kind === "Column") return node.name;
  return `_c${i}`;
}
