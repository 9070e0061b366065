import { ValidationError } from "../../types/errors.js";
import { DataType } from "../../types/data-type.js";
import { ResolvedSchema } from "../../types/resolved-schema.js";
import type { PlanNode } from "../nodes.js";
import { newNodeId } from "./node-base.js";

/** The windows a windowing table function assigns; times in milliseconds, aligned to the epoch shifted by `offset`. */
export interface WindowAssignment {
  readonly type: "TUMBLE" | "HOP" | "CUMULATE";
  /** The event-time attribute of the input the windows are on. */
  readonly timeColumn: string;
  /** Size (TUMBLE, HOP) or maximum size (CUMULATE). */
  readonly size: number;
  /** Slide (HOP) or step (CUMULATE). */
  readonly step?: number;
  /** Flink's window offset: window starts are `k * (slide or size) + offset`; any sign, absent = 0. */
  readonly offset?: number;
}

/**
 * Flink's windowing table functions `TUMBLE / HOP / CUMULATE(TABLE t, DESCRIPTOR(ts), ...)` on their own (not fused
 * into a window aggregate): each input row is emitted once per window containing its time, followed by the columns
 * `window_start`, `window_end` (TIMESTAMP(3)) and `window_time` (= window_end - 1 ms, an event-time attribute of the
 * time column's type). Insert-only in, insert-only out; stateless, so nothing waits for a watermark.
 */
export interface WindowTableFunctionNode {
  readonly kind: "WindowTableFunction";
  readonly id: number;
  readonly schema: ResolvedSchema;
  readonly input: PlanNode;
  readonly window: WindowAssignment;
}

export const WINDOW_COLUMNS = ["window_start", "window_end", "window_time"] as const;

export function windowTableFunctionNode(f: { input: PlanNode; window: WindowAssignment }): WindowTableFunctionNode {
  const { input, window } = f;
  const what = `${window.type}(TABLE ..., DESCRIPTOR(${window.timeColumn}), ...)`;
  if (!input.schema.has(window.timeColumn)) throw new ValidationError(`${what}: column '${window.timeColumn}' is not in [${input.schema.names.join(", ")}]`);
  const time = input.schema.column(window.timeColumn).type;
  if (time.timeAttribute === "PROCTIME") {
    // Flink's message: only a window aggregate (GROUP BY window_start, window_end) runs on processing time
    throw new ValidationError(`${what}: Processing time Window TableFunction is not supported yet; aggregate it (GROUP BY window_start, window_end) or use an event-time attribute`);
  }
  if (time.timeAttribute !== "ROWTIME") {
    throw new ValidationError(`${what}: column '${window.timeColumn}' is not an event-time attribute (it has type ${time}); declare a WATERMARK for it`);
  }
  const positive = (n: number | undefined, name: string) => {
    if (n === undefined || !Number.isSafeInteger(n) || n <= 0) throw new ValidationError(`${what}: the ${name} must be a positive interval, got ${n} ms`);
  };
  positive(window.size, window.type === "CUMULATE" ? "maximum size" : "size");
  if (window.type !== "TUMBLE") {
    positive(window.step, window.type === "HOP" ? "slide" : "step");
    if (window.size % window.step! !== 0) {
      throw new ValidationError(`${what}: the ${window.type === "HOP" ? "size" : "maximum size"} must be a whole multiple of the ${window.type === "HOP" ? "slide" : "step"}, got ${window.size} ms and ${window.step} ms`);
    }
  }
  if (window.offset !== undefined && !Number.isSafeInteger(window.offset)) throw new ValidationError(`${what}: the offset must be a whole number of milliseconds, got ${window.offset}`);
  for (const n of WINDOW_COLUMNS) {
    if (input.schema.has(n)) throw new ValidationError(`${what}: the input already has a column '${n}'; rename it first`);
  }
  const ts = new DataType("TIMESTAMP", false, { precision: 3 });
  const schema = new ResolvedSchema([
    ...input.schema.columns,
    { name: "window_start", type: ts },
    { name: "window_end", type: ts },
    { name: "window_time", type: new DataType(time.root, false, { precision: 3, timeAttribute: "ROWTIME" }) },
  ]);
  return Object.freeze({ kind: "WindowTableFunction" as const, id: newNodeId(), schema, input, window: Object.freeze({ ...window }) });
}
