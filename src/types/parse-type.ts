import type { Decimal } from "decimal.js";
import type { Variant } from "./variant.js";
import { type Token, TokenStream } from "./sql-lexer.js";
import { ValidationError } from "./errors.js";
import { DataType, type RowFieldDef } from "./data-type.js";
import { DataTypes, type DayTimeResolution, type YearMonthResolution } from "./data-types.js";

/**
 * SQL type strings as Flink writes them, both at run time (`parseDataType`) and at the type level
 * (`SqlTypeValue`), side by side so they stay in step.
 *
 * ```ts
 * parseDataType("DECIMAL(10, 2) NOT NULL")      // DataType DECIMAL(10, 2) NOT NULL
 * parseDataType("ROW<`name` STRING, age INT>")  // ROW<`name` STRING, `age` INT>
 * type T = SqlTypeValue<"TIMESTAMP_LTZ(3)">      // Date | null
 * ```
 */
export function parseDataType(src: string): DataType {
  if (typeof src !== "string") throw new ValidationError(`a data type must be a DataType or a SQL type string, got ${String(src)}`);
  const ts = TokenStream.of(src, "data type");
  const t = parseTypeAt(ts);
  ts.expectEnd();
  return t;
}

/**
 * Parses one type (with its NOT NULL / NULL suffix) at the stream's position; used by the expression parser
 * (CAST) and SQL DDL. `sql: true` applies Flink SQL's rule where it differs from the Table API's type strings:
 * a VARCHAR without a length is STRING (Calcite's VARCHAR defaults to the maximum length; `DataTypes`'
 * parser, and so `parseDataType("VARCHAR")`, to VARCHAR(1)).
 */
export function parseTypeAt(ts: TokenStream, options: { readonly sql?: boolean } = {}): DataType {
  let t = nullability(ts, parseBase(ts, options.sql === true));
  // Flink's postfix spelling: `INT NOT NULL MULTISET NOT NULL` is MULTISET<INT NOT NULL> NOT NULL
  while (ts.acceptKeyword("MULTISET")) t = nullability(ts, DataTypes.MULTISET(t));
  return t;
}

/** The optional `NOT NULL` / `NULL` suffix of a type. */
function nullability(ts: TokenStream, t: DataType): DataType {
  if (ts.isKeyword("NOT") && ts.isKeyword("NULL", 1)) {
    ts.next();
    ts.next();
    return t.notNull();
  }
  if (ts.acceptKeyword("NULL")) return t.nullable();
  return t;
}

function optionalPrecision(ts: TokenStream, what: string): number | undefined {
  if (!ts.acceptOp("(")) return undefined;
  const p = ts.integer(what);
  ts.expectOp(")");
  return p;
}

/** Reports DataTypes' own range errors at the type's position. */
function build<T>(ts: TokenStream, at: Token, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof ValidationError) ts.raise(e.message, at);
    throw e;
  }
}

const TIME_UNITS = ["YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"];

function parseBase(ts: TokenStream, sql: boolean): DataType {
  const start = ts.peek();
  const name = ts.identifier("a data type").toUpperCase();
  switch (name) {
    case "STRING": return DataTypes.STRING();
    case "VARCHAR": {
      const n = optionalPrecision(ts, "a length");
      return build(ts, start, () => (n === undefined ? (sql ? DataTypes.STRING() : DataTypes.VARCHAR(1)) : DataTypes.VARCHAR(n)));
    }
    case "CHAR": {
      if (ts.acceptKeyword("VARYING")) {
        const n = optionalPrecision(ts, "a length");
        return build(ts, start, () => (n === undefined && sql ? DataTypes.STRING() : DataTypes.VARCHAR(n ?? 1)));
      }
      const n = optionalPrecision(ts, "a length");
      return build(ts, start, () => DataTypes.CHAR(n ?? 1));
    }
    case "BOOLEAN": return DataTypes.BOOLEAN();
    case "TINYINT": return DataTypes.TINYINT();
    case "SMALLINT": return DataTypes.SMALLINT();
    case "INT":
    case "INTEGER": return DataTypes.INT();
    case "BIGINT": return DataTypes.BIGINT();
    case "FLOAT": return DataTypes.FLOAT();
    case "DOUBLE":
      ts.acceptKeyword("PRECISION");
      return DataTypes.DOUBLE();
    case "DECIMAL":
    case "DEC":
    case "NUMERIC": {
      let p = 10;
      let s = 0;
      if (ts.acceptOp("(")) {
        p = ts.integer("a precision");
        if (ts.acceptOp(",")) s = ts.integer("a scale");
        ts.expectOp(")");
      }
      return build(ts, start, () => DataTypes.DECIMAL(p, s));
    }
    case "DATE": return DataTypes.DATE();
    case "TIME": {
      const p = optionalPrecision(ts, "a precision");
      if (ts.acceptKeyword("WITHOUT")) { ts.expectKeyword("TIME"); ts.expectKeyword("ZONE"); }
      return build(ts, start, () => DataTypes.TIME(p ?? 0));
    }
    case "TIMESTAMP": {
      const p = optionalPrecision(ts, "a precision") ?? 6;
      if (ts.acceptKeyword("WITH")) {
        ts.expectKeyword("LOCAL");
        ts.expectKeyword("TIME");
        ts.expectKeyword("ZONE");
        return build(ts, start, () => DataTypes.TIMESTAMP_LTZ(p));
      }
      if (ts.acceptKeyword("WITHOUT")) { ts.expectKeyword("TIME"); ts.expectKeyword("ZONE"); }
      return build(ts, start, () => DataTypes.TIMESTAMP(p));
    }
    case "TIMESTAMP_LTZ": {
      const p = optionalPrecision(ts, "a precision") ?? 6;
      return build(ts, start, () => DataTypes.TIMESTAMP_LTZ(p));
    }
    case "INTERVAL": return parseIntervalType(ts);
    case "ARRAY": {
      ts.expectOp("<");
      const el = parseTypeAt(ts, { sql });
      ts.expectOp(">");
      return DataTypes.ARRAY(el);
    }
    case "MULTISET": {
      ts.expectOp("<");
      const el = parseTypeAt(ts, { sql });
      ts.expectOp(">");
      return DataTypes.MULTISET(el);
    }
    case "MAP": {
      ts.expectOp("<");
      const k = parseTypeAt(ts, { sql });
      ts.expectOp(",");
      const v = parseTypeAt(ts, { sql });
      ts.expectOp(">");
      return DataTypes.MAP(k, v);
    }
    case "ROW": return parseRow(ts, start, sql);
    case "NULL": return DataTypes.NULL();
    case "DESCRIPTOR": return DataTypes.DESCRIPTOR();
    case "VARIANT": return DataTypes.VARIANT();
    default:
      return ts.fail(`unknown data type '${start.text}'; expected one of STRING, VARCHAR(n), CHAR(n), BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p, s), DATE, TIME(p), TIMESTAMP(p), TIMESTAMP_LTZ(p), INTERVAL, ARRAY<t>, MAP<k, v>, MULTISET<t>, ROW<...>, VARIANT`, start);
  }
}

function parseIntervalType(ts: TokenStream): DataType {
  const unit = (): string => {
    const t = ts.peek();
    const u = ts.identifier("an interval unit").toUpperCase();
    if (!TIME_UNITS.includes(u)) ts.fail(`expected an interval unit (${TIME_UNITS.join(", ")})`, t);
    optionalPrecision(ts, "a precision");
    return u;
  };
  const from = unit();
  let res = from;
  if (ts.acceptKeyword("TO")) res = `${from} TO ${unit()}`;
  const valid = ["YEAR", "MONTH", "YEAR TO MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "DAY TO HOUR", "DAY TO MINUTE",
    "DAY TO SECOND", "HOUR TO MINUTE", "HOUR TO SECOND", "MINUTE TO SECOND"];
  if (!valid.includes(res)) ts.fail(`INTERVAL ${res} is not a valid interval type`);
  return DataTypes.INTERVAL(res as DayTimeResolution | YearMonthResolution);
}

/** `ROW<a INT, b STRING 'desc'>` or `ROW(a INT, b STRING)`; field names may be back-quoted. */
function parseRow(ts: TokenStream, start: Token, sql: boolean): DataType {
  if (ts.acceptOp("<>")) return DataTypes.ROW(); // `ROW<>` lexes as the operator <>
  const close = ts.acceptOp("<") ? ">" : (ts.expectOp("("), ")");
  const fields: RowFieldDef[] = [];
  if (!ts.acceptOp(close)) {
    do {
      const name = ts.identifier("a ROW field name");
      const type = parseTypeAt(ts, { sql });
      const desc = ts.peek().kind === "string" ? ts.next().text : undefined;
      fields.push(DataTypes.FIELD(name, type, desc));
    } while (ts.acceptOp(","));
    ts.expectOp(close);
  }
  return build(ts, start, () => DataTypes.ROW(...fields));
}

/** A DataType given as a DataType or as a SQL type string. */
export function toDataType(t: DataType | string, where: string): DataType {
  if (t instanceof DataType) return t;
  if (typeof t === "string") return parseDataType(t);
  throw new ValidationError(`${where}: expected a DataType or a SQL type string, got ${String(t)}`);
}

// ------------------------------------------------------------------------------------------------
// Type level: the TypeScript value type of a SQL type string. Scalar types and ARRAY<scalar> are
// mapped exactly, MULTISET<scalar> as a Map of element to count; MAP, ROW and anything unrecognised give `unknown` (the run-time parser still checks them).

type Trim<S extends string> = S extends ` ${infer R}` ? Trim<R> : S extends `${infer R} ` ? Trim<R> : S;
/** Leading identifier of a type string: `DECIMAL(10, 2)` -> `DECIMAL`. */
type BaseName<S extends string> =
  S extends `${infer B}(${string}` ? Trim<B> : S extends `${infer B}<${string}` ? Trim<B> : S extends `${infer B} ${string}` ? B : S;

type ScalarValue<B extends string> =
  B extends "STRING" | "VARCHAR" | "CHAR" | "DATE" | "TIME" ? string
  : B extends "BOOLEAN" ? boolean
  : B extends "TINYINT" | "SMALLINT" | "INT" | "INTEGER" | "BIGINT" | "FLOAT" | "DOUBLE" ? number
  : B extends "DECIMAL" | "DEC" | "NUMERIC" ? Decimal
  : B extends "TIMESTAMP" | "TIMESTAMP_LTZ" ? Date
  : B extends "VARIANT" ? Variant
  : unknown;

type NotNullPart<S extends string> = S extends `${infer T} NOT NULL` ? [Trim<T>, false] : [S, true];

type BaseValue<S extends string> =
  S extends `ARRAY<${infer E}>` ? (SqlTypeValue<E> extends infer V ? (unknown extends V ? unknown : V[]) : never)
  : S extends `MULTISET<${infer E}>` ? (SqlTypeValue<E> extends infer V ? (unknown extends V ? unknown : Map<V, number>) : never)
  : ScalarValue<BaseName<S>>;

/** The TypeScript value type of a SQL type string (`"INT"` -> `number | null`, `"STRING NOT NULL"` -> `string`). */
export type SqlTypeValue<S extends string> =
  string extends S ? unknown
  : NotNullPart<Trim<Uppercase<S>>> extends [infer T extends string, infer N]
    ? (BaseValue<T> extends infer V ? (unknown extends V ? unknown : N extends true ? V | null : V) : never)
    : unknown;
