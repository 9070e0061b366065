import { getOwn } from "../types/own.js";
import { ValidationError } from "../types/errors.js";
import type { PlanContext } from "../plan/builders.js";
import { type ValuesNode, valuesNode } from "../plan/nodes.js";
import { Kind, kindFromShort, PositionalRow } from "../types/row.js";
import type { Schema } from "./schema.js";
import { type WatermarkEmission, computedColumnsFunction, resolveSchema } from "./schema-resolve.js";
import { coerceValue } from "../types/values.js";

/**
 * `env.fromValues(schema, ...rows)`: rows give the physical columns (positionally with `Row.of(...)`, or
 * as objects keyed by column name); computed columns are evaluated here, once, and the watermark
 * declaration goes on the Values node, whose reader emits the watermarks.
 */
export function schemaValuesNode(schema: Schema<object>, rows: readonly unknown[], pc: PlanContext, emission?: WatermarkEmission): ValuesNode {
  const resolved = resolveSchema(schema, pc, emission);
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
