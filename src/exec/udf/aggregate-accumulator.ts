import { codegenFunction } from "../../expressions/codegen.js";
import { Decimal } from "decimal.js";
import type { Accumulator } from "../aggregates/accumulator.js";
import { valueKey } from "../aggregates/value-key.js";
import { ExecutionError } from "../../types/errors.js";
import type { AggCall } from "../../plan/nodes.js";
import type { DataType } from "../../types/data-type.js";
import { AggregateFunction } from "../../functions/aggregate-function.js";
import { userCodeFailure, valueCheck, type ValueCheck } from "../../functions/value-check.js";

const INTEGERS = ["TINYINT", "SMALLINT", "INT", "BIGINT"];

/** JS converting argument `x` to the parameter's representation (as arguments.ts does for scalar calls). */
function conversion(param: DataType, arg: DataType | undefined, x: string): string {
  if (!arg) return x;
  if (param.root === "DECIMAL" && INTEGERS.includes(arg.root)) return `(${x}===null?null:new D(${x}))`;
  if ((param.root === "DOUBLE" || param.root === "FLOAT") && arg.root === "DECIMAL") return `(${x}===null?null:${x}.toNumber())`;
  return x;
}

type Invoke = (acc: object, v: unknown) => void;

/**
 * Generates `(acc, v) => spec[method](acc, x0, x1, ...)` for the argument layout of the group operator
 * (no argument: v is null; one: v is the value; several: v is an array), with conversions, and a
 * failure in user code turned into an ExecutionError naming the function and its arguments.
 */
function invoker(spec: object, method: string, call: AggCall, arity: number, params: readonly DataType[], what: string): Invoke {
  const xs = Array.from({ length: arity }, (_, i) => `x${i}`);
  const reads = arity === 0 ? "" : arity === 1 ? "const x0=v;" : `const ${xs.map((x, i) => `${x}=v[${i}]`).join(",")};`;
  const args = xs.map((x, i) => conversion(params[i]!, call.argTypes[i], x));
  const fail = (e: unknown, a: unknown[]) => userCodeFailure(`${what}.${method}`, a, e);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return codegenFunction("udf-aggregate", "s", "D", "fail",
    `"use strict";return function(a,v){${reads}try{s.${method}(a${args.map((x) => "," + x).join("")});}catch(e){throw fail(e,[${xs.join(",")}]);}};`,
  )(spec, Decimal, fail) as Invoke;
}

/** `v => true` when a NOT NULL parameter gets NULL (the row is then not accumulated). */
function nullSkip(call: AggCall, params: readonly DataType[]): ((v: unknown) => boolean) | undefined {
  const idx = params.map((p, i) => (!p.isNullable && (call.argTypes[i]?.isNullable ?? true) ? i : -1)).filter((i) => i >= 0);
  if (idx.length === 0) return undefined;
  if (params.length === 1) return (v) => v === null;
  return (v) => {
    const a = v as unknown[];
    for (let k = 0; k < idx.length; k++) if (a[idx[k]!] === null) return true;
    return false;
  };
}

/**
 * Runs a user-defined AggregateFunction behind the group operator's Accumulator contract: one
 * accumulator object per group id, created by `createAccumulator`, mutated by `accumulate` / `retract`,
 * read by `getValue` (checked against the declared result type). DISTINCT keeps a count per distinct
 * argument value and passes only the first occurrence on (and its last retraction).
 */
export class UdfAccumulator implements Accumulator {
  private readonly accs: (object | undefined)[] = [];
  private readonly seen: (Map<unknown, number> | undefined)[] | undefined;
  private readonly fn: AggregateFunction;
  private readonly add: Invoke;
  private readonly remove: Invoke | undefined;
  private readonly skip: ((v: unknown) => boolean) | undefined;
  private readonly check: ValueCheck;
  private readonly what: string;

  constructor(call: AggCall) {
    if (!(call.udf instanceof AggregateFunction)) throw new ExecutionError(`aggregate ${call.fn}: not an AggregateFunction`);
    const fn = call.udf;
    this.fn = fn;
    this.what = `aggregate function '${call.fn}'`;
    const arity = fn.params.length;
    this.add = invoker(fn.spec, "accumulate", call, arity, fn.params, this.what);
    this.remove = fn.spec.retract ? invoker(fn.spec, "retract", call, arity, fn.params, this.what) : undefined;
    this.skip = nullSkip(call, fn.params);
    this.check = valueCheck(call.type, () => `${this.what}.getValue`);
    this.seen = call.distinct ? [] : undefined;
  }

  grow(): void {}

  reset(gid: number): void {
    let acc: unknown;
    try {
      acc = this.fn.spec.createAccumulator();
    } catch (e) {
      throw userCodeFailure(`${this.what}.createAccumulator`, [], e);
    }
    if (acc === null || typeof acc !== "object") {
      throw new ExecutionError(`${this.what}.createAccumulator must return a mutable object, got ${String(acc)}`);
    }
    this.accs[gid] = acc;
    if (this.seen) this.seen[gid] = new Map();
  }

  accumulate(gid: number, value: unknown): void {
    if (this.skip !== undefined && this.skip(value)) return;
    if (this.seen !== undefined) {
      const m = this.seen[gid]!;
      const k = valueKey(value);
      const c = m.get(k) ?? 0;
      m.set(k, c + 1);
      if (c > 0) return;
    }
    this.add(this.accs[gid]!, value);
  }

  retract(gid: number, value: unknown): void {
    if (this.skip !== undefined && this.skip(value)) return;
    if (this.remove === undefined) {
      throw new ExecutionError(`${this.what} has no retract() method but received a retraction`);
    }
    if (this.seen !== undefined) {
      const m = this.seen[gid]!;
      const k = valueKey(value);
      const c = m.get(k) ?? 0;
      if (c <= 1) m.delete(k);
      else { m.set(k, c - 1); return; }
      if (c === 0) return;
    }
    this.remove(this.accs[gid]!, value);
  }

  value(gid: number): unknown {
    let v: unknown;
    try {
      v = this.fn.spec.getValue(this.accs[gid]!);
    } catch (e) {
      throw userCodeFailure(`${this.what}.getValue`, [], e);
    }
    return this.check(v);
  }

  /** Merges accumulators (of other groups or panes) into group `gid` with the function's `merge`. */
  merge(gid: number, others: readonly object[]): void {
    const merge = this.fn.spec.merge;
    if (!merge) throw new ExecutionError(`${this.what} has no merge() method, which merging windows need`);
    try {
      merge(this.accs[gid]!, others);
    } catch (e) {
      throw userCodeFailure(`${this.what}.merge`, [], e);
    }
  }

  /** The accumulator object of a group (for merging). */
  accumulatorOf(gid: number): object {
    return this.accs[gid]!;
  }

  snapshot(gid: number): unknown {
    return structuredClone({ acc: this.accs[gid], seen: this.seen ? [...this.seen[gid]!] : undefined });
  }

  restore(gid: number, data: unknown): void {
    const d = structuredClone(data) as { acc: object; seen?: [unknown, number][] };
    this.accs[gid] = d.acc;
    if (this.seen) this.seen[gid] = new Map(d.seen ?? []);
  }
}
