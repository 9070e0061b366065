import type { ResolvedSchema } from "../../types/resolved-schema.js";

/**
 * The layout of a relational operator's state, as `stateSchema()` describes it: fields named `layout:<what>`
 * whose text is compared on restore (checkpoint/job-state.ts). An aggregate, join or rank keeps its state by
 * key and row: a snapshot written by one whose keys, aggregates or rows had other types cannot be read by
 * this one, and is an error naming the uid and what differs, never silently misread state.
 */
export const LAYOUT_PREFIX = "layout:";

/** The types of `columns` of `schema`, `[INT, STRING]`. */
export function typesOf(schema: ResolvedSchema, columns?: readonly number[]): string {
  const types = schema.types;
  return `[${(columns ?? types.map((_, i) => i)).map((i) => String(types[i]!.withTimeAttribute(undefined))).join(", ")}]`;
}

/** A layout description: each entry becomes `layout:<key>`. */
export function stateLayout(fields: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) out[LAYOUT_PREFIX + k] = v;
  return out;
}
