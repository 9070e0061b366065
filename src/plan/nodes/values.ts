import { makeNode, type NodeBase, type NodeFields, invalid } from "./node-base.js";
import type { WatermarkSpec } from "./watermark-spec.js";

export interface ValuesNode extends NodeBase {
  readonly kind: "Values";
  /** Positional records, already checked against the schema. */
  readonly rows: readonly (readonly unknown[])[];
  /** Row kinds (Kind numbers) when not all INSERT. */
  readonly kinds?: readonly number[];
  readonly watermark?: WatermarkSpec;
  /** Declared by a schema with a primary key: updating rows then form an upsert (or keyed retract) changelog. */
  readonly primaryKey?: readonly string[];
}

export function valuesNode(f: NodeFields<ValuesNode>): ValuesNode {
  if (!Array.isArray(f.rows)) throw invalid("Values", "rows", "must be an array of records");
  if (f.kinds !== undefined && f.kinds.length !== f.rows.length) {
    throw invalid("Values", "kinds", `has ${f.kinds.length} entries for ${f.rows.length} rows`);
  }
  if (f.watermark !== undefined && !f.schema.has(f.watermark.rowtimeColumn)) {
    throw invalid("Values", "watermark", `names column '${f.watermark.rowtimeColumn}', not in [${f.schema.names.join(", ")}]`);
  }
  for (const k of f.primaryKey ?? []) {
    if (!f.schema.has(k)) throw invalid("Values", "primaryKey", `names column '${k}', not in [${f.schema.names.join(", ")}]`);
  }
  return makeNode<ValuesNode>("Values", f, ["kinds", "primaryKey"]);
}
