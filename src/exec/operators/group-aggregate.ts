import { CodegenContext, type FunctionResolver, compileExpr } from "../../expressions/compile.js";
import { helpers } from "../../expressions/helpers.js";
import type { AggregateNode } from "../../table/plan/nodes.js";
import { Kind } from "../../table/row.js";
import type { DataType } from "../../table/types/data-type.js";
import { type Accumulator, growFloat64, valueKey } from "../aggregates/accumulator.js";
import { createAccumulator } from "../aggregates/builtin.js";
import { BaseOperator } from "../operator.js";

const PRIMITIVE_KEY_ROOTS = ["CHAR", "VARCHAR", "BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DATE", "TIME"];

/** Generated: (row) => map key of the group. Numeric/string single keys are used as they are. */
export function keyFunction(ctx: CodegenContext, keySrcs: readonly string[], keyTypes: readonly DataType[]): string {
  if (keySrcs.length === 0) return "0";
  if (keySrcs.length === 1) {
    return PRIMITIVE_KEY_ROOTS.includes(keyTypes[0]!.root) ? keySrcs[0]! : `${ctx.constant(valueKey)}(${keySrcs[0]})`;
  }
  const vk = ctx.constant(valueKey);
  // typeof tags keep null, 1 and "1" apart
  return keySrcs.map((s) => { const t = ctx.temp(); return `(typeof (${t}=${vk}(${s}))+":"+${t})`; }).join(`+"\\u0001"+`);
}

/** A user AggregateFunction adapter registers itself here (UDF support). */
export type UdfAccumulatorFactory = (udf: unknown, argTypes: readonly DataType[], resultType: DataType) => Accumulator;
let udfFactory: UdfAccumulatorFactory | undefined;
export function registerUdfAccumulatorFactory(f: UdfAccumulatorFactory): void { udfFactory = f; }

/**
 * Unbounded GROUP BY with Flink's changelog: the first row of a group emits `+I`, each change a
 * `-U old` / `+U new` pair (nothing when the result is unchanged), and `-D` when the group's last row is
 * retracted. In batch mode the final results are emitted once at end of input, as inserts.
 */
export class GroupAggregateOperator extends BaseOperator {
  private readonly groups = new Map<unknown, number>();
  private readonly freeIds: number[] = [];
  private capacity = 0;
  private nextId = 0;
  private rowCounts = new Float64Array(0);
  private readonly keyValues: unknown[][] = [];
  private readonly accs: Accumulator[];
  private readonly extract: (r: unknown[]) => { key: unknown; keys: unknown[] | undefined };
  private readonly singleArgs: ((r: unknown[]) => unknown)[];
  private readonly storeKeys: boolean;
  private readonly keyCount: number;

  constructor(private readonly node: AggregateNode, private readonly batch: boolean, retractableInput: boolean, resolveFunction?: FunctionResolver) {
    super(1);
    const ctx = new CodegenContext(node.input.schema, resolveFunction, "r");
    const keys = node.groupKeys.map((k) => compileExpr(k, ctx));
    this.keyCount = keys.length;
    const keyExpr = keyFunction(ctx, keys.map((k) => k.src), keys.map((k) => k.type));
    // single primitive key: the map key IS the key value, nothing else to store
    this.storeKeys = !(keys.length === 1 && PRIMITIVE_KEY_ROOTS.includes(keys[0]!.type.root)) && keys.length > 0;
    this.extract = ctx.build(`function(r){${ctx.tempDeclarations()}const key=${keyExpr};return {key,keys:${this.storeKeys ? `[${keys.map((k) => k.src).join(",")}]` : "undefined"}};}`);
    const argCtx = new CodegenContext(node.input.schema, resolveFunction, "r");
    const argSrcs = node.aggCalls.map((a) => (a.args.length === 0 ? "1" : a.args.length === 1 ? compileExpr(a.args[0]!, argCtx).src
      : `[${a.args.map((x) => compileExpr(x, argCtx).src).join(",")}]`));
    this.singleArgs = argSrcs.map((src) => argCtx.build(`function(r){${argCtx.tempDeclarations()}return ${src};}`));
    this.accs = node.aggCalls.map((a) => (a.udf !== undefined
      ? udfFactory!(a.udf, a.argTypes, a.type)
      : createAccumulator(a.fn, a.argTypes[0], a.type, a.distinct, retractableInput)));
  }

  private newGroup(key: unknown, keys: unknown[] | undefined): number {
    let gid = this.freeIds.pop();
    if (gid === undefined) {
      gid = this.nextId++;
      if (gid >= this.capacity) {
        this.capacity = Math.max(16, this.capacity * 2);
        this.rowCounts = growFloat64(this.rowCounts, this.capacity);
        for (const a of this.accs) a.grow(this.capacity);
      }
    }
    this.rowCounts[gid] = 0;
    for (const a of this.accs) a.reset(gid);
    if (this.storeKeys) this.keyValues[gid] = keys!;
    this.groups.set(key, gid);
    return gid;
  }

  private result(gid: number, key: unknown): unknown[] {
    const accs = this.accs;
    const n = this.keyCount;
    const out = new Array<unknown>(n + accs.length);
    if (this.storeKeys) { const kv = this.keyValues[gid]!; for (let i = 0; i < n; i++) out[i] = kv[i]; } else if (n === 1) out[0] = key;
    for (let i = 0; i < accs.length; i++) out[n + i] = accs[i]!.value(gid);
    return out;
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    const { key, keys } = this.extract(row);
    let gid = this.groups.get(key);
    const accumulate = kind === Kind.INSERT || kind === Kind.UPDATE_AFTER;
    let prev: unknown[] | undefined;
    if (gid === undefined) {
      if (!accumulate) return; // retraction of a group never seen: ignored, as Flink does
      gid = this.newGroup(key, keys);
    } else if (!this.batch) {
      prev = this.result(gid, key);
    }
    const accs = this.accs;
    const fns = this.singleArgs;
    if (accumulate) {
      for (let i = 0; i < accs.length; i++) accs[i]!.accumulate(gid, fns[i]!(row));
      this.rowCounts[gid]!++;
    } else {
      for (let i = 0; i < accs.length; i++) accs[i]!.retract(gid, fns[i]!(row));
      this.rowCounts[gid]!--;
    }
    if (this.rowCounts[gid] === 0) {
      this.groups.delete(key);
      if (this.storeKeys) this.keyValues[gid] = undefined as never;
      this.freeIds.push(gid);
      if (prev) this.out.record(Kind.DELETE, prev);
      return;
    }
    if (this.batch) return;
    const cur = this.result(gid, key);
    if (prev === undefined) {
      this.out.record(Kind.INSERT, cur);
    } else if (!sameValues(prev, cur, this.keyCount)) {
      this.out.record(Kind.UPDATE_BEFORE, prev);
      this.out.record(Kind.UPDATE_AFTER, cur);
    }
  }

  protected override onEndOfInput(): void {
    if (this.batch) {
      for (const [key, gid] of this.groups) this.out.record(Kind.INSERT, this.result(gid, key));
      if (this.keyCount === 0 && this.groups.size === 0) {
        // a global aggregate over no rows still has one result row (COUNT 0, SUM null)
        const gid = this.newGroup(0, undefined);
        this.out.record(Kind.INSERT, this.result(gid, 0));
      }
    }
    this.out.endInput();
  }

  /** Number of live groups (benchmarks report state size per group). */
  groupCount(): number {
    return this.groups.size;
  }

  override snapshotState(): unknown {
    return [...this.groups].map(([key, gid]) => ({
      key, keys: this.storeKeys ? this.keyValues[gid] : undefined, rows: this.rowCounts[gid], accs: this.accs.map((a) => a.snapshot(gid)),
    }));
  }

  override restoreState(state: unknown): void {
    for (const g of state as { key: unknown; keys: unknown[] | undefined; rows: number; accs: unknown[] }[]) {
      const gid = this.newGroup(g.key, g.keys);
      this.rowCounts[gid] = g.rows;
      g.accs.forEach((a, i) => this.accs[i]!.restore(gid, a));
    }
  }
}

function sameValues(a: unknown[], b: unknown[], from: number): boolean {
  for (let i = from; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x !== y && !(x !== null && y !== null && typeof x === "object" && helpers.eq(x, y))) return false;
  }
  return true;
}
