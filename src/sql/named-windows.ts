import type { ExprNode } from "../expressions/node.js";
import type { SelectItem } from "./ast.js";

/** `WINDOW w AS (PARTITION BY ... ORDER BY ... frame)`: the spec nodes a name stands for, and where it was declared. */
export interface NamedWindow {
  readonly spec: readonly ExprNode[];
  readonly pos: number;
}

type Call = Extract<ExprNode, { kind: "Call" }>;

/**
 * Replaces every `OVER w` of the select items (`$OVER(agg, $window('w'))`, `$ROW_NUMBER($window('w'))` as the
 * expression parser leaves them) by the window's definition, so that a named window binds exactly as the same
 * window written in parentheses. `fail(message, pos)` raises a parse error at a position: an unknown name is
 * Calcite's `Window 'w' not found`.
 */
export function substituteNamedWindows(items: readonly SelectItem[], windows: ReadonlyMap<string, NamedWindow>,
  fail: (message: string, pos: number) => never): SelectItem[] {
  const lookup = (ref: ExprNode): readonly ExprNode[] => {
    const call = ref as Call & { pos?: number };
    const name = (call.args[0] as { value: string }).value;
    const w = windows.get(name);
    if (w === undefined) {
      fail(`Window '${name}' not found${windows.size === 0 ? "" : `; the WINDOW clause declares ${[...windows.keys()].map((n) => `'${n}'`).join(", ")}`}`, call.pos ?? 0);
    }
    return w.spec;
  };
  const isRef = (e: ExprNode | undefined): boolean => e !== undefined && e.kind === "Call" && e.fn === "$window";
  const rewrite = (e: ExprNode): ExprNode => {
    switch (e.kind) {
      case "Call": {
        if (e.fn === "$OVER" && isRef(e.args[1])) {
          const spec = lookup(e.args[1]!);
          const order = spec[1] as Call;
          if (order.args.some((o) => o.kind === "Sort" && o.nullsFirst !== undefined)) {
            fail("NULLS FIRST / LAST is not supported in the window of an OVER aggregate", (e as { pos?: number }).pos ?? 0);
          }
          return { ...e, args: [e.args[0]!, ...spec] };
        }
        // ROW_NUMBER reads the window's PARTITION BY and ORDER BY only (a frame has no meaning for it)
        if (e.fn === "$ROW_NUMBER" && isRef(e.args[0])) return { ...e, args: lookup(e.args[0]!).slice(0, 2) };
        return { ...e, args: e.args.map(rewrite) };
      }
      case "Alias": return { ...e, expr: rewrite(e.expr) };
      default: return e;
    }
  };
  return items.map((it) => (it.star === undefined ? { ...it, expr: rewrite(it.expr) } : it));
}
