import type { DataType } from "../types/data-type.js";
import { DataTypes } from "../types/data-types.js";
import { ValidationError } from "../types/errors.js";
import { Row } from "../types/row.js";
import { TableFunction } from "../functions/table-function.js";

/**
 * The table function UNNEST(x) stands for, for the type of x: an ARRAY of ROWs emits each row's fields, an ARRAY
 * of other values each element (one column), a MAP each entry (`key`, `value`). `names` (the alias's column list)
 * rename the columns; a column the left side already has (`taken`) gets Flink's suffix (`x0`). With `ordinality`
 * (`WITH ORDINALITY`, as in Flink) a last column `ORDINALITY INT NOT NULL` holds the element's position from 1: its
 * index in the array (a NULL row element, which gives no row, still takes its position), a map entry's place in
 * the map's iteration order.
 */
export function unnestFunction(type: DataType, names: readonly string[] | undefined, taken: readonly string[], ordinality = false): TableFunction {
  let fields: { name: string; type: DataType }[];
  let rows: (v: unknown) => Iterable<unknown[]>;
  if (type.root === "ARRAY") {
    const element = type.elementType!;
    if (element.root === "ROW") {
      fields = element.fields.map((f) => ({ name: f.name, type: f.type }));
      // ROW values are objects keyed by field name (types/values.ts)
      rows = function* (v) {
        let i = 0;
        for (const e of v as readonly unknown[]) {
          i++;
          if (e === null) continue;
          const r = element.fields.map((f) => (Object.hasOwn(e as object, f.name) ? (e as Record<string, unknown>)[f.name] : null));
          if (ordinality) r.push(i);
          yield r;
        }
      };
    } else {
      fields = [{ name: "EXPR$0", type: element }];
      rows = function* (v) { let i = 0; for (const e of v as readonly unknown[]) yield ordinality ? [e, ++i] : [e]; };
    }
  } else if (type.root === "MAP") {
    fields = [{ name: "key", type: type.keyType! }, { name: "value", type: type.valueType! }];
    rows = function* (v) { let i = 0; for (const [k, x] of v as Map<unknown, unknown>) yield ordinality ? [k, x, ++i] : [k, x]; };
  } else {
    throw new ValidationError(`UNNEST takes an ARRAY or a MAP, got ${type}`);
  }
  if (ordinality) fields.push({ name: "ORDINALITY", type: DataTypes.INT().notNull() });
  if (names !== undefined && names.length !== fields.length) {
    throw new ValidationError(`UNNEST${ordinality ? " ... WITH ORDINALITY" : ""} produces ${fields.length} column${fields.length === 1 ? "" : "s"} [${fields.map((f) => f.name).join(", ")}] but the alias names ${names.length} [${names.join(", ")}]`);
  }
  const used = new Set(taken);
  const columns = fields.map((f, i) => {
    const base = names?.[i] ?? f.name;
    let name = base;
    for (let n = 0; used.has(name); n++) name = `${base}${n}`;
    used.add(name);
    return DataTypes.FIELD(name, f.type);
  });
  return TableFunction.define({
    name: "UNNEST",
    args: [type.notNull()],
    result: DataTypes.ROW(...columns),
    eval(out, v) { for (const r of rows(v)) out.collect(Row.of(...r) as never); },
  }) as unknown as TableFunction;
}
