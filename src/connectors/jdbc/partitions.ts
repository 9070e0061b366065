import type { PartitionOptions } from "./options.js";

/** One partition of a partitioned scan: `lower ≤ column ≤ upper`, an open end where a bound is absent. */
export interface ScanPartition {
  /** Inclusive lower bound; undefined for the first partition (it also takes values below the range and NULL). */
  readonly lower: number | undefined;
  /** Inclusive upper bound; undefined for the last partition (it also takes values above the range). */
  readonly upper: number | undefined;
}

/**
 * Splits `[lower, upper]` into `num` consecutive ranges as Flink's JdbcNumericBetweenParametersProvider
 * does (no more partitions than values; the first ranges one value longer than the rest). Unlike Flink,
 * whose `BETWEEN` per partition skips rows outside the bounds and rows whose column is NULL, the first
 * range is open below (and takes NULL) and the last open above, so a partitioned scan reads every row.
 */
export function scanPartitions(p: PartitionOptions): ScanPartition[] {
  const count = p.upper - p.lower + 1;
  const num = Math.min(p.num, count);
  const size = Math.ceil(count / num);
  const big = count - (size - 1) * num;
  const out: ScanPartition[] = [];
  let start = p.lower;
  for (let i = 0; i < num; i++) {
    const end = start + size - 1 - (i >= big ? 1 : 0);
    out.push({ lower: i === 0 ? undefined : start, upper: i === num - 1 ? undefined : end });
    start = end + 1;
  }
  return out;
}
