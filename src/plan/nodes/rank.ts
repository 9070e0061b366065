import { DataTypes } from "../../types/data-types.js";
import { ValidationError } from "../../types/errors.js";
import { ResolvedSchema } from "../../types/resolved-schema.js";
import type { PlanNode } from "../nodes.js";
import { newNodeId } from "./node-base.js";
import { type SortKey, checkKeys } from "./sort.js";

/**
 * Top-N per partition with ROW_NUMBER semantics (Flink's Rank with `ROW_NUMBER`): the rows ranked
 * `rankStart..rankEnd` (1-based) within each partition by `orderKeys`, ties in arrival order; no order
 * keys = processing-time order (`ORDER BY proctime ASC`: the first rows to arrive). The SQL
 * pattern `ROW_NUMBER() OVER (PARTITION BY .. ORDER BY ..) AS rn ... WHERE rn <= N` binds onto this node:
 * `rankNumber` names the appended BIGINT NOT NULL row-number column when it is selected.
 */
export interface RankNode {
  readonly kind: "Rank";
  readonly id: number;
  readonly schema: ResolvedSchema;
  readonly input: PlanNode;
  readonly partitionKeys: readonly number[];
  readonly orderKeys: readonly SortKey[];
  readonly rankStart: number;
  readonly rankEnd: number;
  readonly rankNumber?: string;
}

export function rankNode(f: {
  input: PlanNode; partitionKeys: readonly number[]; orderKeys: readonly SortKey[]; rankStart: number; rankEnd: number; rankNumber?: string;
}): RankNode {
  const schema = f.input.schema;
  if (!Number.isSafeInteger(f.rankStart) || f.rankStart < 1) throw new ValidationError(`topN: the first rank must be an integer >= 1, got ${f.rankStart}`);
  if (!Number.isSafeInteger(f.rankEnd) || f.rankEnd < f.rankStart) {
    throw new ValidationError(`topN: the number of rows must be a positive integer, got ${f.rankEnd - f.rankStart + 1}`);
  }
  for (const k of f.partitionKeys) if (!Number.isInteger(k) || k < 0 || k >= schema.size) throw new ValidationError(`topN: no partition column at position ${k}`);
  checkKeys(f.orderKeys, schema, "topN orderBy");
  if (f.rankNumber !== undefined && schema.has(f.rankNumber)) {
    throw new ValidationError(`topN: the row-number column '${f.rankNumber}' already exists in [${schema.names.join(", ")}]`);
  }
  const out = f.rankNumber === undefined ? schema
    : new ResolvedSchema([...schema.columns, { name: f.rankNumber, type: DataTypes.BIGINT().notNull() }]);
  return Object.freeze({
    kind: "Rank" as const, id: newNodeId(), schema: out, input: f.input, partitionKeys: Object.freeze([...f.partitionKeys]),
    orderKeys: Object.freeze([...f.orderKeys]), rankStart: f.rankStart, rankEnd: f.rankEnd,
    ...(f.rankNumber === undefined ? {} : { rankNumber: f.rankNumber }),
  });
}
