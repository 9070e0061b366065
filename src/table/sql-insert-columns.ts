import type { ExprNode } from "../expressions/node.js";
import type { InsertColumn, StaticPartitionValue } from "../sql/ast.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";

/** A failure at a statement position (the binder adds Flink's "SQL validation failed. At line ..." prefix). */
export type FailAt = (pos: number, message: string) => never;

/** What an INSERT says about the sink's columns beyond its query. */
export interface InsertTargets {
  /** `INSERT INTO t (a, c)`: the columns the query fills, in order; absent = every non-static column. */
  readonly columns: readonly InsertColumn[] | undefined;
  /** `PARTITION (b = 2)`: static partition columns and their constants. */
  readonly partition: readonly StaticPartitionValue[] | undefined;
  /** The sink's partition keys (a static partition column must be one of them). */
  readonly partitionKeys: readonly string[];
  readonly tableName: string;
}

/**
 * The projection that turns an INSERT's query into a row of every sink column, as Flink's PreValidateReWriter
 * does: a static partition column (`PARTITION (b = 2)`) takes its constant cast to the column type, the target
 * columns (the column list, else every other sink column in order) take the query's columns positionally, any
 * other sink column is a NULL of its type. Flink's errors: an unknown or repeated target column, a NOT NULL
 * column left out, a query whose column count differs from the targets, a static column that is no partition key.
 */
export function insertProjection(t: InsertTargets, sink: ResolvedSchema, query: ResolvedSchema, statementPos: number, fail: FailAt): ExprNode[] {
  const statics = new Map<string, StaticPartitionValue>();
  for (const p of t.partition ?? []) {
    if (!t.partitionKeys.includes(p.name)) {
      fail(p.pos, `Static partition column '${p.name}' should be in the partition keys list [${t.partitionKeys.join(", ")}] for table 'default_catalog.default_database.${t.tableName}'.`);
    }
    if (statics.has(p.name)) fail(p.pos, `Target column '${p.name}' is assigned more than once`);
    statics.set(p.name, p);
  }
  const columns = t.columns ?? sink.names.filter((n) => !statics.has(n)).map((name) => ({ name, pos: statementPos }));
  const source = new Map<string, number>();
  columns.forEach((c, i) => {
    if (!sink.names.includes(c.name)) fail(c.pos, `Unknown target column '${c.name}'`);
    if (source.has(c.name) || statics.has(c.name)) fail(c.pos, `Target column '${c.name}' is assigned more than once`);
    source.set(c.name, i);
  });
  if (query.size !== columns.length) {
    fail(statementPos, `Number of INSERT target columns (${columns.length}) does not equal number of source items (${query.size})`);
  }
  return sink.columns.map((s): ExprNode => {
    const as = (expr: ExprNode): ExprNode => ({ kind: "Alias", name: s.name, extraNames: [], expr });
    const i = source.get(s.name);
    if (i !== undefined) return as({ kind: "Column", name: query.names[i]! });
    const fixed = statics.get(s.name);
    if (fixed !== undefined) return as({ kind: "Call", fn: "cast", args: [fixed.value, { kind: "Literal", value: null, type: s.type }] });
    if (!s.type.isNullable) fail(statementPos, `Column '${s.name}' has no default value and does not allow NULLs`);
    return as({ kind: "Literal", value: null, type: s.type });
  });
}
