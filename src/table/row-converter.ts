import { KIND_PROTOTYPES } from "../types/row.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";

/** Turns a positional record into a keyed row object (kind on its prototype). Generated once per schema. */
export type RowConverter<R> = (kind: number, values: readonly unknown[]) => R;

/**
 * `(k, v) => { name: v[0], age: v[1] }` with the kind's shared prototype, so `Row.kindOf(row)` works and
 * the kind is not an own (enumerable) property. A column named `__proto__` is defined as an own property
 * rather than assigned, which would replace the prototype.
 */
export function rowConverter<R>(schema: ResolvedSchema): RowConverter<R> {
  const assigns = schema.names.map((n, i) => (n === "__proto__"
    ? `Object.defineProperty(o,"__proto__",{value:v[${i}],enumerable:true,writable:true,configurable:true});`
    : `o[${JSON.stringify(n)}]=v[${i}];`)).join("");
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function("P", `return function(k,v){const o=Object.create(P[k]);${assigns}return o;}`)(KIND_PROTOTYPES) as RowConverter<R>;
}
