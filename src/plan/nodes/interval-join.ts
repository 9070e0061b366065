import type { ExprNode } from "../../expressions/node.js";
import { ValidationError } from "../../types/errors.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import type { PlanNode } from "../nodes.js";
import { newNodeId } from "./node-base.js";
import type { JoinType } from "./join.js";

/**
 * An interval join: a regular join whose predicate bounds a time attribute of each side against the other (both
 * rowtime, or both processing time),
 * `lower <= left.t - right.t <= upper` (milliseconds). Rows wait in state only while a partner can still
 * arrive; the watermark removes them (outer joins then emit the padded row of a row that never matched).
 * The output is append-only and keeps both time attributes.
 */
export interface IntervalJoinNode {
  readonly kind: "IntervalJoin";
  readonly id: number;
  readonly schema: ResolvedSchema;
  readonly left: PlanNode;
  readonly right: PlanNode;
  readonly joinType: JoinType;
  readonly leftKeys: readonly ExprNode[];
  readonly rightKeys: readonly ExprNode[];
  /** Column index of the time attribute in the left / right schema. */
  readonly leftTime: number;
  readonly rightTime: number;
  /** The time attributes are processing-time ones: rows wait by the job clock, not by watermarks. */
  readonly procTime?: boolean;
  readonly lower: number;
  readonly upper: number;
  /** The rest of the predicate, over the output schema. */
  readonly residual?: ExprNode;
  readonly condition?: ExprNode;
}

export function intervalJoinNode(fields: Omit<IntervalJoinNode, "kind" | "id">): IntervalJoinNode {
  if (fields.leftKeys.length !== fields.rightKeys.length) {
    throw new ValidationError(`interval join: ${fields.leftKeys.length} left keys but ${fields.rightKeys.length} right keys`);
  }
  if (!Number.isFinite(fields.lower) || !Number.isFinite(fields.upper)) {
    throw new ValidationError("interval join: both a lower and an upper time bound are required");
  }
  return Object.freeze({ kind: "IntervalJoin", id: newNodeId(), ...fields });
}
