import { type AliasNode, type ExprNode, callNode, col, literal, nodeToString } from "../expressions/node.js";
import { ValidationError } from "../types/errors.js";
import { type PlanContext, aggregate, containsAgg, project, typeOf } from "../plan/builders.js";
import { deriveChangelogMode, hasRetractions, modeToShortString, requireRetractions } from "../plan/changelog-mode.js";
import type { PlanNode } from "../plan/nodes.js";
import { type TableAggregateNode, tableAggregateNode } from "../plan/nodes/table-aggregate.js";
import type { DataType } from "../types/data-type.js";
import { type Column, ResolvedSchema } from "../types/resolved-schema.js";
import { checkArguments } from "./arguments.js";
import type { FunctionCatalog } from "./catalog.js";
import { lateralJoin, resolveTableFunction } from "./lateral.js";
import { TableAggregateFunction } from "./table-aggregate-function.js";

/**
 * Plans the row-based operations of the Table API (Flink's map / flatMap / aggregate / flatAggregate)
 * onto the existing nodes: map is a projection whose ROW result is flattened, flatMap a lateral join that
 * keeps only the function's columns, aggregate a group aggregate whose ROW result is flattened, and
 * flatAggregate a TableAggregate node. Aliases given with `.as("a", "b")` rename the result columns.
 */

/** The call under an optional alias, and the alias names. */
function unalias(e: ExprNode): { call: ExprNode; names: readonly string[] | undefined } {
  if (e.kind === "Alias") return { call: e.expr, names: [e.name, ...e.extraNames] };
  return { call: e, names: undefined };
}

function alias(expr: ExprNode, name: string): AliasNode {
  return { kind: "Alias", name, extraNames: [], expr };
}

/** Column names of a flattened result: the aliases (exactly one per column) or the declared names. */
function resultNames(what: string, fnName: string, declared: readonly string[], aliases: readonly string[] | undefined): readonly string[] {
  if (aliases === undefined) return declared;
  if (aliases.length !== declared.length) {
    throw new ValidationError(`${what}: '${fnName}' returns ${declared.length} column(s) [${declared.join(", ")}], but ${aliases.length} alias(es) were given: [${aliases.join(", ")}]`);
  }
  return aliases;
}

/** `$field(row, 'f') AS name` for every field of a ROW column `rowColumn` (plus `keep` columns first). */
function flattenRow(input: PlanNode, keep: readonly string[], rowColumn: string, type: DataType, names: readonly string[], pc: PlanContext, what: string): PlanNode {
  const fields = type.fields.map((f, i) => alias(callNode("$field", [col(rowColumn), literal(f.name)]), names[i]!));
  return project(input, [...keep.map(col), ...fields], pc, what);
}

/**
 * `map(call(f, ...).as(...))`: one output row per input row, the columns of f's result — a ROW result is
 * flattened into its fields, another type is one column (`_c0` unless aliased). Any scalar expression works
 * (Flink also takes built-in functions); aggregates and table functions do not.
 */
export function planMap(input: PlanNode, e: ExprNode, pc: PlanContext): PlanNode {
  const { call, names } = unalias(e);
  if (containsAgg(call)) throw new ValidationError(`map: takes a scalar function call, got the aggregate ${nodeToString(call)}; use aggregate(...)`);
  const type = typeOf(call, input.schema, pc);
  if (type.root !== "ROW") {
    const declared = resultNames("map", nodeToString(call), ["_c0"], names);
    return project(input, [alias(call, declared[0]!)], pc, "map");
  }
  const declared = resultNames("map", nodeToString(call), type.fields.map((f) => f.name), names);
  const inner = project(input, [alias(call, "$map")], pc, "map");
  return flattenRow(inner, [], "$map", type, declared, pc, "map");
}

/**
 * `flatMap(call(tableFn, ...).as(...))`: the rows the table function produces per input row, with only
 * the function's columns. Row kinds pass through (a retracted input row retracts what it produced).
 */
export function planFlatMap(input: PlanNode, e: ExprNode, catalog: FunctionCatalog, pc: PlanContext): PlanNode {
  const { call, names } = unalias(e);
  // the function's columns are joined under internal names (they may repeat input column names), then renamed
  const { fn, name } = resolveTableFunction(call, catalog, "flatMap");
  const internal = fn.columns.map((_, i) => `$flatMap${i}`);
  const declared = resultNames("flatMap", name, fn.columns.map((c) => c.name), names);
  const joined = lateralJoin(input, { kind: "Alias", name: internal[0]!, extraNames: internal.slice(1), expr: call }, "INNER", undefined, catalog, pc);
  return project(joined, internal.map((n, i) => alias(col(n), declared[i]!)), pc, "flatMap");
}

/**
 * `groupBy(keys).aggregate(call(aggFn, ...).as(...))` (or global, without keys): the keys, then the
 * aggregate's result flattened (a ROW into its fields, another type as one column). `select` follows.
 */
export function planAggregate(input: PlanNode, keys: readonly ExprNode[], e: ExprNode, pc: PlanContext): PlanNode {
  const { call, names } = unalias(e);
  if (call.kind !== "Agg" && !(call.kind === "Call" && call.udf === undefined)) {
    throw new ValidationError(`aggregate: takes an aggregate function call such as call(MyAggregate, $("a")).as("x", "y"), got ${nodeToString(call)}`);
  }
  const agg = aggregate(input, keys, [...keys, alias(call, "$agg")], pc);
  if (agg.schema.names.at(-1) !== "$agg" || !containsAggregate(agg)) {
    throw new ValidationError(`aggregate: ${nodeToString(call)} is not an aggregate function call`);
  }
  const keyNames = agg.schema.names.slice(0, -1);
  const type = agg.schema.columns.at(-1)!.type;
  if (type.root !== "ROW") {
    const declared = resultNames("aggregate", nodeToString(call), ["_c0"], names);
    return project(agg, [...keyNames.map(col), alias(col("$agg"), declared[0]!)], pc, "aggregate");
  }
  const declared = resultNames("aggregate", nodeToString(call), type.fields.map((f) => f.name), names);
  clash("aggregate", keyNames, declared);
  return flattenRow(agg, keyNames, "$agg", type, declared, pc, "aggregate");
}

function containsAggregate(n: PlanNode): boolean {
  return n.kind === "Aggregate" || (n.kind === "Project" && n.input.kind === "Aggregate");
}

function clash(what: string, keys: readonly string[], names: readonly string[]): void {
  const twice = names.find((n) => keys.includes(n));
  if (twice !== undefined) {
    throw new ValidationError(`${what}: the result column '${twice}' has the name of a grouping key [${keys.join(", ")}]; rename it with .as(...)`);
  }
}

/**
 * `groupBy(keys).flatAggregate(call(tableAggFn, ...).as(...))` (or global): a TableAggregate node with
 * output [keys..., function columns...]. The function is an inline TableAggregateFunction or registered
 * by name; its arguments are checked against its parameters, and an updating input needs `retract`.
 */
export function planFlatAggregate(input: PlanNode, keys: readonly ExprNode[], e: ExprNode, catalog: FunctionCatalog, pc: PlanContext, batch: boolean): TableAggregateNode {
  const { call, names } = unalias(e);
  if (call.kind !== "Call") {
    throw new ValidationError(`flatAggregate: takes a table aggregate function call such as call(Top2, $("a")).as("v", "rank"), got ${nodeToString(call)}`);
  }
  let fn: unknown = call.udf;
  let name = call.udf !== undefined ? (call.udf as { name: string }).name : call.fn;
  if (fn === undefined) {
    const entry = catalog.lookup(call.fn);
    if (!entry) {
      const known = catalog.list();
      throw new ValidationError(`flatAggregate: function '${call.fn}' is not registered${known.length ? `; registered functions: [${known.join(", ")}]` : ""}`);
    }
    fn = entry.fn;
    name = entry.name;
  }
  if (!(fn instanceof TableAggregateFunction)) {
    throw new ValidationError(`flatAggregate: function '${name}' is not a table aggregate function; flatAggregate takes a TableAggregateFunction call, got ${nodeToString(call)}`);
  }
  const argTypes = call.args.map((a) => typeOf(a, input.schema, pc));
  checkArguments(name, fn.params, argTypes, (i) => nodeToString(call.args[i]!), nodeToString(call));
  if (batch && fn.spec.emitValue === undefined) {
    throw new ValidationError(`flatAggregate: table aggregate function '${name}' has no emitValue(acc, out), which batch mode needs`);
  }
  const mode = deriveChangelogMode(input, batch);
  requireRetractions("a table aggregate (flatAggregate)", mode);
  if (!batch && hasRetractions(mode) && !fn.supportsRetraction) {
    throw new ValidationError(`table aggregate function '${name}' has no retract() method, but its input is an updating table (changelog mode ${modeToShortString(mode)}); declare retract(acc, ...args) to aggregate updates`);
  }
  const keyExprs = keys.map((k) => (k.kind === "Alias" ? k.expr : k));
  const keyCols: Column[] = keyExprs.map((k, i) => {
    if (containsAgg(k)) throw new ValidationError(`groupBy: aggregates are not allowed as grouping keys: ${nodeToString(k)}`);
    return { name: k.kind === "Column" ? k.name : `$key${i}`, type: typeOf(k, input.schema, pc) };
  });
  const declared = resultNames("flatAggregate", name, fn.columns.map((c) => c.name), names);
  clash("flatAggregate", keyCols.map((c) => c.name), declared);
  const schema = new ResolvedSchema([...keyCols, ...fn.columns.map((c, i) => ({ name: declared[i]!, type: c.type }))]);
  return tableAggregateNode({ schema, input, groupKeys: keyExprs, udf: fn, functionName: name, args: call.args });
}
