import type { ResolvedSchema } from "../types/resolved-schema.js";

/**
 * A filter the planner offers to a source (Flink's SupportsFilterPushDown): a comparison of a column with
 * literals, or (`OR`) a disjunction of such comparisons, held in `any` (`column` is then the first one's).
 */
export interface PushedFilter {
  /** The physical column compared. */
  readonly column: string;
  /** The comparison; `IS NULL` / `IS NOT NULL` have no `value`, `IN` has an array `value`, `OR` has `any`. */
  readonly op: "=" | "<>" | "<" | "<=" | ">" | ">=" | "IS NULL" | "IS NOT NULL" | "IN" | "OR";
  /** The literal (a number, string or boolean, of the column's type family), or the literals of `IN`. */
  readonly value?: unknown;
  /** `OR`: the comparisons of which one must hold. */
  readonly any?: readonly PushedFilter[];
}

/** What the planner pushed into a scan: the filters the source applies, and the physical columns it reads. */
export interface ScanPushdown {
  readonly filters: readonly PushedFilter[];
  /** Positions, in the declared physical columns, of the columns read (in this order). */
  readonly projection?: readonly number[];
  /** The declared physical columns (with a projection; the scan's `physical` is then the projected ones). */
  readonly declared?: ResolvedSchema;
  /**
   * Partition pruning (Flink's SupportsPartitionPushDown): the partitions (key to value text) left after the
   * filters on partition columns; the source reads only these. Absent: every partition.
   */
  readonly partitions?: readonly Readonly<Record<string, string>>[];
}

/** What a connector lets the planner push into its scans. */
export interface PushdownSupport {
  readonly projection: boolean;
  /** Whether the source applies this filter itself (it is then removed from the plan). */
  acceptFilter(filter: PushedFilter): boolean;
  /** A partitioned source: the partitions that may hold rows passing `filters` (undefined: not partitioned). */
  partitions?(filters: readonly PushedFilter[]): readonly Readonly<Record<string, string>>[] | undefined;
}

/** Pruned partitions as explain prints them: `{dt=2024-01-01, hr=10}, {dt=2024-01-02, hr=10}`. */
export function partitionsToString(partitions: readonly Readonly<Record<string, string>>[]): string {
  return partitions.map((p) => `{${Object.entries(p).map(([k, v]) => `${k}=${v}`).join(", ")}}`).join(", ");
}

/**
 * A lookup source that applies filters itself (Flink's SupportsFilterPushDown on a LookupTableSource): the
 * object a LookupJoin node holds as its `reader` implements it when the connector's lookup side accepts filters.
 */
export interface LookupFilterSupport {
  /** The source's physical column names, in the order of the lookup join's `lookupSchema` columns. */
  readonly lookupColumns: readonly string[];
  /** Whether the source applies `filter` (on a physical column name) to the rows it returns. */
  acceptLookupFilter(filter: PushedFilter): boolean;
  /** The same lookup source, also applying `filters` (accepted ones) to every lookup. */
  withLookupFilters(filters: readonly PushedFilter[]): unknown;
}

export function isLookupFilterSupport(r: unknown): r is LookupFilterSupport {
  return typeof (r as Partial<LookupFilterSupport>)?.withLookupFilters === "function" && typeof (r as Partial<LookupFilterSupport>)?.acceptLookupFilter === "function";
}

/** A filter in SQL text, for explain(): `age > 18`, `name IN ('a', 'b')`. */
export function pushedFilterToString(f: PushedFilter): string {
  const lit = (v: unknown) => (typeof v === "string" ? `'${v.replaceAll("'", "''")}'` : String(v));
  if (f.op === "OR") return `(${(f.any ?? []).map(pushedFilterToString).join(" OR ")})`;
  if (f.op === "IS NULL" || f.op === "IS NOT NULL") return `${f.column} ${f.op}`;
  if (f.op === "IN") return `${f.column} IN (${(f.value as unknown[]).map(lit).join(", ")})`;
  return `${f.column} ${f.op} ${lit(f.value)}`;
}

/**
 * A row predicate for pushed filters (columns found at `index(name)` in the row): SQL semantics, so a
 * NULL column value fails every comparison (only `IS NULL` passes it). Sources that accept filters use it.
 */
export function pushedFilterPredicate(filters: readonly PushedFilter[], index: (column: string) => number): (row: readonly unknown[]) => boolean {
  const tests = filters.map((f): ((r: readonly unknown[]) => boolean) => {
    if (f.op === "OR") {
      const alternatives = (f.any ?? []).map((g) => pushedFilterPredicate([g], index));
      return (r) => alternatives.some((t) => t(r));
    }
    const i = index(f.column);
    const v = f.value;
    switch (f.op) {
      case "IS NULL": return (r: readonly unknown[]) => r[i] === null;
      case "IS NOT NULL": return (r: readonly unknown[]) => r[i] !== null;
      case "=": return (r: readonly unknown[]) => r[i] !== null && r[i] === v;
      case "<>": return (r: readonly unknown[]) => r[i] !== null && r[i] !== v;
      case "<": return (r: readonly unknown[]) => r[i] !== null && (r[i] as number) < (v as number);
      case "<=": return (r: readonly unknown[]) => r[i] !== null && (r[i] as number) <= (v as number);
      case ">": return (r: readonly unknown[]) => r[i] !== null && (r[i] as number) > (v as number);
      case ">=": return (r: readonly unknown[]) => r[i] !== null && (r[i] as number) >= (v as number);
      case "IN": { const set = new Set(v as unknown[]); return (r: readonly unknown[]) => r[i] !== null && set.has(r[i]); }
    }
  });
  return (row) => {
    for (let k = 0; k < tests.length; k++) if (!tests[k]!(row)) return false;
    return true;
  };
}
