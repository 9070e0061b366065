import { ValidationError } from "../../types/errors.js";
import type { ConnectorTable } from "../connector-spec.js";
import type { Connector } from "../connector.js";
import { defineConnector } from "../api/define.js";
import { option, type OptionDecls } from "../api/options.js";
import type { TableContext } from "../api/contract.js";
import { connectorFromDefinition } from "../api/adapter.js";
import { parquetConnector } from "../parquet/index.js";
import { connectorByOption } from "../connector-by-option.js";
import { CSV_OPTIONS, fileFormat, JSON_OPTIONS } from "./format.js";
import { FILE_METADATA, FileSourceReader } from "./reader.js";
import { FileTableWriter } from "./sink.js";
import { monitorInterval } from "./monitor.js";
import { checkPartitionColumns, defaultPartitionName, discoverPartitions } from "./partitions.js";
import { connectorTableOf } from "./table-view.js";

/**
 * Flink's `filesystem` connector for CSV and JSON Lines, written against the public connector API: `path` (a file
 * or a directory; a sink writes part files into the directory) and `format` (`csv` or `json`) are required. The
 * connector owns its `format` option (format.ts reads the `csv.*` / `json.*` options with Flink's names and
 * messages; the codec is the one the public `csv` / `json` formats use). Bounded source unless
 * `source.monitor-interval` (monitor.ts), append-only sink with two-phase commit (sink.ts). See reader.ts /
 * writer.ts for the behaviour.
 */
function path(table: ConnectorTable): string {
  const p = table.options.get("path");
  if (p === undefined || p.trim() === "") throw new ValidationError(`filesystem table '${table.tableName}' needs the option 'path'`);
  return p;
}

/** Every option as text: format.ts, monitor.ts and partitions.ts check them with Flink's messages. */
const TEXT_OPTIONS: OptionDecls = Object.fromEntries(
  ["path", "format", "source.monitor-interval", "partition.default-name", ...CSV_OPTIONS, ...JSON_OPTIONS].map((k) => [k, option.string()]),
);

const view = (table: TableContext) => connectorTableOf(table);

export const filesystemTextConnector = defineConnector({
  name: "filesystem",
  options: TEXT_OPTIONS,
  validate(table) {
    const t = view(table);
    if (table.partitionKeys.length > 0) checkPartitionColumns(t, table.partitionKeys);
    monitorInterval(t);
    path(t);
    fileFormat(t);
  },
  source: {
    // with 'source.monitor-interval' the source watches the directory for new files until cancelled (monitor.ts)
    bounded: (table) => monitorInterval(view(table)) === undefined,
    // the file source applies every filter the planner can push, and reads the projected columns only
    pushdown: { projection: true, acceptFilter: () => true },
    // Flink's file.path, file.name, file.size and file.modification-time, per file
    metadata: Object.fromEntries(FILE_METADATA),
    // PARTITIONED BY: `k=v/` directories (partitions.ts), discovered when the job is planned and pruned by its filters
    partitions: {
      list: (table) => discoverPartitions(path(view(table)), table.partitionKeys).map((p) => p.spec),
      defaultName: (table) => defaultPartitionName(view(table)),
    },
    // a checkpoint before the public API stored the file position itself: the same form the reader's position has
    legacyPosition: (stored) => stored,
    createReader: (ctx) => new FileSourceReader(ctx),
  },
  sink: {
    changelog: () => "insert-only",
    // PARTITIONED BY: `k=v/` directories; DISTRIBUTED BY is not (Flink's filesystem sink has no buckets)
    partitioning: true,
    overwrite: true,
    // a checkpoint before the public API stored one committable ({ dir, pending } or { partitions }) as the sink state
    legacyCommittables: (stored) => [stored],
    createWriter: (ctx) => new FileTableWriter(ctx),
  },
});

/**
 * `'format' = 'parquet'` (Flink's spelling of a Parquet table): the table is served by the parquet connector,
 * with every option but `format`; every other table by the text formats' definition.
 */
const text = connectorFromDefinition(filesystemTextConnector);
const parquet = connectorFromDefinition(parquetConnector);
function asParquet(table: ConnectorTable): ConnectorTable | undefined {
  if (table.options.get("format") !== "parquet") return undefined;
  const options = new Map(table.options);
  options.delete("format");
  return { ...table, options };
}

/** The `filesystem` connector: two public definitions, picked per table by its `format` (connector-by-option.ts). */
export const filesystemConnector: Connector = connectorByOption(text, (table) => {
  const pq = asParquet(table);
  if (pq === undefined) return undefined;
  return { connector: parquet, table: pq };
});
