import { ValidationError } from "../../types/errors.js";
import { defineConnector } from "../api/define.js";
import { checkPartitionKeys, discoverPartitions } from "../filesystem/partitions.js";
import { PartitionedParquetSinkWriter } from "./partitioned-writer.js";
import { acceptsFilter } from "./filters.js";
import { PARQUET_OPTIONS } from "./options.js";
import { ParquetSourceReader } from "./reader.js";
import { checkParquetTypes } from "./types.js";
import { ParquetSinkWriter } from "./writer.js";

/**
 * Parquet files (Flink: the filesystem connector with `format = parquet`): a source reading only the columns the
 * plan needs and skipping row groups by statistics for pushed filters (hyparquet) — bounded, or watching the path
 * with `source.monitor-interval` — and an append-only sink writing one part file per job (hyparquet-writer), or one
 * per partition directory of a `PARTITIONED BY` table (`k=v/`, the filesystem connector's layout and escaping;
 * partition columns are not stored in the files, and filters on them prune directories).
 */
export const parquetConnector = defineConnector({
  name: "parquet",
  options: PARQUET_OPTIONS,
  validate(table) {
    checkParquetTypes(table.columns, table.tableName);
    const interval = table.options["source.monitor-interval"];
    if (interval !== undefined && interval <= 0) throw new ValidationError(`${table.connector} table '${table.tableName}': option 'source.monitor-interval' must be greater than 0, got '${table.rawOptions.get("source.monitor-interval")}'`);
    if (table.partitionKeys.length > 0) checkPartitionKeys(`${table.connector} table '${table.tableName}'`, table.columns, table.partitionKeys);
  },
  source: {
    bounded: (table) => table.options["source.monitor-interval"] === undefined,
    // partition pruning (SupportsPartitionPushDown): the `k=v/` directories below the path when the query is planned
    partitions: { list: (table) => discoverPartitions(table.options.path, table.partitionKeys).map((p) => p.spec) },
    pushdown: { projection: true, acceptFilter: (f, table) => acceptsFilter(f, table.columns) },
    createReader: (ctx) => ParquetSourceReader.open(ctx),
  },
  sink: {
    changelog: () => "insert-only",
    // INSERT OVERWRITE (batch), as Flink's filesystem connector with format parquet: the job's file replaces the others
    overwrite: true,
    partitioning: true,
    createWriter: (ctx) => (ctx.partitionKeys.length > 0 ? PartitionedParquetSinkWriter.create(ctx) : ParquetSinkWriter.open(ctx)),
  },
});
