import type { CallNode, ExprNode } from "../expressions/node.js";
import type { DataType } from "../types/data-type.js";
import { ResolvedSchema } from "../types/resolved-schema.js";
import { type FilterNode, type PlanNode, type SourceScanNode, copyNode, countConsumers, inputsOf, withInputs } from "./nodes.js";
import type { PushdownSupport, PushedFilter } from "./pushed-filter.js";

/**
 * Flink's SupportsFilterPushDown / SupportsProjectionPushDown as one plan rewrite before a job is built
 * (and before explain, so explain shows what runs). Into a scan consumed once, whose connector supports it:
 * - **filters**: the conjuncts of a Filter directly above the scan that compare a physical column with
 *   literals (`=`, `<>`, `<`, `<=`, `>`, `>=` on numbers; `=` / `<>` on strings and booleans; `IS [NOT] NULL`;
 *   `IN`; an `OR` of such comparisons, as one filter) are offered one by one; the ones the connector accepts leave the Filter (which disappears when
 *   none remain) and the source applies them;
 * - **projection**: when the scan is read only through a Project (or a Filter and a Project), the source
 *   reads only the physical columns those use. Scans with computed columns or a watermark keep every column,
 *   and nothing is filtered below a watermark declaration (the watermarks would change).
 */
export function pushIntoScans(root: PlanNode, support: (scan: SourceScanNode) => PushdownSupport | undefined): PlanNode {
  const consumers = countConsumers(root);
  const done = new Map<PlanNode, PlanNode>();
  const visit = (n: PlanNode): PlanNode => {
    const hit = done.get(n);
    if (hit) return hit;
    let out = rewrite(n, consumers, support);
    if (out === n) {
      const inputs = inputsOf(n);
      const next = inputs.map(visit);
      if (next.some((x, i) => x !== inputs[i])) out = withInputs(n, next);
    }
    done.set(n, out);
    return out;
  };
  return visit(root);
}

/** Pushes into the scan below `n` when `n` is a Filter or Project over it (or a Project over such a Filter). */
function rewrite(n: PlanNode, consumers: Map<PlanNode, number>, support: (scan: SourceScanNode) => PushdownSupport | undefined): PlanNode {
  const once = (x: PlanNode) => consumers.get(x) === 1;
  if (n.kind === "Filter" && n.input.kind === "SourceScan" && once(n.input)) {
    const s = support(n.input);
    return s ? pushFilter(n, n.input, s, undefined) : n;
  }
  if (n.kind === "Project") {
    const below = n.input;
    if (below.kind === "SourceScan" && once(below)) {
      const s = support(below);
      if (!s?.projection) return n;
      const scan = projectScan(below, columnsOf(n.exprs));
      return scan === below ? n : copyNode(n, { input: scan });
    }
    if (below.kind === "Filter" && once(below) && below.input.kind === "SourceScan" && once(below.input)) {
      const s = support(below.input);
      if (!s) return n;
      const used = s.projection ? new Set([...columnsOf(n.exprs), ...columnsOf([below.predicate])]) : undefined;
      const filtered = pushFilter(below, below.input, s, used);
      return filtered === below ? n : copyNode(n, { input: filtered });
    }
  }
  return n;
}

function pushFilter(f: FilterNode, scan: SourceScanNode, s: PushdownSupport, used: Set<string> | undefined): PlanNode {
  // watermarks are generated from the rows the scan emits: filtering below them would change them
  if (scan.watermark !== undefined) return f;
  const conjuncts = splitAnd(f.predicate);
  const pushed: PushedFilter[] = [];
  const kept: ExprNode[] = [];
  for (const c of conjuncts) {
    const p = toPushed(c, scanColumns(scan));
    if (p !== undefined && s.acceptFilter(p)) pushed.push(p);
    else kept.push(c);
  }
  let newScan: SourceScanNode = scan;
  if (pushed.length > 0) {
    const filters = [...(scan.pushdown?.filters ?? []), ...pushed];
    // partition pruning: a partitioned source lists the partitions the filters leave
    const partitions = s.partitions?.(filters);
    newScan = copyNode(scan, { pushdown: { ...(scan.pushdown ?? {}), filters, ...(partitions !== undefined ? { partitions } : {}) } });
  }
  // the columns of every conjunct stay readable: kept ones are evaluated above, pushed ones by the source
  if (used !== undefined) newScan = projectScan(newScan, used);
  if (newScan === scan) return f;
  if (kept.length === 0) return newScan;
  const predicate = kept.reduce((a, b) => ({ kind: "Call", fn: "and", args: [a, b] }) as CallNode);
  return copyNode(f, { input: newScan, predicate, schema: newScan.schema });
}

/** The scan reading only `used` physical columns (in declared order); unchanged when it reads them all or cannot. */
function projectScan(scan: SourceScanNode, used: ReadonlySet<string>): SourceScanNode {
  if (scan.computed.length > 0 || scan.metadata !== undefined || scan.watermark !== undefined || scan.pushdown?.projection !== undefined) return scan;
  const physical = scan.physical.columns;
  const keep = physical.map((c, i) => (used.has(c.name) || scan.primaryKey?.includes(c.name) ? i : -1)).filter((i) => i >= 0);
  if (keep.length === physical.length) return scan;
  // a scan of no column still yields its rows: keep the first
  if (keep.length === 0) keep.push(0);
  const schema = new ResolvedSchema(keep.map((i) => physical[i]!));
  return copyNode(scan, { schema, physical: schema, pushdown: { ...(scan.pushdown ?? {}), filters: scan.pushdown?.filters ?? [], projection: keep, declared: scan.physical } });
}

function columnsOf(exprs: readonly ExprNode[]): Set<string> {
  const out = new Set<string>();
  const walk = (e: ExprNode): void => {
    switch (e.kind) {
      case "Column": out.add(e.name); break;
      case "Alias": case "Sort": case "Argument": walk(e.expr); break;
      case "Call": case "Agg": e.args.forEach(walk); break;
      default: break;
    }
  };
  exprs.forEach(walk);
  return out;
}

function splitOr(e: ExprNode): ExprNode[] {
  return e.kind === "Call" && e.fn === "or" && e.udf === undefined ? e.args.flatMap(splitOr) : [e];
}

export function splitAnd(e: ExprNode): ExprNode[] {
  return e.kind === "Call" && e.fn === "and" && e.udf === undefined ? e.args.flatMap(splitAnd) : [e];
}

const COMPARISONS: Readonly<Record<string, PushedFilter["op"]>> = {
  equals: "=", notEquals: "<>", lessThan: "<", lessThanOrEqual: "<=", greaterThan: ">", greaterThanOrEqual: ">=",
};
const FLIPPED: Readonly<Record<string, PushedFilter["op"]>> = { "=": "=", "<>": "<>", "<": ">", "<=": ">=", ">": "<", ">=": "<=" };
const NUMERIC = new Set(["TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE"]);

/** A column a pushed filter may name: its name at the source and its type. */
export interface FilterColumn { readonly name: string; readonly type: DataType }

const scanColumns = (scan: SourceScanNode) => (name: string): FilterColumn | undefined =>
  (scan.physical.has(name) ? { name, type: scan.physical.column(name).type } : undefined);

/**
 * A conjunct as a pushed filter, when it compares a column `columnOf` knows with literals of its type family
 * (the filter names the column as `columnOf` returns it: a scan's physical column, a lookup source's column).
 */
export function toPushed(e: ExprNode, columnOf: (name: string) => FilterColumn | undefined): PushedFilter | undefined {
  if (e.kind !== "Call" || e.udf !== undefined) return undefined;
  if (e.fn === "or") {
    // a disjunction of comparisons: offered whole (the source applies all of it or none)
    const any = splitOr(e).map((x) => toPushed(x, columnOf));
    if (any.some((x) => x === undefined)) return undefined;
    const alternatives = any as PushedFilter[];
    return { column: alternatives[0]!.column, op: "OR", any: alternatives };
  }
  const column = (x: ExprNode | undefined) => (x?.kind === "Column" ? columnOf(x.name) : undefined);
  if ((e.fn === "isNull" || e.fn === "isNotNull") && e.args.length === 1) {
    const c = column(e.args[0]);
    return c === undefined ? undefined : { column: c.name, op: e.fn === "isNull" ? "IS NULL" : "IS NOT NULL" };
  }
  const fits = (c: FilterColumn, v: ExprNode | undefined, op: PushedFilter["op"]): v is ExprNode & { kind: "Literal" } => {
    if (v?.kind !== "Literal" || v.type !== undefined || v.value === null) return false;
    const root = c.type.root;
    if (NUMERIC.has(root)) return typeof v.value === "number" && Number.isFinite(v.value);
    if (op !== "=" && op !== "<>" && op !== "IN") return false;
    if (root === "VARCHAR" || root === "CHAR") return typeof v.value === "string" && root === "VARCHAR";
    if (root === "BOOLEAN") return typeof v.value === "boolean";
    return false;
  };
  if (e.fn === "in" && e.args.length >= 2) {
    const c = column(e.args[0]);
    if (c === undefined || !e.args.slice(1).every((a) => fits(c, a, "IN"))) return undefined;
    return { column: c.name, op: "IN", value: e.args.slice(1).map((a) => (a as { value: unknown }).value) };
  }
  const op = COMPARISONS[e.fn];
  if (op === undefined || e.args.length !== 2) return undefined;
  const [a, b] = e.args as [ExprNode, ExprNode];
  const left = column(a);
  if (left !== undefined && fits(left, b, op)) return { column: left.name, op, value: b.value };
  const right = column(b);
  if (right !== undefined && fits(right, a, FLIPPED[op]!)) return { column: right.name, op: FLIPPED[op]!, value: a.value };
  return undefined;
}
