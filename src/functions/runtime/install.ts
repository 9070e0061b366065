import { connect, registerOperatorFactory } from "../../exec/job-graph.js";
import type { Output } from "../../exec/operator.js";
import { registerUdfAccumulatorFactory } from "../../exec/operators/group-aggregate.js";
import type { CorrelateNode, TableAggregateNode } from "../../plan/nodes.js";
import { UdfAccumulator } from "./aggregate-accumulator.js";
import { CorrelateOperator } from "./correlate-operator.js";
import { TableAggregateOperator } from "./table-aggregate-operator.js";

/**
 * Plugs the runtime of user-defined functions into the interpreter: the lateral-join operator for
 * Correlate plan nodes, the table aggregate operator (flatAggregate) and the accumulator adapter for user-defined aggregates. Called by index.ts
 * (a function, not an import for its side effects: the package is marked side-effect free).
 */
export function installFunctionRuntime(): void {
  registerOperatorFactory("Correlate", (node, ctx, build) => {
    const correlate = node as CorrelateNode;
    const op = Object.assign(new CorrelateOperator(correlate, ctx.resolveFunction), { outputs: [] as Output[] });
    connect(build(correlate.input), op, 0);
    return op;
  });
  registerOperatorFactory("TableAggregate", (node, ctx, build) => {
    const agg = node as TableAggregateNode;
    const op = Object.assign(new TableAggregateOperator(agg, ctx.settings.batch, ctx.resolveFunction), { outputs: [] as Output[] });
    connect(build(agg.input), op, 0);
    return op;
  });
  registerUdfAccumulatorFactory((call) => new UdfAccumulator(call));
}
