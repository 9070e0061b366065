import { CodegenContext, compileExpr } from "../expressions/compile.js";
import { type ExprNode, callNode, nodeToString } from "../expressions/node.js";
import { ValidationError } from "../types/errors.js";
import { type Column, ResolvedSchema } from "../types/resolved-schema.js";
import { type PlanContext, containsAgg, typeOf } from "./builders.js";
import type { PlanNode } from "./nodes.js";
import { type IntervalJoinNode, intervalJoinNode } from "./nodes/interval-join.js";
import { type JoinNode, type JoinType, joinNode } from "./nodes/join.js";

/**
 * Plans `left.join(right, predicate)` and the outer joins, as Flink's planner does for a regular join:
 * - the output is left columns + right columns; a name on both sides is an error (Flink requires distinct names);
 * - the outer side's partner columns become nullable; time attributes become plain timestamps (a regular
 *   join emits rows in any time order);
 * - the predicate's conjuncts `l = r` (one side's columns each) become equality keys, the rest stays a residual;
 * - two conjuncts bounding a rowtime attribute of each side against each other (`lt >= rt - 5 s AND lt <= rt`,
 *   `lt.between(rt - 5 s, rt + 5 s)`) make it an interval join instead (IntervalJoinNode); so do two bounding a
 *   processing-time attribute of each side (a processing-time interval join).
 */
export function planJoin(
  left: PlanNode, right: PlanNode, joinType: JoinType, predicate: ExprNode | undefined, pc: PlanContext, what: string,
): JoinNode | IntervalJoinNode {
  const clash = left.schema.names.filter((n) => right.schema.has(n));
  if (clash.length > 0) {
    throw new ValidationError(`${what}: column '${clash[0]}' exists on both sides of the join (left [${left.schema.names.join(", ")}], `
      + `right [${right.schema.names.join(", ")}]); rename one of them first, e.g. with renameColumns($("${clash[0]}").as("r_${clash[0]}"))`);
  }
  if (predicate === undefined && joinType !== "INNER" && joinType !== "LEFT") {
    throw new ValidationError(`${what}: a join predicate is required`);
  }
  const pad = (cols: readonly Column[], nullable: boolean, keepTime: boolean): Column[] => cols.map((c) => ({
    name: c.name,
    type: (nullable ? c.type.withNullability(true) : c.type).withTimeAttribute(keepTime ? c.type.timeAttribute : undefined) as Column["type"],
  }));
  const leftPadded = joinType === "RIGHT" || joinType === "FULL";
  const rightPadded = joinType === "LEFT" || joinType === "FULL";
  const typing = new ResolvedSchema([...left.schema.columns, ...right.schema.columns]);
  if (predicate !== undefined) {
    if (containsAgg(predicate)) throw new ValidationError(`${what}: aggregates are not allowed in a join predicate: ${nodeToString(predicate)}`);
    const t = typeOf(predicate, typing, pc);
    if (t.root !== "BOOLEAN" && t.root !== "NULL") {
      throw new ValidationError(`${what}: the join predicate ${nodeToString(predicate)} must be BOOLEAN, got ${t}`);
    }
  }
  const parts = predicate === undefined ? [] : conjuncts(predicate);
  const side = (e: ExprNode) => sideOf(e, left.schema, right.schema);
  const leftKeys: ExprNode[] = [];
  const rightKeys: ExprNode[] = [];
  let rest: ExprNode[] = [];
  for (const p of parts) {
    if (p.kind === "Call" && p.fn === "equals" && p.udf === undefined) {
      const [a, b] = p.args as [ExprNode, ExprNode];
      const sa = side(a);
      const sb = side(b);
      if (sa === "L" && sb === "R") { leftKeys.push(a); rightKeys.push(b); continue; }
      if (sa === "R" && sb === "L") { leftKeys.push(b); rightKeys.push(a); continue; }
    }
    rest.push(p);
  }
  for (let i = 0; i < leftKeys.length; i++) checkKeyTypes(leftKeys[i]!, rightKeys[i]!, left, right, pc, what);

  const bounds = intervalBounds(rest, left.schema, right.schema, pc);
  const interval = bounds;
  if (interval !== undefined) rest = rest.filter((p) => !interval.used.includes(p));
  const schema = new ResolvedSchema([
    ...pad(left.schema.columns, leftPadded, interval !== undefined),
    ...pad(right.schema.columns, rightPadded, interval !== undefined),
  ]);
  const residual = rest.length === 0 ? undefined : rest.length === 1 ? rest[0] : callNode("and", rest);
  const common = {
    schema, left, right, joinType, leftKeys, rightKeys,
    ...(residual !== undefined ? { residual } : {}),
    ...(predicate !== undefined ? { condition: predicate } : {}),
  };
  if (interval !== undefined) {
    return intervalJoinNode({
      ...common, leftTime: interval.leftTime, rightTime: interval.rightTime, lower: interval.lower, upper: interval.upper,
      ...(interval.proc ? { procTime: true } : {}),
    });
  }
  return joinNode(common);
}

/** `a AND b AND c` as [a, b, c]. */
export function conjuncts(e: ExprNode): ExprNode[] {
  if (e.kind === "Call" && e.fn === "and" && e.udf === undefined) return e.args.flatMap(conjuncts);
  return [e];
}

/** Which input an expression reads: only the left ("L"), only the right ("R"), both, or none (a constant). */
export function sideOf(e: ExprNode, left: ResolvedSchema, right: ResolvedSchema): "L" | "R" | "both" | "none" {
  let l = false;
  let r = false;
  const visit = (n: ExprNode): void => {
    switch (n.kind) {
      case "Column":
        if (left.has(n.name)) l = true;
        else if (right.has(n.name)) r = true;
        return;
      case "Call": n.args.forEach(visit); return;
      case "Alias": case "Sort": case "Argument": visit(n.expr); return;
      case "Agg": n.args.forEach(visit); return;
      default: return;
    }
  };
  visit(e);
  return l && r ? "both" : l ? "L" : r ? "R" : "none";
}

const NUMERIC = new Set(["TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE"]);
const family = (root: string) => (NUMERIC.has(root) ? "NUMERIC" : root === "CHAR" || root === "VARCHAR" ? "STRING" : root === "TIMESTAMP_LTZ" ? "TIMESTAMP" : root);

/** Equality keys are compared by value: both sides must be of one type family (DECIMAL with DECIMAL, numbers with numbers ...). */
function checkKeyTypes(l: ExprNode, r: ExprNode, left: PlanNode, right: PlanNode, pc: PlanContext, what: string): void {
  const lt = typeOf(l, left.schema, pc);
  const rt = typeOf(r, right.schema, pc);
  if (family(lt.root) !== family(rt.root)) {
    throw new ValidationError(`${what}: the equality ${nodeToString(l)} = ${nodeToString(r)} compares ${lt} with ${rt}; cast one side so both have the same type`);
  }
}

interface IntervalBounds {
  readonly leftTime: number;
  readonly rightTime: number;
  /** leftTime - rightTime >= lower (ms) */
  readonly lower: number;
  /** leftTime - rightTime <= upper (ms) */
  readonly upper: number;
  readonly used: readonly ExprNode[];
  /** The bounded attributes are processing-time ones. */
  readonly proc: boolean;
}

/**
 * Finds the time bounds of an interval join among the conjuncts: comparisons of a left rowtime attribute with
 * a right one, each optionally plus or minus a constant interval. Strict bounds (`<`, `>`) move by 1 ms, as in
 * Flink. Both a lower and an upper bound on the same pair of attributes are needed; otherwise undefined.
 */
function intervalBounds(parts: readonly ExprNode[], left: ResolvedSchema, right: ResolvedSchema, pc: PlanContext): IntervalBounds | undefined {
  let pair: [number, number] | undefined;
  let lower = -Infinity;
  let upper = Infinity;
  const used: ExprNode[] = [];
  const term = (e: ExprNode): { side: "L" | "R"; index: number; offset: number; proc: boolean } | undefined => {
    if (e.kind === "Column") {
      const side = left.has(e.name) ? "L" : right.has(e.name) ? "R" : undefined;
      if (side === undefined) return undefined;
      const schema = side === "L" ? left : right;
      const index = schema.indexOf(e.name);
      const attr = schema.columns[index]!.type.timeAttribute;
      return attr === "ROWTIME" || attr === "PROCTIME" ? { side, index, offset: 0, proc: attr === "PROCTIME" } : undefined;
    }
    if (e.kind === "Call" && (e.fn === "plus" || e.fn === "minus") && e.udf === undefined) {
      const base = term(e.args[0]!);
      const off = constantMillis(e.args[1]!, pc);
      if (base === undefined || off === undefined) return undefined;
      return { ...base, offset: base.offset + (e.fn === "plus" ? off : -off) };
    }
    return undefined;
  };
  // a op b, with op one of >=, >, <=, <
  const compare = (a: ExprNode, op: string, b: ExprNode): boolean => {
    const ta = term(a);
    const tb = term(b);
    // both event time or both processing time (Flink's rule); a mixed pair is no interval join
    if (ta === undefined || tb === undefined || ta.side === tb.side || ta.proc !== tb.proc) return false;
    const [l, r, flip] = ta.side === "L" ? [ta, tb, false] : [tb, ta, true];
    const p: [number, number] = [l.index, r.index];
    if (pair !== undefined && (pair[0] !== p[0] || pair[1] !== p[1])) return false;
    pair = p;
    // l.t + l.off OP r.t + r.off  <=>  l.t - r.t OP r.off - l.off   (flipped when a is the right term)
    const c = flip ? l.offset - r.offset : r.offset - l.offset;
    const o = flip ? ({ ">=": "<=", ">": "<", "<=": ">=", "<": ">" } as Record<string, string>)[op]! : op;
    const d = flip ? -c : c;
    if (o === ">=") lower = Math.max(lower, d);
    else if (o === ">") lower = Math.max(lower, d + 1);
    else if (o === "<=") upper = Math.min(upper, d);
    else upper = Math.min(upper, d - 1);
    return true;
  };
  const OPS: Record<string, string> = { greaterThanOrEqual: ">=", greaterThan: ">", lessThanOrEqual: "<=", lessThan: "<" };
  for (const p of parts) {
    if (p.kind !== "Call" || p.udf !== undefined) continue;
    if (p.fn === "between") {
      const [x, lo, hi] = p.args as [ExprNode, ExprNode, ExprNode];
      const saved = { pair, lower, upper };
      if (compare(x, ">=", lo) && compare(x, "<=", hi)) used.push(p);
      else ({ pair, lower, upper } = saved);
      continue;
    }
    const op = OPS[p.fn];
    if (op !== undefined && compare(p.args[0]!, op, p.args[1]!)) used.push(p);
  }
  if (pair === undefined || lower === -Infinity || upper === Infinity) return undefined;
  const proc = left.columns[pair[0]]!.type.timeAttribute === "PROCTIME";
  return { leftTime: pair[0], rightTime: pair[1], lower, upper, used, proc };
}

/** The value of a constant day-time interval expression in milliseconds, or undefined when it is not one. */
function constantMillis(e: ExprNode, pc: PlanContext): number | undefined {
  try {
    const ctx = new CodegenContext(new ResolvedSchema([]), pc.resolveFunction);
    const c = compileExpr(e, ctx);
    if (c.type.root !== "INTERVAL_DAY_TIME") return undefined;
    const v = ctx.build<() => unknown>(`(function(){${ctx.tempDeclarations()}return ${c.src};})`)();
    return typeof v === "number" ? v : undefined;
  } catch {
    return undefined;
  }
}
