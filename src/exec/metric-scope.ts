import type { PlanNode } from "../plan/nodes.js";
import type { Emitter, SourceEntry } from "./job-graph.js";
import type { JobMetrics } from "./metrics.js";
import type { Operator } from "./operator.js";

/**
 * The metric scope of the component that runs a plan node, or undefined for nodes whose operators count
 * nothing. Names read like Flink's operator names, shortened: the node kind and what the user called it.
 */
export function metricScope(node: PlanNode): string | undefined {
  switch (node.kind) {
    case "Values": return "Values";
    case "SourceScan": return `${node.connector}[${node.tableName}]`;
    case "Sink": return `Sink[${node.tableName}]`;
    case "WindowAggregate": return `WindowAggregate[${node.window.alias}]`;
    case "OverAggregate": return `OverAggregate[${node.window.alias}]`;
    case "Process": return `Process[${processName(node.call)}]`;
    default: return undefined;
  }
}

const attached = new WeakSet<Emitter>();

/** The scope of the sink that hands a job's rows to its TableResult (`execute()`). */
export const COLLECT_SCOPE = "Collect";

/**
 * Hands the component that runs `node` — the source whose emitter is `em`, or the operator `em` — its
 * metric group. Called once per node, as the node's build completes (inputs first), so duplicate names
 * are numbered upstream first.
 */
export function attachMetrics(metrics: JobMetrics, node: PlanNode, em: Emitter, sources: readonly SourceEntry[]): void {
  const scope = metricScope(node);
  // one emitter can stand for several nodes (identical PTF calls are one operator): it gets one group
  if (scope === undefined || attached.has(em)) return;
  attached.add(em);
  const source = sources.find((s) => s.emitter === em);
  if (source !== undefined) {
    source.reader.setMetrics?.(metrics.group(scope));
    return;
  }
  const op = em as Partial<Operator>;
  if (typeof op.processElement === "function" && op.setMetrics !== undefined) op.setMetrics(metrics.group(scope));
}

/** The function name of a Process node's call (resolved in ptf/; the plan node carries it untyped). */
function processName(call: unknown): string {
  const name = (call as { functionName?: unknown } | null)?.functionName;
  return typeof name === "string" ? name : "?";
}
