import { aggregateResultType } from "../expressions/aggregates.js";
import { CodegenContext, type FunctionResolver, compileExpr, outputName } from "../expressions/compile.js";
import { type AggNode, type ExprNode, callNode, col, literal, nodeToString } from "../expressions/node.js";
import { ValidationError } from "../types/errors.js";
import type { DataType } from "../types/data-type.js";
import { type Column, ResolvedSchema } from "../types/resolved-schema.js";
import { commonType } from "../types/values.js";
import {
  type AggCall, type DistinctNode, type FilterNode, type PlanNode, type ProjectNode, type PlannedAggregateFunction, type UnionNode,
  aggregateNode, distinctNode, filterNode, projectNode, unionNode,
} from "./nodes.js";

/**
 * Validating constructors of plan nodes. Each resolves its expressions against the input schema now,
 * so that a bad column or type is reported at the API call that introduced it (as Flink does).
 */

export interface PlanContext {
  readonly resolveFunction?: FunctionResolver;
  /**
   * Rewrites an expression before it is planned over `input` (user-defined aggregate calls by name
   * become aggregate nodes; user aggregate calls are checked). Installed by the environment.
   */
  readonly prepare?: (e: ExprNode, input: PlanNode, pc: PlanContext) => ExprNode;
  /**
   * Moves the async scalar function calls of a projection into an AsyncCalc below it: returns the new
   * input and the items reading the calls' result columns, or undefined when there are none.
   */
  readonly splitAsyncCalls?: (items: readonly ExprNode[], input: PlanNode, pc: PlanContext) => { readonly input: PlanNode; readonly items: readonly ExprNode[] } | undefined;
}

/** Applies the context's `prepare` hook to a list of expressions. */
function prepared(items: readonly ExprNode[], input: PlanNode, pc: PlanContext): readonly ExprNode[] {
  const p = pc.prepare;
  return p ? items.map((e) => p(e, input, pc)) : items;
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

export function project(givenInput: PlanNode, givenItems: readonly ExprNode[], pc: PlanContext, what = "select"): PlanNode {
  let input = givenInput;
  let items = prepared(givenItems, input, pc);
  if (items.some(containsAgg)) return aggregate(input, [], items, pc);
  const split = pc.splitAsyncCalls?.(items, input, pc);
  if (split !== undefined) ({ input, items } = split);
  const columns: Column[] = items.map((e, i) => {
    if (e.kind === "Alias" && e.extraNames.length > 0) throw new ValidationError(`${what}: ${nodeToString(e)} gives several names to one column`);
    return { name: outputName(e, i), type: typeOf(e, input.schema, pc) };
  });
  unique(columns.map((c) => c.name), what);
  return projectNode({ schema: new ResolvedSchema(columns), input, exprs: items.map(stripAlias) });
}

const stripAlias = (e: ExprNode): ExprNode => (e.kind === "Alias" ? stripAlias(e.expr) : e);

/**
 * A Filter over `input`. Async scalar function calls in the condition run first, in an AsyncCalc below the
 * Filter (Flink's AsyncCalcSplitRule); a projection on top then drops their result columns again.
 */
export function filter(input: PlanNode, givenPredicate: ExprNode, pc: PlanContext): FilterNode | ProjectNode {
  let predicate = pc.prepare ? pc.prepare(givenPredicate, input, pc) : givenPredicate;
  if (containsAgg(predicate)) throw new ValidationError(`filter: aggregates are not allowed in a filter condition: ${nodeToString(predicate)}`);
  const split = pc.splitAsyncCalls?.([predicate], input, pc);
  const below = split?.input ?? input;
  if (split !== undefined) predicate = stripAlias(split.items[0]!);
  const t = typeOf(predicate, below.schema, pc);
  if (t.root !== "BOOLEAN" && t.root !== "NULL") {
    throw new ValidationError(`filter: the condition ${nodeToString(givenPredicate)} must be BOOLEAN, got ${t}`);
  }
  const filtered = filterNode({ schema: below.schema, input: below, predicate });
  if (split === undefined) return filtered;
  return projectNode({ schema: input.schema, input: filtered, exprs: input.schema.names.map((name): ExprNode => ({ kind: "Column", name })) });
}

/**
 * `groupBy(keys).select(items)`: an Aggregate node computing [keys..., aggregates...] and a Project on top
 * that evaluates the select items over that output (Flink's AggregateOperation + Projection).
 */
export function aggregate(input: PlanNode, givenKeys: readonly ExprNode[], givenItems: readonly ExprNode[], pc: PlanContext): PlanNode {
  const keys = prepared(givenKeys, input, pc);
  const items = prepared(givenItems, input, pc);
  const keyExprs = keys.map(stripAlias);
  const keyCols: Column[] = keyExprs.map((k, i) => {
    if (containsAgg(k)) throw new ValidationError(`groupBy: aggregates are not allowed as grouping keys: ${nodeToString(k)}`);
    return { name: k.kind === "Column" ? k.name : `$key${i}`, type: typeOf(k, input.schema, pc) };
  });
  unique(keyCols.map((c) => c.name), "groupBy");
  const aggs = new AggCallCollector(input.schema, pc);
  const aggCalls = aggs.calls;
  const keyIndex = new Map(keyExprs.map((k, i) => [JSON.stringify(k), i]));

  // rewrite select items over the aggregate's output: [key columns..., EXPR$n aggregate columns...]
  // An aggregate selected as it is (`$("v").sum().as("total")`) is computed under its output name, so that
  // a select of keys then aggregates needs no projection on top; other aggregates are named EXPR$<n>.
  const usedNames = new Set(keyCols.map((c) => c.name));
  const freshName = (preferred: string | undefined): string => {
    let name = preferred;
    for (let n = aggCalls.length; name === undefined || usedNames.has(name); n++) name = `EXPR$${n}`;
    usedNames.add(name);
    return name;
  };
  const rewrite = (e: ExprNode, insideAgg: boolean, preferredName?: string): ExprNode => {
    const ki = keyIndex.get(JSON.stringify(e));
    if (ki !== undefined && !insideAgg) return col(keyCols[ki]!.name);
    switch (e.kind) {
      case "Agg": {
        return aggs.reference(e, () => freshName(preferredName));
      }
      case "Column":
        throw new ValidationError(`select: column '${e.name}' is neither a grouping key nor inside an aggregate (grouping keys: [${keyCols.map((c) => c.name).join(", ")}])`);
      case "Alias": return { ...e, expr: rewrite(e.expr, insideAgg, preferredName) };
      case "Call": return { ...e, args: e.args.map((a) => rewrite(a, insideAgg)) };
      default: return e;
    }
  };
  const rewritten = items.map((e, i) => rewrite(e, false, stripAlias(e).kind === "Agg" ? outputName(e, i) : undefined));
  const aggSchema = new ResolvedSchema([...keyCols, ...aggCalls.map((a) => ({ name: a.name, type: a.type }))]);
  const agg = aggregateNode({ schema: aggSchema, input, groupKeys: keyExprs, aggCalls });
  // the projection keeps the user's names (alias / column / _c<i>)
  const columns: Column[] = rewritten.map((e, i) => ({ name: outputName(items[i]!, i), type: typeOf(e, aggSchema, pc) }));
  unique(columns.map((c) => c.name), "select");
  const identity = rewritten.length === aggSchema.size
    && rewritten.every((e, i) => { const c = stripAlias(e); return c.kind === "Column" && c.name === aggSchema.names[i]; })
    && columns.every((c, i) => c.name === aggSchema.names[i]);
  if (identity) return agg;
  return projectNode({ schema: new ResolvedSchema(columns), input: agg, exprs: rewritten.map(stripAlias) });
}

export function makeAggCall(e: AggNode, schema: ResolvedSchema, pc: PlanContext, name: string): AggCall {
  for (const a of e.args) if (containsAgg(a)) throw new ValidationError(`nested aggregates are not allowed: ${nodeToString(e)}`);
  const argTypes = e.args.map((a) => typeOf(a, schema, pc));
  // a user aggregate call reaches the plan resolved to its AggregateFunction (functions/resolve.ts)
  const udf = e.udf as PlannedAggregateFunction | undefined;
  const type = udf ? udf.resultType : aggregateResultType(e.fn, argTypes, nodeToString(e));
  return udf === undefined
    ? { fn: e.fn, args: e.args, distinct: e.distinct, name, type, argTypes }
    : { fn: e.fn, args: e.args, distinct: e.distinct, name, type, argTypes, udf };
}

/**
 * Collects the distinct aggregate calls of a select list (the same call written twice is computed once)
 * and hands out a column reference to each call's output.
 */
export class AggCallCollector {
  readonly calls: AggCall[] = [];
  private readonly index = new Map<string, number>();

  constructor(private readonly schema: ResolvedSchema, private readonly pc: PlanContext) {}

  /** A reference to the call's output column; on first sight the call is added under `name(i)`. */
  reference(e: AggNode, name: (i: number) => string): ExprNode {
    const k = JSON.stringify(e);
    let i = this.index.get(k);
    if (i === undefined) {
      i = this.calls.length;
      this.index.set(k, i);
      this.calls.push(makeAggCall(e, this.schema, this.pc, name(i)));
    }
    return col(this.calls[i]!.name);
  }
}

export function distinct(input: PlanNode): DistinctNode {
  return distinctNode({ schema: input.schema, input });
}

/**
 * UNION ALL. Inputs must have the same number of columns and, position by position, types with a common
 * type (Flink's rule); the result takes the first input's names and the common types (INT and BIGINT give
 * BIGINT, VARCHAR(3) and VARCHAR(10) give VARCHAR(10), nullable if any input is). An input whose values
 * are represented differently from the common type (a number where a DECIMAL is expected) is cast first.
 */
export function unionAll(inputs: readonly PlanNode[]): UnionNode {
  const first = inputs[0]!;
  const types = first.schema.columns.map((c) => c.type);
  for (const other of inputs.slice(1)) {
    if (other.schema.size !== first.schema.size) {
      throw new ValidationError(`union: tables have different numbers of columns: ${first.schema.toShortString()} and ${other.schema.toShortString()}`);
    }
    other.schema.columns.forEach((c, i) => {
      const f = first.schema.columns[i]!;
      try {
        types[i] = commonType(types[i]!, c.type, () => "union");
      } catch {
        throw new ValidationError(`union: incompatible types at column ${i + 1}: ${f.type} ('${f.name}') in the first table and ${c.type} ('${c.name}') in another`);
      }
    });
  }
  // a column that is the same time attribute in every input stays one (a union of watermarked tables)
  const attr = (i: number) => {
    const a = first.schema.columns[i]!.type.timeAttribute;
    return a !== undefined && inputs.every((n) => n.schema.columns[i]!.type.timeAttribute === a) ? a : undefined;
  };
  const columns = first.schema.columns.map((c, i) => ({ name: c.name, type: attr(i) ? types[i]!.withTimeAttribute(attr(i)) : types[i]! }));
  const cast = inputs.map((n) => castTo(n, types));
  return unionNode({ schema: new ResolvedSchema(columns), inputs: cast });
}

/** The input itself when its values already have the representation of `types`, else a projection with casts. */
function castTo(input: PlanNode, types: readonly DataType[]): PlanNode {
  const differs = (t: DataType, u: DataType) => (t.root === "DECIMAL") !== (u.root === "DECIMAL")
    || (t.root === "DECIMAL" && t.scale !== u.scale);
  const cols = input.schema.columns;
  if (!cols.some((c, i) => differs(c.type, types[i]!))) return input;
  return project(input, cols.map((c, i) => (differs(c.type, types[i]!)
    ? { kind: "Alias", name: c.name, extraNames: [], expr: callNode("cast", [col(c.name), literal(null, types[i]!.withNullability(c.type.isNullable))]) }
    : col(c.name))), {}, "union");
}

/** Renames all columns by position (`table.as("a", "b")`). */
export function renameAll(input: PlanNode, names: readonly string[], pc: PlanContext): PlanNode {
  if (names.length !== input.schema.size) {
    throw new ValidationError(`as: ${names.length} names given for ${input.schema.size} columns [${input.schema.names.join(", ")}]`);
  }
  return project(input, input.schema.names.map((n, i) => ({ kind: "Alias", name: names[i]!, extraNames: [], expr: col(n) })), pc, "as");
}
