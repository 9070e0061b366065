import type { ProcessTableFunction } from "../function.js";
import { FromChangelog, ToChangelog } from "./changelog.js";
import { DeduplicateKeepFirst } from "./deduplicate-keep-first.js";

/**
 * tablestream's built-in PTFs under their Flink names. A call by name (`process("DEDUPLICATE_KEEP_FIRST",
 * ...)`, SQL `DEDUPLICATE_KEEP_FIRST(...)`) finds them before registered functions; names compare
 * case-insensitively, and the function catalog refuses to register a function under one of them.
 */
const BUILTINS: ReadonlyMap<string, ProcessTableFunction<unknown, unknown, unknown>> = new Map(
  [DeduplicateKeepFirst, FromChangelog, ToChangelog].map((f) => [f.name!.toLowerCase(), f as unknown as ProcessTableFunction<unknown, unknown, unknown>]),
);

export function builtinPtf(name: string): ProcessTableFunction<unknown, unknown, unknown> | undefined {
  return BUILTINS.get(name.toLowerCase());
}

export { DeduplicateKeepFirst, FromChangelog, ToChangelog };
