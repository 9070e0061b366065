import type { Decimal } from "decimal.js";
import type { PositionalRow } from "../types/row.js";
import type { DataType, ValueOf } from "../types/data-type.js";
import type { Column } from "../types/resolved-schema.js";
import { ValidationError } from "../types/errors.js";
import { checkFunctionName, checkMethod, checkParams, checkType, nextFunctionId, type ParamValues } from "./signature.js";

type IsRowValue<T> =
  [NonNullable<T>] extends [Date | Decimal | string | number | boolean | readonly unknown[] | Map<unknown, unknown>] ? false
  : NonNullable<T> extends object ? true : false;

/** The output row object of a table function: the ROW's fields, or `{ f0: T }` for a non-row result. */
export type TableFunctionRow<T> = IsRowValue<T> extends true ? NonNullable<T> : { f0: T };

/** What `collect` takes: a Row.of(...) or an object for a ROW result, the value itself otherwise. */
export type Collected<T> = IsRowValue<T> extends true ? NonNullable<T> | PositionalRow : T;

/** Handed to a table function's `eval`: emits output rows for the current input row. */
export interface TableFunctionCollector<T> {
  /** Emits one row; call it zero or more times per `eval`. */
  collect(row: Collected<T>): void;
}

/**
 * Flink's rule: only a process table function takes table arguments (`Only scalar arguments are supported at
 * this location.`). A `tableArg(...)` declaration (ptf/arguments.ts, recognised by its shape: this floor does
 * not import the PTF one) among a table function's args is reported with its traits.
 */
function checkNoTableArguments(args: unknown, what: string): void {
  if (!Array.isArray(args)) return;
  args.forEach((a: unknown, i) => {
    const decl = a as { kind?: unknown; traits?: unknown };
    if (a !== null && typeof a === "object" && decl.kind === "table" && Array.isArray(decl.traits)) {
      throw new ValidationError(
        `${what}: Only scalar arguments are supported at this location. But argument ${i + 1} declared the following traits: `
        + `[${["TABLE", ...(decl.traits as string[])].join(", ")}]. A function with table arguments is a ProcessTableFunction (ProcessTableFunction.define with tableArg(...)).`,
      );
    }
  });
}

/** The declaration of a table function: `TableFunction.define({ args, result, eval })`. */
export interface TableFunctionSpec<A extends readonly DataType[], R extends DataType> {
  /** Name used in messages and explain() when the function is called inline. */
  readonly name?: string;
  /** Parameter types. A NOT NULL parameter is never given NULL: the call then produces no rows. */
  readonly args: A;
  /** Row type of the output (`DataTypes.ROW(...)`), or a single type for one column named `f0` (as Flink). */
  readonly result: R;
  /** Emits the output rows for one call with `out.collect(...)`. */
  readonly eval: (out: TableFunctionCollector<ValueOf<R>>, ...args: ParamValues<A>) => void;
}

/**
 * A user-defined table function (Flink's TableFunction): one call produces zero or more rows, joined to
 * the calling row with `joinLateral` (inner) or `leftOuterJoinLateral` (rows without output are kept
 * with NULLs):
 *
 * ```ts
 * const SplitFunction = TableFunction.define({
 *   name: "split",
 *   args: [DataTypes.STRING().notNull()],
 *   result: DataTypes.ROW(DataTypes.FIELD("word", DataTypes.STRING().notNull())),
 *   eval(out, s) { for (const w of s.split(",")) out.collect(Row.of(w.trim())); },
 * });
 * orders.joinLateral(call(SplitFunction, $("tags")).as("tag"));
 * ```
 */
export class TableFunction<P extends readonly unknown[] = readonly unknown[], R = unknown> {
  /** Phantom: parameter value types and the output row object type, read by `call` and `joinLateral`. */
  declare readonly __udf: { readonly kind: "table"; readonly params: P; readonly result: TableFunctionRow<R> };
  readonly kind = "table" as const;
  readonly name: string;
  /** Unique per definition. */
  readonly id: number;
  readonly params: readonly DataType[];
  readonly resultType: DataType;
  /** The output columns: the ROW's fields, or one column `f0`. */
  readonly columns: readonly Column[];
  readonly spec: TableFunctionSpec<readonly DataType[], DataType>;

  private constructor(spec: TableFunctionSpec<readonly DataType[], DataType>) {
    const what = `TableFunction${spec.name ? ` '${spec.name}'` : ""}`;
    this.name = spec.name === undefined ? "TableFunction" : checkFunctionName(spec.name, what);
    checkNoTableArguments(spec.args, what);
    this.params = checkParams(spec.args, what);
    this.resultType = checkType(spec.result, what, "result");
    checkMethod(spec.eval, what, "eval", true);
    this.columns = this.resultType.root === "ROW"
      ? this.resultType.fields.map((f) => ({ name: f.name, type: f.type }))
      : [{ name: "f0", type: this.resultType }];
    this.spec = spec;
    this.id = nextFunctionId();
    Object.freeze(this);
  }

  /** Declares a table function; argument and output types are inferred from the DataTypes. */
  static define<const A extends readonly DataType[], R extends DataType>(
    spec: TableFunctionSpec<A, R>,
  ): TableFunction<ParamValues<A>, ValueOf<R>> {
    return new TableFunction(spec as unknown as TableFunctionSpec<readonly DataType[], DataType>) as never;
  }

  /** Plans compare expressions by their JSON: two different functions must never look alike. */
  toJSON(): string {
    return `table:${this.name}#${this.id}`;
  }

  toString(): string {
    return `${this.name}(${this.params.map(String).join(", ")}): ${this.resultType}`;
  }
}
