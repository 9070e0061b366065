import type { ExprNode } from "../../expressions/node.js";
import { ValidationError } from "../../types/errors.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import type { PlanNode } from "../nodes.js";
import type { PushedFilter } from "../pushed-filter.js";
import { newNodeId } from "./node-base.js";

/**
 * A processing-time lookup join: for each input row the lookup source is asked for the rows with the lookup
 * key `keys` (expressions over the input); the output is the input columns + the source's columns, one row
 * per found row that satisfies the residual (LEFT: one padded row when none does). Keeps no state.
 */
export interface LookupJoinNode {
  readonly kind: "LookupJoin";
  readonly id: number;
  readonly schema: ResolvedSchema;
  readonly input: PlanNode;
  readonly joinType: "INNER" | "LEFT";
  readonly tableName: string;
  readonly lookupSchema: ResolvedSchema;
  readonly keys: readonly ExprNode[];
  /** The lookup source's columns (indexes into `lookupSchema`) that `keys` are looked up in, in order. */
  readonly keyColumns?: readonly number[];
  /** The source's LookupReader (exec/lookup.ts). */
  readonly reader: unknown;
  readonly residual?: ExprNode;
  /** Conditions on the lookup source's columns alone that the source applies itself (plan/lookup-pushdown.ts). */
  readonly pushedFilters?: readonly PushedFilter[];
}

export function lookupJoinNode(fields: Omit<LookupJoinNode, "kind" | "id">): LookupJoinNode {
  if (fields.keys.length === 0) throw new ValidationError(`lookup join with '${fields.tableName}': at least one lookup key is required`);
  return Object.freeze({ kind: "LookupJoin", id: newNodeId(), ...fields });
}
