import { type ExprNode, col, nodeToString } from "../expressions/node.js";
import { ValidationError } from "../types/errors.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";

/**
 * Expands column functions in a list of items against the input schema, as Flink's ColumnFunctionsResolver:
 * `$("*")` is every column, `withColumns(...)` the selected columns in the order selected, and
 * `withoutColumns(...)` every column not selected, in schema order. Selectors are `$("a")`, 1-based
 * positions and `range(a, b)` (inclusive, by names in schema order or by positions). Column functions
 * inside a function call expand into its arguments: `concat(withColumns(range(2, 3)))`.
 */
export function expandColumnFunctions(items: readonly ExprNode[], schema: ResolvedSchema): ExprNode[] {
  const out: ExprNode[] = [];
  for (const e of items) {
    const cols = columnsOf(e, schema);
    if (cols) out.push(...cols.map(col));
    else out.push(expandInside(e, schema));
  }
  return out;
}

function expandInside(e: ExprNode, schema: ResolvedSchema): ExprNode {
  switch (e.kind) {
    case "Alias": {
      if (columnsOf(e.expr, schema)) throw new ValidationError(`${nodeToString(e)}: a column function stands for several columns and cannot be renamed with as()`);
      const inner = expandInside(e.expr, schema);
      return inner === e.expr ? e : { ...e, expr: inner };
    }
    case "Call":
    case "Agg": {
      if (!e.args.some((a) => hasColumnFunction(a))) return e;
      return { ...e, args: expandColumnFunctions(e.args, schema) };
    }
    default:
      return e;
  }
}

/** Whether a column function occurs anywhere in `root`; iterative, so a very deep expression reaches the depth check. */
function hasColumnFunction(root: ExprNode): boolean {
  const stack: ExprNode[] = [root];
  while (stack.length > 0) {
    const e = stack.pop()!;
    if (e.kind === "Column") { if (e.name === "*") return true; }
    else if (e.kind === "Call") {
      if (e.fn === "$withColumns" || e.fn === "$withoutColumns") return true;
      stack.push(...e.args);
    } else if (e.kind === "Agg") stack.push(...e.args);
    else if (e.kind === "Alias") stack.push(e.expr);
  }
  return false;
}

/** The column names a column function stands for, or undefined when `e` is none. */
function columnsOf(e: ExprNode, schema: ResolvedSchema): string[] | undefined {
  if (e.kind === "Column" && e.name === "*") return schema.names;
  if (e.kind !== "Call") return undefined;
  if (e.fn === "$withColumns") return e.args.flatMap((s) => selected(s, schema, "withColumns"));
  if (e.fn === "$withoutColumns") {
    const drop = new Set(e.args.flatMap((s) => selected(s, schema, "withoutColumns")));
    return schema.names.filter((n) => !drop.has(n));
  }
  if (e.fn === "$range") throw new ValidationError(`${rangeText(e)} selects columns only inside withColumns(...) or withoutColumns(...)`);
  return undefined;
}

function rangeText(e: ExprNode & { kind: "Call" }): string {
  return `range(${e.args.map(nodeToString).join(", ")})`;
}

function selected(s: ExprNode, schema: ResolvedSchema, what: string): string[] {
  const names = schema.names;
  const at = (v: unknown, where: string): number => {
    if (typeof v === "number") {
      if (!Number.isInteger(v) || v < 1 || v > names.length) {
        throw new ValidationError(`${what}: column position ${v} ${where}is out of range 1..${names.length} of [${names.join(", ")}]`);
      }
      return v - 1;
    }
    return schema.indexOf(String(v), `${what}: column`);
  };
  if (s.kind === "Column") return s.name === "*" ? names : [names[at(s.name, "")]!];
  if (s.kind === "Literal") return [names[at(s.value, "")]!];
  if (s.kind === "Call" && s.fn === "$range") {
    const [a, b] = s.args.map((x) => (x.kind === "Literal" ? x.value : undefined));
    const from = at(a, `in ${rangeText(s)} `);
    const to = at(b, `in ${rangeText(s)} `);
    if (from > to) throw new ValidationError(`${what}: ${rangeText(s)} is empty: '${names[from]}' comes after '${names[to]}' in [${names.join(", ")}]`);
    return names.slice(from, to + 1);
  }
  throw new ValidationError(`${what}: expected $("column"), a 1-based column position or range(a, b), got ${nodeToString(s)}`);
}
