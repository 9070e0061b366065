import { CodegenContext, type FunctionResolver, compileExpr } from "../../expressions/compile.js";
import { ExecutionError, TableError } from "../../table/errors.js";
import type { FilterNode, ProjectNode } from "../../table/plan/nodes.js";
import { KIND_SHORT } from "../../table/row.js";
import { toJavaString } from "../../table/types/format.js";
import type { DataType } from "../../table/types/data-type.js";
import type { ResolvedSchema } from "../../table/types/resolved-schema.js";
import { BaseOperator } from "../operator.js";

/**
 * A chain of Filter and Project nodes fused into one generated function. For
 * `filter(auction % 123 = 0).select(auction, bidder, price * 0.908, dateTime)` the body is roughly
 * `if (!(r0[0]%123===0)) return; return [r0[0], r0[1], r0[2]*0.908, r0[4]];`: it returns the output
 * record, or undefined when a filter drops the row.
 *
 * An expression that fails on a row (division by zero, overflow, a bad CAST) is rethrown with the row
 * in Flink's notation, e.g. "Division by zero in `dividedBy(score, 0)` (row +I[Bob, 12])". The try
 * block costs nothing while nothing throws, and only the expressions are inside it: an error raised
 * downstream of this operator passes through untouched.
 */
export class CalcOperator extends BaseOperator {
  private readonly fn: (r: unknown[]) => unknown[] | undefined;
  private readonly inputTypes: readonly DataType[];

  constructor(stages: readonly (FilterNode | ProjectNode)[], private readonly inputSchema: ResolvedSchema, resolveFunction?: FunctionResolver) {
    super(1);
    this.inputTypes = inputSchema.types;
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
      throw this.withRow(e, kind, row);
    }
    if (out !== undefined) this.out.record(kind, out);
  }

  /** The error with the failing row appended; TableErrors keep their class, anything else becomes an ExecutionError. */
  private withRow(e: unknown, kind: number, row: unknown[]): Error {
    const shown = `${KIND_SHORT[kind]}[${row.map((v, i) => toJavaString(this.inputTypes[i], v)).join(", ")}]`;
    if (e instanceof TableError) {
      const Ctor = e.constructor as new (message: string, options?: { cause?: unknown }) => TableError;
      return new Ctor(`${e.message} (row ${shown})`, { cause: e });
    }
    const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    return new ExecutionError(`expression evaluation failed over the columns [${this.inputSchema.names.join(", ")}]: ${message} (row ${shown})`, { cause: e });
  }
}
