import { CodegenContext, type FunctionResolver, compileExpr } from "../../expressions/compile.js";
import type { FilterNode, ProjectNode } from "../../table/plan/nodes.js";
import type { ResolvedSchema } from "../../table/types/resolved-schema.js";
import { BaseOperator, type Output } from "../operator.js";

/**
 * A chain of Filter and Project nodes fused into one generated function. For
 * `filter(auction % 123 = 0).select(auction, bidder, price * 0.908, dateTime)` the body is roughly
 * `if (!(r[0]%123===0)) return; out.record(k, [r[0], r[1], r[2]*0.908, r[4]]);`.
 */
export class CalcOperator extends BaseOperator {
  private readonly fn: (k: number, r: unknown[], out: Output) => void;

  constructor(stages: readonly (FilterNode | ProjectNode)[], inputSchema: ResolvedSchema, resolveFunction?: FunctionResolver) {
    super(1);
    const root = new CodegenContext(inputSchema, resolveFunction, "r0");
    let ctx = root;
    let body = "";
    stages.forEach((stage, i) => {
      if (stage.kind === "Filter") {
        const p = compileExpr(stage.predicate, ctx);
        body += `if((${p.src})!==true)return;`;
      } else {
        const items = stage.exprs.map((e) => compileExpr(e, ctx).src);
        const next = `r${i + 1}`;
        body += `const ${next}=[${items.join(",")}];`;
        ctx = root.stage(stage.schema, next);
      }
    });
    body += `out.record(k,${ctx.rowVar});`;
    this.fn = root.build(`function calc(k,r0,out){${root.tempDeclarations()}${body}}`);
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    this.fn(kind, row, this.out);
  }
}
