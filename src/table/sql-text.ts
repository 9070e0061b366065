import { planToSql, type ToSqlContext } from "../plan/to-sql.js";
import type { PlanNode } from "../plan/nodes.js";
import type { TableEnvironment } from "./table-environment.js";

/**
 * `toSql()` of a table or statement set: the plan rendered by plan/to-sql.ts, with functions named as
 * they are registered in the environment (a function object passed to `call(F, ...)` appears under the
 * name it was registered with; a name given to `call("name", ...)` as registered) and views that have no
 * SQL form of their own (VALUES with a watermark or a changelog) by their names).
 */
export function toSqlText(env: TableEnvironment, node: PlanNode): string {
  return planToSql(node, sqlContext(env));
}

function sqlContext(env: TableEnvironment): ToSqlContext {
  return {
    functionName(f) {
      if (typeof f === "string") return env.functions.lookup(f)?.name;
      for (const name of env.listUserDefinedFunctions()) {
        if (env.functions.lookup(name)?.fn === f) return name;
      }
      return undefined;
    },
    viewName(node) {
      return env.listViews().find((name) => (env.from(name) as unknown as { node: PlanNode }).node === node);
    },
  };
}
