import { aggregateResultType } from "../../expressions/aggregates.js";
import { CodegenContext, type FunctionResolver, compileExpr, outputName } from "../../expressions/compile.js";
import { type AggNode, type ExprNode, col, nodeToString } from "../../expressions/node.js";
import { ValidationError } from "../errors.js";
import type { DataType } from "../types/data-type.js";
import { type Column, ResolvedSchema } from "../types/resolved-schema.js";
import {
  type AggCall, type AggregateNode, type DistinctNode, type FilterNode, type PlanNode, type ProjectNode, type UnionNode,
  newNodeId,
} from "./nodes.js";

/**
 * Validating constructors of plan nodes. Each resolves its expressions against the input schema now,
 * so that a bad column or type is reported at the API call that introduced it (as Flink does).
 */

export interface PlanContext {
  readonly resolveFunction?: FunctionResolver;
}

export function typeOf(expr: ExprNode, schema: ResolvedSchema, pc: PlanContext): DataType {
  return compileExpr(expr, new CodegenContext(schema, pc.resolveFunction)).type;
}

export function containsAgg(n: ExprNode): boolean {
  switch (n.kind) {
    case "Agg": return true;
    case "Alias": case "Sort": case "Argument": return containsAgg(n.expr);
    case "Call": return n.args.some(containsAgg);
    default: return false;
  }
}

function unique(names: readonly string[], what: string): void {
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) throw new ValidationError(`${what}: output column '${n}' appears more than once in [${names.join(", ")}]`);
    seen.add(n);
  }
}

export function project(input: PlanNode, items: readonly ExprNode[], pc: PlanContext, what = "select"): PlanNode {
  if (items.some(containsAgg)) return aggregate(input, [], items, pc);
  const columns: Column[] = items.map((e, i) => {
    if (e.kind === "Alias" && e.extraNames.length > 0) throw new ValidationError(`${what}: ${nodeToString(e)} gives several names to one column`);
    return { name: outputName(e, i), type: typeOf(e, input.schema, pc) };
  });
  unique(columns.map((c) => c.name), what);
  const node: ProjectNode = { kind: "Project", id: newNodeId(), schema: new ResolvedSchema(columns), input, exprs: items.map(stripAlias) };
  return node;
}

const stripAlias = (e: ExprNode): ExprNode => (e.kind === "Alias" ? stripAlias(e.expr) : e);

export function filter(input: PlanNode, predicate: ExprNode, pc: PlanContext): FilterNode {
  if (containsAgg(predicate)) throw new ValidationError(`filter: aggregates are not allowed in a filter condition: ${nodeToString(predicate)}`);
  const t = typeOf(predicate, input.schema, pc);
  if (t.root !== "BOOLEAN" && t.root !== "NULL") {
    throw new ValidationError(`filter: the condition ${nodeToString(predicate)} must be BOOLEAN, got ${t}`);
  }
  return { kind: "Filter", id: newNodeId(), schema: input.schema, input, predicate };
}

/**
 * `groupBy(keys).select(items)`: an Aggregate node computing [keys..., aggregates...] and a Project on top
 * that evaluates the select items over that output (Flink's AggregateOperation + Projection).
 */
export function aggregate(input: PlanNode, keys: readonly ExprNode[], items: readonly ExprNode[], pc: PlanContext): PlanNode {
  const keyExprs = keys.map(stripAlias);
  const keyCols: Column[] = keyExprs.map((k, i) => {
    if (containsAgg(k)) throw new ValidationError(`groupBy: aggregates are not allowed as grouping keys: ${nodeToString(k)}`);
    return { name: k.kind === "Column" ? k.name : `$key${i}`, type: typeOf(k, input.schema, pc) };
  });
  unique(keyCols.map((c) => c.name), "groupBy");
  const aggCalls: AggCall[] = [];
  const aggIndex = new Map<string, number>();
  const keyIndex = new Map(keyExprs.map((k, i) => [JSON.stringify(k), i]));

  // rewrite select items over the aggregate's output: [key columns..., EXPR$n aggregate columns...]
  const rewrite = (e: ExprNode, insideAgg: boolean): ExprNode => {
    const ki = keyIndex.get(JSON.stringify(e));
    if (ki !== undefined && !insideAgg) return col(keyCols[ki]!.name);
    switch (e.kind) {
      case "Agg": {
        const k = JSON.stringify(e);
        let i = aggIndex.get(k);
        if (i === undefined) {
          i = aggCalls.length;
          aggIndex.set(k, i);
          aggCalls.push(makeAggCall(e, input.schema, pc, `EXPR$${i}`));
        }
        return col(`EXPR$${i}`);
      }
      case "Column":
        throw new ValidationError(`select: column '${e.name}' is neither a grouping key nor inside an aggregate (grouping keys: [${keyCols.map((c) => c.name).join(", ")}])`);
      case "Alias": return { ...e, expr: rewrite(e.expr, insideAgg) };
      case "Call": return { ...e, args: e.args.map((a) => rewrite(a, insideAgg)) };
      default: return e;
    }
  };
  const rewritten = items.map((e) => rewrite(e, false));
  const aggSchema = new ResolvedSchema([...keyCols, ...aggCalls.map((a) => ({ name: a.name, type: a.type }))]);
  const agg: AggregateNode = { kind: "Aggregate", id: newNodeId(), schema: aggSchema, input, groupKeys: keyExprs, aggCalls };
  // the projection keeps the user's names (alias / column / _c<i>)
  const columns: Column[] = rewritten.map((e, i) => ({ name: outputName(items[i]!, i), type: typeOf(e, aggSchema, pc) }));
  unique(columns.map((c) => c.name), "select");
  const identity = rewritten.length === aggSchema.size && rewritten.every((e, i) => e.kind === "Column" && e.name === aggSchema.names[i])
    && columns.every((c, i) => c.name === aggSchema.names[i]);
  if (identity) return agg;
  return { kind: "Project", id: newNodeId(), schema: new ResolvedSchema(columns), input: agg, exprs: rewritten.map(stripAlias) };
}

function makeAggCall(e: AggNode, schema: ResolvedSchema, pc: PlanContext, name: string): AggCall {
  for (const a of e.args) if (containsAgg(a)) throw new ValidationError(`nested aggregates are not allowed: ${nodeToString(e)}`);
  const argTypes = e.args.map((a) => typeOf(a, schema, pc));
  const type = e.udf ? (e.udf as { resultType: DataType }).resultType : aggregateResultType(e.fn, argTypes, nodeToString(e));
  return e.udf === undefined
    ? { fn: e.fn, args: e.args, distinct: e.distinct, name, type, argTypes }
    : { fn: e.fn, args: e.args, distinct: e.distinct, name, type, argTypes, udf: e.udf };
}

export function distinct(input: PlanNode): DistinctNode {
  return { kind: "Distinct", id: newNodeId(), schema: input.schema, input };
}

/** UNION ALL; input schemas must match by position in names and types (nullability may differ). */
export function unionAll(inputs: readonly PlanNode[]): UnionNode {
  const first = inputs[0]!;
  for (const other of inputs.slice(1)) {
    if (other.schema.size !== first.schema.size) {
      throw new ValidationError(`union: tables have different numbers of columns: ${first.schema.toShortString()} and ${other.schema.toShortString()}`);
    }
    other.schema.columns.forEach((c, i) => {
      const f = first.schema.columns[i]!;
      if (c.type.withNullability(true).toString() !== f.type.withNullability(true).toString() && !(sameFamily(c.type, f.type))) {
        throw new ValidationError(`union: column ${i + 1} has type ${f.type} ('${f.name}') in the first table but ${c.type} ('${c.name}') in another`);
      }
    });
  }
  const columns = first.schema.columns.map((c, i) => ({
    name: c.name,
    type: c.type.withNullability(inputs.some((n) => n.schema.columns[i]!.type.isNullable)),
  }));
  return { kind: "Union", id: newNodeId(), schema: new ResolvedSchema(columns), inputs };
}

function sameFamily(a: DataType, b: DataType): boolean {
  const str = ["CHAR", "VARCHAR"];
  return str.includes(a.root) && str.includes(b.root);
}

/** Renames all columns by position (`table.as("a", "b")`). */
export function renameAll(input: PlanNode, names: readonly string[], pc: PlanContext): PlanNode {
  if (names.length !== input.schema.size) {
    throw new ValidationError(`as: ${names.length} names given for ${input.schema.size} columns [${input.schema.names.join(", ")}]`);
  }
  return project(input, input.schema.names.map((n, i) => ({ kind: "Alias", name: names[i]!, extraNames: [], expr: col(n) })), pc, "as");
}
