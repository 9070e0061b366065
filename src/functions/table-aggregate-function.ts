import type { DataType, ValueOf } from "../types/data-type.js";
import type { Column } from "../types/resolved-schema.js";
import { ValidationError } from "../types/errors.js";
import { checkFunctionName, checkMethod, checkParams, checkType, nextFunctionId, type ParamValues } from "./signature.js";
import type { Collected, TableFunctionRow } from "./table-function.js";

/** Handed to `emitValue`: emits the rows of the group's current result. */
export interface TableAggregateCollector<T> {
  collect(row: Collected<T>): void;
}

/** Handed to `emitUpdateWithRetract`: emits new rows and retracts rows emitted before. */
export interface RetractableCollector<T> extends TableAggregateCollector<T> {
  /** Retracts a row this group emitted earlier (sent as `-D`). */
  retract(row: Collected<T>): void;
}

/** The declaration of a table aggregate function: `TableAggregateFunction.define({ ... })`. */
export interface TableAggregateFunctionSpec<A extends readonly DataType[], R extends DataType, Acc extends object> {
  /** Name used in messages and explain(); registration names it too. */
  readonly name?: string;
  /** Parameter types. Rows whose value for a NOT NULL parameter is NULL are not accumulated. */
  readonly args: A;
  /** Row type of the output rows (`DataTypes.ROW(...)`), or one type for one column `f0`. */
  readonly result: R;
  /** A fresh, mutable accumulator for a new group; structured-cloneable (snapshots copy it). */
  readonly createAccumulator: () => Acc;
  readonly accumulate: (acc: Acc, ...args: ParamValues<A>) => void;
  /** Removes one input row; required when the input is an updating table. */
  readonly retract?: (acc: Acc, ...args: ParamValues<A>) => void;
  /**
   * Emits the whole result of the group. After every input row of a group, the rows it emitted last
   * time are retracted (`-D`) and the new ones inserted (`+I`).
   */
  readonly emitValue?: (acc: Acc, out: TableAggregateCollector<ValueOf<R>>) => void;
  /**
   * Emits only what changed, retracting what is no longer part of the result (Flink's incremental
   * mode). Used instead of emitValue in streaming mode when both are given.
   */
  readonly emitUpdateWithRetract?: (acc: Acc, out: RetractableCollector<ValueOf<R>>) => void;
}

/**
 * A user-defined table aggregate function (Flink's TableAggregateFunction): the rows of a group in,
 * any number of rows out, used with `flatAggregate`:
 *
 * ```ts
 * const Top2 = TableAggregateFunction.define({
 *   name: "top2",
 *   args: [DataTypes.INT().notNull()],
 *   result: DataTypes.ROW(DataTypes.FIELD("v", DataTypes.INT()), DataTypes.FIELD("rank", DataTypes.INT())),
 *   createAccumulator: () => ({ first: null as number | null, second: null as number | null }),
 *   accumulate(acc, v) { ... },
 *   emitValue(acc, out) {
 *     if (acc.first !== null) out.collect(Row.of(acc.first, 1));
 *     if (acc.second !== null) out.collect(Row.of(acc.second, 2));
 *   },
 * });
 * t.groupBy($("key")).flatAggregate(call(Top2, $("a")).as("v", "rank")).select($("key"), $("v"), $("rank"));
 * ```
 */
export class TableAggregateFunction<P extends readonly unknown[] = readonly unknown[], R = unknown, Acc extends object = object> {
  /** Phantom: parameter value types and the output row object type, read by `call` and `flatAggregate`. */
  declare readonly __udf: { readonly kind: "tableAggregate"; readonly params: P; readonly result: TableFunctionRow<R> };
  declare readonly __acc: Acc;
  readonly kind = "tableAggregate" as const;
  readonly name: string;
  readonly id: number;
  readonly params: readonly DataType[];
  readonly resultType: DataType;
  /** The output columns: the ROW's fields, or one column `f0`. */
  readonly columns: readonly Column[];
  readonly spec: TableAggregateFunctionSpec<readonly DataType[], DataType, object>;

  private constructor(spec: TableAggregateFunctionSpec<readonly DataType[], DataType, object>) {
    const what = `TableAggregateFunction${spec.name ? ` '${spec.name}'` : ""}`;
    this.name = spec.name === undefined ? "TableAggregateFunction" : checkFunctionName(spec.name, what);
    this.params = checkParams(spec.args, what);
    this.resultType = checkType(spec.result, what, "result");
    checkMethod(spec.createAccumulator, what, "createAccumulator", true);
    checkMethod(spec.accumulate, what, "accumulate", true);
    checkMethod(spec.retract, what, "retract", false);
    checkMethod(spec.emitValue, what, "emitValue", false);
    checkMethod(spec.emitUpdateWithRetract, what, "emitUpdateWithRetract", false);
    if (spec.emitValue === undefined && spec.emitUpdateWithRetract === undefined) {
      throw new ValidationError(`${what}: declare emitValue(acc, out) or emitUpdateWithRetract(acc, out)`);
    }
    this.columns = this.resultType.root === "ROW"
      ? this.resultType.fields.map((f) => ({ name: f.name, type: f.type }))
      : [{ name: "f0", type: this.resultType }];
    this.spec = spec;
    this.id = nextFunctionId();
    Object.freeze(this);
  }

  /** Declares a table aggregate function; argument, accumulator and output types are inferred. */
  static define<const A extends readonly DataType[], R extends DataType, Acc extends object>(
    spec: TableAggregateFunctionSpec<A, R, Acc>,
  ): TableAggregateFunction<ParamValues<A>, ValueOf<R>, Acc> {
    return new TableAggregateFunction(spec as unknown as TableAggregateFunctionSpec<readonly DataType[], DataType, object>) as never;
  }

  get supportsRetraction(): boolean {
    return this.spec.retract !== undefined;
  }

  toJSON(): string {
    return `tableAggregate:${this.name}#${this.id}`;
  }

  toString(): string {
    return `${this.name}(${this.params.map(String).join(", ")}): ${this.resultType}`;
  }
}
