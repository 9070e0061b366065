import type { ExprNode } from "../../expressions/node.js";
import { ValidationError } from "../../types/errors.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import type { PlanNode } from "../nodes.js";
import { newNodeId } from "./node-base.js";

/**
 * An event-time temporal join (`FOR SYSTEM_TIME AS OF left.t`): each left row is joined with the version of
 * its key that was valid at its time in the versioned right table (keyed by `rightKeys`, versioned by its
 * rowtime `rightTime`). Left rows wait for the watermark; the output is append-only and keeps the left's time
 * attribute. Output = left columns + right columns.
 */
export interface TemporalJoinNode {
  readonly kind: "TemporalJoin";
  readonly id: number;
  readonly schema: ResolvedSchema;
  readonly left: PlanNode;
  readonly right: PlanNode;
  readonly joinType: "INNER" | "LEFT";
  /** Rowtime column index of the left and of the right schema. */
  readonly leftTime: number;
  readonly rightTime: number;
  /** Left expressions equal to the right's primary key columns `rightKeys` (indexes into the right schema). */
  readonly leftKeys: readonly ExprNode[];
  readonly rightKeys: readonly number[];
  readonly residual?: ExprNode;
  readonly condition?: ExprNode;
}

export function temporalJoinNode(fields: Omit<TemporalJoinNode, "kind" | "id">): TemporalJoinNode {
  if (fields.leftKeys.length === 0 || fields.leftKeys.length !== fields.rightKeys.length) {
    throw new ValidationError("temporal join: the join condition must equate every primary key column of the versioned table");
  }
  return Object.freeze({ kind: "TemporalJoin", id: newNodeId(), ...fields });
}
