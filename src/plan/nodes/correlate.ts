import type { ExprNode } from "../../expressions/node.js";
import type { Column } from "../../types/resolved-schema.js";
import type { PlanNode } from "../nodes.js";
import { makeNode, type NodeBase, type NodeFields, invalid, requireInput } from "./node-base.js";

/**
 * What the plan needs of a table function (src/functions `TableFunction` implements it): its name and
 * the columns it produces. The operator (exec/udf) checks for the run-time class.
 */
export interface PlannedTableFunction {
  readonly name: string;
  readonly columns: readonly Column[];
}

/**
 * A lateral join with a table function (`joinLateral` / `leftOuterJoinLateral`): each input row is
 * followed by the rows the function produces for it; output = input columns + function columns.
 * Row kinds pass through (a retracted input row retracts what it produced).
 */
export interface CorrelateNode extends NodeBase {
  readonly kind: "Correlate";
  readonly input: PlanNode;
  readonly joinType: "INNER" | "LEFT";
  /** The table function and the name it is reported by (the registered name, if registered). */
  readonly udf: PlannedTableFunction;
  readonly functionName: string;
  readonly args: readonly ExprNode[];
  /** Join condition over the output columns; rows for which it is not TRUE are dropped (LEFT: padded). */
  readonly condition?: ExprNode;
}

export function correlateNode(f: NodeFields<CorrelateNode>): CorrelateNode {
  requireInput("Correlate", f.input);
  if (f.joinType !== "INNER" && f.joinType !== "LEFT") throw invalid("Correlate", "joinType", `must be INNER or LEFT, got ${String(f.joinType)}`);
  if (f.input.schema.size + f.udf.columns.length !== f.schema.size) {
    throw invalid("Correlate", "schema", `has ${f.schema.size} columns for ${f.input.schema.size} input and ${f.udf.columns.length} function columns`);
  }
  return makeNode<CorrelateNode>("Correlate", f, ["args"]);
}
