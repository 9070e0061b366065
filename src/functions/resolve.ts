import { codegenFunction } from "../expressions/codegen.js";
import { type CodegenContext, type Compiled, type FunctionResolver } from "../expressions/compile.js";
import { type AggNode, type CallNode, type ExprNode, nodeToString } from "../expressions/node.js";
import { ValidationError } from "../types/errors.js";
import { type PlanContext, typeOf } from "../plan/builders.js";
import { deriveChangelogMode, hasRetractions, modeToShortString } from "../plan/changelog-mode.js";
import type { PlanNode } from "../plan/nodes.js";
import { AggregateFunction } from "./aggregate-function.js";
import { checkArguments, convertArgument, needsConversion } from "./arguments.js";
import { type FunctionCatalog, isBuiltinFunction } from "./catalog.js";
import { ScalarFunction } from "./scalar-function.js";
import { AsyncScalarFunction } from "./async-scalar-function.js";
import { TableFunction } from "./table-function.js";
import { TableAggregateFunction } from "./table-aggregate-function.js";
import { userCodeFailure, valueCheck } from "./value-check.js";

/**
 * How user-defined functions enter planning and code generation:
 * - scalar calls (`call("hash", x)` / `call(HashFunction, x)`) compile to one direct call of `eval` inside
 *   the generated expression function (FunctionResolver below);
 * - aggregate calls by name are rewritten to aggregate nodes before planning (`prepareCalls`), and every
 *   user aggregate call is checked there against its parameters and the input's changelog.
 */

/** The function object and the name to report for a call: inline object, or looked up by name. */
function lookupCall(catalog: FunctionCatalog, name: string, udf: unknown): { fn: object; name: string } | undefined {
  if (udf !== undefined) return { fn: udf as object, name: (udf as { name: string }).name };
  const e = catalog.lookup(name);
  return e ? { fn: e.fn, name: e.name } : undefined;
}

function wrongKind(name: string, fn: object, wanted: string): ValidationError {
  if (fn instanceof TableFunction) {
    return new ValidationError(`function '${name}' is a table function; use it with joinLateral(call("${name}", ...)) or leftOuterJoinLateral, not ${wanted}`);
  }
  if (fn instanceof AggregateFunction) {
    return new ValidationError(`function '${name}' is an aggregate function; it can only be used in select() or groupBy(...).select(...), not ${wanted}`);
  }
  if (fn instanceof TableAggregateFunction) {
    return new ValidationError(`function '${name}' is a table aggregate function; use it with flatAggregate(call("${name}", ...)), not ${wanted}`);
  }
  if (fn instanceof ScalarFunction) return new ValidationError(`function '${name}' is a scalar function, not ${wanted}`);
  if (fn instanceof AsyncScalarFunction) {
    return new ValidationError(`function '${name}' is an async scalar function; it can only be called in select(...), filter(...) or a SQL SELECT list or WHERE (it runs in an AsyncCalc), not ${wanted}`);
  }
  return new ValidationError(`function '${name}' is a process table function; call it with process() or fromCall(), not ${wanted}`);
}

/**
 * Builds `(a0, a1, ...) => result` for a scalar function: calls `spec.eval` directly (no rest arguments,
 * no per-call allocation), wraps a throw into an ExecutionError naming the function and its arguments,
 * and checks the result against the declared type.
 */
function scalarInvoker(fn: ScalarFunction, name: string, arity: number): (...args: unknown[]) => unknown {
  const what = `function '${name}'`;
  const check = valueCheck(fn.resultType, () => what);
  const fail = (e: unknown, args: unknown[]) => userCodeFailure(what, args, e);
  const ps = Array.from({ length: arity }, (_, i) => `a${i}`).join(",");
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return codegenFunction("udf-scalar", "s", "check", "fail",
    `"use strict";return function(${ps}){let r;try{r=s.eval(${ps});}catch(e){throw fail(e,[${ps}]);}return check(r);};`,
  )(fn.spec, check, fail) as (...args: unknown[]) => unknown;
}

/**
 * Compiles a call of a scalar function: arguments are checked against the parameters, converted where
 * the representation differs (INT -> DECIMAL), and a NULL for a NOT NULL parameter yields NULL without
 * calling the function (the result type becomes nullable).
 */
export function compileScalarCall(fn: ScalarFunction, name: string, args: readonly Compiled[], ctx: CodegenContext, node: CallNode): Compiled {
  checkArguments(name, fn.params, args.map((a) => a.type), (i) => nodeToString(node.args[i]!), nodeToString(node));
  const tests: string[] = [];
  const srcs = args.map((a, i) => {
    const p = fn.params[i]!;
    if (!a.type.isNullable) return convertArgument(p, a.type, a.src);
    if (!p.isNullable || a.type.root === "NULL") {
      const t = ctx.temp();
      tests.push(`(${t}=${a.src})===null`);
      return convertArgument(p, a.type, t);
    }
    if (!needsConversion(p, a.type)) return a.src;
    const t = ctx.temp();
    return `((${t}=${a.src})===null?null:${convertArgument(p, a.type, t)})`;
  });
  const invoker = ctx.constant(scalarInvoker(fn, name, args.length));
  const callSrc = `${invoker}(${srcs.join(",")})`;
  return {
    type: fn.resultType.withNullability(fn.resultType.isNullable || tests.length > 0),
    src: tests.length === 0 ? callSrc : `(${tests.join("||")}?null:${callSrc})`,
  };
}

/** The resolver an environment installs: scalar UDF calls, inline or by registered name. */
export function udfResolver(catalog: FunctionCatalog): FunctionResolver {
  return (name, args, ctx, node) => {
    const found = lookupCall(catalog, name, node.udf);
    if (!found) return undefined;
    if (found.fn instanceof AsyncScalarFunction) throw wrongKind(found.name, found.fn, `in ${nodeToString(node)} here (a filter, a group key, a join condition or the argument of another async call)`);
    if (!(found.fn instanceof ScalarFunction)) throw wrongKind(found.name, found.fn, "as a scalar value");
    return compileScalarCall(found.fn, found.name, args, ctx, node);
  };
}

/**
 * Rewrites an expression before it is planned over `input`: calls of registered aggregate functions by
 * name become aggregate nodes, and every user-defined aggregate call is checked — its arguments against
 * the declared parameters, and `retract` present when the input is an updating table (Flink's planner
 * rejects the same plan). Unchanged subtrees are returned as they are.
 */
export function prepareCalls(catalog: FunctionCatalog, e: ExprNode, input: PlanNode, pc: PlanContext, batch: boolean): ExprNode {
  switch (e.kind) {
    case "Alias": {
      const inner = prepareCalls(catalog, e.expr, input, pc, batch);
      return inner === e.expr ? e : { ...e, expr: inner };
    }
    case "Sort":
    case "Argument": {
      const inner = prepareCalls(catalog, e.expr, input, pc, batch);
      return inner === e.expr ? e : { ...e, expr: inner };
    }
    case "Call": {
      const args = prepareAll(catalog, e.args, input, pc, batch);
      if (e.udf === undefined) {
        const entry = catalog.lookup(e.fn);
        // by name: the function object goes into the call, so planning finds async calls without the catalog
        if (entry && entry.fn instanceof AsyncScalarFunction && !isBuiltinFunction(e.fn)) return { ...e, fn: entry.name, args, udf: entry.fn };
        if (entry && entry.fn instanceof AggregateFunction && !isBuiltinFunction(e.fn)) {
          return checkAggregate({ kind: "Agg", fn: entry.name, args, distinct: false, udf: entry.fn }, entry.fn, entry.name, input, pc, batch);
        }
      }
      return args === e.args ? e : { ...e, args };
    }
    case "Agg": {
      const args = prepareAll(catalog, e.args, input, pc, batch);
      const agg = args === e.args ? e : { ...e, args };
      if (e.udf instanceof AggregateFunction) return checkAggregate(agg, e.udf, e.udf.name, input, pc, batch);
      return agg;
    }
    default:
      return e;
  }
}

function prepareAll(catalog: FunctionCatalog, args: readonly ExprNode[], input: PlanNode, pc: PlanContext, batch: boolean): readonly ExprNode[] {
  let changed = false;
  const out = args.map((a) => {
    const p = prepareCalls(catalog, a, input, pc, batch);
    if (p !== a) changed = true;
    return p;
  });
  return changed ? out : args;
}

function checkAggregate(agg: AggNode, fn: AggregateFunction, name: string, input: PlanNode, pc: PlanContext, batch: boolean): AggNode {
  const types = agg.args.map((a) => typeOf(a, input.schema, pc));
  checkArguments(name, fn.params, types, (i) => nodeToString(agg.args[i]!), nodeToString(agg));
  if (!fn.supportsRetraction && !batch) {
    const mode = deriveChangelogMode(input, batch);
    if (hasRetractions(mode)) {
      throw new ValidationError(`aggregate function '${name}' has no retract() method, but its input is an updating table (changelog mode ${modeToShortString(mode)}); declare retract(acc, ...args) to aggregate updates`);
    }
  }
  return agg;
}
