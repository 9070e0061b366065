import { type ExprNode, nodeToString } from "../expressions/node.js";
import { ValidationError } from "../types/errors.js";
import { type Column, ResolvedSchema } from "../types/resolved-schema.js";
import type { PlanContext } from "./builders.js";
import { typeOf } from "./builders.js";
import { conjuncts, sideOf } from "./join-builder.js";
import type { PlanNode } from "./nodes.js";
import { type LookupJoinNode, lookupJoinNode } from "./nodes/lookup-join.js";
import { type TemporalJoinNode, temporalJoinNode } from "./nodes/temporal-join.js";

/** Output columns of a lateral join with a versioned or lookup table: the right's become nullable (LEFT) and lose time attributes. */
function lateralSchema(left: ResolvedSchema, right: ResolvedSchema, joinType: "INNER" | "LEFT", what: string): ResolvedSchema {
  for (const c of right.columns) {
    if (left.has(c.name)) {
      throw new ValidationError(`${what}: column '${c.name}' exists on both sides of the join (left [${left.names.join(", ")}], right [${right.names.join(", ")}]); `
        + "rename one of them first (renameColumns)");
    }
  }
  const added: Column[] = right.columns.map((c) => ({
    name: c.name,
    type: (joinType === "LEFT" ? c.type.withNullability(true) : c.type).withTimeAttribute(undefined) as Column["type"],
  }));
  return new ResolvedSchema([...left.columns, ...added]);
}

function checkCondition(cond: ExprNode | undefined, schema: ResolvedSchema, pc: PlanContext, what: string): void {
  if (cond === undefined) return;
  const t = typeOf(cond, schema, pc);
  if (t.root !== "BOOLEAN" && t.root !== "NULL") throw new ValidationError(`${what}: the join condition ${nodeToString(cond)} must be BOOLEAN, got ${t}`);
}

/**
 * `left.joinLateral(call(temporalFn, $("t")), condition)`: an event-time temporal join. `t` must be a rowtime
 * attribute of the left table; the condition must equate each primary key column of the versioned table with
 * a left expression (Flink: "Currently the join key in Temporal Table Join can not be empty"); the rest of it is
 * a residual over the joined row.
 */
export function planTemporalJoin(
  left: PlanNode, right: PlanNode, rightTime: number, primaryKey: readonly number[], timeArg: ExprNode | undefined,
  joinType: "INNER" | "LEFT", condition: ExprNode | undefined, pc: PlanContext, what: string,
): TemporalJoinNode {
  if (timeArg === undefined || timeArg.kind !== "Column") {
    throw new ValidationError(`${what}: a temporal table function takes one argument, a time attribute of the left table: call(rates, $("order_time"))`);
  }
  const leftTime = left.schema.indexOf(timeArg.name, `${what}: time attribute`);
  const attr = left.schema.columns[leftTime]!.type.timeAttribute;
  if (attr !== "ROWTIME") {
    throw new ValidationError(`${what}: '${timeArg.name}' is ${attr === "PROCTIME" ? "a processing-time attribute" : "not a time attribute"}; `
      + "an event-time temporal join needs a rowtime attribute of the left table (processing-time joins go through a lookup source)");
  }
  const schema = lateralSchema(left.schema, right.schema, joinType, what);
  checkCondition(condition, schema, pc, what);
  const pkNames = primaryKey.map((i) => right.schema.names[i]!);
  const leftKeys: (ExprNode | undefined)[] = pkNames.map(() => undefined);
  const rest: ExprNode[] = [];
  for (const p of condition === undefined ? [] : conjuncts(condition)) {
    if (p.kind === "Call" && p.fn === "equals" && p.udf === undefined) {
      const [a, b] = p.args as [ExprNode, ExprNode];
      const pick = (l: ExprNode, r: ExprNode) => {
        if (r.kind !== "Column" || sideOf(l, left.schema, right.schema) !== "L") return false;
        const k = pkNames.indexOf(r.name);
        if (k < 0 || leftKeys[k] !== undefined) return false;
        leftKeys[k] = l;
        return true;
      };
      if (pick(a, b) || pick(b, a)) continue;
    }
    rest.push(p);
  }
  const missing = pkNames.filter((_, i) => leftKeys[i] === undefined);
  if (missing.length > 0) {
    throw new ValidationError(`${what}: the join condition must equate the versioned table's primary key [${pkNames.join(", ")}] with the left table; `
      + `missing ${missing.map((m) => `'${m}'`).join(", ")} (e.g. $("order_currency").isEqual($("${missing[0]}")))`);
  }
  const residual = rest.length === 0 ? undefined : rest.length === 1 ? rest[0] : { kind: "Call" as const, fn: "and", args: rest };
  return temporalJoinNode({
    schema, left, right, joinType, leftTime, rightTime, leftKeys: leftKeys as ExprNode[], rightKeys: primaryKey,
    ...(residual !== undefined ? { residual } : {}), ...(condition !== undefined ? { condition } : {}),
  });
}

/** `left.joinLateral(call(lookupFn, ...keys), condition)`: a lookup join; the arguments are the lookup key values. */
export function planLookupJoin(
  input: PlanNode, tableName: string, lookupSchema: ResolvedSchema, keyIndexes: readonly number[], reader: unknown, args: readonly ExprNode[],
  joinType: "INNER" | "LEFT", condition: ExprNode | undefined, pc: PlanContext, what: string,
): LookupJoinNode {
  if (args.length !== keyIndexes.length) {
    throw new ValidationError(`${what}: the lookup function of '${tableName}' takes ${keyIndexes.length} key value(s) `
      + `[${keyIndexes.map((i) => lookupSchema.names[i]).join(", ")}], got ${args.length}`);
  }
  args.forEach((a, i) => {
    const t = typeOf(a, input.schema, pc);
    const k = lookupSchema.columns[keyIndexes[i]!]!;
    const fam = (r: string) => (["TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE"].includes(r) ? "N" : r === "CHAR" ? "VARCHAR" : r);
    if (fam(t.root) !== fam(k.type.root) && t.root !== "NULL") {
      throw new ValidationError(`${what}: lookup key ${i + 1} (${nodeToString(a)}) is ${t}, but the key column '${k.name}' of '${tableName}' is ${k.type}`);
    }
  });
  const schema = lateralSchema(input.schema, lookupSchema, joinType, what);
  checkCondition(condition, schema, pc, what);
  return lookupJoinNode({
    schema, input, joinType, tableName, lookupSchema, keys: args, keyColumns: keyIndexes, reader, ...(condition !== undefined ? { residual: condition } : {}),
  });
}
