import type { DataType, ValueOf } from "../types/data-type.js";
import { checkFunctionName, checkMethod, checkParams, checkType, nextFunctionId, type ParamValues } from "./signature.js";

/** The declaration of a scalar function: `ScalarFunction.define({ args, result, eval })`. */
export interface ScalarFunctionSpec<A extends readonly DataType[], R extends DataType> {
  /** Name used in messages and explain() when the function is called inline; registration names it too. */
  readonly name?: string;
  /** Parameter types, in order. A NOT NULL parameter is never given NULL: the call returns NULL instead. */
  readonly args: A;
  /** Result type; `eval` must return values of it (checked at run time too). */
  readonly result: R;
  /** Computes the result of one call. Plain closure: captured variables just work. */
  readonly eval: (...args: ParamValues<A>) => ValueOf<R>;
  /** False for functions whose result may differ between calls with the same arguments. Default true. */
  readonly deterministic?: boolean;
}

/**
 * A user-defined scalar function (Flink's ScalarFunction): zero or more values in, one value out.
 * Declared with full type information, so `call(fn, ...)` is type-checked by the compiler:
 *
 * ```ts
 * const HashFunction = ScalarFunction.define({
 *   name: "hash",
 *   args: [DataTypes.STRING().notNull()],
 *   result: DataTypes.STRING().notNull(),
 *   eval: (s) => javaHashHex(s),
 * });
 * env.createTemporaryFunction("hash", HashFunction);
 * orders.select($("id"), call("hash", $("customer_name")).as("hashed_name"));   // by name
 * orders.select($("id"), call(HashFunction, $("customer_name")).as("hashed"));  // inline, typed
 * ```
 */
export class ScalarFunction<P extends readonly unknown[] = readonly unknown[], R = unknown> {
  /** Phantom: parameter and result value types, read by `call`. */
  declare readonly __udf: { readonly kind: "scalar"; readonly params: P; readonly result: R };
  readonly kind = "scalar" as const;
  readonly name: string;
  /** Unique per definition. */
  readonly id: number;
  readonly params: readonly DataType[];
  readonly resultType: DataType;
  readonly deterministic: boolean;
  /** The declaration; `eval` is called as `spec.eval(...)`. */
  readonly spec: ScalarFunctionSpec<readonly DataType[], DataType>;

  private constructor(spec: ScalarFunctionSpec<readonly DataType[], DataType>) {
    const what = `ScalarFunction${spec.name ? ` '${spec.name}'` : ""}`;
    this.name = spec.name === undefined ? "ScalarFunction" : checkFunctionName(spec.name, what);
    this.params = checkParams(spec.args, what);
    this.resultType = checkType(spec.result, what, "result");
    checkMethod(spec.eval, what, "eval", true);
    this.deterministic = spec.deterministic ?? true;
    this.spec = spec;
    this.id = nextFunctionId();
    Object.freeze(this);
  }

  /** Declares a scalar function; argument and result value types are inferred from the DataTypes. */
  static define<const A extends readonly DataType[], R extends DataType>(
    spec: ScalarFunctionSpec<A, R>,
  ): ScalarFunction<ParamValues<A>, ValueOf<R>> {
    return new ScalarFunction(spec as unknown as ScalarFunctionSpec<readonly DataType[], DataType>) as never;
  }

  /** Plans compare expressions by their JSON: two different functions must never look alike. */
  toJSON(): string {
    return `scalar:${this.name}#${this.id}`;
  }

  toString(): string {
    return `${this.name}(${this.params.map(String).join(", ")}): ${this.resultType}`;
  }
}
