import { expect } from "vitest";
import { Row, type Table } from "../../src/index.js";
import type { PlanNode } from "../../src/plan/nodes.js";
import { getExecutor, type JobSink } from "../../src/table/executor.js";
import { rowConstructors, rowConverter } from "../../src/table/row-converter.js";

// Shared by the tests of the operators that build their output rows as the consumer's row objects.

export type AnyTable = Table<object, "append" | "retract" | "upsert">;

/** batches() as `+I[a, b]` strings, from the row objects themselves (kind, own values in column order). */
export async function batchLines(t: AnyTable): Promise<string[]> {
  const names = t.node.schema.names;
  const out: string[] = [];
  for await (const batch of t.execute().batches()) {
    for (const r of batch) {
      expect(Object.keys(r)).toEqual(names);
      out.push(`${Row.kindOf(r)}[${names.map((n) => String((r as Record<string, unknown>)[n])).join(", ")}]`);
    }
  }
  return out;
}

/**
 * Runs `t` on the internal path with a sink that makes row objects (or, with `recordsOnly`, one that takes
 * records only); what came as records and what as row objects. `node` runs a node of `t`'s plan in its place
 * (an operator whose output is otherwise projected by a Calc before the sink).
 */
export function runWithRowObjectSink(
  t: AnyTable, node: PlanNode = t.node, recordsOnly = false,
): { viaRecord: string[]; viaRowObject: string[]; all: string[] } {
  const env = t.env;
  const schema = node.schema;
  const convert = rowConverter<object>(schema);
  const viaRecord: string[] = [];
  const viaRowObject: string[] = [];
  const all: string[] = [];
  const sink: JobSink = {
    record: (k, v) => { const s = String(convert(k, v)); viaRecord.push(s); all.push(s); },
    rowObjects: recordsOnly ? undefined : {
      construct: rowConstructors(schema)[0],
      constructors: rowConstructors(schema),
      batch: () => { throw new Error("not a columnar plan"); },
      add: (row) => { const s = String(row); viaRowObject.push(s); all.push(s); },
    },
  };
  const job = getExecutor().createJob(env.negotiate(node, true), { batch: env.isBatch(), config: env.getConfig().options, clock: Date.now }, sink);
  while (job.step(4096) === "more") { /* run to the end */ }
  return { viaRecord, viaRowObject, all };
}
