import { defineConnector } from "../api/define.js";
import { acceptsFilter } from "./filters.js";
import { PARQUET_OPTIONS } from "./options.js";
import { ParquetSourceReader } from "./reader.js";
import { checkParquetTypes } from "./types.js";
import { ParquetSinkWriter } from "./writer.js";

/**
 * Parquet files (Flink: the filesystem connector with `format = parquet`): a bounded source reading
 * only the columns the plan needs and skipping row groups by statistics for pushed filters (hyparquet),
 * and an append-only sink writing one part file per job (hyparquet-writer).
 */
export const parquetConnector = defineConnector({
  name: "parquet",
  options: PARQUET_OPTIONS,
  validate(table) {
    checkParquetTypes(table.columns, table.tableName);
  },
  source: {
    bounded: () => true,
    pushdown: { projection: true, acceptFilter: (f, table) => acceptsFilter(f, table.columns) },
    createReader: (ctx) => ParquetSourceReader.open(ctx),
  },
  sink: {
    changelog: () => "insert-only",
    // INSERT OVERWRITE (batch), as Flink's filesystem connector with format parquet: the job's file replaces the others
    overwrite: true,
    createWriter: (ctx) => ParquetSinkWriter.open(ctx),
  },
});
