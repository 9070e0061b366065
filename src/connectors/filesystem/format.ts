import { ValidationError } from "../../types/errors.js";
import type { ConnectorTable } from "../connector-spec.js";
import type { DataType } from "../../types/data-type.js";

/**
 * The two formats of the filesystem connector, with Flink's option names:
 * - `csv`: `csv.field-delimiter` (`,`), `csv.quote-character` (`"`), `csv.disable-quote-character`,
 *   `csv.escape-character` (none: a quote inside quotes is doubled), `csv.allow-comments` (`#` lines),
 *   `csv.null-literal`, `csv.array-element-delimiter` (`;`), `csv.ignore-parse-errors`;
 * - `json` (JSON Lines: one object per line): `json.ignore-parse-errors`, `json.fail-on-missing-field`,
 *   `json.timestamp-format.standard` (`SQL` or `ISO-8601`).
 */
export interface CsvFormat {
  readonly kind: "csv";
  readonly delimiter: string;
  readonly quote: string | false;
  readonly escape: string | undefined;
  readonly comments: boolean;
  readonly nullLiteral: string | undefined;
  readonly arrayDelimiter: string;
  readonly ignoreParseErrors: boolean;
}

export interface JsonFormat {
  readonly kind: "json";
  readonly ignoreParseErrors: boolean;
  readonly failOnMissingField: boolean;
  readonly isoTimestamps: boolean;
}

export type FileFormat = CsvFormat | JsonFormat;

export const CSV_OPTIONS = [
  "csv.field-delimiter", "csv.quote-character", "csv.disable-quote-character", "csv.escape-character", "csv.allow-comments",
  "csv.null-literal", "csv.array-element-delimiter", "csv.ignore-parse-errors",
];
export const JSON_OPTIONS = ["json.ignore-parse-errors", "json.fail-on-missing-field", "json.timestamp-format.standard"];

/** Reads a boolean option ('true' / 'false', case-insensitive). */
function boolOption(table: ConnectorTable, key: string, fallback: boolean): boolean {
  const v = table.options.get(key);
  if (v === undefined) return fallback;
  const l = v.trim().toLowerCase();
  if (l !== "true" && l !== "false") throw new ValidationError(`option '${key}' of table '${table.tableName}' must be 'true' or 'false', got '${v}'`);
  return l === "true";
}

function singleChar(table: ConnectorTable, key: string, fallback: string): string {
  const v = table.options.get(key) ?? fallback;
  const c = v === "\\t" ? "\t" : v;
  if (c.length !== 1) throw new ValidationError(`option '${key}' of table '${table.tableName}' must be a single character, got '${v}'`);
  return c;
}

export function fileFormat(table: ConnectorTable): FileFormat {
  const format = table.options.get("format");
  if (format === undefined) throw new ValidationError(`filesystem table '${table.tableName}' needs the option 'format' ('csv' or 'json')`);
  const foreign = (prefix: string) => [...table.options.keys()].filter((k) => k.startsWith(prefix));
  if (format === "csv") {
    const bad = foreign("json.");
    if (bad.length) throw new ValidationError(`filesystem table '${table.tableName}' has format 'csv' but JSON options [${bad.join(", ")}]`);
    const f: CsvFormat = {
      kind: "csv",
      delimiter: singleChar(table, "csv.field-delimiter", ","),
      quote: boolOption(table, "csv.disable-quote-character", false) ? false : singleChar(table, "csv.quote-character", "\""),
      escape: table.options.has("csv.escape-character") ? singleChar(table, "csv.escape-character", "\\") : undefined,
      comments: boolOption(table, "csv.allow-comments", false),
      nullLiteral: table.options.get("csv.null-literal"),
      arrayDelimiter: table.options.get("csv.array-element-delimiter") ?? ";",
      ignoreParseErrors: boolOption(table, "csv.ignore-parse-errors", false),
    };
    if (f.quote !== false && f.quote === f.delimiter) throw new ValidationError(`table '${table.tableName}': the CSV quote character and field delimiter must differ`);
    if (f.arrayDelimiter.length === 0) throw new ValidationError(`option 'csv.array-element-delimiter' of table '${table.tableName}' must not be empty`);
    for (const c of table.physical.columns) {
      if (["MAP", "MULTISET", "ROW"].includes(c.type.root) || (c.type.root === "ARRAY" && ["ARRAY", "MAP", "MULTISET", "ROW"].includes(c.type.elementType!.root))) {
        throw new ValidationError(`filesystem table '${table.tableName}': format 'csv' cannot hold column '${c.name}' of type ${c.type} (use format 'json')`);
      }
    }
    return f;
  }
  if (format === "json") {
    const bad = foreign("csv.");
    if (bad.length) throw new ValidationError(`filesystem table '${table.tableName}' has format 'json' but CSV options [${bad.join(", ")}]`);
    const std = table.options.get("json.timestamp-format.standard") ?? "SQL";
    if (std !== "SQL" && std !== "ISO-8601") {
      throw new ValidationError(`option 'json.timestamp-format.standard' of table '${table.tableName}' must be 'SQL' or 'ISO-8601', got '${std}'`);
    }
    for (const c of table.physical.columns) checkJsonType(table, c.name, c.type);
    return {
      kind: "json",
      ignoreParseErrors: boolOption(table, "json.ignore-parse-errors", false),
      failOnMissingField: boolOption(table, "json.fail-on-missing-field", false),
      isoTimestamps: std === "ISO-8601",
    };
  }
  throw new ValidationError(`filesystem table '${table.tableName}': unsupported format '${format}'; supported: csv, json, parquet`);
}

/** JSON object keys are strings: a MAP column needs string keys, and so a MULTISET (Flink writes it as its map of element to count). */
function checkJsonType(table: ConnectorTable, name: string, t: DataType): void {
  if (t.root === "MULTISET" && t.elementType!.root !== "VARCHAR" && t.elementType!.root !== "CHAR") {
    throw new ValidationError(`filesystem table '${table.tableName}': format 'json' needs string elements for MULTISET column '${name}' (written as an object of element to count), got ${t}`);
  }
  if (t.root === "MAP" && t.keyType!.root !== "VARCHAR" && t.keyType!.root !== "CHAR") {
    throw new ValidationError(`filesystem table '${table.tableName}': format 'json' needs string keys for MAP column '${name}', got ${t}`);
  }
  if (t.root === "ARRAY") checkJsonType(table, name, t.elementType!);
  if (t.root === "MAP") checkJsonType(table, name, t.valueType!);
  if (t.root === "ROW") for (const f of t.fields) checkJsonType(table, name, f.type);
}
