import type { CallNode, ExprNode } from "../expressions/node.js";
import { type FilterNode, type LookupJoinNode, type PlanNode, copyNode, countConsumers, inputsOf, withInputs } from "./nodes.js";
import { type PushedFilter, isLookupFilterSupport } from "./pushed-filter.js";
import { type FilterColumn, splitAnd, toPushed } from "./pushdown.js";

/**
 * Filter pushdown into lookup sources (Flink pushes a lookup join's conditions on the dimension table alone
 * into its LookupTableSource when the source supports filter pushdown, e.g. the test source's
 * 'filterable-fields'). A conjunct of a lookup join's condition that compares a column of the lookup source
 * with literals (the comparisons a scan takes: plan/pushdown.ts) is offered to the source; the ones it accepts
 * leave the join's residual and the source applies them to the rows it returns (the jdbc connector adds them to
 * its lookup query). The same is done for the conjuncts of a Filter right above an INNER lookup join read by
 * nothing else (a WHERE): for an inner join, a dimension row failing such a conjunct gives no output row either
 * way. A LEFT join keeps its WHERE (a padded row would then be filtered otherwise). The rows are the same
 * with and without pushdown; `explain()` shows the pushed filters (`filter=[age > 30]`).
 */
export function pushIntoLookups(root: PlanNode): PlanNode {
  const consumers = countConsumers(root);
  const done = new Map<PlanNode, PlanNode>();
  const visit = (n: PlanNode): PlanNode => {
    const hit = done.get(n);
    if (hit) return hit;
    let out = rewrite(n, consumers);
    const inputs = inputsOf(out);
    const next = inputs.map(visit);
    if (next.some((x, i) => x !== inputs[i])) out = withInputs(out, next);
    done.set(n, out);
    return out;
  };
  return visit(root);
}

function rewrite(n: PlanNode, consumers: Map<PlanNode, number>): PlanNode {
  if (n.kind === "LookupJoin" && n.residual !== undefined) {
    const r = push(n, n.residual);
    if (r === undefined) return n;
    return copyNode(n, { reader: r.reader, pushedFilters: r.filters, residual: r.kept });
  }
  if (n.kind === "Filter" && n.input.kind === "LookupJoin" && n.input.joinType === "INNER" && consumers.get(n.input) === 1) {
    return pushWhere(n, n.input);
  }
  return n;
}

function pushWhere(f: FilterNode, join: LookupJoinNode): PlanNode {
  const r = push(join, f.predicate);
  if (r === undefined) return f;
  const newJoin = copyNode(join, { reader: r.reader, pushedFilters: r.filters });
  return r.kept === undefined ? newJoin : copyNode(f, { input: newJoin, predicate: r.kept });
}

/** The conjuncts of `condition` the join's lookup source accepts, pushed: its new reader, all its filters, what is left. */
function push(join: LookupJoinNode, condition: ExprNode): { reader: unknown; filters: readonly PushedFilter[]; kept: ExprNode | undefined } | undefined {
  const reader = join.reader;
  if (!isLookupFilterSupport(reader)) return undefined;
  const input = join.input.schema;
  const lookup = join.lookupSchema;
  const columnOf = (name: string): FilterColumn | undefined => {
    if (input.has(name) || !lookup.has(name)) return undefined;
    const i = lookup.indexOf(name);
    const physical = reader.lookupColumns[i];
    return physical === undefined ? undefined : { name: physical, type: lookup.columns[i]!.type };
  };
  const pushed: PushedFilter[] = [];
  const kept: ExprNode[] = [];
  for (const c of splitAnd(condition)) {
    const p = toPushed(c, columnOf);
    if (p !== undefined && reader.acceptLookupFilter(p)) pushed.push(p);
    else kept.push(c);
  }
  if (pushed.length === 0) return undefined;
  const rest = kept.length === 0 ? undefined : kept.reduce((a, b) => ({ kind: "Call", fn: "and", args: [a, b] }) as CallNode);
  return { reader: reader.withLookupFilters(pushed), filters: [...(join.pushedFilters ?? []), ...pushed], kept: rest };
}
