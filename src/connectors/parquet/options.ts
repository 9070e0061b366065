import { SINK_FRAMEWORK_OPTIONS } from "../api/framework-options.js";
import { option } from "../api/options.js";

/** The options of the `parquet` connector. */
export const PARQUET_OPTIONS = {
  path: option.string({ required: true, description: "A Parquet file, or a directory: every visible file below it is read (names starting with '.' or '_' skipped); a sink writes one part file into the directory." }),
  "parquet.row-group-size": option.int({ default: 100_000, min: 1, description: "Rows per row group the sink writes (the unit of row-group skipping when read)." }),
  "parquet.compression": option.enum(["SNAPPY", "UNCOMPRESSED"], { default: "SNAPPY", description: "Compression codec of the pages the sink writes." }),
  "parquet.page-size": option.int({ default: 1_048_576, min: 1024, description: "Target uncompressed page size in bytes." }),
  "partition.default-name": option.string({ default: "__DEFAULT_PARTITION__", description: "The directory name of a NULL or empty partition value (PARTITIONED BY tables), read back as NULL." }),
  "source.monitor-interval": option.duration({ description: "Watch the path: list it again every interval and read each new file once, whole (an unbounded source). Absent: read the files present and end." }),
  ...SINK_FRAMEWORK_OPTIONS,
} as const;
