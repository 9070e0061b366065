import { stateBackendFor } from "../../src/exec/state/backend-options.js";
import { buildJobGraph } from "../../src/exec/job-graph.js";
import { OPERATORS } from "../../src/table/wiring.js";
import type { Operator } from "../../src/exec/operator.js";
import { DataTypes, Row, Schema, type Table } from "../../src/index.js";
import { KIND_SHORT } from "../../src/types/row.js";
import { toJavaString } from "../../src/types/format.js";

/**
 * The state backends window tests run on: in memory, and on disk with a write-back cache of two values, so
 * that the windows' groups go through the database all the time.
 */
export const BACKENDS = {
  hashmap: {},
  disk: { "state.backend.type": "disk", "state.backend.cache-size": "2" },
} as const satisfies Record<string, Record<string, string>>;
export type BackendName = keyof typeof BACKENDS;
export const BACKEND_NAMES = Object.keys(BACKENDS) as BackendName[];

/**
 * Runs a table's job by hand, one source record at a time, and records which rows came out after each
 * input record (the last step also holds what end of input flushed). Exposes the operators so that tests
 * can read their counters (late rows dropped). `backend`: the state backend, by name (BACKENDS) or as config
 * options; in memory by default.
 */
export function drive(table: Table<object>, backend: BackendName | Readonly<Record<string, string>> = "hashmap"): { steps: string[][]; operators: Operator[] } {
  const types = table.getResolvedSchema().types;
  let current: string[] = [];
  // the state backend asked for by name (BACKENDS) or as options (test/support/state-backends.ts), removed
  // once the input is drained
  const config = new Map<string, string>(Object.entries(typeof backend === "string" ? BACKENDS[backend] : backend));
  const stateBackend = stateBackendFor(config);
  const graph = buildJobGraph(table.node, { batch: false, config, clock: () => 0, resolveFunction: table.env.planContext().resolveFunction, stateBackend }, {
    record: (k, v) => { current.push(`${KIND_SHORT[k]}[${v.map((x, i) => toJavaString(types[i], x)).join(", ")}]`); },
  }, OPERATORS, table.env.planContext().resolveFunction);
  for (const op of graph.operators) op.open();
  const steps: string[][] = [];
  for (const s of graph.sources) {
    for (;;) {
      const r = s.reader.poll(s.emitter.out, 1);
      steps.push(current);
      current = [];
      if (r === "end") break;
    }
  }
  stateBackend.dispose();
  return { steps, operators: graph.operators };
}

/** The value of a numeric counter on the one operator that has it. */
export function counter(operators: readonly Operator[], name: string): number {
  const found = operators.filter((o) => typeof (o as unknown as Record<string, unknown>)[name] === "number");
  if (found.length !== 1) throw new Error(`expected one operator with ${name}, found ${found.length}`);
  return (found[0] as unknown as Record<string, number>)[name]!;
}

/** Events (k, v, ts) with `WATERMARK FOR ts AS ts - INTERVAL '1' SECOND`; times are seconds after the epoch. */
export const events = Schema.newBuilder()
  .column("k", DataTypes.STRING())
  .column("v", DataTypes.INT())
  .column("ts", "TIMESTAMP_LTZ(3)")
  .watermark("ts", "ts - INTERVAL '1' SECOND")
  .build();

export const at = (s: number): Date => new Date(s * 1000);
/** One event row; `k` may be null (a null group). */
export const ev = (k: string | null, v: number, s: number) => Row.of(k, v, at(s));
