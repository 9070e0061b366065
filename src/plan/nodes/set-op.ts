import { ValidationError } from "../../types/errors.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import type { PlanNode } from "../nodes.js";
import { newNodeId } from "./node-base.js";

/**
 * INTERSECT [ALL] / EXCEPT [ALL] (`minus`): Flink rewrites these into an aggregate that counts each
 * distinct row on both sides (RewriteIntersectAllRule / RewriteMinusAllRule) and replicates it by the
 * resulting count; this node is that aggregate. A row appears min(l, r) times (INTERSECT ALL), once if
 * both counts are positive (INTERSECT), max(l - r, 0) times (MINUS ALL), once if l > 0 and r = 0 (MINUS).
 */
export interface SetOpNode {
  readonly kind: "SetOp";
  readonly id: number;
  readonly schema: ResolvedSchema;
  readonly left: PlanNode;
  readonly right: PlanNode;
  readonly op: "INTERSECT" | "MINUS";
  readonly all: boolean;
}

export function setOpNode(f: { schema: ResolvedSchema; left: PlanNode; right: PlanNode; op: "INTERSECT" | "MINUS"; all: boolean }): SetOpNode {
  if (f.left.schema.size !== f.schema.size || f.right.schema.size !== f.schema.size) {
    throw new ValidationError(`${f.op.toLowerCase()}: tables have different numbers of columns: ${f.left.schema.toShortString()} and ${f.right.schema.toShortString()}`);
  }
  return Object.freeze({ kind: "SetOp" as const, id: newNodeId(), schema: f.schema, left: f.left, right: f.right, op: f.op, all: f.all });
}
