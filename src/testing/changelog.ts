import { hasOwn } from "../types/own.js";
import { helpers } from "../expressions/helpers.js";
import { Row, type RowKind } from "../types/row.js";

/**
 * Invariants of changelogs, for tests of pipelines: materialize a changelog into the table it
 * describes, and check that it is well formed (every -U/-D retracts a row that is there).
 */
export interface ChangelogEntry<R> {
  readonly kind: RowKind;
  readonly row: R;
}

/** Entries from rows produced by `collect()` / `toArray()` (their kind comes from `Row.kindOf`). */
export function entriesOf<R extends object>(rows: readonly R[]): ChangelogEntry<R>[] {
  return rows.map((row) => ({ kind: Row.kindOf(row), row }));
}

/**
 * Applies a changelog to an empty multiset and returns the remaining rows (in first-insert order).
 * A retraction of a row that is not there throws: the changelog is not well formed.
 */
export function materialize<R extends object>(changelog: readonly ChangelogEntry<R>[] | readonly R[]): R[] {
  const entries: ChangelogEntry<R>[] = changelog.length > 0 && "kind" in (changelog[0] as object) && "row" in (changelog[0] as object)
    ? (changelog as ChangelogEntry<R>[])
    : entriesOf(changelog as R[]);
  const table: R[] = [];
  for (const { kind, row } of entries) {
    if (kind === "+I" || kind === "+U") {
      table.push(row);
    } else {
      const i = table.findIndex((r) => sameRow(r, row));
      if (i < 0) throw new Error(`changelog retracts a row that is not in the table: ${kind}${JSON.stringify(row)}`);
      table.splice(i, 1);
    }
  }
  return table.map((r) => ({ ...r }));
}

function sameRow(a: object, b: object): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => hasOwn(b, k) && helpers.eq((a as never)[k], (b as never)[k]));
}

/** Sorts rows by their JSON form, for comparing multisets. */
export function sortRows<R extends object>(rows: readonly R[]): R[] {
  return [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0));
}
