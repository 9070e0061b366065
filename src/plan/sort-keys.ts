import { type ExprNode, nodeToString } from "../expressions/node.js";
import { ValidationError } from "../types/errors.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";
import type { SortKey } from "./nodes/sort.js";

/**
 * Reads ORDER BY items: column references, optionally `.asc()` / `.desc()` and `.nullsFirst()` /
 * `.nullsLast()`. Without a NULLS clause, ASC sorts NULLs first and DESC last (Flink's default collation).
 */
export function resolveSortKeys(items: readonly ExprNode[], schema: ResolvedSchema, what: string): SortKey[] {
  return items.map((item, i) => {
    let node = item;
    let ascending = true;
    let nullsFirst: boolean | undefined;
    if (node.kind === "Sort") {
      ascending = node.ascending;
      nullsFirst = node.nullsFirst;
      node = node.expr;
    }
    if (node.kind !== "Column") {
      throw new ValidationError(`${what}: argument ${i + 1} must be a column reference $("name") (with .asc() or .desc()), got ${nodeToString(node)}`);
    }
    if (!schema.has(node.name)) throw new ValidationError(`${what}: column '${node.name}' is not in [${schema.names.join(", ")}]`);
    return { column: schema.indexOf(node.name), ascending, nullsFirst: nullsFirst ?? ascending };
  });
}

/** Reads key columns (partitionBy / deduplicate keys): plain column references. */
export function resolveKeyColumns(items: readonly ExprNode[], schema: ResolvedSchema, what: string): number[] {
  const out = items.map((node, i) => {
    if (node.kind !== "Column") throw new ValidationError(`${what}: argument ${i + 1} must be a column reference $("name"), got ${nodeToString(node)}`);
    if (!schema.has(node.name)) throw new ValidationError(`${what}: column '${node.name}' is not in [${schema.names.join(", ")}]`);
    return schema.indexOf(node.name);
  });
  const twice = out.find((c, i) => out.indexOf(c) !== i);
  if (twice !== undefined) throw new ValidationError(`${what}: column '${schema.names[twice]}' appears more than once`);
  return out;
}
