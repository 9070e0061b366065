import type { ExprNode } from "../../expressions/node.js";
import { ValidationError } from "../../types/errors.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import type { PlanNode } from "../nodes.js";
import { newNodeId } from "./node-base.js";

/**
 * Flink's window join: two inputs whose rows carry windows (of window table functions), joined on
 * `L.window_start = R.window_start AND L.window_end = R.window_end` plus further keys and conditions. Each
 * window's rows are kept until the watermark (of both inputs) reaches its end - 1 ms; then the window is joined
 * once and forgotten, so the output is append-only: INNER / LEFT / RIGHT / FULL (joined or padded rows, the columns
 * of both sides) or SEMI / ANTI (the left rows with / without partner). A row for a window already joined is late
 * and dropped. Keys and residual as in JoinNode (the window columns are among the keys).
 */
export interface WindowJoinNode {
  readonly kind: "WindowJoin";
  readonly id: number;
  readonly schema: ResolvedSchema;
  readonly left: PlanNode;
  readonly right: PlanNode;
  readonly joinType: "INNER" | "LEFT" | "RIGHT" | "FULL" | "SEMI" | "ANTI";
  /** Positions of window_end in the left and the right input. */
  readonly leftWindowEnd: number;
  readonly rightWindowEnd: number;
  readonly leftKeys: readonly ExprNode[];
  readonly rightKeys: readonly ExprNode[];
  /** The non-equi part of the condition, over the left columns followed by the right columns. */
  readonly residual?: ExprNode;
  readonly condition?: ExprNode;
}

export function windowJoinNode(f: Omit<WindowJoinNode, "kind" | "id">): WindowJoinNode {
  if (f.leftKeys.length !== f.rightKeys.length) throw new ValidationError(`window join: ${f.leftKeys.length} left keys but ${f.rightKeys.length} right keys`);
  const semi = f.joinType === "SEMI" || f.joinType === "ANTI";
  const size = semi ? f.left.schema.size : f.left.schema.size + f.right.schema.size;
  if (f.schema.size !== size) throw new ValidationError("window join: the output schema must be the left columns (then the right columns)");
  for (const [i, s] of [[f.leftWindowEnd, f.left.schema], [f.rightWindowEnd, f.right.schema]] as const) {
    if (s.columns[i]?.type.root !== "TIMESTAMP") throw new ValidationError(`window join: no window_end TIMESTAMP column at position ${i}`);
  }
  return Object.freeze({ kind: "WindowJoin" as const, id: newNodeId(), ...f });
}
