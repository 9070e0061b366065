import { CodegenContext, type FunctionResolver, compileExpr } from "../../expressions/compile.js";
import { growFloat64 } from "../aggregates/accumulator.js";
import { type GroupKeys, createGroupKeys } from "../aggregates/group-keys.js";
import { BaseOperator, type Output } from "../operator.js";
import { type OperatorFactory, connect } from "../operator-table.js";
import type { TableAggregateNode } from "../../plan/nodes.js";
import { ExecutionError } from "../../types/errors.js";
import { Kind, PositionalRow } from "../../types/row.js";
import { convertArgument, needsConversion } from "../../functions/arguments.js";
import { TableAggregateFunction } from "../../functions/table-aggregate-function.js";
import { type ValueCheck, userCodeFailure, valueCheck } from "../../functions/value-check.js";

/** `(row, spec, acc, retract) => accumulated?`: evaluates the arguments and calls accumulate / retract. */
type Invoke = (r: readonly unknown[], s: object, acc: object, retract: boolean) => boolean;

/**
 * Runs `flatAggregate` with a TableAggregateFunction, as Flink's GroupTableAggFunction does. Per input
 * row of a group:
 * - with `emitValue` (streaming): the rows the group's result had so far are retracted (`-D`, by calling
 *   emitValue on the accumulator before the row is applied), the row is accumulated (or retracted), and
 *   the new result is emitted (`+I`);
 * - with `emitUpdateWithRetract`: the row is applied and the function emits only the change,
 *   `collect` as `+I`, `retract` as `-D`;
 * - in batch mode every group emits its final rows once, at end of input.
 * A group whose rows were all retracted is dropped (its state too). State: key, accumulator and row count per
 * group (snapshotState / restoreState).
 */
export class TableAggregateOperator extends BaseOperator {
  private readonly fn: TableAggregateFunction;
  private readonly keys: GroupKeys;
  private readonly keyCount: number;
  private readonly invoke: Invoke;
  private readonly checks: readonly ValueCheck[];
  private readonly names: readonly string[];
  private readonly rowResult: boolean;
  private readonly incremental: boolean;
  private readonly what: string;
  private accs: (object | undefined)[] = [];
  private counts = new Float64Array(16);
  private readonly freeIds: number[] = [];
  private nextId = 0;
  /** The group being emitted: its key values and the kind `collect` sends. */
  private keyValues: unknown[] = [];
  private kind: number = Kind.INSERT;
  private readonly collector: { collect(v: unknown): void; retract(v: unknown): void };

  constructor(private readonly node: TableAggregateNode, private readonly batch: boolean, resolveFunction?: FunctionResolver) {
    super(1);
    if (!(node.udf instanceof TableAggregateFunction)) throw new ExecutionError(`flatAggregate: '${node.functionName}' is not a TableAggregateFunction`);
    const fn = node.udf;
    this.fn = fn;
    this.what = `table aggregate function '${node.functionName}'`;
    this.keys = createGroupKeys(node.groupKeys, node.input.schema, resolveFunction);
    this.keyCount = node.groupKeys.length;
    this.rowResult = fn.resultType.root === "ROW";
    this.names = fn.columns.map((c) => c.name);
    this.checks = fn.columns.map((c) => valueCheck(c.type, () => (this.rowResult ? `${this.what} (field '${c.name}')` : this.what)));
    this.incremental = !batch && fn.spec.emitUpdateWithRetract !== undefined;
    if (!this.incremental && fn.spec.emitValue === undefined) {
      throw new ExecutionError(`${this.what} has no emitValue(acc, out), which batch mode needs`);
    }

    const ctx = new CodegenContext(node.input.schema, resolveFunction, "r");
    const tests: string[] = [];
    const srcs = node.args.map((a, i) => {
      const c = compileExpr(a, ctx);
      const p = fn.params[i]!;
      const t = ctx.temp();
      if (c.type.isNullable && (!p.isNullable || c.type.root === "NULL")) tests.push(`${t}===null`);
      const use = c.type.isNullable && needsConversion(p, c.type) ? `(${t}===null?null:${convertArgument(p, c.type, t)})` : convertArgument(p, c.type, t);
      return { assign: `${t}=${c.src};`, use, temp: t };
    });
    const fail = ctx.constant((e: unknown, method: string, args: unknown[]) => userCodeFailure(`${this.what}.${method}`, args, e));
    const list = srcs.map((x) => "," + x.use).join("");
    this.invoke = ctx.build(`function(r,s,acc,retract){${ctx.tempDeclarations()}${srcs.map((x) => x.assign).join("")}`
      + `${tests.length ? `if(${tests.join("||")})return false;` : ""}`
      + `try{if(retract)s.retract(acc${list});else s.accumulate(acc${list});}`
      + `catch(e){throw ${fail}(e,retract?"retract":"accumulate",[${srcs.map((x) => x.temp).join(",")}]);}return true;}`);
    this.collector = {
      collect: (v) => this.emit(this.kind, v),
      retract: (v) => this.emit(Kind.DELETE, v),
    };
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    const keys = this.keys;
    const retract = kind === Kind.UPDATE_BEFORE || kind === Kind.DELETE;
    let gid = keys.find(row);
    const first = gid < 0;
    if (first) {
      if (retract) return; // nothing to retract from (Flink ignores it too)
      gid = this.freeIds.pop() ?? this.nextId++;
      if (gid >= this.counts.length) this.counts = growFloat64(this.counts, gid + 1);
      this.counts[gid] = 0;
      this.accs[gid] = this.createAccumulator();
      keys.add(gid);
    }
    const acc = this.accs[gid]!;
    if (retract && this.fn.spec.retract === undefined) throw new ExecutionError(`${this.what} has no retract() method but received a retraction`);
    if (!this.batch) {
      this.keyValues = keys.currentValues();
      // retract the group's current result before it changes
      if (!first && !this.incremental) this.emitAll(acc, Kind.DELETE);
    }
    const applied = this.invoke(row, this.fn.spec, acc, retract);
    if (applied) this.counts[gid]! += retract ? -1 : 1;
    if (this.batch) return;
    if (this.counts[gid] === 0) {
      if (this.incremental) this.emitUpdates(acc);
      keys.remove(gid);
      this.accs[gid] = undefined;
      this.freeIds.push(gid);
      return;
    }
    if (this.incremental) this.emitUpdates(acc);
    else this.emitAll(acc, Kind.INSERT);
  }

  protected override onEndOfInput(): void {
    if (this.batch) {
      this.keys.forEachGroup((gid) => {
        if (this.counts[gid] === 0) return;
        this.keyValues = this.keys.currentValues();
        this.emitAll(this.accs[gid]!, Kind.INSERT);
      });
    }
    this.out.endInput();
  }

  private createAccumulator(): object {
    let acc: unknown;
    try {
      acc = this.fn.spec.createAccumulator();
    } catch (e) {
      throw userCodeFailure(`${this.what}.createAccumulator`, [], e);
    }
    if (acc === null || typeof acc !== "object") throw new ExecutionError(`${this.what}.createAccumulator must return a mutable object, got ${String(acc)}`);
    return acc;
  }

  private emitAll(acc: object, kind: number): void {
    this.kind = kind;
    try {
      this.fn.spec.emitValue!(acc, this.collector);
    } catch (e) {
      throw e instanceof ExecutionError ? e : userCodeFailure(`${this.what}.emitValue`, [], e);
    }
  }

  private emitUpdates(acc: object): void {
    this.kind = Kind.INSERT;
    try {
      this.fn.spec.emitUpdateWithRetract!(acc, this.collector);
    } catch (e) {
      throw e instanceof ExecutionError ? e : userCodeFailure(`${this.what}.emitUpdateWithRetract`, [], e);
    }
  }

  /** One output record: the group's key values, then the function's row checked against its type. */
  private emit(kind: number, v: unknown): void {
    const n = this.keyCount;
    const checks = this.checks;
    const out = new Array<unknown>(n + checks.length);
    const key = this.keyValues;
    for (let i = 0; i < n; i++) out[i] = key[i];
    if (!this.rowResult) {
      out[n] = checks[0]!(v);
    } else if (v instanceof PositionalRow) {
      if (v.arity !== checks.length) {
        throw new ExecutionError(`${this.what} emitted a row of ${v.arity} field(s), but its result type ${this.fn.resultType} has ${checks.length}`);
      }
      for (let i = 0; i < checks.length; i++) out[n + i] = checks[i]!(v.values[i]);
    } else if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      for (let i = 0; i < checks.length; i++) out[n + i] = checks[i]!(o[this.names[i]!] === undefined ? null : o[this.names[i]!]);
    } else {
      throw new ExecutionError(`${this.what} emitted ${String(v)}; expected Row.of(...) or an object with fields [${this.names.join(", ")}]`);
    }
    this.out.record(kind, out);
  }

  override snapshotState(): unknown {
    const groups: [unknown[], object, number][] = [];
    this.keys.forEach((values, gid) => groups.push([values, structuredClone(this.accs[gid]!), this.counts[gid]!]));
    return groups;
  }

  override restoreState(s: unknown): void {
    for (const [values, acc, n] of s as [unknown[], object, number][]) {
      const gid = this.nextId++;
      if (gid >= this.counts.length) this.counts = growFloat64(this.counts, gid + 1);
      this.counts[gid] = n;
      this.accs[gid] = structuredClone(acc);
      this.keys.restore(values, gid);
    }
  }
}

/** The operator factory of TableAggregate nodes (`flatAggregate`). */
export const tableAggregateOperator: OperatorFactory<TableAggregateNode> = (node, ctx, build) => {
  const op = Object.assign(new TableAggregateOperator(node, ctx.settings.batch, ctx.resolveFunction), { outputs: [] as Output[] });
  connect(build(node.input), op, 0);
  return op;
};
