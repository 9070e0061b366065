import type { ExprNode } from "../expressions/node.js";
import type { InsertColumn } from "../sql/ast.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";

/** A failure at a statement position (the binder adds Flink's "SQL validation failed. At line ..." prefix). */
export type FailAt = (pos: number, message: string) => never;

/**
 * The projection that turns a partial insert's query (`INSERT INTO t (a, c) SELECT x, z ...`) into a row of
 * every sink column, as Flink's PreValidateReWriter does: the listed columns take the query's columns in order,
 * every other sink column is a NULL of its type. Flink's errors: an unknown or repeated target column, a NOT NULL
 * column left out, a query whose column count differs from the list.
 */
export function partialInsertProjection(
  columns: readonly InsertColumn[], sink: ResolvedSchema, query: ResolvedSchema, statementPos: number, fail: FailAt,
): ExprNode[] {
  const source = new Map<string, number>();
  columns.forEach((c, i) => {
    if (!sink.names.includes(c.name)) fail(c.pos, `Unknown target column '${c.name}'`);
    if (source.has(c.name)) fail(c.pos, `Target column '${c.name}' is assigned more than once`);
    source.set(c.name, i);
  });
  if (query.size !== columns.length) {
    fail(statementPos, `Number of INSERT target columns (${columns.length}) does not equal number of source items (${query.size})`);
  }
  return sink.columns.map((s): ExprNode => {
    const i = source.get(s.name);
    if (i !== undefined) return { kind: "Alias", name: s.name, extraNames: [], expr: { kind: "Column", name: query.names[i]! } };
    if (!s.type.isNullable) fail(statementPos, `Column '${s.name}' has no default value and does not allow NULLs`);
    return { kind: "Alias", name: s.name, extraNames: [], expr: { kind: "Literal", value: null, type: s.type } };
  });
}
