import { CodegenContext, type FunctionResolver, compileExpr } from "../../expressions/compile.js";
import type { AggCall } from "../../table/plan/nodes.js";
import type { ResolvedSchema } from "../../table/types/resolved-schema.js";
import { type Accumulator, type RowCounter, growFloat64 } from "../aggregates/accumulator.js";
import { RowCountAcc, createAccumulator } from "../aggregates/builtin.js";
import { udfAccumulator } from "../operators/group-aggregate.js";

/** Generated `(r, o) => { o[0] = <argument of call 0>; ... }`: all aggregate arguments of a record in one call. */
export type ArgumentReader = (r: readonly unknown[], o: unknown[]) => void;

export function argumentReader(calls: readonly AggCall[], schema: ResolvedSchema, resolveFunction?: FunctionResolver): ArgumentReader {
  const ctx = new CodegenContext(schema, resolveFunction, "r");
  const body = calls.map((a, i) => {
    const src = a.args.length === 0 ? "null"
      : a.args.length === 1 ? compileExpr(a.args[0]!, ctx).src
        : `[${a.args.map((x) => compileExpr(x, ctx).src).join(",")}]`;
    return `o[${i}]=${src};`;
  }).join("");
  return ctx.build<ArgumentReader>(`function(r,o){${ctx.tempDeclarations()}${body}}`);
}

/**
 * The aggregate calls of a window or over operator over one set of groups: the built-in accumulators
 * (exec/aggregates, column-wise by group id) plus the row count per group they share. Groups are dense
 * ids handed out by the owner; `grow` must cover an id before it is used.
 */
export class AggregateSet {
  readonly accs: Accumulator[];
  readonly rows: RowCounter = { counts: new Float64Array(16) };
  private capacity = 16;
  /**
   * Generated `(g, r) => { acc0.accumulate(g, <arg of call 0 over r>); ...; rows.counts[g]++; }`: one call
   * per record with monomorphic call sites, no argument array, and no call for COUNT(*) (the row count
   * is its value). Present when the set was built with the input schema.
   */
  readonly accumulateRow: (gid: number, row: readonly unknown[]) => void;

  constructor(calls: readonly AggCall[], retractable: boolean, input?: ResolvedSchema, resolveFunction?: FunctionResolver) {
    this.accs = calls.map((a) => (a.udf !== undefined
      ? udfAccumulator(a)
      : createAccumulator(a.fn, a.argTypes[0], a.type, a.distinct, retractable, this.rows)));
    for (const a of this.accs) a.grow(this.capacity);
    this.accumulateRow = input ? rowAccumulator(calls, this.accs, this.rows, input, resolveFunction) : () => {
      throw new Error("AggregateSet.accumulateRow needs the input schema");
    };
  }

  get size(): number {
    return this.accs.length;
  }

  /** Makes room for group ids below `n`. */
  grow(n: number): void {
    if (n <= this.capacity) return;
    let c = this.capacity;
    while (c < n) c *= 2;
    this.capacity = c;
    this.rows.counts = growFloat64(this.rows.counts, c);
    for (const a of this.accs) a.grow(c);
  }

  reset(gid: number): void {
    this.rows.counts[gid] = 0;
    const accs = this.accs;
    for (let i = 0; i < accs.length; i++) accs[i]!.reset(gid);
  }

  /** Adds one record whose arguments were read into `args`. */
  accumulate(gid: number, args: readonly unknown[]): void {
    const accs = this.accs;
    for (let i = 0; i < accs.length; i++) accs[i]!.accumulate(gid, args[i]);
    this.rows.counts[gid]!++;
  }

  retract(gid: number, args: readonly unknown[]): void {
    const accs = this.accs;
    for (let i = 0; i < accs.length; i++) accs[i]!.retract(gid, args[i]);
    this.rows.counts[gid]!--;
  }

  /** Writes the aggregate values of `gid` into `out[at..]`. */
  write(gid: number, out: unknown[], at: number): void {
    const accs = this.accs;
    for (let i = 0; i < accs.length; i++) out[at + i] = accs[i]!.value(gid);
  }

  snapshot(gid: number): unknown {
    return { rows: this.rows.counts[gid], accs: this.accs.map((a) => a.snapshot(gid)) };
  }

  restore(gid: number, data: unknown): void {
    const d = data as { rows: number; accs: unknown[] };
    this.rows.counts[gid] = d.rows;
    d.accs.forEach((s, i) => this.accs[i]!.restore(gid, s));
  }
}

function rowAccumulator(
  calls: readonly AggCall[], accs: readonly Accumulator[], rows: RowCounter, schema: ResolvedSchema, resolveFunction?: FunctionResolver,
): (gid: number, row: readonly unknown[]) => void {
  const ctx = new CodegenContext(schema, resolveFunction, "r");
  const rc = ctx.constant(rows);
  const body = calls.map((a, i) => {
    if (accs[i] instanceof RowCountAcc) return "";
    const src = a.args.length === 0 ? "null"
      : a.args.length === 1 ? compileExpr(a.args[0]!, ctx).src
        : `[${a.args.map((x) => compileExpr(x, ctx).src).join(",")}]`;
    return `${ctx.constant(accs[i])}.accumulate(g,${src});`;
  }).join("");
  return ctx.build(`function(g,r){${ctx.tempDeclarations()}${body}${rc}.counts[g]++;}`);
}
