import { ValidationError } from "../../types/errors.js";
import { checkOptionKeys, type ConnectorTable } from "../../table/table-descriptor.js";
import { parseDuration } from "../datagen/duration.js";
import { intOption } from "../connector.js";

/**
 * The options of the `jdbc` connector, with Flink's JDBC connector names and defaults. Parsed once per
 * table (validate and run time share it), so that a malformed value is an error naming the option.
 */
export interface JdbcOptions {
  readonly url: string;
  readonly tableName: string;
  readonly username: string | undefined;
  readonly password: string | undefined;
  readonly partition: PartitionOptions | undefined;
  /** Rows fetched per round trip of a scan (PostgreSQL: a cursor's FETCH; 0 = everything at once). */
  readonly fetchSize: number;
  readonly sink: SinkOptions;
  readonly lookup: LookupOptions;
}

export interface PartitionOptions {
  readonly column: string;
  readonly num: number;
  readonly lower: number;
  readonly upper: number;
}

export interface SinkOptions {
  /** Buffered rows that trigger a flush (0: no row limit). */
  readonly maxRows: number;
  /** Milliseconds after which buffered rows are flushed (0: no periodic flush). */
  readonly intervalMillis: number;
  /** Retries of a failed flush (each retry waits 1 s × attempt, as Flink's JDBC writer). */
  readonly maxRetries: number;
}

export interface LookupOptions {
  /** Cached keys (0: no cache). */
  readonly cacheMaxRows: number;
  /** Milliseconds a cached entry lives after it was loaded. */
  readonly cacheTtlMillis: number;
  /** Whether a key that found no row is cached too. */
  readonly cacheMissingKey: boolean;
  readonly maxRetries: number;
}

export const JDBC_OPTIONS = [
  "url", "table-name", "driver", "username", "password", "connection.max-retry-timeout",
  "scan.partition.column", "scan.partition.num", "scan.partition.lower-bound", "scan.partition.upper-bound",
  "scan.fetch-size", "scan.auto-commit",
  "sink.buffer-flush.max-rows", "sink.buffer-flush.interval", "sink.max-retries", "sink.parallelism",
  "lookup.cache", "lookup.partial-cache.max-rows", "lookup.partial-cache.expire-after-write",
  "lookup.partial-cache.expire-after-access", "lookup.partial-cache.cache-missing-key",
  "lookup.cache.max-rows", "lookup.cache.ttl", "lookup.cache.caching-missing-key", "lookup.max-retries",
] as const;

const PARTITION_KEYS = ["scan.partition.column", "scan.partition.num", "scan.partition.lower-bound", "scan.partition.upper-bound"] as const;

function required(table: ConnectorTable, key: string): string {
  const v = table.options.get(key);
  if (v === undefined || v.trim() === "") throw new ValidationError(`jdbc table '${table.tableName}' needs the option '${key}'`);
  return v;
}

function wholeNumber(table: ConnectorTable, key: string): number {
  const v = table.options.get(key)!;
  if (!/^\s*-?\d+\s*$/.test(v) || !Number.isSafeInteger(Number(v))) {
    throw new ValidationError(`option '${key}' of table '${table.tableName}' must be a whole number, got '${v}'`);
  }
  return Number(v);
}

function duration(table: ConnectorTable, key: string, fallback: number): number {
  const v = table.options.get(key);
  return v === undefined ? fallback : parseDuration(v, `option '${key}' of table '${table.tableName}'`);
}

function bool(table: ConnectorTable, keys: readonly string[], fallback: boolean): boolean {
  for (const key of keys) {
    const v = table.options.get(key);
    if (v === undefined) continue;
    const l = v.trim().toLowerCase();
    if (l !== "true" && l !== "false") throw new ValidationError(`option '${key}' of table '${table.tableName}' must be 'true' or 'false', got '${v}'`);
    return l === "true";
  }
  return fallback;
}

/**
 * Flink's rule for the partitioned scan: the four `scan.partition.*` options come together or not at all,
 * the column is a numeric (or date/time) column of the table, `num` ≥ 1 and lower ≤ upper.
 */
function partitionOptions(table: ConnectorTable): PartitionOptions | undefined {
  const given = PARTITION_KEYS.filter((k) => table.options.has(k));
  if (given.length === 0) return undefined;
  if (given.length < PARTITION_KEYS.length) {
    const missing = PARTITION_KEYS.filter((k) => !table.options.has(k));
    throw new ValidationError(`jdbc table '${table.tableName}': the options ${PARTITION_KEYS.map((k) => `'${k}'`).join(", ")} must all be set for a partitioned scan; missing ${missing.map((k) => `'${k}'`).join(", ")}`);
  }
  const column = table.options.get("scan.partition.column")!;
  const col = table.physical.columns.find((c) => c.name === column);
  if (col === undefined) {
    throw new ValidationError(`jdbc table '${table.tableName}': 'scan.partition.column' = '${column}' is not a physical column of [${table.physical.names.join(", ")}]`);
  }
  if (!["TINYINT", "SMALLINT", "INT", "BIGINT", "DECIMAL"].includes(col.type.root)) {
    throw new ValidationError(`jdbc table '${table.tableName}': 'scan.partition.column' = '${column}' must be a numeric column (TINYINT, SMALLINT, INT, BIGINT, DECIMAL), it is ${col.type}`);
  }
  const num = intOption(table, "scan.partition.num", 1)!;
  const lower = wholeNumber(table, "scan.partition.lower-bound");
  const upper = wholeNumber(table, "scan.partition.upper-bound");
  if (lower > upper) {
    throw new ValidationError(`jdbc table '${table.tableName}': 'scan.partition.lower-bound' (${lower}) must not be greater than 'scan.partition.upper-bound' (${upper})`);
  }
  return { column, num, lower, upper };
}

function lookupOptions(table: ConnectorTable): LookupOptions {
  const mode = table.options.get("lookup.cache");
  if (mode !== undefined && !["NONE", "PARTIAL"].includes(mode.trim().toUpperCase())) {
    throw new ValidationError(`option 'lookup.cache' of table '${table.tableName}' must be NONE or PARTIAL, got '${mode}'`);
  }
  const partial = mode?.trim().toUpperCase() === "PARTIAL";
  const maxRows = partial ? intOption(table, "lookup.partial-cache.max-rows", 1) : intOption(table, "lookup.cache.max-rows", 0);
  if (partial && maxRows === undefined) {
    throw new ValidationError(`jdbc table '${table.tableName}': 'lookup.cache' = 'PARTIAL' needs 'lookup.partial-cache.max-rows'`);
  }
  const ttl = partial
    ? Math.min(duration(table, "lookup.partial-cache.expire-after-write", Infinity), duration(table, "lookup.partial-cache.expire-after-access", Infinity))
    : duration(table, "lookup.cache.ttl", Infinity);
  return {
    cacheMaxRows: maxRows ?? 0,
    cacheTtlMillis: ttl,
    cacheMissingKey: bool(table, ["lookup.partial-cache.cache-missing-key", "lookup.cache.caching-missing-key"], true),
    maxRetries: intOption(table, "lookup.max-retries", 0, 3)!,
  };
}

/** Every option of a jdbc table, validated; unknown keys list the supported ones (Flink's message). */
export function jdbcOptions(table: ConnectorTable): JdbcOptions {
  checkOptionKeys(table, JDBC_OPTIONS);
  const username = table.options.get("username");
  const password = table.options.get("password");
  if (password !== undefined && username === undefined) {
    throw new ValidationError(`jdbc table '${table.tableName}': 'password' is set but 'username' is not; set both or neither`);
  }
  return {
    url: required(table, "url"),
    tableName: required(table, "table-name"),
    username,
    password,
    partition: partitionOptions(table),
    fetchSize: intOption(table, "scan.fetch-size", 0, 1000)!,
    sink: {
      maxRows: intOption(table, "sink.buffer-flush.max-rows", 0, 100)!,
      intervalMillis: duration(table, "sink.buffer-flush.interval", 1000),
      maxRetries: intOption(table, "sink.max-retries", 0, 3)!,
    },
    lookup: lookupOptions(table),
  };
}
