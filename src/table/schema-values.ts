import { getOwn } from "../types/own.js";
import { ValidationError } from "../types/errors.js";
import type { PlanContext } from "../plan/builders.js";
import { type PlanNode, type ValuesNode, projectNode, valuesNode } from "../plan/nodes.js";
import { ResolvedSchema } from "../types/resolved-schema.js";
import { Kind, kindFromShort, PositionalRow } from "../types/row.js";
import type { Schema } from "./schema.js";
import { type ResolvedTableSchema, type WatermarkEmission, computedColumnsFunction, resolveSchema } from "./schema-resolve.js";
import { coerceValue } from "../types/values.js";

/**
 * `env.fromValues(schema, ...rows)`: rows give the physical columns (positionally with `Row.of(...)`, or
 * as objects keyed by column name); computed columns are evaluated here, once, and the watermark
 * declaration goes on the Values node, whose reader emits the watermarks. `PROCTIME()` columns are the
 * exception: they are read when the row is, so they are a projection over the Values node (as Flink's
 * plan has a Calc computing PROCTIME() above the scan).
 */
export function schemaValuesNode(schema: Schema<object>, rows: readonly unknown[], pc: PlanContext, emission?: WatermarkEmission): PlanNode {
  const full = resolveSchema(schema, pc, emission);
  const proc = full.computed.filter((c) => c.type.timeAttribute === "PROCTIME");
  if (proc.length === 0) return valuesOf(full, rows, pc);
  const stored = full.schema.columns.filter((c) => !proc.some((p) => p.name === c.name));
  const storedComputed = full.computed.filter((c) => !proc.includes(c));
  const inner = valuesOf({
    ...full, schema: new ResolvedSchema(stored),
    computed: storedComputed.map((c) => ({ ...c, index: stored.findIndex((s) => s.name === c.name) })),
  }, rows, pc);
  const exprs = full.schema.columns.map((c) => proc.find((p) => p.name === c.name)?.expr ?? { kind: "Column" as const, name: c.name });
  return projectNode({ schema: full.schema, input: inner, exprs });
}

function valuesOf(resolved: ResolvedTableSchema, rows: readonly unknown[], pc: PlanContext): ValuesNode {
  const physical = resolved.physical.columns;
  const names = resolved.physical.names;
  const kinds: number[] = [];
  const complete = computedColumnsFunction(resolved, pc.resolveFunction);
  const out = rows.map((row, i) => {
    const where = () => `fromValues row ${i + 1}`;
    let values: readonly unknown[];
    if (row instanceof PositionalRow) {
      kinds.push(kindFromShort(row.kind));
      values = row.values;
      if (values.length !== physical.length) {
        throw new ValidationError(`${where()}: has ${values.length} values but the schema has ${physical.length} physical columns [${names.join(", ")}]`);
      }
    } else if (row !== null && typeof row === "object" && !Array.isArray(row) && !(row instanceof Date)) {
      kinds.push(Kind.INSERT);
      const obj = row as Record<string, unknown>;
      for (const k of Object.keys(obj)) {
        if (!names.includes(k)) {
          const computed = resolved.computed.some((c) => c.name === k);
          throw new ValidationError(`${where()}: column '${k}' is ${computed ? "a computed column and cannot be given a value" : "not a physical column"} of [${names.join(", ")}]`);
        }
      }
      values = names.map((n) => getOwn(obj, n));
    } else {
      throw new ValidationError(`${where()}: expected Row.of(...) or an object with the columns [${names.join(", ")}], got ${String(row)}`);
    }
    const coerced = physical.map((c, j) => coerceValue(c.type, values[j], () => `${where()}, column '${c.name}'`));
    return complete ? complete(coerced) : coerced;
  });
  return valuesNode({
    schema: resolved.schema, rows: out,
    ...(resolved.watermark ? { watermark: resolved.watermark } : {}),
    ...(resolved.primaryKey ? { primaryKey: resolved.primaryKey } : {}),
    ...(kinds.some((k) => k !== Kind.INSERT) ? { kinds } : {}),
  });
}
