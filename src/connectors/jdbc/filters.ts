import type { ConnectorColumn } from "../api/contract.js";
import type { PushedFilter } from "../../plan/pushed-filter.js";
import type { ValueCodec } from "./driver.js";
import { type SqlDialect, type Statement, quoteIdentifier } from "./sql.js";

/** Column types whose comparisons the database evaluates as tablestream does (numbers, strings, booleans). */
const NUMERIC = ["TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE"];
const TEXT = ["CHAR", "VARCHAR"];

/**
 * Whether the jdbc scan applies `f` in its query (Flink's JdbcFilterPushdownPreparedStatementVisitor): comparisons
 * of numeric columns, equality / inequality / IN of string and boolean columns, IS [NOT] NULL of those, and OR of
 * such comparisons. String
 * ordering is left to the plan (a database's collation may order strings differently from tablestream).
 */
export function acceptsJdbcFilter(f: PushedFilter, columns: readonly ConnectorColumn[]): boolean {
  if (f.op === "OR") return (f.any ?? []).length > 0 && f.any!.every((g) => acceptsJdbcFilter(g, columns));
  const c = columns.find((x) => x.name === f.column);
  if (c === undefined) return false;
  const root = c.type.root;
  if (f.op === "IS NULL" || f.op === "IS NOT NULL") return NUMERIC.includes(root) || TEXT.includes(root) || root === "BOOLEAN";
  if (NUMERIC.includes(root)) return true;
  return (TEXT.includes(root) || root === "BOOLEAN") && (f.op === "=" || f.op === "<>" || f.op === "IN");
}

/**
 * The pushed filters as one SQL condition with bind parameters (`"age" > $2 AND "city" IN ($3, $4)`), the
 * parameters numbered from `first`; values are bound, never written into the text, and encoded as the sink
 * encodes the column's values (a boolean is 0/1 in SQLite).
 */
export function filterCondition(d: SqlDialect, filters: readonly PushedFilter[], columns: readonly ConnectorColumn[], codec: ValueCodec, first: number): Statement {
  const params: unknown[] = [];
  const param = (f: PushedFilter, v: unknown): string => {
    const c = columns.find((x) => x.name === f.column);
    params.push(c === undefined ? v : codec.encoder(c.type)(v));
    return d.placeholder(first + params.length - 1);
  };
  const condition = (f: PushedFilter): string => {
    const col = quoteIdentifier(f.column);
    switch (f.op) {
      case "OR": return `(${(f.any ?? []).map(condition).join(" OR ")})`;
      case "IS NULL": case "IS NOT NULL": return `${col} ${f.op}`;
      case "IN": return `${col} IN (${(f.value as unknown[]).map((v) => param(f, v)).join(", ")})`;
      default: return `${col} ${f.op} ${param(f, f.value)}`;
    }
  };
  const parts = filters.map(condition);
  return { sql: parts.join(" AND "), params };
}
