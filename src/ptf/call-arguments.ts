import { Expression } from "../expressions/expression.js";
import { type ExprNode, literal, nodeToString } from "../expressions/node.js";
import { ValidationError } from "../types/errors.js";
import { isPlannedTable } from "../plan/planning-context.js";
import { type NamedArg, SYSTEM_ARGS } from "./function.js";
import type { OrderItem } from "./order-by.js";
import { TableArgument, type TableLike, isPartitionedTable } from "./table-arguments.js";

/**
 * Binding of call arguments to declared arguments (positional or named, never mixed), with the
 * implicit `on_time` and `uid` after the declared ones. The result maps each declared name to what was
 * passed; left-out arguments are DEFAULT.
 */
export type BoundValue =
  | { readonly kind: "table"; readonly table: TableLike; readonly keys: readonly string[]; readonly order?: readonly OrderItem[] }
  | { readonly kind: "scalar"; readonly node: ExprNode }
  | { readonly kind: "default" };

interface RawArg {
  readonly name: string | undefined;
  readonly value: BoundValue;
}

const DEFAULT: BoundValue = Object.freeze({ kind: "default" });

function classify(arg: unknown, index: number): RawArg {
  if (arg instanceof TableArgument) return { name: arg.name, value: { kind: "table", table: arg.table, keys: arg.partitionKeys, order: arg.order } };
  if (isPartitionedTable(arg)) return { name: undefined, value: { kind: "table", table: arg.table, keys: arg.keys, order: arg.order } };
  if (isPlannedTable(arg)) return { name: undefined, value: { kind: "table", table: arg, keys: [] } };
  if (arg instanceof Expression) {
    const node = arg.node;
    if (node.kind === "Argument") {
      return { name: node.name, value: node.expr.kind === "Default" ? DEFAULT : { kind: "scalar", node: node.expr } };
    }
    return { name: undefined, value: node.kind === "Default" ? DEFAULT : { kind: "scalar", node } };
  }
  // Flink's Table API: a positional null means DEFAULT
  if (arg === null || arg === undefined) return { name: undefined, value: DEFAULT };
  if (typeof arg === "function" || typeof arg === "symbol") {
    throw new ValidationError(`argument ${index + 1}: expected a value, an expression, a table or null, got a ${typeof arg}`);
  }
  return { name: undefined, value: { kind: "scalar", node: literal(arg) } };
}

export interface CallBinding {
  /** Declared argument name (and on_time, uid) → value. */
  readonly values: ReadonlyMap<string, BoundValue>;
  readonly named: boolean;
}

/**
 * Binds `args` to the function's arguments. `implicitTable` is the table `process` was called on: it
 * goes to the first table argument (by name in a named call, at that argument's position otherwise).
 */
export function bindArguments(
  functionName: string,
  declared: readonly NamedArg[],
  args: readonly unknown[],
  implicitTable: { readonly table: TableLike; readonly keys: readonly string[]; readonly order?: readonly OrderItem[] } | undefined,
): CallBinding {
  const raw = args.map(classify);
  const names = [...declared.map((a) => a.name), ...SYSTEM_ARGS];
  const hasNamed = raw.some((r) => r.name !== undefined);
  const hasPositional = raw.some((r) => r.name === undefined);
  if (hasNamed && hasPositional) {
    throw new ValidationError(
      `Cannot mix positional and named arguments when calling function '${functionName}'. Pass all arguments by position or all with asArgument(...).`,
    );
  }
  const values = new Map<string, BoundValue>();
  const firstTable = declared.find((a) => a.decl.kind === "table");
  const named = hasNamed || (raw.length === 0 && implicitTable !== undefined);
  if (named) {
    if (implicitTable) {
      if (!firstTable) throw new ValidationError(`Function '${functionName}' has no table argument; call it with env.fromCall(...) instead of process(...)`);
      values.set(firstTable.name, { kind: "table", ...implicitTable });
    }
    for (const r of raw) {
      const name = r.name!;
      if (!names.includes(name)) {
        throw new ValidationError(
          `Invalid function call to '${functionName}': unknown argument '${name}'. Arguments are: [${names.join(", ")}]. `
          + "(Flink ignores unknown named arguments; tablestream rejects them so that a misspelled argument does not vanish.)",
        );
      }
      if (values.has(name)) throw new ValidationError(`Invalid function call to '${functionName}': argument '${name}' is given more than once`);
      values.set(name, r.value);
    }
    return { values, named: true };
  }
  const positional = raw.map((r) => r.value);
  if (implicitTable) {
    if (!firstTable) throw new ValidationError(`Function '${functionName}' has no table argument; call it with env.fromCall(...) instead of process(...)`);
    while (positional.length < firstTable.position) positional.push(DEFAULT);
    positional.splice(firstTable.position, 0, { kind: "table", ...implicitTable });
  }
  if (positional.length > names.length) {
    throw new ValidationError(
      `Invalid function call to '${functionName}': Invalid number of arguments. At most ${names.length} arguments expected but ${positional.length} passed. Arguments are: [${names.join(", ")}]`,
    );
  }
  positional.forEach((v, i) => values.set(names[i]!, v));
  return { values, named: false };
}

/** For messages: how a bound value looks. */
export function describeBound(v: BoundValue): string {
  return v.kind === "table" ? "TABLE" : v.kind === "default" ? "DEFAULT" : nodeToString(v.node);
}
