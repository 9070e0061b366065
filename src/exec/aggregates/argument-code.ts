import { CodegenContext, type FunctionResolver, compileExpr } from "../../expressions/compile.js";
import type { AggCall } from "../../plan/nodes.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";

/** The aggregate arguments of a record as generated code: statements assigning `x<i>` for call i. */
export interface ArgumentCode {
  /** Statements evaluating the arguments (may throw: an expression failing on the record). */
  readonly read: string;
  /** The variables `read` assigns (to be declared by the caller). */
  readonly vars: readonly string[];
  /** Per call: the variable holding its argument, or `null` for a call that needs none. */
  readonly xs: readonly string[];
}

/**
 * Compiles the arguments of aggregate calls over `ctx`'s record variable: no argument (COUNT(*)) is null,
 * one is its value, several are an array (user functions). `needed(i)` false skips call i (a count of rows
 * reads no argument).
 */
export function argumentReads(calls: readonly AggCall[], ctx: CodegenContext, needed: (i: number) => boolean = () => true): ArgumentCode {
  let read = "";
  const vars: string[] = [];
  // calls over the same argument (SUM(v), MAX(v)) share its evaluation
  const bySource = new Map<string, string>();
  const xs = calls.map((a, i) => {
    if (!needed(i)) return "null";
    if (a.args.length === 0) return "null";
    const src = a.args.length === 1 ? compileExpr(a.args[0]!, ctx).src : `[${a.args.map((x) => compileExpr(x, ctx).src).join(",")}]`;
    const seen = a.args.length === 1 ? bySource.get(src) : undefined; // an array is a fresh value per call
    if (seen !== undefined) return seen;
    read += `x${i}=${src};`;
    vars.push(`x${i}`);
    bySource.set(src, `x${i}`);
    return `x${i}`;
  });
  return { read, vars, xs };
}

/** Generated `(r, o) => { o[0] = <argument of call 0>; ... }`: all aggregate arguments of a record in one call. */
export type ArgumentReader = (r: readonly unknown[], o: unknown[]) => void;

/** An ArgumentReader for operators that keep their rows' arguments (session windows, over windows). */
export function argumentReader(calls: readonly AggCall[], schema: ResolvedSchema, resolveFunction?: FunctionResolver): ArgumentReader {
  const ctx = new CodegenContext(schema, resolveFunction, "r");
  const args = argumentReads(calls, ctx);
  const decl = args.vars.length > 0 ? `let ${args.vars.join(",")};` : "";
  return ctx.build<ArgumentReader>(`function(r,o){${ctx.tempDeclarations()}${decl}${args.read}${args.xs.map((x, i) => `o[${i}]=${x};`).join("")}}`);
}
