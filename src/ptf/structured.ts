import { ValidationError } from "../types/errors.js";
import { DataType } from "../types/data-type.js";

/** A class whose instances are made with `new C()` (Flink's POJO rule: a default constructor). */
export type StructuredClass<C> = new () => C;

// keyed by the type's params object, which notNull()/nullable() share, so nullability changes keep the class
const classes = new WeakMap<object, StructuredClass<object>>();

/**
 * A structured type: a ROW type whose values are instances of a class (Flink's POJO types). Fields are
 * mapped by name; instances are created with `new C()` so field initialisers and methods apply.
 *
 * ```ts
 * class User { s: string | null = null; i: number | null = null; toString() { return `User(s='${this.s}', i=${this.i})`; } }
 * const UserType = structuredType(User, DataTypes.ROW(DataTypes.FIELD("s", DataTypes.STRING()), DataTypes.FIELD("i", DataTypes.INT())));
 * ```
 */
export function structuredType<C extends object>(cls: StructuredClass<C>, row: DataType<object | null>): DataType<C | null> {
  if (typeof cls !== "function") throw new ValidationError("structuredType needs a class with a constructor without arguments");
  if (!(row instanceof DataType) || row.root !== "ROW") {
    throw new ValidationError(`structuredType(${cls.name}): the second argument must be a ROW type, got ${String(row)}`);
  }
  // a fresh DataType instance carries the class; equal ROW types of other classes stay distinct
  const t = new DataType<C | null>("ROW", row.isNullable, { fields: row.fields, structuredClass: cls as StructuredClass<object> });
  classes.set(t.params, cls as StructuredClass<object>);
  return t;
}

/** The class of a structured type, or undefined for a plain ROW type. */
export function classOf(t: DataType): StructuredClass<object> | undefined {
  return classes.get(t.params);
}
