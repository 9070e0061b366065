import type { ExprNode } from "../../expressions/node.js";
import type { PlanNode } from "../nodes.js";
import type { AggCall } from "./agg-call.js";
import { makeNode, type NodeBase, type NodeFields, invalid, requireInput } from "./node-base.js";

/** A group window over an event-time attribute (built by table/windows); times in milliseconds. */
export interface GroupWindowSpec {
  readonly type: "TUMBLE" | "SLIDE" | "SESSION" | "CUMULATE";
  readonly alias: string;
  /** The rowtime attribute the window is on. */
  readonly timeColumn: string;
  /** Size (TUMBLE, SLIDE), maximum size (CUMULATE) or gap (SESSION). */
  readonly size: number;
  /** Slide (SLIDE) or step (CUMULATE). */
  readonly step?: number;
  /** Flink's window offset (SQL window TVFs): window starts are `k * (slide or size) + offset`; absent = 0; not for SESSION. */
  readonly offset?: number;
}

/** Window properties a window aggregate appends after its aggregates (`$("w").start()` ...). */
export type WindowProperty = "start" | "end" | "rowtime";

/** Group-window aggregation: output columns are [keys..., aggregates..., properties...]; append-only. */
export interface WindowAggregateNode extends NodeBase {
  readonly kind: "WindowAggregate";
  readonly input: PlanNode;
  readonly window: GroupWindowSpec;
  readonly groupKeys: readonly ExprNode[];
  readonly aggCalls: readonly AggCall[];
  readonly properties: readonly WindowProperty[];
}

export function windowAggregateNode(f: NodeFields<WindowAggregateNode>): WindowAggregateNode {
  requireInput("WindowAggregate", f.input);
  if (f.groupKeys.length + f.aggCalls.length + f.properties.length !== f.schema.size) {
    throw invalid("WindowAggregate", "schema", `has ${f.schema.size} columns for ${f.groupKeys.length} keys, ${f.aggCalls.length} aggregates and ${f.properties.length} window properties`);
  }
  if (!(f.window.size > 0)) throw invalid("WindowAggregate", "window.size", `must be positive, got ${f.window.size}`);
  return makeNode<WindowAggregateNode>("WindowAggregate", { ...f, window: Object.freeze({ ...f.window }) }, ["groupKeys", "aggCalls", "properties"]);
}
