import { nodeToString } from "../expressions/node.js";
import type { IntervalJoinNode } from "./nodes/interval-join.js";
import type { JoinNode } from "./nodes/join.js";
import type { LookupJoinNode } from "./nodes/lookup-join.js";
import type { TemporalJoinNode } from "./nodes/temporal-join.js";
import { pushedFilterToString } from "./pushed-filter.js";

const JOIN_TYPE = { INNER: "InnerJoin", LEFT: "LeftOuterJoin", RIGHT: "RightOuterJoin", FULL: "FullOuterJoin" } as const;

/** `joinType=[InnerJoin], where=[...], leftKeys=[...], rightKeys=[...]` as explain() prints a join. */
export function explainJoin(n: JoinNode | IntervalJoinNode | TemporalJoinNode | LookupJoinNode): string {
  if (n.kind === "LookupJoin") {
    return [`table=[${n.tableName}]`, `joinType=[${JOIN_TYPE[n.joinType]}]`, `lookup=[${n.keys.map(nodeToString).join(", ")}]`,
      ...(n.pushedFilters?.length ? [`filter=[${n.pushedFilters.map(pushedFilterToString).join(" AND ")}]`] : []),
      ...(n.residual ? [`where=[${nodeToString(n.residual)}]`] : [])].join(", ");
  }
  if (n.kind === "TemporalJoin") {
    const right = n.right.schema.names;
    return [`joinType=[${JOIN_TYPE[n.joinType]}]`, `asOf=[${n.left.schema.names[n.leftTime]}]`, `version=[${right[n.rightTime]}]`,
      `leftKeys=[${n.leftKeys.map(nodeToString).join(", ")}]`, `rightKeys=[${n.rightKeys.map((i) => right[i]).join(", ")}]`,
      ...(n.residual ? [`where=[${nodeToString(n.residual)}]`] : [])].join(", ");
  }
  const parts = [`joinType=[${JOIN_TYPE[n.joinType]}]`];
  if (n.condition !== undefined) parts.push(`where=[${nodeToString(n.condition)}]`);
  if (n.leftKeys.length > 0) {
    parts.push(`leftKeys=[${n.leftKeys.map(nodeToString).join(", ")}]`, `rightKeys=[${n.rightKeys.map(nodeToString).join(", ")}]`);
  }
  if (n.kind === "IntervalJoin") {
    // Flink's IntervalJoinSpec.WindowBounds: the bounds of left.t - right.t in ms, the time columns by input index
    parts.push(`windowBounds=[isRowTime=${n.procTime !== true}, leftLowerBound=${n.lower}, leftUpperBound=${n.upper}, `
      + `leftTimeIndex=${n.leftTime}, rightTimeIndex=${n.rightTime}]`);
  }
  return parts.join(", ");
}
