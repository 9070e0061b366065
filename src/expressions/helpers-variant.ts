import { TableRuntimeException } from "../types/errors.js";
import { Variant } from "../types/variant.js";
import { parseJsonVariant } from "../types/variant-json.js";

/**
 * Run-time helpers of the VARIANT built-ins (compile-variant.ts): PARSE_JSON, TRY_PARSE_JSON and
 * `v[key]` / `v[index]`.
 */
export const variantHelpers = {
  /** PARSE_JSON: Flink's TableRuntimeException `Failed to parse json string: <s>`, with the position of the fault. */
  parseJson(s: string, allowDuplicateKeys: boolean | null, where: { toString(): string }): Variant {
    try {
      return parseJsonVariant(s, allowDuplicateKeys === true);
    } catch (e) {
      throw new TableRuntimeException(`Failed to parse json string: ${s} (${(e as Error).message}) in ${String(where)}`, { cause: e });
    }
  },
  /** TRY_PARSE_JSON: NULL for text that PARSE_JSON refuses. */
  tryParseJson(s: string, allowDuplicateKeys: boolean | null): Variant | null {
    try {
      return parseJsonVariant(s, allowDuplicateKeys === true);
    } catch {
      return null;
    }
  },
  /** `v['key']` on an object, `v[i]` (1-based) on an array; NULL otherwise (a missing key, an index out of range, another kind). */
  variantAt(v: Variant, k: string | number): Variant | null {
    return typeof k === "string" ? v.getField(k) : v.getElement(k - 1);
  },
};
