import type { DataType } from "../types/data-type.js";
import type { Column } from "../types/resolved-schema.js";
import type { ResolvedTableArg } from "./resolved-call.js";

/**
 * The output layout of a PTF call (PTF rules 1-2, Flink's SystemOutputStrategy):
 * `[all columns of the PASS_COLUMNS_THROUGH table] or [PARTITION BY columns of each set-semantics
 * table, in argument order] + [function output] + [rowtime, when on_time is given]`. A scalar output is
 * one column `EXPR$0`; a ROW gives its fields (ROW<> gives none). Duplicate names get a counter suffix
 * starting at 0 (`name`, `name0`, `name1`). ROW<> output without keys gives rows of zero columns.
 */
export interface OutputLayout {
  readonly columns: Column[];
  readonly prefix: "none" | "keys" | "all";
  /** Number of leading prefix columns. */
  readonly prefixSize: number;
  /** Number of the function's own columns (after the prefix, before rowtime). */
  readonly functionSize: number;
}

export function functionFields(outputType: DataType): Column[] {
  if (outputType.root !== "ROW") return [{ name: "EXPR$0", type: outputType }];
  return outputType.fields.map((f) => ({ name: f.name, type: f.type }));
}

export function outputLayout(outputType: DataType, tables: readonly ResolvedTableArg[], rowtime?: Column): OutputLayout {
  const pass = tables.find((t) => t.passThrough);
  let prefixCols: Column[];
  let prefix: OutputLayout["prefix"];
  if (pass) {
    prefixCols = [...pass.schema.columns];
    prefix = "all";
  } else {
    prefixCols = tables.filter((t) => t.setSemantics).flatMap((t) => t.partitionKeys.map((k) => t.schema.columns[k]!));
    prefix = prefixCols.length > 0 ? "keys" : "none";
  }
  // no column at all is valid: ROW<> output of a call without keys (Flink's testZeroColumnOutput)
  const own = functionFields(outputType);
  const all = rowtime ? [...prefixCols, ...own, rowtime] : [...prefixCols, ...own];
  return { columns: uniqueNames(all), prefix, prefixSize: prefixCols.length, functionSize: own.length };
}

/** Flink's makeFieldNamesUnique: the first `x` stays, later ones become `x0`, `x1`, ... */
export function uniqueNames(columns: readonly Column[]): Column[] {
  const seen = new Map<string, number>();
  return columns.map((c) => {
    const n = seen.get(c.name);
    const next = n === undefined ? -1 : n + 1;
    seen.set(c.name, next);
    return next < 0 ? c : { name: `${c.name}${next}`, type: c.type };
  });
}
