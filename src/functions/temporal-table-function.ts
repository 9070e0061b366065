import type { PlanNode } from "../plan/nodes.js";
import { ValidationError } from "../types/errors.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";

/**
 * A temporal table function over a versioned table (Flink's `table.createTemporalTableFunction(timeAttribute,
 * primaryKey)`): called with a rowtime attribute of another table inside `joinLateral` /
 * `leftOuterJoinLateral`, it gives the version of each key valid at that time — Flink's event-time temporal
 * join, `FOR SYSTEM_TIME AS OF`. The join condition must equate the primary key with the calling side.
 *
 * ```ts
 * const rates = ratesHistory.createTemporalTableFunction($("rate_time"), $("currency"));
 * orders.joinLateral(call(rates, $("order_time")), $("order_currency").isEqual($("currency")));
 * ```
 */
export class TemporalTableFunction<S = Record<string, unknown>> {
  /** Phantom: called with one TIMESTAMP, produces the versioned table's rows (read by `call` and `joinLateral`). */
  declare readonly __udf: { readonly kind: "table"; readonly params: readonly [Date | null]; readonly result: S };
  readonly kind = "table" as const;
  readonly name = "TemporalTableFunction";
  /** Column index of the time attribute and of the primary key columns in the versioned table. */
  readonly timeIndex: number;
  readonly keyIndexes: readonly number[];

  constructor(readonly table: PlanNode, readonly timeAttribute: string, readonly primaryKey: readonly string[]) {
    const schema = table.schema;
    this.timeIndex = schema.indexOf(timeAttribute, "createTemporalTableFunction: time attribute");
    if (schema.columns[this.timeIndex]!.type.timeAttribute !== "ROWTIME") {
      throw new ValidationError(`createTemporalTableFunction: '${timeAttribute}' is not a rowtime attribute of ${schema.toShortString()}; `
        + "declare a watermark on it (event-time temporal joins need a versioned table with a watermark)");
    }
    if (primaryKey.length === 0) throw new ValidationError("createTemporalTableFunction: give the primary key column(s)");
    this.keyIndexes = primaryKey.map((k) => schema.indexOf(k, "createTemporalTableFunction: primary key column"));
    Object.freeze(this);
  }
}

/**
 * A lookup function of a lookup-capable source (connectors/collection-source.ts): called with the values of
 * the source's lookup key columns inside `joinLateral` / `leftOuterJoinLateral`, it gives the source's rows
 * with that key at processing time — Flink's lookup join (`JOIN dim FOR SYSTEM_TIME AS OF o.proc_time`).
 */
export class LookupFunction<S = Record<string, unknown>, P extends readonly unknown[] = readonly unknown[]> {
  declare readonly __udf: { readonly kind: "table"; readonly params: P; readonly result: S };
  readonly kind = "table" as const;

  /** `reader` is the source's LookupReader (exec/lookup.ts), keyed by `keyIndexes`. */
  constructor(readonly name: string, readonly schema: ResolvedSchema, readonly keyIndexes: readonly number[], readonly reader: unknown) {
    if (keyIndexes.length === 0) throw new ValidationError(`lookup function of '${name}': give at least one lookup key column`);
    Object.freeze(this);
  }
}
