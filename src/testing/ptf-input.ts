import { getOwn } from "../types/own.js";
import { ValidationError } from "../types/errors.js";
import type { PlanContext } from "../plan/builders.js";
import { KIND_NAME, PositionalRow, ROW_KIND, kindFromShort } from "../types/row.js";
import { Schema } from "../table/schema.js";
import { computedColumnsFunction, resolveSchema } from "../table/schema-resolve.js";
import type { DataType } from "../types/data-type.js";
import { ResolvedSchema } from "../types/resolved-schema.js";
import { coerceValue } from "../types/values.js";

/**
 * Turns the rows a test hands to `PtfTestHarness.processElement` into positional records of the
 * table's schema, as `fromValues` does for a table: `Row.of(...)` / `Row.ofKind(...)` by position, plain
 * objects (also `Row.withKind(...)`) by column name; each value is checked against its column's type,
 * and computed columns of a Schema are evaluated. Messages name the row (the n-th processElement call)
 * and the column.
 */
export class InputRows {
  /** Kind of the row converted last (0 = INSERT). */
  kind = 0;
  private readonly physical: ResolvedSchema;
  private readonly complete: ((physical: readonly unknown[]) => unknown[]) | undefined;

  private readonly allTypes: readonly DataType[];

  private constructor(physical: ResolvedSchema, complete: ((physical: readonly unknown[]) => unknown[]) | undefined, all: readonly DataType[]) {
    this.physical = physical;
    this.complete = complete;
    this.allTypes = all;
  }

  /** For a ROW type (columns = its fields) or a Schema (rows give its physical columns). */
  static of(input: DataType | Schema<object>, pc: PlanContext): InputRows {
    if (input instanceof Schema) {
      const resolved = resolveSchema(input, pc);
      return new InputRows(resolved.physical, computedColumnsFunction(resolved, pc.resolveFunction), resolved.schema.types);
    }
    const physical = new ResolvedSchema(input.fields.map((f) => ({ name: f.name, type: f.type })));
    return new InputRows(physical, undefined, physical.types);
  }

  /**
   * The record for `row`; sets `kind`. `n` is the 1-based number of the row and `call` the method it was
   * given to, for messages.
   */
  toRecord(row: unknown, n: number, call = "PtfTestHarness.processElement"): unknown[] {
    const where = `${call} row ${n}`;
    const cols = this.physical.columns;
    let values: readonly unknown[];
    if (row instanceof PositionalRow) {
      this.kind = kindFromShort(row.kind);
      values = row.values;
      if (values.length !== cols.length) {
        throw new ValidationError(`${where}: Row.of(...) has ${values.length} values but the input has ${cols.length} columns [${this.physical.names.join(", ")}]`);
      }
    } else if (row !== null && typeof row === "object" && !Array.isArray(row) && !(row instanceof Date) && !(row instanceof Map)) {
      const obj = row as Record<string, unknown>;
      const kind = (obj as { [ROW_KIND]?: string })[ROW_KIND];
      this.kind = kind === undefined ? 0 : kindFromShort(kind);
      for (const k of Object.keys(obj)) {
        if (!this.physical.has(k)) throw new ValidationError(`${where}: column '${k}' is not in the input columns [${this.physical.names.join(", ")}]`);
      }
      values = cols.map((c) => getOwn(obj, c.name));
    } else {
      throw new ValidationError(`${where}: expected Row.of(...) or an object with the columns [${this.physical.names.join(", ")}], got ${row === undefined ? "undefined" : String(row)}`);
    }
    const record = cols.map((c, j) => coerceValue(c.type, values[j], () => `${where}, column '${c.name}'`));
    return this.complete ? this.complete(record) : record;
  }

  /** Types of the records `toRecord` makes (computed columns included). */
  types(): readonly DataType[] {
    return this.allTypes;
  }

  /** Name of the kind of the row converted last, for messages. */
  kindName(): string {
    return KIND_NAME[this.kind]!;
  }
}
