import type { ExprNode } from "../../expressions/node.js";
import { ValidationError } from "../../types/errors.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import type { PlanNode } from "../nodes.js";
import { newNodeId } from "./node-base.js";

/**
 * A semi join (`anti` false: left rows that have at least one partner on the right) or an anti join (`anti`:
 * left rows without partner) — how Flink plans `x IN (SELECT ...)` / `EXISTS (...)` and their `NOT` forms. The
 * output is the left input's rows, unchanged and each at most once. Partners are matched as in JoinNode: equality
 * keys (a NULL key never matches) and a residual condition over the left columns followed by the right ones.
 */
export interface SemiJoinNode {
  readonly kind: "SemiJoin";
  readonly id: number;
  readonly schema: ResolvedSchema;
  readonly left: PlanNode;
  readonly right: PlanNode;
  readonly anti: boolean;
  readonly leftKeys: readonly ExprNode[];
  readonly rightKeys: readonly ExprNode[];
  /** The non-equi part of the condition, over the left columns followed by the right columns. */
  readonly residual?: ExprNode;
  /** The condition as written (explain()). */
  readonly condition?: ExprNode;
}

export function semiJoinNode(fields: Omit<SemiJoinNode, "kind" | "id" | "schema">): SemiJoinNode {
  if (fields.leftKeys.length !== fields.rightKeys.length) {
    throw new ValidationError(`${fields.anti ? "anti" : "semi"} join: ${fields.leftKeys.length} left keys but ${fields.rightKeys.length} right keys`);
  }
  const clash = fields.left.schema.names.find((n) => fields.right.schema.has(n));
  if (clash !== undefined) throw new ValidationError(`${fields.anti ? "anti" : "semi"} join: column '${clash}' exists on both sides; rename one of them first`);
  return Object.freeze({ kind: "SemiJoin" as const, id: newNodeId(), schema: fields.left.schema, ...fields });
}
