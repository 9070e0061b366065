import { CodegenContext, type FunctionResolver, compileExpr } from "../../expressions/compile.js";
import type { FilterNode, ProjectNode } from "../../table/plan/nodes.js";
import type { ResolvedSchema } from "../../table/types/resolved-schema.js";
import { BaseOperator } from "../operator.js";
import { errorWithRow } from "./row-error.js";

/**
 * A chain of Filter and Project nodes fused into one generated function. For
 * `filter(auction % 123 = 0).select(auction, bidder, price * 0.908, dateTime)` the body is roughly
 * `if (!(r0[0]%123===0)) return; return [r0[0], r0[1], r0[2]*0.908, r0[4]];`: it returns the output
 * record, or undefined when a filter drops the row.
 *
 * An expression that fails on a row (division by zero, overflow, a bad CAST) is rethrown with the row
 * in Flink's notation, e.g. "Division by zero in `dividedBy(score, 0)` (row +I[Bob, 12])" (row-error.ts).
 * The try block costs nothing while nothing throws, and only the expressions are inside it: an error
 * raised downstream of this operator passes through untouched.
 */
export class CalcOperator extends BaseOperator {
  private readonly fn: (r: unknown[]) => unknown[] | undefined;

  constructor(stages: readonly (FilterNode | ProjectNode)[], private readonly inputSchema: ResolvedSchema, resolveFunction?: FunctionResolver) {
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
    body += `return ${ctx.rowVar};`;
    this.fn = root.build(`function calc(r0){${root.tempDeclarations()}${body}}`);
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    let out: unknown[] | undefined;
    try {
      out = this.fn(row);
    } catch (e) {
      throw errorWithRow(e, kind, row, this.inputSchema);
    }
    if (out !== undefined) this.out.record(kind, out);
  }
}
