import type { TemporalTableFunction } from "./temporal-table-function.js";
import type { AsyncScalarFunction } from "./async-scalar-function.js";
import type { FunctionResolver } from "../expressions/compile.js";
import type { ExprNode } from "../expressions/node.js";
import type { PlanContext } from "../plan/builders.js";
import type { PlanNode } from "../plan/nodes.js";
import type { ProcessTableFunction } from "../ptf/function.js";
import type { AggregateFunction } from "./aggregate-function.js";
import { FunctionCatalog } from "./catalog.js";
import { prepareCalls, udfResolver } from "./resolve.js";
import { checkExpressionDepth } from "../expressions/depth.js";
import type { ScalarFunction } from "./scalar-function.js";
import type { TableFunction } from "./table-function.js";
import type { TableAggregateFunction } from "./table-aggregate-function.js";

/**
 * What TableEnvironment needs from the function layer: a catalog whose scalar functions the expression
 * compiler can resolve, and the planning hook for aggregate calls. Kept here so that the environment
 * stays a thin delegate.
 */

/** Functions `createFunction` / `createTemporaryFunction` accept (PTFs add themselves to this union). */
export type RegistrableFunction =
  | ScalarFunction<readonly unknown[], unknown>
  | AsyncScalarFunction<readonly unknown[], unknown>
  | TableFunction<readonly unknown[], unknown>
  | AggregateFunction<readonly unknown[], unknown, object>
  | TableAggregateFunction<readonly unknown[], unknown, object>
  | ProcessTableFunction<unknown, unknown, unknown>
  // Flink's createTemporarySystemFunction("Rates", table.createTemporalTableFunction(...)), for LATERAL TABLE (Rates(t))
  | TemporalTableFunction<object>;

/** A catalog wired into `resolvers` (scalar UDF calls compile through it). */
export function createFunctionCatalog(resolvers: FunctionResolver[]): FunctionCatalog {
  const catalog = new FunctionCatalog();
  resolvers.push(udfResolver(catalog));
  return catalog;
}

/** The PlanContext `prepare` hook of an environment. */
export function prepareHook(catalog: FunctionCatalog, batch: boolean): (e: ExprNode, input: PlanNode, pc: PlanContext) => ExprNode {
  return (e, input, pc) => {
    checkExpressionDepth(e); // before the first recursive walk over it
    return prepareCalls(catalog, e, input, pc, batch);
  };
}
