import { ValidationError } from "../../types/errors.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import type { PlanNode } from "../nodes.js";
import { newNodeId } from "./node-base.js";

/**
 * Deduplication (Flink's Deduplicate: `ROW_NUMBER() OVER (PARTITION BY keys ORDER BY time ASC|DESC) = 1`):
 * one row per key, the first or the last one, by processing time (arrival, `rowtime` undefined) or by the
 * event-time attribute at `rowtime`. Output columns are the input's.
 */
export interface DeduplicateNode {
  readonly kind: "Deduplicate";
  readonly id: number;
  readonly schema: ResolvedSchema;
  readonly input: PlanNode;
  readonly keys: readonly number[];
  readonly keepLast: boolean;
  /** Position of the event-time attribute ordering the rows; undefined = processing time. */
  readonly rowtime?: number;
}

export function deduplicateNode(f: { input: PlanNode; keys: readonly number[]; keepLast: boolean; rowtime?: number }): DeduplicateNode {
  const schema = f.input.schema;
  if (f.keys.length === 0) throw new ValidationError("deduplicate: needs at least one key column, e.g. keys: [$(\"product\")]");
  for (const k of f.keys) if (!Number.isInteger(k) || k < 0 || k >= schema.size) throw new ValidationError(`deduplicate: no key column at position ${k}`);
  if (f.rowtime !== undefined && schema.types[f.rowtime]?.timeAttribute !== "ROWTIME") {
    throw new ValidationError(`deduplicate: the order column '${schema.names[f.rowtime] ?? f.rowtime}' must be an event-time attribute (declared with a watermark)`);
  }
  return Object.freeze({
    kind: "Deduplicate" as const, id: newNodeId(), schema, input: f.input, keys: Object.freeze([...f.keys]), keepLast: f.keepLast,
    ...(f.rowtime === undefined ? {} : { rowtime: f.rowtime }),
  });
}
