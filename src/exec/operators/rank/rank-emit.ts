import { generate, nextGeneratedName } from "../../../expressions/codegen.js";
import type { Output, RowObjectReceiver } from "../../operator.js";

/**
 * Emits one top-N output row: the stored input row `r` of `size` columns, followed by its row number `n` when
 * the operator appends one. When the downstream takes row objects (the result sink of `batches()`,
 * OperatorOutput.rows) the row is built once with the consumer's constructor for kind `k`; else it is a
 * record (`[...r, n]`, or `r` itself without a row number: records are immutable, the stored row is shared).
 * Generated per operator (columns written out, no loop or spread per row); the text depends only on the
 * column count and the job-local name, so identical plans share it.
 */
export type RankEmit = (out: Output & { readonly rows?: RowObjectReceiver | null }, k: number, r: readonly unknown[], n: number) => void;

export function rankEmitter(size: number, rowNumber: boolean): RankEmit {
  const cols = Array.from({ length: size }, (_, i) => `r[${i}]`);
  const vs = (rowNumber ? [...cols, "n"] : cols).join(",");
  const record = rowNumber ? `[${vs}]` : "r";
  const name = nextGeneratedName("rankEmit");
  return generate<RankEmit>("rank", name, [], `"use strict";return function ${name}(out,k,r,n){const R=out.rows;`
    + `if(R==null){out.record(k,${record});return;}`
    + `R.add(k===0?new R.C0(${vs}):k===2?new R.C2(${vs}):k===1?new R.C1(${vs}):new R.C3(${vs}));};`, []);
}
