import { Decimal } from "decimal.js";
import { DataType } from "../types/data-type.js";
import { ValidationError } from "../types/errors.js";
import type { AggNode, CallNode, ExprNode } from "./node.js";

/**
 * Renders expression nodes as Flink SQL text (`Table.toSql()`): the inverse of the SQL expression parser
 * (sql-expression.ts), which maps SQL onto the same function names. Every operator application is
 * parenthesized, so no precedence is ever guessed. A node without a SQL form raises a ValidationError
 * naming it.
 */
export interface SqlRenderContext {
  /** SQL text of a column reference (`\`a\``, or `l.\`a\`` inside a join). */
  column(name: string): string;
  /** The name a user-defined function object is registered under (undefined: not registered). */
  functionName(udf: unknown): string | undefined;
}

const BINARY: Readonly<Record<string, string>> = {
  equals: "=", notEquals: "<>", lessThan: "<", lessThanOrEqual: "<=", greaterThan: ">", greaterThanOrEqual: ">=",
  plus: "+", minus: "-", times: "*", dividedBy: "/",
};
const POSTFIX: Readonly<Record<string, string>> = {
  isNull: "IS NULL", isNotNull: "IS NOT NULL", isTrue: "IS TRUE", isFalse: "IS FALSE", isNotTrue: "IS NOT TRUE", isNotFalse: "IS NOT FALSE",
};
/** Built-ins whose SQL name is a plain function call with the same arguments. */
const FUNCTIONS: Readonly<Record<string, string>> = {
  if: "IF", coalesce: "COALESCE", ifNull: "IFNULL", upper: "UPPER", lower: "LOWER", initCap: "INITCAP", charLength: "CHAR_LENGTH",
  substring: "SUBSTRING", concat: "CONCAT", replace: "REPLACE", repeat: "REPEAT", lpad: "LPAD", rpad: "RPAD", trimLeading: "LTRIM",
  trimTrailing: "RTRIM", abs: "ABS", power: "POWER", sqrt: "SQRT", exp: "EXP", ln: "LN", log10: "LOG10", mod: "MOD", floor: "FLOOR", ceil: "CEIL",
  proctime: "PROCTIME", fromUnixtime: "FROM_UNIXTIME", unixTimestamp: "UNIX_TIMESTAMP",
};

/** A SQL identifier in backticks (a backtick inside is doubled), so any column name is safe. */
export function quoteIdentifier(name: string): string {
  return `\`${name.replace(/`/g, "``")}\``;
}

/** A type as SQL DDL / CAST write it: nullable form, without time-attribute markers. */
export function sqlTypeString(t: DataType): string {
  return t.nullable().toString().replace(/ \*(ROWTIME|PROCTIME)\*/g, "");
}

export function exprToSql(e: ExprNode, ctx: SqlRenderContext): string {
  switch (e.kind) {
    case "Column": return ctx.column(e.name);
    case "Literal": return literalToSql(e.value, e.type);
    case "Alias": return exprToSql(e.expr, ctx);
    case "Call": return callToSql(e, ctx);
    case "Agg": return aggToSql(e, ctx);
    default: throw noSqlForm(`a ${e.kind} expression`);
  }
}

function callToSql(e: CallNode, ctx: SqlRenderContext): string {
  const args = (from = 0) => e.args.slice(from).map((a) => exprToSql(a, ctx));
  const op = BINARY[e.fn];
  if (op !== undefined && e.args.length === 2) return `(${args().join(` ${op} `)})`;
  const post = POSTFIX[e.fn];
  if (post !== undefined) return `(${args()[0]} ${post})`;
  switch (e.fn) {
    case "and": return `(${args().join(" AND ")})`;
    case "or": return `(${args().join(" OR ")})`;
    case "not": return `(NOT ${args()[0]})`;
    case "negate": return `(- ${args()[0]})`;
    case "between": case "notBetween": {
      const [x, lo, hi] = args();
      return `(${x} ${e.fn === "between" ? "" : "NOT "}BETWEEN ${lo} AND ${hi})`;
    }
    case "in": return `(${args()[0]} IN (${args(1).join(", ")}))`;
    case "like": return `(${args()[0]} LIKE ${args()[1]})`;
    case "cast": case "tryCast": {
      const target = e.args[1];
      if (target?.kind !== "Literal" || target.type === undefined) throw noSqlForm(`${e.fn} without a target type`);
      return `${e.fn === "cast" ? "CAST" : "TRY_CAST"}(${exprToSql(e.args[0]!, ctx)} AS ${sqlTypeString(target.type)})`;
    }
    case "$udf": {
      const name = ctx.functionName(e.udf) ?? (e.udf as { name?: string }).name;
      if (name === undefined) throw noSqlForm("a function that is not registered by name");
      return `${quoteIdentifier(name)}(${args().join(", ")})`;
    }
  }
  const interval = INTERVAL_UNITS[e.fn];
  const count = e.args[0];
  if (interval !== undefined && count?.kind === "Literal" && typeof count.value === "number" && Number.isInteger(count.value)) {
    // `lit(5).seconds()`: the interval literal of that many units
    return intervalLiteral(count.value * interval.factor, interval.yearMonth ? YEAR_MONTH : DAY_TIME);
  }
  const builtin = FUNCTIONS[e.fn];
  if (builtin !== undefined) return `${builtin}(${args().join(", ")})`;
  // `call("hash", ...)`: a function registered by name keeps that name
  if (e.udf === undefined && /^[A-Za-z_][A-Za-z0-9_$]*$/.test(e.fn) && ctx.functionName(e.fn) !== undefined) {
    return `${quoteIdentifier(ctx.functionName(e.fn)!)}(${args().join(", ")})`;
  }
  throw noSqlForm(`function '${e.fn}'`);
}

function aggToSql(e: AggNode, ctx: SqlRenderContext): string {
  const args = e.args.map((a) => exprToSql(a, ctx));
  if (e.udf !== undefined) {
    const name = ctx.functionName(e.udf) ?? e.fn;
    return `${quoteIdentifier(name)}(${args.join(", ")})`;
  }
  if (e.fn === "SUM0") throw noSqlForm("sum0 (Flink SQL has no SUM0; use COALESCE(SUM(x), 0) in the Table API)");
  if (e.fn === "COUNT" && args.length === 0) return "COUNT(*)";
  return `${e.fn}(${e.distinct ? "DISTINCT " : ""}${args.join(", ")})`;
}

/** A literal as SQL: strings quoted (a quote doubled), numbers plain or cast to their type, NULL typed when the type is known. */
export function literalToSql(v: unknown, type: DataType | undefined): string {
  if (type !== undefined && (type.root === "INTERVAL_DAY_TIME" || type.root === "INTERVAL_YEAR_MONTH")) return intervalLiteral(v, type);
  const raw = rawLiteral(v);
  if (type === undefined) {
    if (typeof v === "number" && !(Number.isInteger(v) && Math.abs(v) <= 2147483647)) return `CAST(${raw} AS ${Number.isInteger(v) ? "BIGINT" : "DOUBLE"})`;
    return raw;
  }
  return `CAST(${raw} AS ${sqlTypeString(type)})`;
}

function rawLiteral(v: unknown): string {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "string") return `'${v.replace(/'/g, "''")}'`;
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw noSqlForm(`the number ${v}`);
    return Number.isInteger(v) ? String(v) : String(v).includes("e") ? v.toExponential() : String(v);
  }
  if (typeof v === "bigint") return String(v);
  if (v instanceof Decimal) return `'${v.toString()}'`;
  if (v instanceof Date) return `'${v.toISOString().replace("T", " ").replace("Z", "")}'`;
  throw noSqlForm(`the value ${String(v)}`);
}

/** A day-time interval of `ms` milliseconds as a SQL literal (`INTERVAL '10' SECOND`). */
export function intervalToSql(ms: number): string {
  return intervalLiteral(ms, DAY_TIME);
}
const DAY_TIME = new DataType("INTERVAL_DAY_TIME", false);
const YEAR_MONTH = new DataType("INTERVAL_YEAR_MONTH", false);
/** The Table API's interval builders (`lit(n).seconds()`): months or milliseconds per unit. */
const INTERVAL_UNITS: Readonly<Record<string, { factor: number; yearMonth: boolean }>> = {
  intervalYears: { factor: 12, yearMonth: true }, intervalQuarters: { factor: 3, yearMonth: true }, intervalMonths: { factor: 1, yearMonth: true },
  intervalWeeks: { factor: 7 * 86400000, yearMonth: false }, intervalDays: { factor: 86400000, yearMonth: false },
  intervalHours: { factor: 3600000, yearMonth: false }, intervalMinutes: { factor: 60000, yearMonth: false },
  intervalSeconds: { factor: 1000, yearMonth: false }, intervalMillis: { factor: 1, yearMonth: false },
};

function intervalLiteral(v: unknown, type: DataType): string {
  if (typeof v !== "number" || !Number.isInteger(v)) throw noSqlForm(`the interval ${String(v)}`);
  const sign = v < 0 ? "-" : "";
  const n = Math.abs(v);
  if (type.root === "INTERVAL_YEAR_MONTH") return n % 12 === 0 ? `INTERVAL '${sign}${n / 12}' YEAR` : `INTERVAL '${sign}${n}' MONTH`;
  for (const [unit, ms] of [["DAY", 86400000], ["HOUR", 3600000], ["MINUTE", 60000], ["SECOND", 1000]] as const) {
    if (n % ms === 0 && n / ms < 100) return `INTERVAL '${sign}${n / ms}' ${unit}`;
  }
  // a single field holds at most two digits by default (Flink: "exceeds precision of SECOND(2) field")
  if (n < 1000 * 100) return `INTERVAL '${sign}${(n / 1000).toFixed(3)}' SECOND`;
  const pad = (x: number, w = 2) => String(x).padStart(w, "0");
  const [d, h, m, sec, ms] = [Math.floor(n / 86400000), Math.floor(n / 3600000) % 24, Math.floor(n / 60000) % 60, Math.floor(n / 1000) % 60, n % 1000];
  return `INTERVAL '${sign}${d} ${pad(h)}:${pad(m)}:${pad(sec)}.${pad(ms, 3)}' DAY TO SECOND`;
}

function noSqlForm(what: string): ValidationError {
  return new ValidationError(`toSql: ${what} has no Flink SQL form in tablestream yet`);
}
