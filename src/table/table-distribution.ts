import { ValidationError } from "../types/errors.js";

/**
 * Flink's TableDistribution (`DISTRIBUTED BY [HASH | RANGE] (k, ...) [INTO n BUCKETS]`, `DISTRIBUTED INTO n BUCKETS`):
 * how a sink that supports bucketing should spread the rows. It is metadata for the sink; it never changes rows.
 */
export interface TableDistribution {
  /** `unknown` when the statement names no algorithm (the connector picks one). */
  readonly kind: "hash" | "range" | "unknown";
  readonly bucketKeys: readonly string[];
  readonly bucketCount: number | undefined;
}

/** A validated, frozen distribution (a bucket count is a positive integer; there are keys or a count). */
export function tableDistribution(kind: TableDistribution["kind"], bucketKeys: readonly string[], bucketCount: number | undefined): TableDistribution {
  if (bucketCount !== undefined && (!Number.isInteger(bucketCount) || bucketCount <= 0)) {
    throw new ValidationError(`Bucket count must be a positive integer, got ${bucketCount}`);
  }
  if (kind !== "unknown" && bucketKeys.length === 0) throw new ValidationError(`a ${kind.toUpperCase()} distribution needs bucket keys`);
  if (bucketKeys.length === 0 && bucketCount === undefined) throw new ValidationError("a distribution needs bucket keys or a bucket count");
  return Object.freeze({ kind, bucketKeys: Object.freeze([...bucketKeys]), bucketCount });
}

/** Flink's rendering, as SHOW CREATE TABLE prints it: `DISTRIBUTED BY HASH(\`a\`) INTO 3 BUCKETS`. */
export function distributionToString(d: TableDistribution): string {
  const count = d.bucketCount === undefined ? "" : ` INTO ${d.bucketCount} BUCKETS`;
  if (d.bucketKeys.length === 0) return `DISTRIBUTED${count}`;
  const keys = d.bucketKeys.map((k) => `\`${k}\``).join(", ");
  return `DISTRIBUTED BY ${d.kind === "unknown" ? "" : d.kind.toUpperCase()}(${keys})${count}`;
}

/**
 * Flink's checks of a table's bucket and partition keys (CatalogManager): each names a physical column.
 */
export function checkTableLayout(physical: readonly string[], distribution: TableDistribution | undefined, partitionKeys: readonly string[]): void {
  for (const k of distribution?.bucketKeys ?? []) {
    if (!physical.includes(k)) {
      throw new ValidationError(`Invalid bucket key '${k}'. A bucket key for a distribution must reference a physical column in the schema. Available columns are: [${physical.join(", ")}]`);
    }
  }
  partitionKeys.forEach((k, i) => {
    if (!physical.includes(k)) {
      throw new ValidationError(`Invalid partition key '${k}'. A partition key must reference a physical column in the schema. Available columns are: [${physical.join(", ")}]`);
    }
    if (partitionKeys.indexOf(k) !== i) throw new ValidationError(`Partition key '${k}' is listed more than once`);
  });
}
