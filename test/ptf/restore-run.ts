// Drives a PTF call's operator directly the way Flink's restore programs feed their sources (shared by
// the multi-input, ORDER BY and broadcast restore tests).
import { PtfOperator, type PtfSnapshot } from "../../src/exec/operators/ptf/ptf-operator.js";
import type { ResolvedPtfCall } from "../../src/ptf/resolved-call.js";
import type { ProcessNode } from "../../src/plan/nodes.js";
import { KIND_SHORT } from "../../src/types/row.js";
import { toJavaString } from "../../src/types/format.js";
import type { Table, TableEnvironment } from "../../src/index.js";
import { stateBackendFor } from "../../src/exec/state/backend-options.js";

/**
 * Flink's restore programs run a job over the rows "before restore" without ending its sources (no
 * final watermark), take a savepoint, and restore a new job that reads the rows "after restore" to the
 * end. Here the call's PTF operator is driven directly the way those sources do it: per input, each row
 * is followed by its watermark (max time so far − delay, forwarded only when it rises).
 */
export class RestoreRun {
  readonly out: string[] = [];
  readonly op: PtfOperator;
  private readonly maxTime: number[];

  constructor(env: TableEnvironment, table: Table<object>, private readonly delays: readonly number[], restore?: PtfSnapshot) {
    const node = table.node as ProcessNode;
    const types = table.getResolvedSchema().types;
    this.op = new PtfOperator(node.call as ResolvedPtfCall, {
      batch: false, config: env.getConfig().options, clock: Date.now,
      // the state backend the environment's configuration names (the suites run on both)
      stateBackend: stateBackendFor(env.getConfig().options),
    });
    this.op.out = {
      record: (k, v) => this.out.push(`${KIND_SHORT[k]}[${v.map((x, i) => toJavaString(types[i], x)).join(", ")}]`),
      watermark: () => {},
      endInput: () => {},
    };
    this.op.open();
    if (restore !== undefined) this.op.restoreState(restore);
    this.maxTime = delays.map(() => -Infinity);
  }

  /** Rows `[name, value, ts]` (or `[name, ts]` for two-column tables), each followed by its watermark. */
  rows(input: number, rows: readonly (readonly [string | null, number, number] | readonly [string | null, number])[]): this {
    for (const r of rows) {
      const ts = r[r.length - 1] as number;
      this.op.processElement(input, 0, [...r.slice(0, -1), new Date(ts)]);
      this.maxTime[input] = Math.max(this.maxTime[input]!, ts);
      this.op.processWatermark(input, this.maxTime[input]! - this.delays[input]!);
    }
    return this;
  }

  end(input: number): this {
    this.op.endInput(input);
    return this;
  }
}
