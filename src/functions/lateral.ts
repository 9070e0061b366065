import { type CallNode, type ExprNode, nodeToString } from "../expressions/node.js";
import { ValidationError } from "../types/errors.js";
import { type PlanContext, typeOf } from "../plan/builders.js";
import { type CorrelateNode, type PlanNode, correlateNode } from "../plan/nodes.js";
import { type Column, ResolvedSchema } from "../types/resolved-schema.js";
import { checkArguments } from "./arguments.js";
import type { FunctionCatalog } from "./catalog.js";
import { TableFunction } from "./table-function.js";
import { planLookupJoin, planTemporalJoin } from "../plan/temporal-join-builder.js";
import type { LookupJoinNode } from "../plan/nodes/lookup-join.js";
import type { TemporalJoinNode } from "../plan/nodes/temporal-join.js";
import { LookupFunction, TemporalTableFunction } from "./temporal-table-function.js";

/**
 * Plans `joinLateral(call(...).as(...), condition?)` / `leftOuterJoinLateral(...)`: resolves the table
 * function (inline object or registered name), checks its arguments against the input columns, names
 * its output columns (the function's own names, or the aliases given with `.as(...)`), and types the
 * join condition. For a LEFT join the function's columns become nullable.
 */
export function lateralJoin(
  input: PlanNode, callExpr: ExprNode, joinType: "INNER" | "LEFT", condition: ExprNode | undefined,
  catalog: FunctionCatalog, pc: PlanContext,
): CorrelateNode | TemporalJoinNode | LookupJoinNode {
  const what = joinType === "INNER" ? "joinLateral" : "leftOuterJoinLateral";
  let aliases: readonly string[] | undefined;
  let call = callExpr;
  if (call.kind === "Alias") {
    aliases = [call.name, ...call.extraNames];
    call = call.expr;
  }
  if (call.kind === "Call") {
    // a versioned table or a lookup source: a temporal / lookup join rather than a correlate
    const ref = call.udf ?? catalog.lookup(call.fn)?.fn;
    if (ref instanceof TemporalTableFunction) {
      if (aliases) throw new ValidationError(`${what}: the columns of a temporal table function keep their names; rename them on the versioned table`);
      if (call.args.length !== 1) throw new ValidationError(`${what}: a temporal table function takes one argument, a time attribute: call(rates, $("order_time"))`);
      return planTemporalJoin(input, ref.table, ref.timeIndex, ref.keyIndexes, call.args[0], joinType, condition, pc, what);
    }
    if (ref instanceof LookupFunction) {
      if (aliases) throw new ValidationError(`${what}: the columns of a lookup function keep their names; rename them on the lookup source`);
      return planLookupJoin(input, ref.name, ref.schema, ref.keyIndexes, ref.reader, call.args, joinType, condition, pc, what);
    }
  }
  const { fn, name } = resolveTableFunction(call, catalog, what);
  const args = (call as CallNode).args; // (a const: TypeScript before 5.4 forgets the narrowing of `call` inside closures)
  const argTypes = args.map((a) => typeOf(a, input.schema, pc));
  checkArguments(name, fn.params, argTypes, (i) => nodeToString(args[i]!), nodeToString(call));

  const fnColumns = fn.columns;
  if (aliases && aliases.length !== fnColumns.length) {
    throw new ValidationError(`${what}: the table function '${name}' returns ${fnColumns.length} column(s) [${fnColumns.map((c) => c.name).join(", ")}], but ${aliases.length} alias(es) were given: [${aliases.join(", ")}]`);
  }
  const added: Column[] = fnColumns.map((c, i) => ({
    name: aliases ? aliases[i]! : c.name,
    type: joinType === "LEFT" ? c.type.withNullability(true) : c.type,
  }));
  for (const c of added) {
    if (input.schema.has(c.name)) {
      throw new ValidationError(`${what}: column '${c.name}' of the table function '${name}' already exists in the input [${input.schema.names.join(", ")}]; rename it with .as(...)`);
    }
  }
  const schema = new ResolvedSchema([...input.schema.columns, ...added]);
  let cond: ExprNode | undefined;
  if (condition !== undefined) {
    cond = condition;
    const t = typeOf(cond, schema, pc);
    if (t.root !== "BOOLEAN" && t.root !== "NULL") {
      throw new ValidationError(`${what}: the join condition ${nodeToString(cond)} must be BOOLEAN, got ${t}`);
    }
  }
  return correlateNode({
    schema, input, joinType, udf: fn, functionName: name, args,
    ...(cond !== undefined ? { condition: cond } : {}),
  });
}

/** The TableFunction a call refers to (inline object, or registered by name) and the name to report it by. */
export function resolveTableFunction(call: ExprNode, catalog: FunctionCatalog, what: string): { fn: TableFunction; name: string } {
  if (call.kind !== "Call") {
    throw new ValidationError(`${what}: expected a table function call such as call("split", $("tags")).as("tag"), got ${nodeToString(call)}`);
  }
  let fn: unknown = call.udf;
  let name = call.udf !== undefined ? (call.udf as { name: string }).name : call.fn;
  if (fn === undefined) {
    const entry = catalog.lookup(call.fn);
    if (!entry) {
      const known = catalog.list();
      throw new ValidationError(`${what}: function '${call.fn}' is not registered${known.length ? `; registered functions: [${known.join(", ")}]` : ""}`);
    }
    fn = entry.fn;
    name = entry.name;
  }
  if (!(fn instanceof TableFunction)) {
    throw new ValidationError(`${what}: function '${name}' is not a table function; ${what} takes a TableFunction call, got ${nodeToString(call)}`);
  }
  return { fn, name };
}
