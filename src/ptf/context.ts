import type { Decimal } from "decimal.js";
import type { PositionalRow } from "../table/row.js";
import type { ColumnList } from "../table/types/data-type.js";
import type { DataType } from "../table/types/data-type.js";

/** Sort direction of an ORDER BY column (Flink's `TableSemantics.SortDirection`). */
export type SortDirection = "ASC_NULLS_FIRST" | "ASC_NULLS_LAST" | "DESC_NULLS_FIRST" | "DESC_NULLS_LAST";

/**
 * How a table argument was passed to the current call (Flink's `TableSemantics`), from
 * `ctx.tableSemanticsFor("input")`.
 */
export interface TableSemantics {
  /** The row type: the declared type for typed table arguments, else the passed table's row type. */
  dataType(): DataType;
  /** Positions of the PARTITION BY columns (empty for row semantics or no PARTITION BY). */
  partitionByColumns(): number[];
  /** Positions of the ORDER BY columns (ORDER BY arrives with the time issue; empty until then). */
  orderByColumns(): number[];
  orderByDirections(): SortDirection[];
  /** Position of the `on_time` column in this table, or -1. */
  timeColumn(): number;
  /** The changelog mode of the table, e.g. `[INSERT]`. */
  changelogMode(): ChangelogModeInfo;
}

/** A changelog mode as Flink prints it (`[INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE]`). */
export interface ChangelogModeInfo {
  readonly kinds: readonly ("INSERT" | "UPDATE_BEFORE" | "UPDATE_AFTER" | "DELETE")[];
  readonly keyOnlyDeletes: boolean;
  toString(): string;
}

/**
 * What `collect` accepts for an output type `O`: a value of the output type, or a `Row.of(...)` /
 * `Row.ofKind(...)` positional row (checked against the output type when the job runs). Rows of kinds
 * other than INSERT are only valid for functions that declare an updating output (a later issue).
 */
export type CollectValue<O> =
  [O] extends [never] ? never
  : IsScalarOutput<O> extends true ? O | PositionalRow<readonly [O]>
  : NonNullable<O> | PositionalRow;

/** Whether an output type is a scalar (one column `EXPR$0`) rather than a row or structured type. */
export type IsScalarOutput<O> =
  [NonNullable<O>] extends [never] ? true
  : NonNullable<O> extends string | number | boolean | bigint | Date | ColumnList | readonly unknown[] | ReadonlyMap<unknown, unknown> | Decimal
    ? true : false;

/**
 * The context given to `eval` as first argument (Flink's `ProcessTableFunction.Context`), plus
 * `collect`. One context object serves all calls of a function instance; do not keep it beyond `eval`.
 */
export interface Context<TableArgs extends string = string, StateNames extends string = string, O = unknown> {
  /** Emits a row: a value of the output type (a scalar is wrapped into the column `EXPR$0`). */
  collect(value: CollectValue<O>): void;
  /** Information about a table argument of this call. */
  tableSemanticsFor(argName: TableArgs): TableSemantics;
  /** Resets one state entry of the current key; the next call sees a fresh default. Applied when eval returns. */
  clearState(stateName: StateNames): void;
  /** Resets all state entries of the current key. */
  clearAllState(): void;
  /** Clears all state (and, once timers exist, all timers) of the current key. */
  clearAll(): void;
}
