import { ValidationError } from "../../types/errors.js";
import { checkOptionKeys, type ConnectorTable } from "../connector-spec.js";
import type { Connector } from "../connector.js";
import { CSV_OPTIONS, fileFormat, JSON_OPTIONS } from "./format.js";
import { FILE_METADATA, FileSourceReader } from "./reader.js";
import { FileSinkWriter } from "./writer.js";
import { monitorInterval } from "./monitor.js";
import { connectorFromDefinition } from "../api/adapter.js";
import { parquetConnector } from "../parquet/index.js";
import type { PushedFilter } from "../../plan/pushed-filter.js";
import { checkPartitionColumns, defaultPartitionName, discoverPartitions, prunePartitions } from "./partitions.js";
import { PartitionedFileSinkWriter } from "./partitioned-writer.js";

/**
 * `'format' = 'parquet'` (Flink's spelling of a Parquet table): the table is served by the parquet connector,
 * with every option but `format`. Undefined for the text formats.
 */
const parquet = connectorFromDefinition(parquetConnector);
function asParquet(table: ConnectorTable): ConnectorTable | undefined {
  if (table.options.get("format") !== "parquet") return undefined;
  const options = new Map(table.options);
  options.delete("format");
  return { ...table, options };
}

/**
 * Flink's `filesystem` connector for CSV and JSON Lines: `path` (a file or a directory; a sink writes
 * part files into the directory) and `format` (`csv` or `json`) are required. Bounded source,
 * append-only sink. See format.ts for the format options, reader.ts / writer.ts for the behaviour.
 */
function path(table: ConnectorTable): string {
  const p = table.options.get("path");
  if (p === undefined || p.trim() === "") throw new ValidationError(`filesystem table '${table.tableName}' needs the option 'path'`);
  return p;
}

export const filesystemConnector: Connector = {
  name: "filesystem",
  canRead: true,
  canWrite: true,
  // PARTITIONED BY: `k=v/` directories (partitions.ts); DISTRIBUTED BY is not (Flink's filesystem sink has no buckets)
  supportsPartitioning: true,
  validate(table, role) {
    const pq = asParquet(table);
    if (pq !== undefined) {
      parquet.validate(pq, role);
      return;
    }
    checkOptionKeys(table, ["path", "format", "source.monitor-interval", "sink.parallelism", "partition.default-name", ...CSV_OPTIONS, ...JSON_OPTIONS]);
    if (table.partitionKeys?.length) checkPartitionColumns(table, table.partitionKeys);
    monitorInterval(table);
    path(table);
    fileFormat(table);
  },
  // with 'source.monitor-interval' the source watches the directory for new files until cancelled (monitor.ts)
  isBounded: (table) => monitorInterval(table) === undefined,
  sinkChangelog: () => "insert-only",
  supportsOverwrite: true,
  // Flink's file.path, file.name, file.size and file.modification-time, per file
  readableMetadata: () => FILE_METADATA,
  // the file source applies every filter the planner can push, and reads the projected columns only
  pushdown: (table) => {
    const pq = asParquet(table);
    if (pq !== undefined) return parquet.pushdown!(pq);
    const keys = table.partitionKeys ?? [];
    // partition pruning: the partitions discovered when the job is planned, less those the filters exclude
    const partitions = keys.length === 0 ? undefined : (filters: readonly PushedFilter[]) => {
      const found = discoverPartitions(path(table), keys);
      return prunePartitions(table.tableName, found, keys, table.physical, filters, defaultPartitionName(table)).map((p) => p.spec);
    };
    return { projection: true, acceptFilter: () => true, ...(partitions ? { partitions } : {}) };
  },
  createReader: (table, settings, pushdown) => {
    const pq = asParquet(table);
    return pq === undefined ? new FileSourceReader(table, fileFormat(table), pushdown) : parquet.createReader!(pq, settings, pushdown);
  },
  createWriter: (table, settings) => {
    const pq = asParquet(table);
    if (pq === undefined) {
      const keys = table.partitionKeys ?? [];
      return keys.length === 0 ? new FileSinkWriter(table, fileFormat(table)) : new PartitionedFileSinkWriter(table, fileFormat(table), keys);
    }
    return parquet.createWriter!(pq, settings);
  },
};
