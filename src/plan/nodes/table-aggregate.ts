import type { ExprNode } from "../../expressions/node.js";
import { ValidationError } from "../../types/errors.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import type { PlanNode } from "../nodes.js";
import { newNodeId } from "./node-base.js";

/**
 * `groupBy(keys).flatAggregate(call(tableAggFn, ...))` (or global, without keys): a table aggregate
 * function per group, any number of output rows per group. Output columns are [keys..., function
 * columns...]. Streaming output is `+I` / `-D` (a group's earlier rows are retracted when its result
 * changes); batch output is the final rows, insert-only.
 */
export interface TableAggregateNode {
  readonly kind: "TableAggregate";
  readonly id: number;
  readonly schema: ResolvedSchema;
  readonly input: PlanNode;
  readonly groupKeys: readonly ExprNode[];
  /** The TableAggregateFunction object (src/functions) and the name it is reported by. */
  readonly udf: unknown;
  readonly functionName: string;
  readonly args: readonly ExprNode[];
}

export function tableAggregateNode(fields: Omit<TableAggregateNode, "kind" | "id">): TableAggregateNode {
  const keys = fields.groupKeys.length;
  if (fields.schema.size <= keys) {
    throw new ValidationError(`flatAggregate: the function '${fields.functionName}' must produce at least one column`);
  }
  return Object.freeze({
    kind: "TableAggregate", id: newNodeId(), schema: fields.schema, input: fields.input,
    groupKeys: Object.freeze([...fields.groupKeys]), udf: fields.udf, functionName: fields.functionName, args: Object.freeze([...fields.args]),
  });
}
