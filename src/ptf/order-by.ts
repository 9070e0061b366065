import type { ExprNode } from "../expressions/node.js";
import { ValidationError } from "../types/errors.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";
import type { SortDirection } from "./context.js";
import type { ResolvedTableArg } from "./resolved-call.js";
import type { TableLike } from "./table-arguments.js";

/**
 * ORDER BY of a table argument (PTF rule 10): `t.partitionBy(...).orderBy($("ts").asc(),
 * $("score").desc())`. The first column must be the table's time attribute, ascending; the others are
 * secondary sort keys among rows of equal time. Without NULLS FIRST/LAST, ASC sorts nulls first and DESC
 * nulls last (Flink's default null collation).
 */
export interface OrderItem {
  readonly name: string;
  readonly ascending: boolean;
  readonly nullsFirst: boolean | undefined;
}

/** A resolved ORDER BY column: its position in the table's schema and Flink's sort direction. */
export interface OrderColumn {
  readonly column: number;
  readonly direction: SortDirection;
}

/** Reads `orderBy(...)` items: column references, optionally with asc()/desc()/nullsFirst()/nullsLast(). */
export function orderItems(table: TableLike, items: readonly unknown[]): OrderItem[] {
  if (items.length === 0) throw new ValidationError("orderBy needs at least one column, e.g. orderBy($(\"ts\").asc())");
  return items.map((item, i) => {
    let node = (item as { node?: ExprNode } | null)?.node;
    let ascending = true;
    let nullsFirst: boolean | undefined;
    if (node?.kind === "Sort") {
      ascending = node.ascending;
      nullsFirst = node.nullsFirst;
      node = node.expr;
    }
    if (node === undefined || node.kind !== "Column") {
      throw new ValidationError(`orderBy: argument ${i + 1} must be a column reference $("name") (with .asc() or .desc()), got ${node ? node.kind : String(item)}`);
    }
    const schema = table.node.schema;
    if (!schema.has(node.name)) {
      throw new ValidationError(`Invalid column '${node.name}' for ORDER BY clause. Available columns are: [${schema.names.join(", ")}]`);
    }
    return { name: node.name, ascending, nullsFirst };
  });
}

function direction(o: OrderItem): SortDirection {
  const nullsFirst = o.nullsFirst ?? o.ascending;
  return o.ascending ? (nullsFirst ? "ASC_NULLS_FIRST" : "ASC_NULLS_LAST") : (nullsFirst ? "DESC_NULLS_FIRST" : "DESC_NULLS_LAST");
}

/**
 * Flink's ORDER BY rules for one table argument (V-21, V-23, V-25), in Flink's order and wording: set
 * semantics only; no column twice; the first column a TIMESTAMP / TIMESTAMP_LTZ up to precision 3,
 * ascending, the `on_time` column when both are given, and a time attribute (a watermark declaration:
 * tablestream's sort buffer releases rows by watermark).
 */
export function resolveOrderBy(t: ResolvedTableArg, items: readonly OrderItem[]): OrderColumn[] {
  if (items.length === 0) return [];
  if (!t.setSemantics) throw new ValidationError("Only tables with set semantics may be ordered.");
  const where = `Invalid ORDER BY clause for table argument '${t.name}'.`;
  const seen = new Set<string>();
  for (const o of items) {
    if (seen.has(o.name)) throw new ValidationError(`${where} Column '${o.name}' appears more than once in ORDER BY.`);
    seen.add(o.name);
  }
  const first = items[0]!;
  const column = orderColumn(t.schema, first.name);
  const type = t.schema.columns[column]!.type;
  const isTimestamp = (type.root === "TIMESTAMP" || type.root === "TIMESTAMP_LTZ") && (type.precision ?? 6) <= 3;
  // Flink's order (SystemTypeInference): duplicates, type, direction, then (output strategy) on_time, then
  // (the planner) the time attribute
  if (!isTimestamp) {
    throw new ValidationError(
      `${where} The first ORDER BY column must be a TIMESTAMP or TIMESTAMP_LTZ column (up to precision 3). However, column '${first.name}' has data type '${type}'.`,
    );
  }
  if (!first.ascending) throw new ValidationError(`${where} The first ORDER BY column on a timestamp column must be in ascending order.`);
  if (t.timeColumn >= 0 && t.timeColumn !== column) {
    throw new ValidationError(`${where} When both ORDER BY and the 'on_time' argument are defined, the referenced timestamp columns must match.`);
  }
  // checked last in Flink (by the planner, after type inference); the sort buffer releases rows by watermark
  if (type.timeAttribute !== "ROWTIME") {
    throw new ValidationError(
      `${where} The first ORDER BY column '${first.name}' is not a valid time attribute. Only columns with a watermark declaration qualify for ORDER BY. `
      + "Also, make sure that the watermarked column is forwarded without any modification.",
    );
  }
  return items.map((o) => ({ column: orderColumn(t.schema, o.name), direction: direction(o) }));
}

/** An ORDER BY column's index, with the message the Table API's orderBy gives for an unknown one. */
function orderColumn(schema: ResolvedSchema, name: string): number {
  if (!schema.has(name)) throw new ValidationError(`Invalid column '${name}' for ORDER BY clause. Available columns are: [${schema.names.join(", ")}]`);
  return schema.indexOf(name);
}
