import type { ExprNode } from "../../expressions/node.js";
import { ValidationError } from "../../types/errors.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import type { PlanNode } from "../nodes.js";
import { newNodeId } from "./node-base.js";

/** The four regular join types of Flink's Table API (`join`, `leftOuterJoin`, `rightOuterJoin`, `fullOuterJoin`). */
export type JoinType = "INNER" | "LEFT" | "RIGHT" | "FULL";

/**
 * A regular (unbounded-state) join of two tables. Output columns = left columns + right columns (names are
 * distinct on both sides). Rows are matched by the equality keys (`leftKeys[i]` over the left schema equals
 * `rightKeys[i]` over the right schema; a NULL key never matches) and then by the residual condition over the
 * output row. No keys: every pair is a candidate (a cross join, filtered by the residual).
 */
export interface JoinNode {
  readonly kind: "Join";
  readonly id: number;
  readonly schema: ResolvedSchema;
  readonly left: PlanNode;
  readonly right: PlanNode;
  readonly joinType: JoinType;
  readonly leftKeys: readonly ExprNode[];
  readonly rightKeys: readonly ExprNode[];
  /** The non-equi part of the predicate, over the output schema. */
  readonly residual?: ExprNode;
  /** The predicate as the user wrote it (explain()). */
  readonly condition?: ExprNode;
}

export function joinNode(fields: Omit<JoinNode, "kind" | "id">): JoinNode {
  if (fields.leftKeys.length !== fields.rightKeys.length) {
    throw new ValidationError(`join: ${fields.leftKeys.length} left keys but ${fields.rightKeys.length} right keys`);
  }
  if (fields.schema.size !== fields.left.schema.size + fields.right.schema.size) {
    throw new ValidationError("join: the output schema must be the left columns followed by the right columns");
  }
  return Object.freeze({ kind: "Join", id: newNodeId(), ...fields });
}
