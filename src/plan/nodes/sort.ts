import { ValidationError } from "../../types/errors.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import type { PlanNode } from "../nodes.js";
import { newNodeId } from "./node-base.js";

/** One ORDER BY key: a column of the input, its direction, where NULLs go (Flink: ASC NULLS FIRST, DESC NULLS LAST). */
export interface SortKey {
  readonly column: number;
  readonly ascending: boolean;
  readonly nullsFirst: boolean;
}

/**
 * ORDER BY with OFFSET / FETCH (Flink's LogicalSort): `orderBy`, `offset`, `fetch` and `limit` of a Table.
 * `keys` may be empty (a LIMIT without ORDER BY). Batch sorts at end of input; streaming runs a sort on an
 * ascending time attribute, a top-N with retractions when there is a FETCH, or a limit (docs/top-n-and-dedup.md).
 */
export interface SortNode {
  readonly kind: "Sort";
  readonly id: number;
  readonly schema: ResolvedSchema;
  readonly input: PlanNode;
  readonly keys: readonly SortKey[];
  readonly offset: number;
  /** Rows after the offset; undefined = all. */
  readonly fetch?: number;
}

export function sortNode(f: { input: PlanNode; keys: readonly SortKey[]; offset: number; fetch?: number }): SortNode {
  checkCount(f.offset, "offset");
  if (f.fetch !== undefined) checkCount(f.fetch, "fetch");
  checkKeys(f.keys, f.input.schema, "orderBy");
  return Object.freeze({
    kind: "Sort" as const, id: newNodeId(), schema: f.input.schema, input: f.input, keys: Object.freeze([...f.keys]),
    offset: f.offset, ...(f.fetch === undefined ? {} : { fetch: f.fetch }),
  });
}

export function checkCount(n: number, what: string): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new ValidationError(`${what}: expected a non-negative integer number of rows, got ${n}`);
}

export function checkKeys(keys: readonly SortKey[], schema: ResolvedSchema, what: string): void {
  const seen = new Set<number>();
  for (const k of keys) {
    if (!Number.isInteger(k.column) || k.column < 0 || k.column >= schema.size) throw new ValidationError(`${what}: no column at position ${k.column}`);
    if (seen.has(k.column)) throw new ValidationError(`${what}: column '${schema.names[k.column]}' appears more than once`);
    seen.add(k.column);
  }
}

/** `a ASC NULLS FIRST, b DESC NULLS LAST` for explain(). */
export function sortKeysToString(keys: readonly SortKey[], schema: ResolvedSchema): string {
  return keys.map((k) => `${schema.names[k.column]} ${k.ascending ? "ASC" : "DESC"} NULLS ${k.nullsFirst ? "FIRST" : "LAST"}`).join(", ");
}
