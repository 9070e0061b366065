import type { Job, JobSink } from "./executor.js";
import { TableResult } from "./table-result.js";
import { DataTypes } from "../types/data-types.js";
import type { DataType } from "../types/data-type.js";
import { ResolvedSchema } from "../types/resolved-schema.js";

/**
 * A result with rows known up front (SHOW, DESCRIBE, SET, OK): one job that emits them all in its first
 * step. Printed as Flink prints such results (TableResultImpl's defaults): no `op` column, widths from the data.
 */
export function rowsResult(columns: readonly (readonly [name: string, type: DataType])[], rows: readonly (readonly unknown[])[]): TableResult<Record<string, unknown>> {
  const schema = new ResolvedSchema(columns.map(([name, type]) => ({ name, type })));
  return new TableResult(schema, rowsJob(rows), true);
}

function rowsJob(rows: readonly (readonly unknown[])[]): (sink: JobSink) => Job {
  return (sink) => {
    let done = false;
    return {
      step: () => {
        if (!done) {
          done = true;
          for (const r of rows) sink.record(0, r);
        }
        return "done";
      },
      cancel: () => { done = true; },
    };
  };
}

/**
 * Flink's TABLE_RESULT_OK: what a DDL statement returns. One STRING column `result` with the row "OK",
 * so `print()` shows `| result |` / `|     OK |` and `1 row in set`.
 */
export function okResult(): TableResult<Record<string, unknown>> {
  return rowsResult([["result", DataTypes.STRING()]], [["OK"]]);
}

/**
 * The result of EXPLAIN and SHOW CREATE: one STRING column `result` holding the text, which `print()`
 * writes as it is (Flink's raw-content print style), not framed as a table.
 */
export class TextResult extends TableResult<Record<string, unknown>> {
  constructor(private readonly text: string) {
    super(new ResolvedSchema([{ name: "result", type: DataTypes.STRING() }]), rowsJob([[text]]), true);
  }

  override async print(out: (line: string) => void = (l) => process.stdout.write(l + "\n")): Promise<void> {
    await this.await();
    out(this.text);
  }
}
