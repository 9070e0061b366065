import type { ExprNode } from "../expressions/node.js";
import { ValidationError } from "../types/errors.js";
import * as plan from "../plan/builders.js";
import type { PlanNode } from "../plan/nodes.js";
import { deduplicateNode } from "../plan/nodes/deduplicate.js";
import { rankNode } from "../plan/nodes/rank.js";
import { setOpNode } from "../plan/nodes/set-op.js";
import { type SortNode, sortNode } from "../plan/nodes/sort.js";
import { resolveKeyColumns, resolveSortKeys } from "../plan/sort-keys.js";

/**
 * Plan builders behind Table.orderBy / offset / fetch / limit / topN / deduplicate / intersect / minus.
 * OFFSET and FETCH belong to the sort they follow (as in Flink's LogicalSort): `orderBy(a).offset(2).fetch(3)`
 * is one Sort node; on a table that is not sorted they make a Sort without keys (a plain LIMIT).
 */
export function orderBy(input: PlanNode, items: readonly ExprNode[]): PlanNode {
  if (items.length === 0) throw new ValidationError("orderBy needs at least one column, e.g. orderBy($(\"price\").desc())");
  return sortNode({ input, keys: resolveSortKeys(items, input.schema, "orderBy"), offset: 0 });
}

const openSort = (n: PlanNode): n is SortNode => n.kind === "Sort" && n.fetch === undefined;

export function offset(input: PlanNode, n: number): PlanNode {
  if (openSort(input) && input.offset === 0) return sortNode({ input: input.input, keys: input.keys, offset: n });
  return sortNode({ input, keys: [], offset: n });
}

export function fetch(input: PlanNode, n: number): PlanNode {
  if (openSort(input)) return sortNode({ input: input.input, keys: input.keys, offset: input.offset, fetch: n });
  return sortNode({ input, keys: [], offset: 0, fetch: n });
}

export interface TopNSpec {
  readonly partitionBy?: readonly unknown[];
  readonly orderBy: readonly unknown[];
  readonly rowNumber?: string;
  /** Skip the first `offset` rows of each partition (ranks offset+1 .. offset+n). */
  readonly offset?: number;
}

export function topN(input: PlanNode, n: number, spec: TopNSpec): PlanNode {
  if (spec === null || typeof spec !== "object" || !Array.isArray(spec.orderBy)) {
    throw new ValidationError("topN: expected topN(n, { partitionBy: [...], orderBy: [...], rowNumber?: \"rn\" })");
  }
  if (!Number.isSafeInteger(n) || n < 1) throw new ValidationError(`topN: n must be a positive integer, got ${n}`);
  const start = (spec.offset ?? 0) + 1;
  if (!Number.isSafeInteger(start) || start < 1) throw new ValidationError(`topN: offset must be a non-negative integer, got ${spec.offset}`);
  return rankNode({
    input,
    partitionKeys: resolveKeyColumns(exprs(spec.partitionBy ?? [], "topN partitionBy"), input.schema, "topN partitionBy"),
    orderKeys: resolveSortKeys(exprs(spec.orderBy, "topN orderBy"), input.schema, "topN orderBy"),
    rankStart: start, rankEnd: start + n - 1,
    ...(spec.rowNumber === undefined ? {} : { rankNumber: checkName(spec.rowNumber) }),
  });
}

export interface DeduplicateSpec {
  readonly keys: readonly unknown[];
  readonly keep: "first" | "last";
  /** An event-time attribute; without it rows are ordered by processing time (arrival). */
  readonly orderBy?: unknown;
}

export function deduplicate(input: PlanNode, spec: DeduplicateSpec): PlanNode {
  if (spec === null || typeof spec !== "object" || (spec.keep !== "first" && spec.keep !== "last")) {
    throw new ValidationError("deduplicate: expected deduplicate({ keys: [...], keep: \"first\" | \"last\", orderBy?: $(\"rowtime\") })");
  }
  const keys = resolveKeyColumns(exprs(spec.keys ?? [], "deduplicate keys"), input.schema, "deduplicate keys");
  let rowtime: number | undefined;
  if (spec.orderBy !== undefined) {
    const [c] = resolveKeyColumns(exprs([spec.orderBy], "deduplicate orderBy"), input.schema, "deduplicate orderBy");
    rowtime = c;
  }
  return deduplicateNode({ input, keys, keepLast: spec.keep === "last", ...(rowtime === undefined ? {} : { rowtime }) });
}

export function setOp(left: PlanNode, right: PlanNode, op: "INTERSECT" | "MINUS", all: boolean): PlanNode {
  // the same column count and type rules as UNION, and the same casts to the common types
  const u = plan.unionAll([left, right]);
  return setOpNode({ schema: u.schema, left: u.inputs[0]!, right: u.inputs[1]!, op, all });
}

function checkName(name: unknown): string {
  if (typeof name !== "string" || name.length === 0) throw new ValidationError(`topN: rowNumber must be a column name, got ${String(name)}`);
  return name;
}

function exprs(items: readonly unknown[], what: string): ExprNode[] {
  if (!Array.isArray(items)) throw new ValidationError(`${what}: expected an array of column references`);
  return items.map((f, i) => {
    if (f === null || typeof f !== "object" || !("node" in f)) throw new ValidationError(`${what}: argument ${i + 1} is not an expression; use $("column")`);
    return (f as { node: ExprNode }).node;
  });
}
