import { ValidationError } from "../../types/errors.js";
import { ResolvedSchema } from "../../types/resolved-schema.js";
import type { SinkNode } from "../nodes.js";
import { newNodeId } from "./node-base.js";

/**
 * The root of a job with several sinks (`env.createStatementSet()` ... `execute()`): one Sink node per
 * insert, in the order they were added. Nodes reachable from more than one sink are the same plan
 * node objects, so the job graph builds one operator for them and fans its output out (as Flink's
 * sub-plan reuse does); identical PTF calls with one `uid` are merged into one operator the same way.
 * Nothing flows out of it: its schema is empty.
 */
export interface StatementSetNode {
  readonly kind: "StatementSet";
  readonly id: number;
  readonly schema: ResolvedSchema;
  readonly sinks: readonly SinkNode[];
}

const EMPTY = new ResolvedSchema([]);

export function statementSetNode(fields: { readonly sinks: readonly SinkNode[] }): StatementSetNode {
  if (fields.sinks.length === 0) {
    throw new ValidationError("No statement to execute: the statement set is empty; add inserts with addInsert(target, table) or add(table.insertInto(target))");
  }
  for (const [i, s] of fields.sinks.entries()) {
    if (s?.kind !== "Sink") throw new ValidationError(`statement set entry ${i + 1} is not a Sink node`);
  }
  return Object.freeze({ kind: "StatementSet", id: newNodeId(), schema: EMPTY, sinks: Object.freeze([...fields.sinks]) });
}
