import v8 from "node:v8";
import vm from "node:vm";
import { ExecutionError } from "../../types/errors.js";
import type { JobSettings } from "../job-contract.js";
import type { PlanNode } from "../../plan/nodes.js";
import { buildJobGraph } from "../job-graph.js";
import { EXEC_OPERATORS } from "../core-operators.js";
import { withoutConnectors } from "../operator-table.js";
import { DistinctOperator } from "../operators/distinct.js";
import { GroupAggregateOperator } from "../operators/group-aggregate.js";
import { SortedOverAggregateOperator } from "../operators/over-aggregate-sorted.js";

/**
 * Measures what keyed state costs: the heap (plus typed-array backing stores) retained by the group
 * aggregates of a plan after it ran over all its input, divided by their number of groups. Used by the
 * benchmark to report bytes per keyed entry (the aim: ≤ 64 for one numeric key and one numeric
 * aggregate) and by a test that keeps it there.
 *
 * The plan's sources are built before the first measurement, outputs are dropped, and a full GC runs
 * before each reading, so the difference is the operators' state. Node's `gc` is reached through V8's
 * `--expose-gc` flag set at run time (no command-line flag needed).
 */
export interface StateSize {
  /** Live groups over all group aggregates (and DISTINCTs, non-time OVER partitions) of the plan. */
  readonly groups: number;
  /** Retained bytes. */
  readonly bytes: number;
  readonly bytesPerGroup: number;
}

export function measureAggregateState(plan: PlanNode, settings: Partial<JobSettings> = {}): StateSize {
  const gc = exposeGc();
  const full: JobSettings = { batch: false, config: new Map(), clock: Date.now, ...settings };
  const graph = buildJobGraph(plan, full, { record() {} }, withoutConnectors(EXEC_OPERATORS), full.resolveFunction);
  const keyed = graph.operators.filter((o): o is GroupAggregateOperator | DistinctOperator | SortedOverAggregateOperator =>
    o instanceof GroupAggregateOperator || o instanceof DistinctOperator || o instanceof SortedOverAggregateOperator);
  if (keyed.length === 0) throw new ExecutionError("measureAggregateState: the plan has no group aggregate, DISTINCT or non-time OVER");
  for (const op of graph.operators) op.open();
  const before = usedBytes(gc);
  for (let progressed = true; progressed;) {
    progressed = false;
    for (const s of graph.sources) {
      if (s.done) continue;
      const r = s.reader.poll(s.emitter.out, 1 << 16);
      if (r === "end") s.done = true;
      else if (r !== "more") throw new ExecutionError("measureAggregateState: only sources that never wait (fromValues) can be measured");
      progressed = true;
    }
  }
  const after = usedBytes(gc);
  const groups = keyed.reduce((n, op) => n + op.groupCount(), 0);
  const bytes = Math.max(0, after - before);
  return { groups, bytes, bytesPerGroup: groups === 0 ? 0 : bytes / groups };
}

function usedBytes(gc: () => void): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

let cachedGc: (() => void) | undefined;

function exposeGc(): () => void {
  if (cachedGc) return cachedGc;
  const g = (globalThis as { gc?: () => void }).gc;
  if (typeof g === "function") return (cachedGc = g);
  v8.setFlagsFromString("--expose-gc");
  cachedGc = vm.runInNewContext("gc") as () => void;
  return cachedGc;
}
