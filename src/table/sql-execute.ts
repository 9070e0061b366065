import { ValidationError } from "../types/errors.js";
import type { Job, JobSink } from "./executor.js";
import { TableResult } from "./table-result.js";
import type { Table } from "./table.js";
import type { TableEnvironment } from "./table-environment.js";
import { DataTypes } from "../types/data-types.js";
import { ResolvedSchema } from "../types/resolved-schema.js";
import { Binder } from "./sql-binder.js";
import { parseStatement } from "../sql/parser.js";

const OK_SCHEMA = new ResolvedSchema([{ name: "result", type: DataTypes.STRING() }]);

/**
 * Flink's TABLE_RESULT_OK: what a DDL statement returns. One STRING column `result` with the row "OK",
 * printed without an `op` column and with widths from the data (Flink builds it with TableResultImpl's
 * defaults), so `print()` shows `| result |` / `|     OK |` and `1 row in set`.
 */
function okResult(): TableResult<{ result: string | null }> {
  const job = (sink: JobSink): Job => {
    let done = false;
    return {
      step: () => {
        if (!done) { done = true; sink.record(0, ["OK"]); }
        return "done";
      },
      cancel: () => { done = true; },
    };
  };
  return new TableResult(OK_SCHEMA, job, true);
}

/** `env.executeSql(statement)`: a query runs (as `sqlQuery(q).execute()`); DDL registers and returns OK. */
export function executeSql(env: TableEnvironment, src: string): TableResult<Record<string, unknown>> {
  const stmt = parseStatement(src);
  const binder = new Binder(env, src);
  switch (stmt.kind) {
    case "Query": return binder.query(stmt.query).execute() as TableResult<Record<string, unknown>>;
    case "CreateView": binder.createView(stmt); break;
    case "CreateTable": binder.createTable(stmt); break;
    case "Insert": return binder.insert(stmt) as unknown as TableResult<Record<string, unknown>>;
  }
  return okResult() as TableResult<Record<string, unknown>>;
}

/** `env.sqlQuery(query)`: a SELECT or VALUES as a Table, for further Table API calls. */
export function sqlQuery(env: TableEnvironment, src: string): Table<Record<string, unknown>> {
  const stmt = parseStatement(src);
  if (stmt.kind !== "Query") {
    const what = stmt.kind === "CreateView" ? "CREATE VIEW" : stmt.kind === "Insert" ? "INSERT INTO" : "CREATE TABLE";
    throw new ValidationError(`sqlQuery only accepts queries (SELECT, VALUES, WITH); use executeSql for ${what}`);
  }
  return new Binder(env, src).query(stmt.query) as unknown as Table<Record<string, unknown>>;
}
