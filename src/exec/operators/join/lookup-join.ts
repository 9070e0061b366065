import { CodegenContext, type FunctionResolver, compileExpr } from "../../../expressions/compile.js";
import type { LookupJoinNode } from "../../../plan/nodes/lookup-join.js";
import type { LookupReader } from "../../lookup.js";
import { BaseOperator } from "../../operator.js";
import { compileCombine, compilePad, compileResidual } from "./join-code.js";
import { errorWithRow } from "../row-error.js";

/**
 * A processing-time lookup join (Flink's LookupJoinRunner): each input row asks the lookup source for the rows
 * of its key, as the source holds them now, and is emitted once per found row that passes the residual
 * (LEFT: padded once when none does), with the input row's kind. A NULL key finds nothing. No state: a
 * restored job simply looks up again.
 */
export class LookupJoinOperator extends BaseOperator {
  private readonly keyOf: (r: unknown[]) => unknown[] | null;
  private readonly combine: (l: unknown[], r: unknown[]) => unknown[];
  private readonly pad: (l: unknown[]) => unknown[];
  private readonly residual: ((row: unknown[]) => boolean) | undefined;
  private readonly reader: LookupReader;
  private readonly outer: boolean;

  constructor(private readonly node: LookupJoinNode, resolve?: FunctionResolver) {
    super(1);
    const ctx = new CodegenContext(node.input.schema, resolve, "r");
    const keys = node.keys.map((k) => compileExpr(k, ctx).src);
    this.keyOf = ctx.build(`(function(r){${ctx.tempDeclarations()}const k=[${keys.join(",")}];`
      + `for(let i=0;i<k.length;i++)if(k[i]===null)return null;return k;})`);
    const ls = node.input.schema.size;
    const rs = node.lookupSchema.size;
    this.combine = compileCombine(ls, rs);
    this.pad = compilePad(ls, rs, true);
    this.residual = compileResidual(node.residual, node.schema, resolve);
    this.reader = node.reader as LookupReader;
    this.outer = node.joinType === "LEFT";
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    let key: unknown[] | null;
    try {
      key = this.keyOf(row);
    } catch (e) {
      throw errorWithRow(e, kind, row, this.node.input.schema);
    }
    let found = false;
    if (key !== null) {
      const rows = this.reader.lookup(key);
      for (let i = 0; i < rows.length; i++) {
        const j = this.combine(row, rows[i] as unknown[]);
        if (this.residual !== undefined && !this.residual(j)) continue;
        found = true;
        this.out.record(kind, j);
      }
    }
    if (!found && this.outer) this.out.record(kind, this.pad(row));
  }
}
