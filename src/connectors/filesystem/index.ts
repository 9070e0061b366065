import { ValidationError } from "../../types/errors.js";
import { checkOptionKeys, type ConnectorTable } from "../connector-spec.js";
import type { Connector } from "../connector.js";
import { CSV_OPTIONS, fileFormat, JSON_OPTIONS } from "./format.js";
import { FILE_METADATA, FileSourceReader } from "./reader.js";
import { FileSinkWriter } from "./writer.js";
import { monitorInterval } from "./monitor.js";
import { connectorFromDefinition } from "../api/adapter.js";
import { parquetConnector } from "../parquet/index.js";

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
  validate(table, role) {
    const pq = asParquet(table);
    if (pq !== undefined) {
      parquet.validate(pq, role);
      return;
    }
    checkOptionKeys(table, ["path", "format", "source.monitor-interval", "sink.parallelism", ...CSV_OPTIONS, ...JSON_OPTIONS]);
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
    return pq === undefined ? { projection: true, acceptFilter: () => true } : parquet.pushdown!(pq);
  },
  createReader: (table, settings, pushdown) => {
    const pq = asParquet(table);
    return pq === undefined ? new FileSourceReader(table, fileFormat(table), pushdown) : parquet.createReader!(pq, settings, pushdown);
  },
  createWriter: (table, settings) => {
    const pq = asParquet(table);
    if (pq === undefined) return new FileSinkWriter(table, fileFormat(table));
    // the parquet sink adds a part file; replacing the directory's files is the text formats' only
    if (table.overwrite) throw new ValidationError(`filesystem table '${table.tableName}': INSERT OVERWRITE is not supported with format 'parquet'`);
    return parquet.createWriter!(pq, settings);
  },
};
