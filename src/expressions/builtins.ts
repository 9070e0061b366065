import type { BuiltinFunction } from "./builtin-function.js";
import { COLLECTION_BUILTINS } from "./compile-collection.js";
import { LOGIC_BUILTINS } from "./compile-logic.js";
import { NUMERIC_BUILTINS } from "./compile-numeric.js";
import { STRING_BUILTINS } from "./compile-string.js";
import { TEMPORAL_BUILTINS } from "./compile-temporal.js";
import { VARIANT_BUILTINS } from "./compile-variant.js";

/**
 * Every built-in scalar function, one entry each (see `BuiltinFunction`). The compiler finds a call's
 * rule here by its name, the SQL parser a function name's spelling. Adding a built-in: its entry in the
 * family's list, its Table API method in expression.ts with its type-level rule in type-level.ts (and a
 * line in docs/expressions.md).
 */
export const BUILTINS: readonly BuiltinFunction[] = [...NUMERIC_BUILTINS, ...LOGIC_BUILTINS, ...STRING_BUILTINS, ...TEMPORAL_BUILTINS, ...VARIANT_BUILTINS, ...COLLECTION_BUILTINS];

/** Built-ins by the SQL name they are called by (upper case), with their arity. */
export const SQL_BUILTINS: ReadonlyMap<string, { readonly fn: string; readonly min: number; readonly max: number }> = new Map(
  BUILTINS.flatMap((f) => (f.sql ?? []).map((s) => [s.name, { fn: f.name, min: s.min, max: s.max }] as const)),
);
