import { ValidationError } from "../../types/errors.js";
import { checkOptionKeys, type ConnectorTable } from "../connector-spec.js";
import type { Connector } from "../connector.js";
import { CSV_OPTIONS, fileFormat, JSON_OPTIONS } from "./format.js";
import { FILE_METADATA, FileSourceReader } from "./reader.js";
import { FileSinkWriter } from "./writer.js";

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
  validate(table) {
    checkOptionKeys(table, ["path", "format", "source.monitor-interval", "sink.parallelism", ...CSV_OPTIONS, ...JSON_OPTIONS]);
    if (table.options.has("source.monitor-interval")) {
      throw new ValidationError(`filesystem table '${table.tableName}': 'source.monitor-interval' (watching a directory for new files) is not supported; the source reads the files present when the job starts`);
    }
    path(table);
    fileFormat(table);
  },
  isBounded: () => true,
  sinkChangelog: () => "insert-only",
  supportsOverwrite: true,
  // Flink's file.path, file.name, file.size and file.modification-time, per file
  readableMetadata: () => FILE_METADATA,
  // the file source applies every filter the planner can push, and reads the projected columns only
  pushdown: () => ({ projection: true, acceptFilter: () => true }),
  createReader: (table, _settings, pushdown) => new FileSourceReader(table, fileFormat(table), pushdown),
  createWriter: (table) => new FileSinkWriter(table, fileFormat(table)),
};
