import { CodegenContext, type FunctionResolver } from "../../expressions/compile.js";
import type { AggregateNode } from "../../plan/nodes.js";
import { errorWithRow } from "../operators/row-error.js";
import { UdfAccumulator } from "../udf/aggregate-accumulator.js";
import type { MergedCall } from "./aggregate-layout.js";
import { argumentReads } from "./argument-code.js";
import { type KeyHasher, hashMapBucket, hashMapCapacity, keyHasher } from "./flink-key-order.js";
import { compileKeys } from "./key-code.js";
import type { KeyIndex } from "./key-index.js";
import type { MiniBatchSpec } from "./mini-batch.js";

/**
 * The local phase of a two-phase group aggregation (Flink's MiniBatchLocalGroupAggFunction in a
 * MapBundleOperator): records are collected per key, without state, until the bundle holds `size` records
 * or waited `allow-latency` (checked every 128 records); then each key is handed on once, in the order of
 * Flink's bundle map (flink-key-order.ts), to the global phase. A key's records stay in arrival order.
 *
 * Flink's local phase hands on one accumulator per key that the global phase merges into its state. For a
 * user AggregateFunction (not DISTINCT) that is what happens here: the local bundle creates an accumulator
 * per key and calls `accumulate` / `retract` for its records, and the global phase calls the function's
 * `merge(groupAcc, [localAcc])` (AggregateLayout's `merged` calls). The built-in aggregates (and DISTINCT
 * ones) get the key's records instead, folded one by one into the group: their merge expressions add
 * counts and sums and take extremes, which is that fold, and a DISTINCT merge accumulates the values new
 * to the group, which is the fold of a distinct-value map.
 */
export class LocalBundle {
  /** The key values of each local key id, in order of first touch. */
  keys: unknown[][] = [];
  /** Per local key id: its records as `kind, row, kind, row, ...`. */
  records: unknown[][] = [];
  /** Records since the bundle started. */
  count = 0;
  /** Processing time of the bundle's first record. */
  started = 0;
  /** Per merged call (AggregateLayout's `merged`, same order): the local accumulators, by local key id. */
  readonly accs: readonly UdfAccumulator[];
  /** The local key ids by key; a new one per bundle. */
  index: KeyIndex;
  /** The capacity Flink's bundle map grew to (kept across bundles, as HashMap.clear keeps its table). */
  private capacity = 16;
  private readonly hasher: KeyHasher | undefined;

  constructor(readonly spec: MiniBatchSpec, private readonly newIndex: () => KeyIndex, node: AggregateNode, merged: readonly MergedCall[]) {
    this.index = newIndex();
    this.accs = merged.map((m) => new UdfAccumulator(node.aggCalls[m.call]!));
    this.hasher = keyHasher(node.schema.types.slice(0, node.groupKeys.length));
  }

  /** Whether the bundle waited `allow-latency` since its first record. */
  due(): boolean {
    return this.spec.clock() - this.started >= this.spec.latency;
  }

  /** The local key ids in the order Flink's bundle map iterates them (order of first touch without a Flink order). */
  order(): number[] {
    const n = this.keys.length;
    const ids = Array.from({ length: n }, (_v, i) => i);
    const hasher = this.hasher;
    if (hasher === undefined) return ids;
    this.capacity = hashMapCapacity(this.capacity, n);
    const buckets = this.keys.map((k) => hashMapBucket(hasher(k), this.capacity));
    // a stable sort: a bucket keeps insertion order
    return ids.sort((a, b) => buckets[a]! - buckets[b]! || a - b);
  }

  clear(): void {
    this.keys = [];
    this.records = [];
    this.count = 0;
    this.index = this.newIndex();
  }
}

/**
 * Generates the local phase's per-record function: evaluates the key and the merged calls' arguments (a
 * failure names the record, as in the one-phase aggregate), appends the record to its key's list, feeds it
 * to the key's local accumulators and calls `full()` when the bundle is due.
 */
export function compileLocalBundle(
  node: AggregateNode, spec: MiniBatchSpec, full: () => void, merged: readonly MergedCall[], resolveFunction?: FunctionResolver,
): { bundle: LocalBundle; process: (input: number, kind: number, row: unknown[]) => void } {
  const schema = node.input.schema;
  const ctx = new CodegenContext(schema, resolveFunction, "r");
  const key = compileKeys(node.groupKeys, ctx);
  const mergedCalls = new Set(merged.map((m) => m.call));
  const args = argumentReads(node.aggCalls, ctx, (i) => mergedCalls.has(i));
  const bundle = new LocalBundle(spec, () => key.newIndex(), node, merged);
  const accs = merged.map((_m, j) => `A${j}`);
  const consts = `const L=${ctx.constant(bundle)},F=${ctx.constant(full)},E=${ctx.constant(
    (e: unknown, kind: number, r: unknown[]) => errorWithRow(e, kind, r, schema))}${accs.map((a, j) => `,${a}=L.accs[${j}]`).join("")};`;
  const vars = [...key.vars, ...args.vars];
  const xs = merged.map((m) => args.xs[m.call]!);
  const feed = accs.length === 0 ? ""
    : `try{if(kind===0||kind===2){${accs.map((a, j) => `${a}.accumulate(l,${xs[j]});`).join("")}}`
      + `else{${accs.map((a, j) => `${a}.retract(l,${xs[j]});`).join("")}}}catch(e){throw E(e,kind,r);}`;
  const body = `${ctx.tempDeclarations()}${vars.length > 0 ? `let ${vars.join(",")};` : ""}`
    + `try{${key.read}${args.read}}catch(e){throw E(e,kind,r);}`
    + `const I=L.index;let l=I.get(${key.probe});`
    + `if(l<0){l=L.keys.length;I.add(${key.probe},${key.key},l);L.keys.push([${key.columns.join(",")}]);L.records.push([]);`
    + `${accs.map((a) => `${a}.reset(l);`).join("")}}`
    + "L.records[l].push(kind,r);"
    + feed
    + "if(L.count++===0)L.started=L.spec.clock();"
    + "if(L.count>=L.spec.size||((L.count&127)===0&&L.due()))F();";
  const process = ctx.build<(input: number, kind: number, row: unknown[]) => void>(
    `(function(){${consts}return function localGroupAggregate(input,kind,r){${body}};})()`);
  return { bundle, process };
}
