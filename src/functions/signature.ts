import { ValidationError } from "../types/errors.js";
import { DataType, type ValueOf } from "../types/data-type.js";

/**
 * What every user-defined function declares: its parameter types and its result type. There is no
 * reflection in TypeScript, so a function is declared, not annotated: the declared DataTypes give the
 * compiler the argument and result value types, and the planner the SQL types.
 */
export type FunctionKind = "scalar" | "table" | "aggregate" | "tableAggregate";

/** Value types of a list of parameter data types: `[DataTypes.STRING()]` -> `[string | null]`. */
export type ParamValues<A extends readonly DataType[]> = { -readonly [I in keyof A]: ValueOf<A[I]> };

/** Names allowed for functions: what Flink accepts as an unquoted identifier. */
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_$]*$/;

export function checkFunctionName(name: unknown, what: string): string {
  if (typeof name !== "string" || !NAME_RE.test(name)) {
    throw new ValidationError(`${what}: function name must match [A-Za-z_][A-Za-z0-9_$]*, got ${JSON.stringify(name)}`);
  }
  return name;
}

/** Validates the declared parameter list of a function definition. */
export function checkParams(args: unknown, what: string): readonly DataType[] {
  if (!Array.isArray(args)) throw new ValidationError(`${what}: 'args' must be an array of DataTypes, e.g. [DataTypes.STRING()]`);
  args.forEach((a, i) => {
    if (!(a instanceof DataType)) throw new ValidationError(`${what}: argument ${i + 1} of 'args' is not a DataType`);
  });
  return Object.freeze([...args]) as readonly DataType[];
}

export function checkType(t: unknown, what: string, field: string): DataType {
  if (!(t instanceof DataType)) throw new ValidationError(`${what}: '${field}' must be a DataType, e.g. DataTypes.STRING()`);
  return t;
}

export function checkMethod(f: unknown, what: string, method: string, required: boolean): void {
  if (f === undefined && !required) return;
  if (typeof f !== "function") throw new ValidationError(`${what}: '${method}' must be a function${required ? "" : " when given"}`);
}

/** A call signature for messages: `hash(STRING)`. */
export function signatureString(name: string, params: readonly DataType[]): string {
  return `${name}(${params.map(String).join(", ")})`;
}

let functionIds = 0;
/** A unique id for each function definition. */
export function nextFunctionId(): number {
  return ++functionIds;
}
