import type { ExprNode } from "../../expressions/node.js";
import { ValidationError } from "../../types/errors.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import type { PlanNode } from "../nodes.js";
import type { AggCall } from "./agg-call.js";
import { type AfterMatch, type PatternTerm, checkPattern } from "./match-pattern.js";
import { newNodeId } from "./node-base.js";
import type { SortKey } from "./sort.js";

export type { AfterMatch, PatternTerm } from "./match-pattern.js";

/**
 * A value DEFINE or MEASURES reads from the rows of a (partial) match, computed before the condition or
 * measure runs and handed to it as an extra column (`$nav<i>`, after the input's columns):
 * - `last` / `first`: the column of the `offset`-th last / first row mapped to `variable` (-1: any variable);
 *   in DEFINE the row being tested counts as mapped to the variable it is tested for;
 * - `prev`: the column of the row `offset` rows before the current one (the last row in MEASURES), within the match;
 * - `agg`: an aggregate over the rows mapped to `variable` (-1: every row of the match); the call's arguments are
 *   expressions over the input's columns, evaluated per row (`SUM(A.price * A.qty)`: `price * qty` over A's rows);
 * - `matchRowtime`: MATCH_ROWTIME(), the time attribute of the match's last row.
 */
export type MatchNavigation =
  | { readonly kind: "last" | "first"; readonly variable: number; readonly column: number; readonly offset: number }
  | { readonly kind: "prev"; readonly column: number; readonly offset: number }
  | { readonly kind: "agg"; readonly call: AggCall; readonly variable: number }
  | { readonly kind: "matchRowtime" };

/**
 * Row pattern recognition (SQL's MATCH_RECOGNIZE, Flink's StreamExecMatch): per partition, rows in time order are
 * matched against `pattern`; each match emits one row (ONE ROW PER MATCH) of the partition columns and the
 * measures. Insert-only in, insert-only out. `defines[v]` is variable v's condition (undefined: always TRUE);
 * conditions and measures are expressions over the input's columns followed by one `$nav<i>` column per
 * navigation (`navigationSchema`). In DEFINE the input columns are the row being tested, in MEASURES the match's
 * last row.
 */
export interface MatchRecognizeNode {
  readonly kind: "MatchRecognize";
  readonly id: number;
  readonly schema: ResolvedSchema;
  readonly input: PlanNode;
  readonly partitionKeys: readonly number[];
  /** ORDER BY: the first key is the time attribute (ascending), the others order rows with equal time. */
  readonly orderKeys: readonly SortKey[];
  readonly timeAttribute: "ROWTIME" | "PROCTIME";
  readonly variables: readonly string[];
  readonly pattern: PatternTerm;
  readonly defines: readonly (ExprNode | undefined)[];
  readonly measures: readonly { readonly name: string; readonly expr: ExprNode }[];
  readonly navigations: readonly MatchNavigation[];
  /** The input columns followed by one column per navigation: what DEFINE and MEASURES are compiled over. */
  readonly navigationSchema: ResolvedSchema;
  readonly after: AfterMatch;
  /** WITHIN: milliseconds a match may span from its first row; undefined = unbounded. */
  readonly within?: number;
}

export function matchRecognizeNode(f: Omit<MatchRecognizeNode, "kind" | "id">): MatchRecognizeNode {
  const what = "plan node MatchRecognize";
  const s = f.input.schema;
  for (const k of f.partitionKeys) if (!Number.isInteger(k) || k < 0 || k >= s.size) throw new ValidationError(`${what}: no PARTITION BY column at position ${k}`);
  if (f.orderKeys.length === 0) throw new ValidationError(`${what}: ORDER BY needs a time attribute`);
  for (const k of f.orderKeys) if (!Number.isInteger(k.column) || k.column < 0 || k.column >= s.size) throw new ValidationError(`${what}: no ORDER BY column at position ${k.column}`);
  if (f.variables.length === 0) throw new ValidationError(`${what}: the pattern has no variable`);
  if (f.defines.length !== f.variables.length) throw new ValidationError(`${what}: ${f.defines.length} conditions for ${f.variables.length} variables`);
  if (f.navigationSchema.size !== s.size + f.navigations.length) throw new ValidationError(`${what}: navigationSchema must have the input's columns and one per navigation`);
  if (f.schema.size !== f.partitionKeys.length + f.measures.length) throw new ValidationError(`${what}: the output has ${f.schema.size} columns for ${f.partitionKeys.length} partition keys and ${f.measures.length} measures`);
  if (f.within !== undefined && !(f.within > 0)) throw new ValidationError(`${what}: WITHIN must be a positive interval`);
  if ((f.after.kind === "TO_FIRST" || f.after.kind === "TO_LAST") && !(f.after.variable >= 0 && f.after.variable < f.variables.length)) {
    throw new ValidationError(`${what}: AFTER MATCH SKIP names no pattern variable`);
  }
  const pattern = checkPattern(f.pattern, f.variables.length);
  return Object.freeze({
    kind: "MatchRecognize" as const, id: newNodeId(), ...f, pattern,
    partitionKeys: Object.freeze([...f.partitionKeys]), orderKeys: Object.freeze([...f.orderKeys]), variables: Object.freeze([...f.variables]),
    defines: Object.freeze([...f.defines]), measures: Object.freeze([...f.measures]), navigations: Object.freeze([...f.navigations]),
  });
}
