import type { Output } from "../../operator.js";
import { Kind } from "../../../types/row.js";

/**
 * One input's waiting rows of a join key, in arrival order, with their times (event or processing time) and
 * whether each found a partner (an outer interval join pads the others when they leave). Shared by the
 * event-time and the processing-time interval joins.
 */
export interface TimedBucket {
  rows: unknown[][];
  times: number[];
  matched: boolean[];
}

/**
 * Joins `row` with the rows of the other side's bucket whose time is within [from, to] and that pass the
 * residual condition: emits each joined row as `+I` and marks the partner matched. True when any matched.
 */
export function joinWithBucket(
  other: TimedBucket, from: number, to: number, row: unknown[], rowIsLeft: boolean,
  combine: (l: unknown[], r: unknown[]) => unknown[], residual: ((row: unknown[]) => boolean) | undefined, out: Output,
): boolean {
  let found = false;
  const rows = other.rows;
  const times = other.times;
  for (let i = 0; i < rows.length; i++) {
    const ot = times[i]!;
    if (ot < from || ot > to) continue;
    const j = rowIsLeft ? combine(row, rows[i]!) : combine(rows[i]!, row);
    if (residual !== undefined && !residual(j)) continue;
    found = true;
    other.matched[i] = true;
    out.record(Kind.INSERT, j);
  }
  return found;
}
