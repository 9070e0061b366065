import { ValidationError } from "../../types/errors.js";
import type { TableContext } from "../api/contract.js";
import { LOOKUP_FRAMEWORK_OPTIONS, SINK_FRAMEWORK_OPTIONS } from "../api/framework-options.js";
import { option, type OptionValues } from "../api/options.js";

/**
 * The options of the `jdbc` connector, with Flink's JDBC connector names and defaults. The lookup cache
 * (`lookup.cache`, `lookup.partial-cache.*`, `lookup.max-retries`) and the sink's batching into `write()`
 * calls (`sink.batch.max-size`, `sink.requests.max-inflight`) are the connector framework's, declared here
 * too so that one table can be scanned, looked up and written.
 */
export const JDBC_OPTIONS = {
  url: option.string({ required: true, description: "The database: 'jdbc:postgresql://host:port/db' (or 'postgres://…'), 'jdbc:sqlite:/path/file.db' (or 'sqlite::memory:')." }),
  "table-name": option.string({ required: true, description: "The table in the database ('schema.table' for PostgreSQL); names are quoted, so they match exactly." }),
  driver: option.string({ description: "Accepted for Flink compatibility; the driver follows from the url." }),
  username: option.string({ description: "PostgreSQL user (overrides the url's)." }),
  password: option.string({ secret: true, description: "PostgreSQL password (overrides the url's)." }),
  "connection.max-retry-timeout": option.duration({ default: 60_000, description: "How long opening a connection may take." }),
  "scan.partition.column": option.string({ description: "A numeric column to split the scan by." }),
  "scan.partition.num": option.int({ min: 1, description: "How many partitions (queries) the scan is split into." }),
  "scan.partition.lower-bound": option.int({ description: "The smallest value of the first partition." }),
  "scan.partition.upper-bound": option.int({ description: "The largest value of the last partition." }),
  "scan.fetch-size": option.int({ default: 0, min: 0, description: "Rows fetched per round trip (PostgreSQL: a cursor in a read-only transaction); 0 = each partition's result at once." }),
  "scan.auto-commit": option.boolean({ default: true, description: "Accepted for Flink compatibility; scans read inside one read-only transaction." }),
  "sink.buffer-flush.max-rows": option.int({ default: 100, min: 0, description: "Buffered rows that trigger a flush (0: no row limit)." }),
  "sink.buffer-flush.interval": option.duration({ default: 1000, description: "Buffered rows are flushed at least this often (0: only by row count and at the end)." }),
  "sink.max-retries": option.int({ default: 3, min: 0, description: "Retries of a failed flush (the first at once, the n-th after n−1 seconds, as Flink)." }),
  ...SINK_FRAMEWORK_OPTIONS,
  ...LOOKUP_FRAMEWORK_OPTIONS,
} as const;

export type JdbcOptionValues = OptionValues<typeof JDBC_OPTIONS>;
export type JdbcTable = TableContext<typeof JDBC_OPTIONS>;

export interface PartitionOptions {
  readonly column: string;
  readonly num: number;
  readonly lower: number;
  readonly upper: number;
}

const PARTITION_KEYS = ["scan.partition.column", "scan.partition.num", "scan.partition.lower-bound", "scan.partition.upper-bound"] as const;

/**
 * Flink's rule for the partitioned scan: the four `scan.partition.*` options come together or not at all,
 * the column is a numeric column of the table and lower ≤ upper.
 */
export function partitionOptions(table: JdbcTable, checkColumn = true): PartitionOptions | undefined {
  const o = table.options;
  const given = PARTITION_KEYS.filter((k) => o[k] !== undefined);
  if (given.length === 0) return undefined;
  if (given.length < PARTITION_KEYS.length) {
    const missing = PARTITION_KEYS.filter((k) => o[k] === undefined);
    throw new ValidationError(`jdbc table '${table.tableName}': the options ${PARTITION_KEYS.map((k) => `'${k}'`).join(", ")} must all be set for a partitioned scan; missing ${missing.map((k) => `'${k}'`).join(", ")}`);
  }
  const column = o["scan.partition.column"]!;
  const col = checkColumn ? table.columns.find((c) => c.name === column) : { type: { root: "INT" } };
  if (col === undefined) {
    throw new ValidationError(`jdbc table '${table.tableName}': 'scan.partition.column' = '${column}' is not a physical column of [${table.columns.map((c) => c.name).join(", ")}]`);
  }
  if (!["TINYINT", "SMALLINT", "INT", "BIGINT", "DECIMAL"].includes(col.type.root)) {
    throw new ValidationError(`jdbc table '${table.tableName}': 'scan.partition.column' = '${column}' must be a numeric column (TINYINT, SMALLINT, INT, BIGINT, DECIMAL), it is ${col.type}`);
  }
  const lower = o["scan.partition.lower-bound"]!;
  const upper = o["scan.partition.upper-bound"]!;
  if (lower > upper) {
    throw new ValidationError(`jdbc table '${table.tableName}': 'scan.partition.lower-bound' (${lower}) must not be greater than 'scan.partition.upper-bound' (${upper})`);
  }
  return { column, num: o["scan.partition.num"]!, lower, upper };
}
