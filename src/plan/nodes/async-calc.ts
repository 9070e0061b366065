import type { ExprNode } from "../../expressions/node.js";
import type { DataType } from "../../types/data-type.js";
import { ResolvedSchema } from "../../types/resolved-schema.js";
import type { PlanNode } from "../nodes.js";
import { invalid, makeNode, requireInput } from "./node-base.js";

/** One async scalar function call an AsyncCalc makes per row. */
export interface AsyncCall {
  /** The AsyncScalarFunction (src/functions/async-scalar-function.ts). */
  readonly fn: { readonly name: string; readonly kind: "asyncScalar" };
  /** The name it is reported by (the registered name, or the function's own). */
  readonly name: string;
  /** Its arguments, over the input's columns (no async calls inside). */
  readonly args: readonly ExprNode[];
  /** Its result type (nullable when a NULL argument for a NOT NULL parameter makes it NULL). */
  readonly type: DataType;
  /** The output column holding the result. */
  readonly column: string;
}

/**
 * Flink's AsyncCalc: calls async scalar functions for every row, several rows in flight at once, and
 * emits the input row with the results appended (one column per call). The projection that used the
 * calls reads those columns in a Project above it. Row kinds pass through unchanged.
 */
export interface AsyncCalcNode {
  readonly kind: "AsyncCalc";
  readonly id: number;
  readonly schema: ResolvedSchema;
  readonly input: PlanNode;
  readonly calls: readonly AsyncCall[];
}

/** The schema is derived: the input's columns, then one column per call. */
export function asyncCalcNode(fields: { readonly input: PlanNode; readonly calls: readonly AsyncCall[] }): AsyncCalcNode {
  requireInput("AsyncCalc", fields.input);
  if (fields.calls.length === 0) throw invalid("AsyncCalc", "calls", "must hold at least one async call");
  for (const c of fields.calls) {
    if (c.fn?.kind !== "asyncScalar") throw invalid("AsyncCalc", "calls", `must call async scalar functions, got '${c.name}'`);
  }
  const schema = new ResolvedSchema([...fields.input.schema.columns, ...fields.calls.map((c) => ({ name: c.column, type: c.type }))]);
  return makeNode<AsyncCalcNode>("AsyncCalc", { schema, input: fields.input, calls: fields.calls }, ["calls"]);
}
