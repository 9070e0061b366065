import { ValidationError } from "../types/errors.js";
import type { TableResult } from "./table-result.js";
import type { Table } from "./table.js";
import type { TableEnvironment } from "./table-environment.js";
import { explainPlan } from "../plan/explain.js";
import type { PlanNode, SinkNode, StatementSetNode } from "../plan/nodes.js";
import { statementSetNode } from "../plan/nodes/statement-set.js";
import { explainStatementSet } from "../plan/statement-set-explain.js";
import type { InsertStatement, Statement } from "../sql/ast.js";
import type { ExplainStatement, StatementSetStatement } from "../sql/catalog-ast.js";
import { Binder } from "./sql-binder.js";
import { executeCatalogStatement } from "./sql-catalog-statements.js";
import { parseStatement } from "../sql/parser.js";
import { okResult, TextResult } from "./sql-results.js";

type AnyResult = TableResult<Record<string, unknown>>;

/**
 * `env.executeSql(statement)`: a query runs (as `sqlQuery(q).execute()`); an INSERT or a statement set
 * submits its job; DDL changes the catalog and returns OK; SHOW / DESCRIBE / EXPLAIN / SET return their rows.
 */
export function executeSql(env: TableEnvironment, src: string): AnyResult {
  const stmt = parseStatement(src);
  const binder = new Binder(env, src);
  switch (stmt.kind) {
    case "Query": return binder.query(stmt.query).execute() as AnyResult;
    case "CreateView": binder.createView(stmt); return okResult();
    case "CreateTable": binder.createTable(stmt); return okResult();
    case "Insert": return binder.insert(stmt) as unknown as AnyResult;
    case "StatementSet": return env.startInsert(statementSetRoot(binder, stmt)) as unknown as AnyResult;
    case "Explain": return new TextResult(explain(env, binder, stmt));
    default: return executeCatalogStatement(env, stmt, (pos, message) => binder.fail(pos, message));
  }
}

/** `EXECUTE STATEMENT SET BEGIN INSERT ...; ... END`: every insert bound, then one job (a StatementSet plan root). */
function statementSetRoot(binder: Binder, s: StatementSetStatement): StatementSetNode {
  const sinks: SinkNode[] = s.inserts.map((i: InsertStatement) => binder.sinkOf(i));
  return statementSetNode({ sinks });
}

/**
 * EXPLAIN: the plan as `Table.explain()` / `StatementSet.explain()` print it. Without CHANGELOG_MODE the
 * nodes' changelog modes are left out, as Flink prints them only when asked.
 */
function explain(env: TableEnvironment, binder: Binder, s: ExplainStatement): string {
  let text: string;
  const t = s.target;
  if (t.kind === "Query") {
    text = binder.query(t.query).explain();
  } else {
    const root: PlanNode = t.kind === "Insert" ? binder.sinkOf(t) : statementSetRoot(binder, t);
    const planned = env.negotiate(root, false);
    text = planned.kind === "StatementSet" ? explainStatementSet(planned as StatementSetNode, env.isBatch()) : explainPlan(planned, env.isBatch(), env.getConfig());
  }
  if (!s.details.includes("CHANGELOG_MODE")) text = text.replace(/, changelogMode=\[[^\]]*\]/g, "").replace(/\(changelogMode=\[[^\]]*\]\)/g, "()");
  return text;
}

/** `env.sqlQuery(query)`: a SELECT or VALUES as a Table, for further Table API calls. */
export function sqlQuery(env: TableEnvironment, src: string): Table<Record<string, unknown>> {
  const stmt = parseStatement(src);
  if (stmt.kind !== "Query") {
    throw new ValidationError(`sqlQuery only accepts queries (SELECT, VALUES, WITH); use executeSql for ${statementName(stmt)}`);
  }
  return new Binder(env, src).query(stmt.query) as unknown as Table<Record<string, unknown>>;
}

function statementName(s: Statement): string {
  switch (s.kind) {
    case "CreateView": return "CREATE VIEW";
    case "CreateTable": return "CREATE TABLE";
    case "Insert": return s.overwrite ? "INSERT OVERWRITE" : "INSERT INTO";
    case "StatementSet": return "EXECUTE STATEMENT SET";
    case "CreateFunction": return "CREATE FUNCTION";
    case "AlterTable": return "ALTER TABLE";
    case "Drop": return `DROP ${s.object}`;
    default: return s.kind.toUpperCase();
  }
}

