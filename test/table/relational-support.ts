import { buildJobGraph } from "../../src/exec/job-graph.js";
import { stateBackendFor } from "../../src/exec/state/backend-options.js";
import { prepareSnapshot } from "../../src/exec/operator.js";
import { OPERATORS } from "../../src/table/wiring.js";
import type { Table } from "../../src/index.js";
import type { StateBackend } from "../../src/exec/state/keyed-store.js";
import { toJavaString } from "../../src/types/format.js";
import { KIND_SHORT } from "../../src/types/row.js";

/**
 * Flink's restore programs with a real restore: the job runs over the first `beforeRows` rows of its
 * (single) source, every operator's state is snapshotted, and a new job restored from the snapshot runs
 * over the remaining rows to the end. Returns each phase's changelog in Flink's notation.
 */
export function restoreRun(table: Table<object>, beforeRows: number, config = new Map<string, string>()): { before: string[]; after: string[] } {
  // each phase on the state backend `config` asks for (state.backend.type), removed at the end
  const backends = [stateBackendFor(config), stateBackendFor(config)];
  try {
    return runPhases(table, beforeRows, config, backends);
  } finally {
    for (const b of backends) b.dispose();
  }
}

function runPhases(table: Table<object>, beforeRows: number, config: Map<string, string>, backends: StateBackend[]): { before: string[]; after: string[] } {
  const types = table.getResolvedSchema().types;
  let phases = 0;
  const phase = (out: string[]) => buildJobGraph(table.node, { batch: false, config, clock: () => 0, stateBackend: backends[phases++] }, {
    record: (k, v) => { out.push(`${KIND_SHORT[k]}[${v.map((x, i) => toJavaString(types[i], x)).join(", ")}]`); },
  }, OPERATORS);
  const before: string[] = [];
  const first = phase(before);
  for (const op of first.operators) op.open();
  const src = first.sources[0]!;
  if (beforeRows > 0 && src.reader.poll(src.emitter.out, beforeRows) !== "more") throw new Error("the source ended before the restore point");
  prepareSnapshot(first.operators);
  const snapshot = first.operators.map((op) => op.snapshotState());
  const position = src.reader.position();

  const after: string[] = [];
  const second = phase(after);
  second.operators.forEach((op, i) => op.restoreState(snapshot[i]));
  for (const op of second.operators) op.open();
  const src2 = second.sources[0]!;
  src2.reader.seek(position);
  while (src2.reader.poll(src2.emitter.out, 1000) !== "end");
  return { before, after };
}

/** Sorted copy, for multiset comparisons. */
export const sorted = (rows: readonly string[]): string[] => [...rows].sort();
