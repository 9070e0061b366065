import { nextGeneratedName } from "../../expressions/codegen.js";
import { CodegenContext, type FunctionResolver, compileExpr } from "../../expressions/compile.js";
import type { FilterNode, ProjectNode } from "../../plan/nodes.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import { BaseOperator } from "../operator.js";
import { errorWithRow } from "./row-error.js";


/**
 * A chain of Filter and Project nodes fused into one generated `processElement`. For
 * `filter(auction % 123 = 0).select(auction, bidder, price * 0.908, dateTime)` the body is roughly
 * `try { if (!(r0[0]%123===0)) return; res = [r0[0], r0[1], r0[2]*0.908, r0[4]]; } catch ... ;
 * self.out.record(kind, res)`. The whole method is generated per operator, not just the expressions:
 * a shared `processElement` calling a generated function would be one call site for every Calc of the
 * process, which goes polymorphic after a few queries and cannot inline the expressions or the output
 * edge (W0 and W1 ran ~10% slower that way).
 *
 * An expression that fails on a row (division by zero, overflow, a bad CAST) is rethrown with the row
 * in Flink's notation, e.g. "Division by zero in `dividedBy(score, 0)` (row +I[Bob, 12])" (row-error.ts).
 * The try block costs nothing while nothing throws, and only the expressions are inside it: an error
 * raised downstream of this operator passes through untouched.
 */
export class CalcOperator extends BaseOperator {
  /** Generated in the constructor; reads `this.out` on every call, so the edge set later is used. */
  override processElement: (input: number, kind: number, row: unknown[]) => void;

  /** @param clock the job's processing-time clock, read by `PROCTIME()` in the expressions */
  constructor(stages: readonly (FilterNode | ProjectNode)[], inputSchema: ResolvedSchema, resolveFunction?: FunctionResolver, clock?: () => number) {
    super(1);
    const root = new CodegenContext(inputSchema, resolveFunction, "r0");
    if (clock !== undefined) root.withClock(clock);
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
    const self = root.constant(this);
    const wrap = root.constant((e: unknown, kind: number, row: readonly unknown[]) => errorWithRow(e, kind, row, inputSchema));
    const id = nextGeneratedName("calc"); // per job: a function of its own, the same text in every run of the plan
    this.processElement = root.build(`(function(){const self=${self},wrap=${wrap};`
      + `return function ${id}_process(input,kind,r0){let res;`
      + `try{${root.tempDeclarations()}${body}res=${ctx.rowVar};}catch(e){throw wrap(e,kind,r0);}`
      + `self.out.record(kind,res);};})()`, "calc", id);
  }
}
