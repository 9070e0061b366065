import { type ExprNode, callNode, col, literal } from "../expressions/node.js";
import { ValidationError } from "../types/errors.js";
import type { OverWindowDefinition } from "./windows/over-windows.js";

/** The name the SQL binder gives the one over window of a SELECT. */
export const OVER_ALIAS = "$over";

type Call = Extract<ExprNode, { kind: "Call" }>;

export function containsOver(e: ExprNode): boolean {
  switch (e.kind) {
    case "Call": return e.fn === "$OVER" || e.args.some(containsOver);
    case "Alias": case "Sort": case "Argument": return containsOver(e.expr);
    default: return false;
  }
}

/**
 * The over window of a SELECT's `agg OVER (...)` items (as the expression parser leaves them, `$OVER(agg,
 * $partitionBy, $orderBy, $frame)`) and the items with each call replaced by the Table API's `agg.over($over)`.
 * As in Flink's streaming planner, all OVER aggregates of one SELECT must use the same window.
 */
export function overWindowOf(items: readonly ExprNode[]): { window: OverWindowDefinition; items: ExprNode[] } {
  let spec: string | undefined;
  let window: OverWindowDefinition | undefined;
  const rewrite = (e: ExprNode): ExprNode => {
    switch (e.kind) {
      case "Call": {
        if (e.fn !== "$OVER") return { ...e, args: e.args.map(rewrite) };
        const key = JSON.stringify(e.args.slice(1));
        if (spec === undefined) {
          spec = key;
          window = definition(e);
        } else if (spec !== key) {
          throw new ValidationError("all OVER aggregates of one SELECT must use the same window (PARTITION BY, ORDER BY and frame), as in Flink's streaming planner");
        }
        return callNode("over", [e.args[0]!, col(OVER_ALIAS)]);
      }
      case "Alias": return { ...e, expr: rewrite(e.expr) };
      default: return e;
    }
  };
  const out = items.map(rewrite);
  return { window: window!, items: out };
}

function definition(over: Call): OverWindowDefinition {
  const [, partition, order, frame] = over.args as [ExprNode, Call, Call, Call];
  if (order.args.length !== 1) {
    throw new ValidationError(`OVER needs exactly one ORDER BY expression (a time attribute, or a column), got ${order.args.length}`);
  }
  const key = order.args[0] as Extract<ExprNode, { kind: "Sort" }>;
  if (!key.ascending) throw new ValidationError("OVER ... ORDER BY must be ascending (Flink's streaming OVER aggregates order by time, ASC)");
  const mode = (frame.args[0] as { value: string }).value;
  const p = frame.args[1]!;
  const unbounded = p.kind === "Call" && p.fn === "$unbounded";
  const current = p.kind === "Call" && p.fn === "$current";
  let preceding: ExprNode;
  if (mode === "ROWS") {
    if (unbounded) preceding = callNode("unboundedRow", []);
    else if (current) preceding = callNode("rowInterval", [literal(0)]);
    else if (p.kind === "Literal" && typeof p.value === "number" && Number.isSafeInteger(p.value) && p.value >= 0) preceding = callNode("rowInterval", [p]);
    else throw new ValidationError("ROWS BETWEEN n PRECEDING needs a non-negative whole number of rows n");
  } else {
    if (current) throw new ValidationError("RANGE BETWEEN CURRENT ROW AND CURRENT ROW is not supported; use RANGE BETWEEN UNBOUNDED PRECEDING or an interval PRECEDING");
    preceding = unbounded ? callNode("unboundedRange", []) : p;
  }
  return {
    alias: OVER_ALIAS, partitionBy: partition.args, orderBy: key.expr, preceding,
    following: callNode(mode === "ROWS" ? "currentRow" : "currentRange", []),
  };
}
