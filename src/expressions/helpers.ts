import { numericHelpers } from "./helpers-numeric.js";
import { stringHelpers } from "./helpers-string.js";
import { temporalHelpers } from "./helpers-temporal.js";
import { variantHelpers } from "./helpers-variant.js";

export { likeToRegExp } from "./helpers-string.js";

/**
 * The run-time helpers generated expression code calls as `h.name(...)`: one flat object, so that a
 * call is a single property load. They stay small and monomorphic; the generated code inlines the
 * common cases (arithmetic on DOUBLE, comparisons, null tests) itself. Aggregates use `dec`,
 * `decFit`, `eq` and `cmp` too.
 */
export const helpers = {
  ...numericHelpers,
  ...stringHelpers,
  ...temporalHelpers,
  ...variantHelpers,
  /** CARDINALITY of a MULTISET (a Map of element to count): the elements counting repeats. */
  multisetSize(m: ReadonlyMap<unknown, number>): number {
    let n = 0;
    for (const c of m.values()) n += c;
    return n;
  },
};
