import { ValidationError } from "../types/errors.js";
import { type ExprNode, nodeToString } from "./node.js";

/**
 * The deepest expression tree (nested calls) a program may use. Planning walks an expression recursively
 * several times (function resolution, typing, code generation), each level a few stack frames; code
 * generation splits deep expressions into functions of their own (compile.ts), so a thousand nested
 * `plus`, a thousand-branch CASE chain or a thousand-part `||` chain plan and run. Deeper trees fail at
 * planning with a ValidationError naming the expression and this limit, before any recursive walk could
 * overflow the stack.
 */
export const MAX_EXPRESSION_DEPTH = 1000;

/** Nesting depth of an expression (a column or literal is 0, `plus(a, 1)` is 1), without recursion. */
export function expressionDepth(root: ExprNode): number {
  let max = 0;
  const nodes: ExprNode[] = [root];
  const depths: number[] = [0];
  while (nodes.length > 0) {
    const n = nodes.pop()!;
    const d = depths.pop()!;
    if (d > max) max = d;
    switch (n.kind) {
      case "Call": case "Agg":
        for (const a of n.args) { nodes.push(a); depths.push(d + 1); }
        break;
      case "Alias": case "Sort": case "Argument":
        nodes.push(n.expr);
        depths.push(d);
        break;
      default:
    }
  }
  return max;
}

/** Fails with a ValidationError when `e` nests deeper than MAX_EXPRESSION_DEPTH; `what` names the API call. */
export function checkExpressionDepth(e: ExprNode, what?: string): void {
  const depth = expressionDepth(e);
  if (depth <= MAX_EXPRESSION_DEPTH) return;
  throw new ValidationError(`${what === undefined ? "" : `${what}: `}the expression ${outline(e)} nests ${depth} levels of calls; the limit is ${MAX_EXPRESSION_DEPTH}. `
    + "Compute it in several steps (e.g. addColumns in stages) or as a user-defined function");
}

/** The expression's first levels, e.g. `plus(plus(plus(…, 1), 1), 1)`, so that a message stays short. */
function outline(e: ExprNode, levels = 3): string {
  switch (e.kind) {
    case "Call": case "Agg":
      if (levels === 0) return "…";
      return `${e.fn}(${e.args.map((a) => outline(a, levels - 1)).join(", ")})`;
    case "Alias": case "Sort": case "Argument":
      return outline(e.expr, levels);
    default:
      return nodeToString(e);
  }
}
