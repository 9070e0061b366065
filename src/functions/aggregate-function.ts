import type { DataType, ValueOf } from "../types/data-type.js";
import { checkFunctionName, checkMethod, checkParams, checkType, nextFunctionId, type ParamValues } from "./signature.js";

/** The declaration of an aggregate function: `AggregateFunction.define({ args, result, createAccumulator, ... })`. */
export interface AggregateFunctionSpec<A extends readonly DataType[], R extends DataType, Acc extends object> {
  /** Name used in messages and explain(); registration names it too. */
  readonly name?: string;
  /** Parameter types. Rows whose value for a NOT NULL parameter is NULL are not accumulated. */
  readonly args: A;
  /** Result type; `getValue` must return values of it. */
  readonly result: R;
  /** A fresh, mutable accumulator for a new group. It must be structured-cloneable (checkpoints copy it). */
  readonly createAccumulator: () => Acc;
  /** Adds one input row to the accumulator (mutates it). */
  readonly accumulate: (acc: Acc, ...args: ParamValues<A>) => void;
  /** Removes one input row; required when the input is an updating table (retractions). */
  readonly retract?: (acc: Acc, ...args: ParamValues<A>) => void;
  /** Merges other accumulators into `acc` (session windows, two-phase aggregation). */
  readonly merge?: (acc: Acc, others: readonly Acc[]) => void;
  /** The current result of the group. */
  readonly getValue: (acc: Acc) => ValueOf<R>;
}

/**
 * A user-defined aggregate function (Flink's AggregateFunction): many rows of a group in, one value out,
 * kept in an accumulator object. Usable wherever built-in aggregates are:
 *
 * ```ts
 * const WeightedAvg = AggregateFunction.define({
 *   args: [DataTypes.BIGINT().notNull(), DataTypes.INT().notNull()],
 *   result: DataTypes.BIGINT(),
 *   createAccumulator: () => ({ sum: 0, count: 0 }),
 *   accumulate(acc, value, weight) { acc.sum += value * weight; acc.count += weight; },
 *   retract(acc, value, weight) { acc.sum -= value * weight; acc.count -= weight; },
 *   getValue: (acc) => (acc.count === 0 ? null : Math.trunc(acc.sum / acc.count)),
 * });
 * t.groupBy($("name")).select($("name"), call(WeightedAvg, $("points"), $("level")).as("avg"));
 * ```
 */
export class AggregateFunction<P extends readonly unknown[] = readonly unknown[], R = unknown, Acc extends object = object> {
  /** Phantom: parameter and result value types, read by `call`. */
  declare readonly __udf: { readonly kind: "aggregate"; readonly params: P; readonly result: R };
  declare readonly __acc: Acc;
  readonly kind = "aggregate" as const;
  readonly name: string;
  /** Unique per definition. */
  readonly id: number;
  readonly params: readonly DataType[];
  readonly resultType: DataType;
  readonly spec: AggregateFunctionSpec<readonly DataType[], DataType, object>;
  /** Whether `merge` is defined: a mini-batch GROUP BY then runs it in a local and a global phase. */
  readonly mergeable: boolean;

  private constructor(spec: AggregateFunctionSpec<readonly DataType[], DataType, object>) {
    const what = `AggregateFunction${spec.name ? ` '${spec.name}'` : ""}`;
    this.name = spec.name === undefined ? "AggregateFunction" : checkFunctionName(spec.name, what);
    this.params = checkParams(spec.args, what);
    this.resultType = checkType(spec.result, what, "result");
    checkMethod(spec.createAccumulator, what, "createAccumulator", true);
    checkMethod(spec.accumulate, what, "accumulate", true);
    checkMethod(spec.getValue, what, "getValue", true);
    checkMethod(spec.retract, what, "retract", false);
    checkMethod(spec.merge, what, "merge", false);
    this.spec = spec;
    this.mergeable = spec.merge !== undefined;
    this.id = nextFunctionId();
    Object.freeze(this);
  }

  /** Declares an aggregate function; argument, accumulator and result types are inferred. */
  static define<const A extends readonly DataType[], R extends DataType, Acc extends object>(
    spec: AggregateFunctionSpec<A, R, Acc>,
  ): AggregateFunction<ParamValues<A>, ValueOf<R>, Acc> {
    return new AggregateFunction(spec as unknown as AggregateFunctionSpec<readonly DataType[], DataType, object>) as never;
  }

  /** Whether the function can consume updating input. */
  get supportsRetraction(): boolean {
    return this.spec.retract !== undefined;
  }

  /** Plans compare expressions by their JSON: two different functions must never look alike. */
  toJSON(): string {
    return `aggregate:${this.name}#${this.id}`;
  }

  toString(): string {
    return `${this.name}(${this.params.map(String).join(", ")}): ${this.resultType}`;
  }
}

/** Any user-defined function object. */
export type UserDefinedFunction =
  | import("./scalar-function.js").ScalarFunction<readonly unknown[], unknown>
  | import("./table-function.js").TableFunction<readonly unknown[], unknown>
  | AggregateFunction<readonly unknown[], unknown, object>;
