import { ValidationError } from "../../types/errors.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import type { PlanNode } from "../nodes.js";
import { newNodeId } from "./node-base.js";

/**
 * Flink's ChangelogNormalize: turns the changelog of a keyed source (upsert `+I/+U/-D`, possibly with
 * key-only deletes or duplicated events) into a full retract changelog `+I/-U/+U/-D`, keeping the last
 * row per key. Inserted after an upsert source by the planner where a consumer needs retractions
 * (src/plan/normalize-upserts.ts); never built by the Table API directly.
 */
export interface ChangelogNormalizeNode {
  readonly kind: "ChangelogNormalize";
  readonly id: number;
  readonly schema: ResolvedSchema;
  readonly input: PlanNode;
  /** The primary key columns the rows are related by. */
  readonly uniqueKeys: readonly string[];
}

export function changelogNormalizeNode(fields: { readonly input: PlanNode; readonly uniqueKeys: readonly string[] }): ChangelogNormalizeNode {
  if (fields.uniqueKeys.length === 0) throw new ValidationError("ChangelogNormalize needs the primary key columns of its input");
  for (const k of fields.uniqueKeys) fields.input.schema.indexOf(k, "ChangelogNormalize: key column");
  return Object.freeze({
    kind: "ChangelogNormalize", id: newNodeId(), schema: fields.input.schema, input: fields.input, uniqueKeys: Object.freeze([...fields.uniqueKeys]),
  });
}
