import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { DataType } from "../../types/data-type.js";
import { ExecutionError, ValidationError } from "../../types/errors.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import { pushedFilterPredicate, type PushedFilter } from "../../plan/pushed-filter.js";
import type { ConnectorTable } from "../connector-spec.js";
import { decodeText, encodeScalar, FieldError } from "./codec.js";
import type { CsvFormat } from "./format.js";

/**
 * Partition directories of a `PARTITIONED BY (dt, hr)` filesystem table, as Flink's filesystem connector lays
 * them out: `path/dt=2024-01-01/hr=10/part-...`. The partition columns are not written inside the files; their
 * values are the directory names. A NULL or empty value is the default partition name (`partition.default-name`,
 * `__DEFAULT_PARTITION__`), read back as NULL. Names and values are escaped as Flink (and Hive) escape them:
 * control characters, `"`, `#`, `%`, `'`, `*`, `/`, `:`, `=`, `?`, `\`, DEL, `{`, `[`, `]`, `^` become `%XX`
 * (upper-case hex).
 */
export const DEFAULT_PARTITION_NAME = "__DEFAULT_PARTITION__";

const ESCAPED = new Set(["\"", "#", "%", "'", "*", "/", ":", "=", "?", "\\", "\u007F", "{", "[", "]", "^"]);

function mustEscape(c: string): boolean {
  const code = c.charCodeAt(0);
  return (code >= 0x01 && code <= 0x1f) || ESCAPED.has(c);
}

/** Flink's PartitionPathUtils.escapePathName. */
export function escapePathName(s: string): string {
  let out = "";
  for (const c of s) {
    out += c.length === 1 && mustEscape(c) ? `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}` : c;
  }
  return out;
}

/** The inverse of escapePathName (a `%` not followed by two hex digits stays as it is). */
export function unescapePathName(s: string): string {
  return s.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The default partition name of a table (`partition.default-name`). */
export function defaultPartitionName(table: ConnectorTable): string {
  return table.options.get("partition.default-name") ?? DEFAULT_PARTITION_NAME;
}

/** The directory text of one partition value (unescaped): the value as the files hold it; NULL and '' are the default name. */
export function partitionValueText(type: DataType, value: unknown, defaultName: string): string {
  if (value === null || value === undefined) return defaultName;
  const s = encodeScalar(type, value);
  return s === "" ? defaultName : s;
}

/** The relative directory of a partition, `dt=2024-01-01/hr=10`, from unescaped values in key order. */
export function partitionPath(keys: readonly string[], values: readonly string[]): string {
  let p = "";
  for (let i = 0; i < keys.length; i++) p += `${i === 0 ? "" : "/"}${escapePathName(keys[i]!)}=${escapePathName(values[i]!)}`;
  return p;
}

/** Partition values are plain scalars (the text is a directory name, read back by the CSV scalar decoder). */
const TEXT: CsvFormat = { kind: "csv", delimiter: ",", quote: "\"", escape: undefined, comments: false, nullLiteral: undefined, arrayDelimiter: ";", ignoreParseErrors: false };
const PARTITION_TYPES = ["CHAR", "VARCHAR", "BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL", "DATE", "TIME", "TIMESTAMP"];

/** Flink's rule: a partition column holds a scalar its directory name can spell (no ARRAY, MAP, ROW, BYTES ...). */
export function checkPartitionColumns(table: ConnectorTable, keys: readonly string[]): void {
  checkPartitionKeys(`filesystem table '${table.tableName}'`, table.physical.columns, keys);
}

/** checkPartitionColumns for any file table (`where` names it in errors: "parquet table 't'"), from its physical columns. */
export function checkPartitionKeys(where: string, columns: readonly { readonly name: string; readonly type: DataType }[], keys: readonly string[]): void {
  for (const k of keys) {
    const c = columns.find((x) => x.name === k);
    if (c === undefined) throw new ValidationError(`${where}: partition key '${k}' is not a physical column of [${columns.map((x) => x.name).join(", ")}]`);
    if (!PARTITION_TYPES.includes(c.type.root)) {
      throw new ValidationError(`${where}: partition column '${k}' has type ${c.type}; a partition column must be one of ${PARTITION_TYPES.join(", ")}`);
    }
  }
  if (keys.length === columns.length) {
    throw new ValidationError(`${where}: every column is a partition key; the files need at least one column that is not`);
  }
}

/** A partition directory's value as a value of the column type; the default name is NULL. */
export function parsePartitionValue(table: string, column: string, type: DataType, text: string, defaultName: string): unknown {
  if (text === defaultName) return null;
  try {
    return decodeText(type, text, TEXT);
  } catch (e) {
    if (e instanceof FieldError) throw new ExecutionError(`filesystem table '${table}': partition directory '${column}=${escapePathName(text)}' does not hold a value of the column: ${e.message}`);
    throw e;
  }
}

/** One partition found under a table's path: its directory and its spec (key to unescaped text, in key order). */
export interface Partition {
  readonly dir: string;
  readonly spec: Readonly<Record<string, string>>;
}

/**
 * Partition discovery: the directories `k1=v1/k2=v2/...` below `root`, `keys.length` levels deep, in key
 * order, sorted by name at each level. Hidden names (`.`, `_`) are skipped as in file listing; a directory
 * whose name is not `key=value` for the key of its level is not a partition and is skipped (Flink too
 * ignores it). A missing root has no partitions.
 */
export function discoverPartitions(root: string, keys: readonly string[]): Partition[] {
  const out: Partition[] = [];
  if (!existsSync(root) || !statSync(root).isDirectory()) return out;
  const walk = (dir: string, level: number, spec: Record<string, string>) => {
    if (level === keys.length) {
      out.push({ dir, spec: Object.freeze({ ...spec }) });
      return;
    }
    const prefix = `${escapePathName(keys[level]!)}=`;
    for (const name of readdirSync(dir).sort()) {
      if (!name.startsWith(prefix)) continue;
      const p = join(dir, name);
      if (!statSync(p).isDirectory()) continue;
      walk(p, level + 1, { ...spec, [keys[level]!]: unescapePathName(name.slice(prefix.length)) });
    }
  };
  walk(root, 0, {});
  return out;
}

/**
 * Partition pruning (Flink's SupportsPartitionPushDown): the partitions that may hold rows passing the filters
 * on partition columns only (the other filters say nothing about a directory). Values are typed from the schema.
 */
export function prunePartitions(table: string, partitions: readonly Partition[], keys: readonly string[], physical: ResolvedSchema, filters: readonly PushedFilter[], defaultName: string): Partition[] {
  const onKeys = filters.filter((f) => (f.op === "OR" ? (f.any ?? []).every((g) => keys.includes(g.column)) : keys.includes(f.column)));
  if (onKeys.length === 0) return [...partitions];
  const types = keys.map((k) => physical.column(k).type);
  const test = pushedFilterPredicate(onKeys, (c) => keys.indexOf(c));
  return partitions.filter((p) => test(keys.map((k, i) => parsePartitionValue(table, k, types[i]!, p.spec[k]!, defaultName))));
}
