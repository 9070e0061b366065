import { CodegenContext, type FunctionResolver, compileExpr } from "../../../expressions/compile.js";
import type { ExprNode } from "../../../expressions/node.js";
import type { ResolvedSchema } from "../../../types/resolved-schema.js";
import { compileKeys } from "../../aggregates/key-code.js";
import { generate, nextGeneratedName } from "../../../expressions/codegen.js";

/**
 * The generated per-record pieces every join operator shares: the equality key of a row, the joined row of
 * two rows, the padded rows of an outer join and the residual condition over a joined row. Each is one
 * function per operator, built when the job graph is built, through the code-generation funnel; names are
 * counted per job (`nextGeneratedName`), so that V8 keeps type feedback per operator while identical jobs
 * share their compiled code (docs/architecture.md).
 */

/**
 * The probe of a row's equality key (a number, a string or a canonical string; several keys are encoded into
 * one string), or null when a key is NULL: a NULL key never matches. No keys (a cross join): every row has
 * the same probe, 0.
 */
export function compileJoinKey(keys: readonly ExprNode[], schema: ResolvedSchema, resolve?: FunctionResolver): (row: unknown[]) => unknown {
  if (keys.length === 0) return () => 0;
  const ctx = new CodegenContext(schema, resolve, "r");
  const code = compileKeys(keys, ctx);
  const nullTest = code.columns.map((v) => `${v}===null`).join("||");
  const vars = code.vars.length > 0 ? `let ${code.vars.join(",")};` : "";
  return ctx.build(`(function ${nextGeneratedName("joinKey")}(r){${vars}${ctx.tempDeclarations()}${code.read}return (${nullTest})?null:${code.probe};})`);
}

/** `[l0, l1, ..., r0, r1, ...]` with the positions written out. */
export function compileCombine(leftSize: number, rightSize: number): (l: unknown[], r: unknown[]) => unknown[] {
  const items = [...Array.from({ length: leftSize }, (_, i) => `l[${i}]`), ...Array.from({ length: rightSize }, (_, i) => `r[${i}]`)];
  const name = nextGeneratedName("combine");
  return generate("join", name, [], `return function ${name}(l,r){return [${items.join(",")}];};`, []);
}

/** The output row of a left row without partner: `[l0, ..., null, ...]`; `leftRow` false: `[null, ..., r0, ...]`. */
export function compilePad(leftSize: number, rightSize: number, leftRow: boolean): (x: unknown[]) => unknown[] {
  const items = leftRow
    ? [...Array.from({ length: leftSize }, (_, i) => `x[${i}]`), ...Array.from({ length: rightSize }, () => "null")]
    : [...Array.from({ length: leftSize }, () => "null"), ...Array.from({ length: rightSize }, (_, i) => `x[${i}]`)];
  const name = nextGeneratedName("pad");
  return generate("join", name, [], `return function ${name}(x){return [${items.join(",")}];};`, []);
}

/** The residual condition over a joined row: true only when it is TRUE (NULL and FALSE reject the pair). */
export function compileResidual(residual: ExprNode | undefined, schema: ResolvedSchema, resolve?: FunctionResolver): ((row: unknown[]) => boolean) | undefined {
  if (residual === undefined) return undefined;
  const ctx = new CodegenContext(schema, resolve, "r");
  const c = compileExpr(residual, ctx);
  return ctx.build(`(function ${nextGeneratedName("residual")}(r){${ctx.tempDeclarations()}return (${c.src})===true;})`);
}
