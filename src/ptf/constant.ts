import { CodegenContext, type FunctionResolver, compileExpr } from "../expressions/compile.js";
import { type ExprNode, nodeToString } from "../expressions/node.js";
import { TableError, ValidationError } from "../types/errors.js";
import type { DataType } from "../types/data-type.js";
import { ResolvedSchema } from "../types/resolved-schema.js";
import { describeThrown, thrownIs } from "../types/describe-thrown.js";

const EMPTY = new ResolvedSchema([]);

/** The first column reference in an expression, if any. */
function findColumn(n: ExprNode): string | undefined {
  switch (n.kind) {
    case "Column": return n.name;
    case "Alias": case "Sort": case "Argument": return findColumn(n.expr);
    case "Call": case "Agg": for (const a of n.args) { const c = findColumn(a); if (c !== undefined) return c; } return undefined;
    default: return undefined;
  }
}

/**
 * Evaluates a scalar argument once, at planning time: PTF scalar arguments are constants (literals or
 * expressions over literals such as `lit(1).hours()` or `lit("TRUE").cast(DataTypes.BOOLEAN())`).
 */
export function evaluateConstant(node: ExprNode, what: string, resolveFunction?: FunctionResolver): { type: DataType; value: unknown } {
  const column = findColumn(node);
  if (column !== undefined) {
    throw new ValidationError(`${what} must be a constant expression, but ${nodeToString(node)} refers to column '${column}'`);
  }
  let type: DataType;
  let fn: (r: unknown[]) => unknown;
  try {
    const ctx = new CodegenContext(EMPTY, resolveFunction);
    const c = compileExpr(node, ctx);
    type = c.type;
    fn = ctx.build(`function(r){${ctx.tempDeclarations()}return ${c.src};}`);
  } catch (e) {
    if (thrownIs(e, TableError)) throw new ValidationError(`${what}: ${e.message}`, { cause: e });
    throw e;
  }
  try {
    return { type, value: fn([]) };
  } catch (e) {
    throw new ValidationError(`${what}: evaluating ${nodeToString(node)} failed: ${describeThrown(e)}`, { cause: e });
  }
}
