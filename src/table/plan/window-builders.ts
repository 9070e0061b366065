import { outputName } from "../../expressions/compile.js";
import { type ExprNode, col, nodeToString } from "../../expressions/node.js";
import { ValidationError } from "../../types/errors.js";
import { evaluateConstant } from "../schema-resolve.js";
import { DataType } from "../../types/data-type.js";
import { type Column, ResolvedSchema } from "../../types/resolved-schema.js";
import type { GroupWindowDefinition } from "../windows/group-windows.js";
import type { OverWindowDefinition } from "../windows/over-windows.js";
import { AggCallCollector, type PlanContext, containsAgg, typeOf } from "../../plan/builders.js";
import { deriveChangelogMode, isInsertOnly, modeToShortString } from "../../plan/changelog-mode.js";
import {
  type GroupWindowSpec, type OverAggregateNode, type OverWindowSpec, type PlanNode, type ProjectNode,
  type WindowAggregateNode, type WindowProperty, overAggregateNode, projectNode, windowAggregateNode,
} from "../../plan/nodes.js";

/**
 * Validating constructors of the window plan nodes (group windows and over windows). As everywhere in
 * table/plan, every error is raised at the API call that introduced it and names the window, column or item.
 */

const stripAlias = (e: ExprNode): ExprNode => (e.kind === "Alias" ? stripAlias(e.expr) : e);
const prepare = (items: readonly ExprNode[], input: PlanNode, pc: PlanContext): readonly ExprNode[] =>
  (pc.prepare ? items.map((e) => pc.prepare!(e, input, pc)) : items);

function unique(names: readonly string[], what: string): void {
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) throw new ValidationError(`${what}: output column '${n}' appears more than once in [${names.join(", ")}]`);
    seen.add(n);
  }
}

/** A constant positive (or, with `allowZero`, non-negative) day-time interval in milliseconds. */
function intervalMillis(e: ExprNode, pc: PlanContext, what: string, allowZero = false): number {
  const { type, value } = evaluateConstant(e, pc);
  if (type.root !== "INTERVAL_DAY_TIME") {
    throw new ValidationError(`${what} must be a day-time interval such as lit(10).seconds(), got ${type} in ${nodeToString(e)}`);
  }
  const ms = value as number;
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0 || (ms === 0 && !allowZero)) {
    throw new ValidationError(`${what} must be ${allowZero ? "non-negative" : "positive"}, got ${value === null ? "NULL" : `${ms} ms`}`);
  }
  return ms;
}

/** A constant day-time interval of any sign in milliseconds (a window offset). */
function signedIntervalMillis(e: ExprNode, pc: PlanContext, what: string): number {
  const { type, value } = evaluateConstant(e, pc);
  if (type.root !== "INTERVAL_DAY_TIME" || typeof value !== "number" || !Number.isSafeInteger(value)) {
    throw new ValidationError(`${what} must be a day-time interval such as INTERVAL '1' MINUTE, got ${type} in ${nodeToString(e)}`);
  }
  return value;
}

/**
 * The time attribute a window is on: an event-time attribute, or a processing-time one (`PROCTIME()`) for
 * the windows at fixed positions (not SESSION).
 */
function rowtimeColumn(e: ExprNode, input: PlanNode, what: string, type: GroupWindowDefinition["type"]): Column {
  const c = stripAlias(e);
  if (c.kind !== "Column") throw new ValidationError(`${what}: the time attribute must be a column reference, got ${nodeToString(e)}`);
  const column = input.schema.columns[input.schema.indexOf(c.name, `${what}: time attribute`)]!;
  if (column.type.timeAttribute === "PROCTIME" && type === "SESSION") {
    throw new ValidationError(`${what}: session windows on a processing-time attribute ('${c.name}') are not supported; use an event-time attribute`);
  }
  if (column.type.timeAttribute !== "ROWTIME" && column.type.timeAttribute !== "PROCTIME") {
    throw new ValidationError(`${what}: column '${c.name}' is not an event-time attribute (it has type ${column.type}); declare a watermark for it `
      + `(Schema.newBuilder()...watermark("${c.name}", ...)), and note that it stops being one once an expression changes it`);
  }
  return column;
}

function checkAlias(alias: string, input: PlanNode, what: string): void {
  if (input.schema.has(alias)) throw new ValidationError(`${what}: the window alias '${alias}' is already a column of [${input.schema.names.join(", ")}]`);
}

/** Resolves `Tumble.over(...).on(...).as(...)` (and the other group windows) against the windowed table. */
export function groupWindowSpec(def: GroupWindowDefinition, input: PlanNode, pc: PlanContext): GroupWindowSpec {
  const name = def.type === "TUMBLE" ? "Tumble" : def.type === "SLIDE" ? "Slide" : def.type === "SESSION" ? "Session" : "Cumulate";
  const what = `window '${def.alias}' (${name})`;
  checkAlias(def.alias, input, what);
  const time = rowtimeColumn(def.timeField, input, what, def.type);
  const size = intervalMillis(def.size, pc, `${what}: the ${def.type === "SESSION" ? "gap" : def.type === "CUMULATE" ? "maximum size" : "size"}`);
  const offset = def.offset === undefined ? 0 : signedIntervalMillis(def.offset, pc, `${what}: the offset`);
  if (offset !== 0 && def.type === "SESSION") throw new ValidationError(`${what}: a session window has no offset`);
  const base = { type: def.type, alias: def.alias, timeColumn: time.name, size, ...(offset === 0 ? {} : { offset }) };
  if (def.type === "TUMBLE" || def.type === "SESSION") return base;
  const step = intervalMillis(def.step!, pc, `${what}: the ${def.type === "SLIDE" ? "slide" : "step"}`);
  if (def.type === "CUMULATE" && size % step !== 0) {
    throw new ValidationError(`${what}: the maximum size must be a whole multiple of the step, got ${size} ms and step ${step} ms`);
  }
  return { ...base, step };
}

const PROPERTY_FNS: Readonly<Record<string, WindowProperty>> = { windowStart: "start", windowEnd: "end", windowRowtime: "rowtime" };

/**
 * `window(w).groupBy($("w"), keys...).select(items)`: a WindowAggregate node computing
 * [keys..., aggregates..., window properties...] and a Project arranging the select items over it.
 */
export function windowAggregate(
  input: PlanNode, window: GroupWindowSpec, givenKeys: readonly ExprNode[], givenItems: readonly ExprNode[], pc: PlanContext, batch: boolean,
): PlanNode {
  const what = `window '${window.alias}'`;
  const inputMode = deriveChangelogMode(input, batch);
  if (!isInsertOnly(inputMode)) {
    throw new ValidationError(`${what}: a group window aggregate needs an insert-only input, but the input produces updates ${modeToShortString(inputMode)}`);
  }
  const keys = prepare(givenKeys, input, pc).map(stripAlias);
  const items = prepare(givenItems, input, pc);
  const aliasRefs = keys.filter((k) => k.kind === "Column" && k.name === window.alias);
  if (aliasRefs.length !== 1) {
    throw new ValidationError(`${what}: groupBy must contain the window alias exactly once, e.g. groupBy($("${window.alias}"), ...), got [${keys.map(nodeToString).join(", ")}]`);
  }
  const groupKeys = keys.filter((k) => !(k.kind === "Column" && k.name === window.alias));
  const keyCols: Column[] = groupKeys.map((k, i) => {
    if (containsAgg(k)) throw new ValidationError(`groupBy: aggregates are not allowed as grouping keys: ${nodeToString(k)}`);
    return { name: k.kind === "Column" ? k.name : `$key${i}`, type: typeOf(k, input.schema, pc) };
  });
  unique(keyCols.map((c) => c.name), "groupBy");
  const keyIndex = new Map(groupKeys.map((k, i) => [JSON.stringify(k), i]));
  const aggs = new AggCallCollector(input.schema, pc);
  const aggCalls = aggs.calls;
  const properties: WindowProperty[] = [];
  const usedNames = new Set(keyCols.map((c) => c.name));
  const fresh = (preferred: string): string => {
    let name = preferred;
    for (let n = 0; usedNames.has(name); n++) name = `${preferred}${n}`;
    usedNames.add(name);
    return name;
  };
  const propertyNames = new Map<WindowProperty, string>();

  const rewrite = (e: ExprNode, insideAgg: boolean): ExprNode => {
    const ki = keyIndex.get(JSON.stringify(e));
    if (ki !== undefined && !insideAgg) return col(keyCols[ki]!.name);
    switch (e.kind) {
      case "Agg": {
        return aggs.reference(e, (i) => fresh(`EXPR$${i}`));
      }
      case "Column":
        if (e.name === window.alias) {
          throw new ValidationError(`select: the window alias '${e.name}' can only be used as $("${e.name}").start(), $("${e.name}").end() or $("${e.name}").rowtime()`);
        }
        throw new ValidationError(`select: column '${e.name}' is neither a grouping key nor inside an aggregate (grouping keys: [${[window.alias, ...keyCols.map((c) => c.name)].join(", ")}])`);
      case "Alias": return { ...e, expr: rewrite(e.expr, insideAgg) };
      case "Call": {
        const prop = PROPERTY_FNS[e.fn];
        if (prop !== undefined) {
          const target = e.args[0];
          if (e.args.length !== 1 || target?.kind !== "Column" || target.name !== window.alias) {
            throw new ValidationError(`select: ${prop}() applies to the group window alias $("${window.alias}"), got ${nodeToString(e)}`);
          }
          if (insideAgg) throw new ValidationError(`select: window property ${nodeToString(e)} cannot be aggregated`);
          let name = propertyNames.get(prop);
          if (name === undefined) {
            name = fresh(`${window.alias}$${prop}`);
            propertyNames.set(prop, name);
            properties.push(prop);
          }
          return col(name);
        }
        return { ...e, args: e.args.map((a) => rewrite(a, insideAgg || false)) };
      }
      default: return e;
    }
  };
  const rewritten = items.map((e) => rewrite(e, false));
  const timeType = input.schema.column(window.timeColumn).type;
  const propertyType = (p: WindowProperty): DataType => (p === "rowtime"
    ? new DataType(timeType.root, false, { precision: 3, timeAttribute: timeType.timeAttribute === "PROCTIME" ? "PROCTIME" : "ROWTIME" })
    : new DataType("TIMESTAMP", false, { precision: 3 }));
  const aggSchema = new ResolvedSchema([
    ...keyCols,
    ...aggCalls.map((a) => ({ name: a.name, type: a.type })),
    ...properties.map((p) => ({ name: propertyNames.get(p)!, type: propertyType(p) })),
  ]);
  const agg = windowAggregateNode({ schema: aggSchema, input, window, groupKeys, aggCalls, properties });
  const columns: Column[] = rewritten.map((e, i) => ({ name: outputName(items[i]!, i), type: typeOf(e, aggSchema, pc) }));
  unique(columns.map((c) => c.name), "select");
  return projectNode({ schema: new ResolvedSchema(columns), input: agg, exprs: rewritten.map(stripAlias) });
}

// ---- over windows ----------------------------------------------------------------------------------

/** Resolves `Over.partitionBy(...).orderBy(...).preceding(...).as(...)` against the windowed table. */
export function overWindowSpec(def: OverWindowDefinition, input: PlanNode, pc: PlanContext): OverWindowSpec {
  const what = `over window '${def.alias}'`;
  checkAlias(def.alias, input, what);
  const partitionBy = prepare(def.partitionBy, input, pc).map(stripAlias);
  for (const p of partitionBy) {
    if (containsAgg(p)) throw new ValidationError(`${what}: aggregates are not allowed in partitionBy: ${nodeToString(p)}`);
    typeOf(p, input.schema, pc);
  }
  let order = stripAlias(def.orderBy);
  let ascending = true;
  let nullsFirst: boolean | undefined;
  if (order.kind === "Sort") {
    ascending = order.ascending;
    nullsFirst = order.nullsFirst;
    order = stripAlias(order.expr);
  }
  if (order.kind !== "Column") throw new ValidationError(`${what}: orderBy takes a column, got ${nodeToString(def.orderBy)}`);
  const orderType = input.schema.columns[input.schema.indexOf(order.name, `${what}: orderBy column`)]!.type;
  const procTime = orderType.timeAttribute === "PROCTIME";
  const timeBased = orderType.timeAttribute === "ROWTIME" || procTime;
  if (!timeBased && (orderType.root === "TIMESTAMP" || orderType.root === "TIMESTAMP_LTZ")) {
    // the table's type calls an over window ordered by a timestamp append-only, which only event time guarantees
    throw new ValidationError(`${what}: orderBy column '${order.name}' is a ${orderType} but not an event-time attribute; declare a watermark for it`);
  }
  if (timeBased && !ascending) {
    throw new ValidationError(`${what}: an over window on the ${procTime ? "processing" : "event"}-time attribute '${order.name}' must be ordered ascending`);
  }

  const pre = stripAlias(def.preceding);
  let frame: "RANGE" | "ROWS";
  let preceding: number | undefined;
  const fn = pre.kind === "Call" ? pre.fn : "";
  if (fn === "unboundedRange") frame = "RANGE";
  else if (fn === "unboundedRow") frame = "ROWS";
  else if (fn === "currentRange") { frame = "RANGE"; preceding = 0; }
  else if (fn === "currentRow") { frame = "ROWS"; preceding = 0; }
  else if (fn === "rowInterval") { frame = "ROWS"; preceding = (pre as { args: readonly { value?: unknown }[] }).args[0]!.value as number; }
  else { frame = "RANGE"; preceding = intervalMillis(pre, pc, `${what}: the preceding bound`, true); }
  if (def.following !== undefined) {
    const f = stripAlias(def.following);
    const ffn = f.kind === "Call" ? f.fn : "";
    if (ffn !== "currentRow" && ffn !== "currentRange") {
      throw new ValidationError(`${what}: following must be CURRENT_ROW or CURRENT_RANGE (the frame ends at the current row), got ${nodeToString(def.following)}`);
    }
    if ((ffn === "currentRow") !== (frame === "ROWS")) throw new ValidationError(`${what}: Preceding and following must be of same interval type.`);
  }
  if (!timeBased && preceding !== undefined) {
    throw new ValidationError(`${what}: a bounded frame needs orderBy on an event-time attribute; ordered by '${order.name}', only UNBOUNDED_RANGE or UNBOUNDED_ROW is supported`);
  }
  return {
    alias: def.alias, partitionBy, orderBy: order.name, ascending, nullsFirst: nullsFirst ?? ascending, frame, timeBased,
    ...(preceding !== undefined ? { preceding } : {}), ...(procTime ? { procTime } : {}),
  };
}

/**
 * `window(over).select(items)`: an OverAggregate node computing [input columns..., aggregates...] and a
 * Project evaluating the select items over it.
 */
export function overAggregate(input: PlanNode, window: OverWindowSpec, givenItems: readonly ExprNode[], pc: PlanContext, batch: boolean): PlanNode {
  const what = `over window '${window.alias}'`;
  const inputMode = deriveChangelogMode(input, batch);
  if (window.timeBased && !isInsertOnly(inputMode)) {
    throw new ValidationError(`${what}: an ${window.procTime === true ? "processing" : "event"}-time over aggregate needs an insert-only input, but the input produces updates ${modeToShortString(inputMode)}`);
  }
  const items = prepare(givenItems, input, pc);
  const aggs = new AggCallCollector(input.schema, pc);
  const aggCalls = aggs.calls;
  const usedNames = new Set(input.schema.names);
  const rewrite = (e: ExprNode): ExprNode => {
    switch (e.kind) {
      case "Agg":
        throw new ValidationError(`select: aggregate ${nodeToString(e)} needs an over window here: ${nodeToString(e)}.over($("${window.alias}"))`);
      case "Alias": return { ...e, expr: rewrite(e.expr) };
      case "Call": {
        if (e.fn !== "over") return { ...e, args: e.args.map(rewrite) };
        const [agg, ref] = e.args as [ExprNode, ExprNode];
        if (ref?.kind !== "Column" || ref.name !== window.alias) {
          throw new ValidationError(`select: ${nodeToString(e)} refers to an unknown over window; this table's over window is '${window.alias}'`);
        }
        if (agg.kind !== "Agg") throw new ValidationError(`select: over() applies to an aggregate, got ${nodeToString(agg)}`);
        return aggs.reference(agg, (i) => {
          let name = `w${i}$o`;
          for (let n = 0; usedNames.has(name); n++) name = `w${i}$o${n}`;
          usedNames.add(name);
          return name;
        });
      }
      default: return e;
    }
  };
  const rewritten = items.map(rewrite);
  if (aggCalls.length === 0) throw new ValidationError(`select: an over-windowed table needs at least one aggregate with .over($("${window.alias}"))`);
  const overSchema = new ResolvedSchema([...input.schema.columns, ...aggCalls.map((a) => ({ name: a.name, type: a.type }))]);
  const over = overAggregateNode({ schema: overSchema, input, window, aggCalls });
  const columns: Column[] = rewritten.map((e, i) => ({ name: outputName(items[i]!, i), type: typeOf(e, overSchema, pc) }));
  unique(columns.map((c) => c.name), "select");
  return projectNode({ schema: new ResolvedSchema(columns), input: over, exprs: rewritten.map(stripAlias) });
}
