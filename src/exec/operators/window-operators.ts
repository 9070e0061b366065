import type { FunctionResolver } from "../../expressions/compile.js";
import type { OverAggregateNode, WindowAggregateNode } from "../../plan/nodes.js";
import type { GroupTtl } from "../aggregates/group-aggregate-code.js";
import type { BaseOperator } from "../operator.js";
import type { StateBackend } from "../state/keyed-store.js";
import { OverAggregateOperator } from "./over-aggregate.js";
import { ProcTimeOverAggregateOperator } from "./over-aggregate-proctime.js";
import { SortedOverAggregateOperator } from "./over-aggregate-sorted.js";
import { SessionWindowAggregateOperator } from "./session-window-aggregate.js";
import { WindowAggregateOperator } from "./window-aggregate.js";

/**
 * The operator that runs a window or over aggregate node (job-graph.ts wires it to its input). `ttl`
 * (`table.exec.state.ttl`) applies to the non-time OVER and to processing-time ROWS / UNBOUNDED OVER: windows
 * and event-time OVER clean their state up by watermark, a processing-time RANGE OVER by its own timers.
 * `backend`: the job's keyed-state backend (`state.backend.type`); it holds the state of TUMBLE / SLIDE /
 * CUMULATE windows, session windows' open sessions and the event-time OVER's partitions.
 */
export function windowOperator(node: WindowAggregateNode | OverAggregateNode, resolveFunction?: FunctionResolver, ttl?: GroupTtl, backend?: StateBackend): BaseOperator {
  if (node.kind === "OverAggregate") {
    if (node.window.procTime === true) return new ProcTimeOverAggregateOperator(node, resolveFunction, ttl);
    return node.window.timeBased ? new OverAggregateOperator(node, resolveFunction, backend) : new SortedOverAggregateOperator(node, resolveFunction, ttl);
  }
  return node.window.type === "SESSION"
    ? new SessionWindowAggregateOperator(node, resolveFunction, backend)
    : new WindowAggregateOperator(node, resolveFunction, {}, backend);
}
