import { option } from "./options.js";

/**
 * Options tablestream handles for every connector of a role (so connectors do not declare them):
 * Flink's async-sink and lookup-cache option names.
 */
export const SINK_FRAMEWORK_OPTIONS = {
  "sink.batch.max-size": option.int({ default: 500, min: 1, description: "Rows per write() call." }),
  "sink.requests.max-inflight": option.int({ default: 1, min: 1, description: "write() calls that may be pending at once; the job waits (backpressure) beyond." }),
  "sink.parallelism": option.int({ min: 1, description: "Accepted for Flink compatibility; jobs run on one worker." }),
} as const;

export const LOOKUP_FRAMEWORK_OPTIONS = {
  "lookup.cache": option.enum(["NONE", "PARTIAL"], { default: "NONE", description: "Cache lookup results per key." }),
  "lookup.partial-cache.max-rows": option.int({ default: 10_000, min: 1, description: "Keys kept in the cache (least recently used evicted)." }),
  "lookup.partial-cache.expire-after-write": option.duration({ description: "A cached key expires this long after it was loaded." }),
  "lookup.partial-cache.expire-after-access": option.duration({ description: "A cached key expires this long after it was last read." }),
  "lookup.partial-cache.cache-missing-key": option.boolean({ default: true, description: "Cache keys without rows too." }),
  "lookup.async.max-concurrent": option.int({ default: 16, min: 1, description: "Lookups in flight at once; the job waits beyond." }),
  "lookup.max-retries": option.int({ default: 3, min: 0, description: "Retries of a failed lookup before the job fails." }),
} as const;

export const SOURCE_FRAMEWORK_OPTIONS = {
  "scan.watermark.emit.strategy": option.enum(["on-event", "on-periodic"], { default: "on-event", description: "Watermarks after every record, or every N records." }),
  "scan.watermark.emit.interval-records": option.int({ min: 1, description: "N for on-periodic watermark emission." }),
} as const;
