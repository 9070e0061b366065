import { DataType } from "../../types/data-type.js";
import { ValidationError } from "../../types/errors.js";
import { ResolvedSchema } from "../../types/resolved-schema.js";
import type { PlanNode } from "../nodes.js";
import { newNodeId } from "./node-base.js";
import { type SortKey, checkCount, checkKeys } from "./sort.js";

/**
 * Flink's window top-N (and window deduplication, its N = 1 form ordered by time): `ROW_NUMBER() OVER (PARTITION
 * BY window_start, window_end, k ORDER BY o) AS rn ... WHERE rn <= N` over rows that carry the windows of a window
 * table function or a window aggregate. The rows of a window are ranked once, when the watermark passes the
 * window's end (`window_end` - 1 ms), and the ranks `offset + 1 .. offset + fetch` go out as inserts (append-only);
 * a row arriving for a window already ranked is dropped as late. Ties keep arrival order.
 */
export interface WindowRankNode {
  readonly kind: "WindowRank";
  readonly id: number;
  readonly schema: ResolvedSchema;
  readonly input: PlanNode;
  /** Positions of `window_start` and `window_end` in the input. */
  readonly windowStart: number;
  readonly windowEnd: number;
  /** Further PARTITION BY columns (positions in the input). */
  readonly partitionKeys: readonly number[];
  readonly orderKeys: readonly SortKey[];
  readonly offset: number;
  readonly fetch: number;
  /** Name of the appended row-number column (BIGINT NOT NULL), or undefined when no one reads it. */
  readonly rowNumber?: string;
}

export function windowRankNode(f: Omit<WindowRankNode, "kind" | "id" | "schema">): WindowRankNode {
  const s = f.input.schema;
  for (const [i, what] of [[f.windowStart, "window_start"], [f.windowEnd, "window_end"]] as const) {
    const c = s.columns[i];
    if (c === undefined || c.type.root !== "TIMESTAMP") throw new ValidationError(`window top-N: ${what} must be a TIMESTAMP column of the input, got position ${i}`);
  }
  for (const k of f.partitionKeys) if (!Number.isInteger(k) || k < 0 || k >= s.size) throw new ValidationError(`window top-N: no PARTITION BY column at position ${k}`);
  checkKeys(f.orderKeys, s, "window top-N: ORDER BY");
  checkCount(f.offset, "window top-N: offset");
  checkCount(f.fetch, "window top-N: fetch");
  if (f.fetch === 0) throw new ValidationError("window top-N: the condition on the row number selects no row");
  if (f.rowNumber !== undefined && s.has(f.rowNumber)) throw new ValidationError(`window top-N: the row number column '${f.rowNumber}' is already a column of the input`);
  const schema = f.rowNumber === undefined ? s : new ResolvedSchema([...s.columns, { name: f.rowNumber, type: new DataType("BIGINT", false) }]);
  return Object.freeze({ kind: "WindowRank" as const, id: newNodeId(), schema, ...f });
}
