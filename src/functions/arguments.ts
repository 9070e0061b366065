import { ValidationError } from "../types/errors.js";
import type { DataType } from "../types/data-type.js";
import { isImplicitlyAssignable } from "../types/values.js";
import { signatureString } from "./signature.js";

/**
 * Argument checking for user-defined function calls (Flink's input type inference, reduced to what a
 * declared signature needs): the number of arguments must match, and each argument must be implicitly
 * assignable to its parameter (same type family; numbers may widen, CHAR -> VARCHAR). Nullability is
 * not a mismatch: a nullable argument for a NOT NULL parameter means "skip the call on NULL".
 */
export function assignable(from: DataType, to: DataType): boolean {
  if (from.root === "NULL") return true;
  if (from.root === "ARRAY" || to.root === "ARRAY") {
    return from.root === to.root && assignable(from.elementType!, to.elementType!);
  }
  if (from.root === "MAP" || to.root === "MAP") {
    return from.root === to.root && assignable(from.keyType!, to.keyType!) && assignable(from.valueType!, to.valueType!);
  }
  if (from.root === "ROW" || to.root === "ROW") {
    return from.root === to.root && from.fields.length === to.fields.length
      && from.fields.every((f, i) => assignable(f.type, to.fields[i]!.type));
  }
  return isImplicitlyAssignable(from.withNullability(false), to.withNullability(false));
}

/**
 * Raises a ValidationError naming the function, the argument position and both types when a call does
 * not fit the declared parameters. `argText(i)` renders argument i for the message.
 */
export function checkArguments(
  name: string, params: readonly DataType[], args: readonly DataType[], argText: (i: number) => string, callText: string,
): void {
  if (args.length !== params.length) {
    throw new ValidationError(`function '${name}' expects ${params.length} argument(s) ${signatureString(name, params)}, got ${args.length} in ${callText}`);
  }
  args.forEach((a, i) => {
    if (!assignable(a, params[i]!)) {
      throw new ValidationError(`function '${name}': argument ${i + 1} (${argText(i)}) has type ${a} but the function expects ${params[i]}, in ${callText}`);
    }
  });
}

/** JS source converting an argument value to the parameter's representation, or the source unchanged. */
export function convertArgument(param: DataType, arg: DataType, src: string): string {
  const INTEGERS = ["TINYINT", "SMALLINT", "INT", "BIGINT"];
  if (param.root === "DECIMAL" && INTEGERS.includes(arg.root)) return `h.dec(${src})`;
  if ((param.root === "DOUBLE" || param.root === "FLOAT") && arg.root === "DECIMAL") return `${src}.toNumber()`;
  return src;
}

/** Whether the argument needs a conversion (then a nullable value must be tested for null first). */
export function needsConversion(param: DataType, arg: DataType): boolean {
  return convertArgument(param, arg, "x") !== "x";
}
