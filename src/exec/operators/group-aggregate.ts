import { CodegenContext, type FunctionResolver, compileExpr } from "../../expressions/compile.js";
import { helpers } from "../../expressions/helpers.js";
import { ValidationError } from "../../table/errors.js";
import type { AggCall, AggregateNode } from "../../table/plan/nodes.js";
import { Kind } from "../../table/row.js";
import type { DataType } from "../../table/types/data-type.js";
import type { ResolvedSchema } from "../../table/types/resolved-schema.js";
import { type Accumulator, type RowCounter, growFloat64 } from "../aggregates/accumulator.js";
import { RowCountAcc, createAccumulator } from "../aggregates/builtin.js";
import { type GroupKeys, createGroupKeys } from "../aggregates/group-keys.js";
import { BaseOperator } from "../operator.js";
import { errorWithRow } from "./row-error.js";

/** A user AggregateFunction adapter registers itself here (UDF support). */
export type UdfAccumulatorFactory = (call: AggCall) => Accumulator;
let udfFactory: UdfAccumulatorFactory | undefined;
export function registerUdfAccumulatorFactory(f: UdfAccumulatorFactory): void { udfFactory = f; }

/**
 * Unbounded GROUP BY with Flink's changelog (GroupAggFunction):
 * - the first row of a group emits `+I[key, aggs]`;
 * - a later row that changes the result emits `-U[old]` then `+U[new]`; one that leaves it unchanged emits nothing;
 * - the retraction of a group's last row emits `-D[last result]` and drops the group (a later row starts it anew with `+I`);
 * - a retraction for a group that does not exist is ignored.
 * In batch mode nothing is emitted until end of input, then one `+I` per group in order of first appearance;
 * a global aggregate (no keys) over no rows still gives its one row (COUNT 0, SUM NULL).
 *
 * State is column-wise: a group is a dense id (gid) into the accumulators' typed arrays, found through a
 * key index chosen by key type (see GroupKeys). Per record nothing is allocated but the output rows.
 *
 * A key or argument expression that fails on a record (`$("a").dividedBy(0).sum()`) fails the job with
 * the record named, as in CalcOperator (row-error.ts).
 */
export class GroupAggregateOperator extends BaseOperator {
  private readonly keys: GroupKeys;
  private readonly rows: RowCounter = { counts: new Float64Array(16) };
  private readonly accs: Accumulator[];
  /** Writes the aggregate arguments of a record into `argValues` (one generated function for all calls). */
  private readonly readArgs: (r: readonly unknown[], o: unknown[]) => void;
  /** The accumulators that take values (all but COUNT(*)), in the order of `argValues`. */
  private readonly fed: Accumulator[];
  private readonly argValues: unknown[];
  /** Scratch: the aggregate values before and after the current record. */
  private readonly before: unknown[];
  private readonly after: unknown[];
  private readonly freeIds: number[] = [];
  private nextId = 0;
  private capacity = 16;

  private readonly inputSchema: ResolvedSchema;

  constructor(node: AggregateNode, private readonly batch: boolean, retractableInput: boolean, resolveFunction?: FunctionResolver) {
    super(1);
    this.inputSchema = node.input.schema;
    this.keys = createGroupKeys(node.groupKeys, node.input.schema, resolveFunction);
    this.accs = node.aggCalls.map((a) => (a.udf !== undefined
      ? udfAccumulator(a)
      : createAccumulator(a.fn, a.argTypes[0], a.type, a.distinct, retractableInput, this.rows)));
    for (const a of this.accs) a.grow(this.capacity);
    // accumulators that only read the row count (COUNT(*)) need neither arguments nor calls per record
    const fed = this.accs.map((_a, i) => i).filter((i) => !(this.accs[i] instanceof RowCountAcc));
    this.fed = fed.map((i) => this.accs[i]!);
    this.readArgs = argumentReader(fed.map((i) => node.aggCalls[i]!), node.input.schema, resolveFunction);
    const n = this.accs.length;
    this.argValues = new Array<unknown>(n).fill(null);
    this.before = new Array<unknown>(n).fill(null);
    this.after = new Array<unknown>(n).fill(null);
  }

  private newGroup(): number {
    let gid = this.freeIds.pop();
    if (gid === undefined) {
      gid = this.nextId++;
      if (gid >= this.capacity) {
        this.capacity *= 2;
        this.rows.counts = growFloat64(this.rows.counts, this.capacity);
        for (const a of this.accs) a.grow(this.capacity);
      }
    }
    this.rows.counts[gid] = 0;
    for (const a of this.accs) a.reset(gid);
    return gid;
  }

  /** An output record: the current key and the given aggregate values. */
  private output(values: readonly unknown[]): unknown[] {
    const k = this.keys.keyCount;
    const out = new Array<unknown>(k + values.length);
    this.keys.write(out);
    for (let i = 0; i < values.length; i++) out[k + i] = values[i];
    return out;
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    const keys = this.keys;
    const accs = this.accs;
    const n = accs.length;
    const accumulate = kind === Kind.INSERT || kind === Kind.UPDATE_AFTER;
    const fed = this.fed;
    const m = fed.length;
    const args = this.argValues;
    // the record's key and aggregate arguments, evaluated before any state changes
    let gid: number;
    try {
      gid = keys.find(row);
      if (m > 0) this.readArgs(row, args);
    } catch (e) {
      throw errorWithRow(e, kind, row, this.inputSchema);
    }
    const first = gid < 0;
    if (first) {
      if (!accumulate) return; // retraction for a group that does not exist: ignored, as Flink does
      gid = this.newGroup();
      keys.add(gid);
    } else if (!this.batch) {
      const before = this.before;
      for (let i = 0; i < n; i++) before[i] = accs[i]!.value(gid);
    }
    const counts = this.rows.counts;
    if (accumulate) {
      counts[gid]!++;
      for (let i = 0; i < m; i++) fed[i]!.accumulate(gid, args[i]);
    } else {
      counts[gid]!--;
      for (let i = 0; i < m; i++) fed[i]!.retract(gid, args[i]);
    }
    if (counts[gid] === 0) {
      // the group's last row was retracted: delete its result and forget the group
      if (!this.batch) this.out.record(Kind.DELETE, this.output(this.before));
      keys.remove(gid);
      // batch emits groups in gid order at the end: not reusing ids keeps that the order of first appearance
      if (!this.batch) this.freeIds.push(gid);
      return;
    }
    if (this.batch) return;
    const after = this.after;
    for (let i = 0; i < n; i++) after[i] = accs[i]!.value(gid);
    if (first) {
      this.out.record(Kind.INSERT, this.output(after));
      return;
    }
    const before = this.before;
    let i = 0;
    while (i < n && sameValue(before[i], after[i])) i++;
    if (i === n) return; // result unchanged: Flink emits nothing
    this.out.record(Kind.UPDATE_BEFORE, this.output(before));
    this.out.record(Kind.UPDATE_AFTER, this.output(after));
  }

  protected override onEndOfInput(): void {
    if (this.batch) {
      const accs = this.accs;
      const values = this.after;
      const emit = (gid: number) => {
        for (let i = 0; i < accs.length; i++) values[i] = accs[i]!.value(gid);
        this.out.record(Kind.INSERT, this.output(values));
      };
      this.keys.forEachGroup(emit);
      // a global aggregate over no rows still has one result row (COUNT 0, SUM NULL), as in SQL
      if (this.keys.keyCount === 0 && this.keys.size === 0) emit(this.newGroup());
    }
    this.out.endInput();
  }

  /** Number of live groups (benchmarks report state size per group). */
  groupCount(): number {
    return this.keys.size;
  }

  override snapshotState(): unknown {
    const groups: { keys: unknown[]; rows: number; accs: unknown[] }[] = [];
    this.keys.forEachGroup((gid) => {
      groups.push({ keys: this.keys.currentValues(), rows: this.rows.counts[gid]!, accs: this.accs.map((a) => a.snapshot(gid)) });
    });
    return groups;
  }

  override restoreState(state: unknown): void {
    for (const g of state as { keys: unknown[]; rows: number; accs: unknown[] }[]) {
      const gid = this.newGroup();
      this.keys.restore(g.keys, gid);
      this.rows.counts[gid] = g.rows;
      g.accs.forEach((a, i) => this.accs[i]!.restore(gid, a));
    }
  }
}

/** The accumulator of a user-defined aggregate call (also for window aggregates). */
export function udfAccumulator(a: AggCall): Accumulator {
  if (!udfFactory) throw new ValidationError(`aggregate function ${a.fn}: user-defined aggregate functions are not available (no adapter registered)`);
  return udfFactory(a);
}

/** Generated `(r, o) => { o[0] = <arg of call 0>; ... }`; COUNT(*) gets null, several arguments an array. */
function argumentReader(calls: readonly AggCall[], schema: ResolvedSchema, resolveFunction?: FunctionResolver) {
  const ctx = new CodegenContext(schema, resolveFunction, "r");
  const body = calls.map((a, i) => {
    const src = a.args.length === 0 ? "null"
      : a.args.length === 1 ? compileExpr(a.args[0]!, ctx).src
        : `[${a.args.map((x) => compileExpr(x, ctx).src).join(",")}]`;
    return `o[${i}]=${src};`;
  }).join("");
  return ctx.build<(r: readonly unknown[], o: unknown[]) => void>(`function(r,o){${ctx.tempDeclarations()}${body}}`);
}

/** Equality of two aggregate results as Flink's record equaliser sees it (NaN equals NaN; decimals, dates by value). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  if (typeof a === "number") return a !== a && b !== b;
  return typeof a === "object" && helpers.eq(a, b);
}
