import { KIND_PROTOTYPES } from "./row.js";
import type { ResolvedSchema } from "./types/resolved-schema.js";

/** Turns a positional record into a keyed row object (kind on its prototype). Generated once per schema. */
export type RowConverter<R> = (kind: number, values: readonly unknown[]) => R;

export function rowConverter<R>(schema: ResolvedSchema): RowConverter<R> {
  const assigns = schema.names.map((n, i) => `o[${JSON.stringify(n)}]=v[${i}];`).join("");
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function("P", `return function(k,v){const o=Object.create(P[k]);${assigns}return o;}`)(KIND_PROTOTYPES) as RowConverter<R>;
}
