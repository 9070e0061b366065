import type { TableTypeError } from "../expressions/type-level.js";
import type { CheckOrderKeys, CheckPartitionKeys } from "../ptf/table-arguments.js";
import type { Detached, UnionArg } from "./typing.js";

/**
 * Compile-time rules of topN / deduplicate / intersect / minus: key and order items are column
 * references of the table; the row-number column is a new name; set operations need the same columns
 * (names and type families) on both sides, as union does.
 */
export type TopNArgs<S, K extends readonly unknown[], O extends readonly unknown[], R extends string> = {
  readonly partitionBy?: K & CheckPartitionKeys<S, K>;
  readonly orderBy: O & CheckOrderKeys<S, O>;
  readonly rowNumber?: R & (R extends keyof S ? TableTypeError<`topN: the row-number column '${R}' already exists`> : unknown);
  readonly offset?: number;
};

/** The schema of a top-N: the input's, plus the row number when it is named. */
export type TopNResult<S, R extends string> = [R] extends [never] ? S : Detached<S & { [P in R]: number }>;

export type DedupArgs<S, K extends readonly unknown[], T> = {
  readonly keys: K & CheckPartitionKeys<S, K>;
  readonly keep: "first" | "last";
  readonly orderBy?: T & CheckOrderKeys<S, [T]>[0];
};

export type SetOpArg<S, S2, T> = UnionArg<S, S2, T>;
