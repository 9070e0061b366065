import type { CallNode, ExprNode } from "../expressions/node.js";
import { nodeToString } from "../expressions/node.js";
import { ValidationError } from "../types/errors.js";
import { type PlanContext, typeOf } from "../plan/builders.js";
import type { PlanNode } from "../plan/nodes.js";
import { type AsyncCall, asyncCalcNode } from "../plan/nodes/async-calc.js";
import { outputName } from "../expressions/compile.js";
import { checkArguments } from "./arguments.js";
import { AsyncScalarFunction } from "./async-scalar-function.js";

/**
 * Flink's AsyncCalcSplitRule, for one projection: every async scalar function call in `items` becomes a
 * call of an AsyncCalc below the projection, and the item reads its result column instead. Items keep
 * their output names (an unaliased call keeps its `_c<i>` name). Arguments are typed and checked here,
 * as for a synchronous call: a NULL argument for a NOT NULL parameter makes the result NULL without a call.
 */
export function splitAsyncCalls(items: readonly ExprNode[], input: PlanNode, pc: PlanContext): { input: PlanNode; items: ExprNode[] } | undefined {
  if (!items.some(hasAsyncCall)) return undefined;
  const calls: AsyncCall[] = [];
  const taken = new Set(input.schema.names);
  const rewrite = (e: ExprNode): ExprNode => {
    switch (e.kind) {
      case "Alias": return { ...e, expr: rewrite(e.expr) };
      case "Call": {
        if (e.udf instanceof AsyncScalarFunction) return extract(e, e.udf);
        const args = e.args.map(rewrite);
        return args.every((a, i) => a === e.args[i]) ? e : { ...e, args };
      }
      default: return e;
    }
  };
  const extract = (e: CallNode, fn: AsyncScalarFunction): ExprNode => {
    const name = e.fn === "$udf" ? fn.name : e.fn;
    for (const a of e.args) {
      if (hasAsyncCall(a)) throw new ValidationError(`the argument ${nodeToString(a)} of async function '${name}' calls an async function itself; call it in a select() before`);
    }
    const argTypes = e.args.map((a) => typeOf(a, input.schema, pc));
    checkArguments(name, fn.params, argTypes, (i) => nodeToString(e.args[i]!), nodeToString(e));
    const nullOnNull = argTypes.some((t, i) => t.isNullable && !fn.params[i]!.isNullable);
    let column = `$async${calls.length}`;
    for (let k = 0; taken.has(column); k++) column = `$async${calls.length}_${k}`;
    taken.add(column);
    calls.push({ fn, name, args: e.args, type: fn.resultType.withNullability(fn.resultType.isNullable || nullOnNull), column });
    return { kind: "Column", name: column };
  };
  const rewritten = items.map((item, i) => {
    const r = rewrite(item);
    // keep the name the item would have had: a bare call is `_c<i>`, not its result column
    return item.kind === "Alias" || item.kind === "Column" ? r : { kind: "Alias" as const, name: outputName(item, i), extraNames: [], expr: r };
  });
  return { input: asyncCalcNode({ input, calls }), items: rewritten };
}

function hasAsyncCall(e: ExprNode): boolean {
  switch (e.kind) {
    case "Alias": case "Sort": case "Argument": return hasAsyncCall(e.expr);
    case "Call": return e.udf instanceof AsyncScalarFunction || e.args.some(hasAsyncCall);
    default: return false;
  }
}
