import { generate, nextGeneratedName } from "../../../expressions/codegen.js";
import { helpers } from "../../../expressions/helpers.js";
import type { SortKey } from "../../../plan/nodes/sort.js";

export type RowComparator = (a: readonly unknown[], b: readonly unknown[]) => number;

/**
 * A comparator of rows by ORDER BY keys, generated once per operator (one function, no loop over keys
 * per comparison). Numbers compare inline; other values (strings, decimals, timestamps) through the
 * helpers' `cmp`. NULLs go first or last per key, independently of the direction. NaN sorts above every
 * other number (+Infinity included); -0.0 and 0.0 are equal keys (their rows keep their order).
 */
export function rowComparator(keys: readonly SortKey[]): RowComparator {
  let body = "let x,y,c;";
  for (const k of keys) {
    const nulls = k.nullsFirst ? -1 : 1;
    const dir = k.ascending ? "" : "-";
    body += `x=a[${k.column}];y=b[${k.column}];if(x!==y){`
      + `if(x===null)return ${nulls};if(y===null)return ${-nulls};`
      // neither < nor >: one is NaN, which sorts above every number (h.cmp: Java's Double.compare)
      + `c=typeof x==="number"&&typeof y==="number"?(x<y?-1:x>y?1:h.cmp(x,y)):h.cmp(x,y);`
      + `if(c!==0)return ${dir}c;}`;
  }
  body += "return 0;";
  const name = nextGeneratedName("compareRows");
  return generate("sort", name, ["h"], `"use strict";return function ${name}(a,b){${body}};`, [helpers]);
}

/** Whether two rows are equal value by value (a retraction finds the row it retracts). */
export function rowsEqual(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === null || y === null || !helpers.eq(x, y)) return false;
  }
  return true;
}
