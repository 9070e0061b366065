import { CodegenContext, type FunctionResolver, compileExpr } from "../../expressions/compile.js";
import { BaseOperator, type Output } from "../operator.js";
import { type OperatorFactory, connect } from "../operator-table.js";
import { errorWithRow } from "../operators/row-error.js";
import { ExecutionError, TableError } from "../../types/errors.js";
import type { CorrelateNode } from "../../plan/nodes.js";
import { PositionalRow } from "../../types/row.js";
import { convertArgument, needsConversion } from "../../functions/arguments.js";
import { TableFunction } from "../../functions/table-function.js";
import { type ValueCheck, userCodeFailure, valueCheck } from "../../functions/value-check.js";
import { thrownIs } from "../../types/describe-thrown.js";

/**
 * Runs a lateral join with a table function. Per input row one generated function evaluates the
 * arguments and calls `eval(collector, ...)` directly; every `collect` builds one output record
 * (input values + function values, checked against the declared types) and emits it with the input
 * row's kind. NOT NULL parameters given NULL skip the call (no rows). LEFT joins emit the input row
 * padded with NULLs when the function produced no row that passed the condition.
 */
export class CorrelateOperator extends BaseOperator {
  private readonly fn: TableFunction;
  private readonly invoke: (r: readonly unknown[], s: object, out: object) => void;
  private readonly condition: ((r: readonly unknown[]) => unknown) | undefined;
  private readonly checks: readonly ValueCheck[];
  private readonly rowResult: boolean;
  private readonly inputArity: number;
  private readonly left: boolean;
  private readonly names: readonly string[];
  /** The row and kind being processed; `collect` reads them. */
  private row: readonly unknown[] = [];
  private kind = 0;
  private emitted = 0;
  private readonly collector: { collect(row: unknown): void };

  constructor(private readonly node: CorrelateNode, resolveFunction?: FunctionResolver) {
    super(1);
    if (!(node.udf instanceof TableFunction)) throw new ExecutionError(`lateral join: '${node.functionName}' is not a TableFunction`);
    const fn = node.udf;
    this.fn = fn;
    this.left = node.joinType === "LEFT";
    this.inputArity = node.input.schema.size;
    this.rowResult = fn.resultType.root === "ROW";
    this.names = fn.columns.map((c) => c.name);
    const what = `table function '${node.functionName}'`;
    this.checks = fn.columns.map((c) => valueCheck(c.type, () => (this.rowResult ? `${what} (field '${c.name}')` : what)));

    // (r, s, out) => { args...; if (null for NOT NULL) return; s.eval(out, a0, a1) } — wrapped for errors
    const ctx = new CodegenContext(node.input.schema, resolveFunction, "r");
    const tests: string[] = [];
    const srcs = node.args.map((a, i) => {
      const c = compileExpr(a, ctx);
      const p = fn.params[i]!;
      const t = ctx.temp();
      if (c.type.isNullable && (!p.isNullable || c.type.root === "NULL")) tests.push(`${t}===null`);
      const conv = c.type.isNullable && needsConversion(p, c.type) ? `(${t}===null?null:${convertArgument(p, c.type, t)})` : convertArgument(p, c.type, t);
      return { assign: `${t}=${c.src};`, use: conv, temp: t };
    });
    // a failure of eval names the function, its arguments and the input row; an error raised downstream of
    // a collect (already a TableError) passes through as it is
    const schema = node.input.schema;
    const fail = ctx.constant((e: unknown, args: unknown[]) =>
      (thrownIs(e, TableError) ? e : errorWithRow(userCodeFailure(what, args, e), this.kind, this.row, schema)));
    this.invoke = ctx.build(`function(r,s,out){${ctx.tempDeclarations()}${srcs.map((x) => x.assign).join("")}`
      + `${tests.length ? `if(${tests.join("||")})return;` : ""}`
      + `try{s.eval(out${srcs.map((x) => "," + x.use).join("")});}catch(e){throw ${fail}(e,[${srcs.map((x) => x.temp).join(",")}]);}}`);
    if (node.condition !== undefined) {
      const cctx = new CodegenContext(node.schema, resolveFunction, "r");
      const cond = compileExpr(node.condition, cctx);
      this.condition = cctx.build(`function(r){${cctx.tempDeclarations()}return ${cond.src};}`);
    }
    this.collector = { collect: (v: unknown) => this.collect(v) };
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    this.row = row;
    this.kind = kind;
    this.emitted = 0;
    this.invoke(row, this.fn.spec, this.collector);
    if (this.left && this.emitted === 0) {
      const out = new Array<unknown>(this.node.schema.size).fill(null);
      for (let i = 0; i < this.inputArity; i++) out[i] = row[i];
      this.out.record(kind, out);
    }
  }

  /** One collected row: converted to positional values after the input's, checked, emitted. */
  private collect(v: unknown): void {
    const n = this.inputArity;
    const checks = this.checks;
    const out = new Array<unknown>(n + checks.length);
    const row = this.row;
    for (let i = 0; i < n; i++) out[i] = row[i];
    if (!this.rowResult) {
      out[n] = checks[0]!(v);
    } else if (v instanceof PositionalRow) {
      if (v.arity !== checks.length) {
        throw new ExecutionError(`table function '${this.node.functionName}' collected a row of ${v.arity} field(s), but its result type ${this.fn.resultType} has ${checks.length}`);
      }
      for (let i = 0; i < checks.length; i++) out[n + i] = checks[i]!(v.values[i]);
    } else if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      const names = this.names;
      for (let i = 0; i < checks.length; i++) out[n + i] = checks[i]!(o[names[i]!] === undefined ? null : o[names[i]!]);
    } else {
      throw new ExecutionError(`table function '${this.node.functionName}' collected ${String(v)}; expected Row.of(...) or an object with fields [${this.names.join(", ")}]`);
    }
    if (this.condition !== undefined && this.condition(out) !== true) return;
    this.emitted++;
    this.out.record(this.kind, out);
  }
}

/** The operator factory of Correlate nodes (built after its input, as a plug-in operator). */
export const correlateOperator: OperatorFactory<CorrelateNode> = (node, ctx, build) => {
  const op = Object.assign(new CorrelateOperator(node, ctx.resolveFunction), { outputs: [] as Output[] });
  connect(build(node.input), op, 0);
  return op;
};
