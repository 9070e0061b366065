import type { DataType, ValueOf } from "../types/data-type.js";
import { checkFunctionName, checkMethod, checkParams, checkType, nextFunctionId, type ParamValues } from "./signature.js";

/** The declaration of an async scalar function: `AsyncScalarFunction.define({ args, result, eval })`. */
export interface AsyncScalarFunctionSpec<A extends readonly DataType[], R extends DataType> {
  /** Name used in messages and explain() when the function is called inline; registration names it too. */
  readonly name?: string;
  /** Parameter types, in order. A NOT NULL parameter is never given NULL: the call returns NULL instead. */
  readonly args: A;
  /** Result type; the Promise must resolve to values of it (checked at run time). */
  readonly result: R;
  /**
   * Computes the result of one call, asynchronously (a request to a service). `signal` is aborted when the
   * call timed out or the job stopped, so a request can be cancelled.
   */
  readonly eval: (...args: [...ParamValues<A>, AbortSignal]) => Promise<ValueOf<R>>;
}

/**
 * A user-defined asynchronous scalar function (Flink's AsyncScalarFunction): one Promise per call, many
 * calls in flight at once. It runs in its own operator (an AsyncCalc before the projection), with Flink's
 * options: `table.exec.async-scalar.buffer-capacity` (calls in flight, default 10; the job reads no more
 * input beyond), `table.exec.async-scalar.timeout` (per call including retries, default 3 min),
 * `table.exec.async-scalar.retry-strategy` (`FIXED_DELAY` default, or `NO_RETRY`),
 * `table.exec.async-scalar.retry-delay` (100 ms), `table.exec.async-scalar.max-attempts` (3), and
 * `table.exec.async-scalar.output-mode` (`ORDERED` default; `ALLOW_UNORDERED` emits results as they
 * complete, for insert-only inputs, never across a watermark).
 *
 * ```ts
 * const Geo = AsyncScalarFunction.define({
 *   name: "geo", args: [DataTypes.STRING()], result: DataTypes.STRING(),
 *   eval: async (ip, signal) => (await fetch(`https://geo.example/${ip}`, { signal })).text(),
 * });
 * clicks.select($("ip"), call(Geo, $("ip")).as("country"));
 * ```
 * Calls are allowed in `select(...)` (and SQL SELECT lists); not in filters, group keys or join conditions.
 */
export class AsyncScalarFunction<P extends readonly unknown[] = readonly unknown[], R = unknown> {
  /** Phantom: parameter and result value types, read by `call`. */
  declare readonly __udf: { readonly kind: "asyncScalar"; readonly params: P; readonly result: R };
  readonly kind = "asyncScalar" as const;
  readonly name: string;
  /** Unique per definition. */
  readonly id: number;
  readonly params: readonly DataType[];
  readonly resultType: DataType;
  /** The declaration; `eval` is called as `spec.eval(...)`. */
  readonly spec: AsyncScalarFunctionSpec<readonly DataType[], DataType>;

  private constructor(spec: AsyncScalarFunctionSpec<readonly DataType[], DataType>) {
    const what = `AsyncScalarFunction${spec.name ? ` '${spec.name}'` : ""}`;
    this.name = spec.name === undefined ? "AsyncScalarFunction" : checkFunctionName(spec.name, what);
    this.params = checkParams(spec.args, what);
    this.resultType = checkType(spec.result, what, "result");
    checkMethod(spec.eval, what, "eval", true);
    this.spec = spec;
    this.id = nextFunctionId();
    Object.freeze(this);
  }

  /** Declares an async scalar function; argument and result value types are inferred from the DataTypes. */
  static define<const A extends readonly DataType[], R extends DataType>(
    spec: AsyncScalarFunctionSpec<A, R>,
  ): AsyncScalarFunction<ParamValues<A>, ValueOf<R>> {
    return new AsyncScalarFunction(spec as unknown as AsyncScalarFunctionSpec<readonly DataType[], DataType>) as never;
  }

  /** Plans compare expressions by their JSON: two different functions must never look alike. */
  toJSON(): string {
    return `asyncScalar:${this.name}#${this.id}`;
  }

  toString(): string {
    return `${this.name}(${this.params.map(String).join(", ")}): ${this.resultType}`;
  }
}
