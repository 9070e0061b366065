import { valueKey } from "../../aggregates/value-key.js";

/**
 * The rows of one join input, by join key (Flink's JoinRecordStateView without a unique key). A bucket holds
 * the key's rows in arrival order, a row twice when it arrived twice, and in parallel arrays only what is
 * needed: `assoc` (outer side: how many partners each row has, to know when its padded row is deleted or
 * inserted again) and `times` (with state TTL: when each row was last written).
 *
 * TTL (`table.exec.state.ttl`, Flink's OnCreateAndWrite / NeverReturnExpired): a row expires `ttl` ms of
 * processing time after it was written; expired rows are dropped when their key is next read and are never
 * matched. Nothing is emitted for an expired row (as in Flink).
 */
export interface Bucket {
  rows: unknown[][];
  assoc: number[] | undefined;
  times: number[] | undefined;
}

export interface SideSnapshot {
  readonly entries: readonly (readonly [unknown, unknown[][], number[] | undefined, number[] | undefined])[];
}

export class JoinSideState {
  readonly map = new Map<unknown, Bucket>();

  constructor(readonly outer: boolean, readonly ttl: number) {}

  /** The key's live rows (expired ones removed first), or undefined when it has none. */
  get(key: unknown, now: number): Bucket | undefined {
    const b = this.map.get(key);
    if (b === undefined || this.ttl <= 0) return b;
    const times = b.times!;
    let live = 0;
    for (let i = 0; i < times.length; i++) if (times[i]! + this.ttl > now) live++;
    if (live === times.length) return b;
    if (live === 0) { this.map.delete(key); return undefined; }
    const keep = (_: unknown, i: number) => times[i]! + this.ttl > now;
    b.rows = b.rows.filter(keep);
    if (b.assoc !== undefined) b.assoc = b.assoc.filter(keep);
    b.times = times.filter(keep);
    return b;
  }

  add(key: unknown, row: unknown[], assoc: number, now: number): void {
    const b = this.map.get(key);
    if (b === undefined) {
      this.map.set(key, { rows: [row], assoc: this.outer ? [assoc] : undefined, times: this.ttl > 0 ? [now] : undefined });
      return;
    }
    b.rows.push(row);
    if (b.assoc !== undefined) b.assoc.push(assoc);
    if (b.times !== undefined) b.times.push(now);
  }

  /** Removes one row equal to `row` (by SQL value); false when there is none (a retraction of an expired row). */
  retract(key: unknown, row: readonly unknown[], now: number): boolean {
    const b = this.get(key, now);
    if (b === undefined) return false;
    const i = indexOfRow(b.rows, row);
    if (i < 0) return false;
    if (b.rows.length === 1) { this.map.delete(key); return true; }
    b.rows.splice(i, 1);
    if (b.assoc !== undefined) b.assoc.splice(i, 1);
    if (b.times !== undefined) b.times.splice(i, 1);
    return true;
  }

  /** Number of stored rows (tests, metrics). */
  rowCount(): number {
    let n = 0;
    for (const b of this.map.values()) n += b.rows.length;
    return n;
  }

  snapshot(): SideSnapshot {
    return { entries: Array.from(this.map, ([k, b]) => [k, b.rows.slice(), b.assoc?.slice(), b.times?.slice()] as const) };
  }

  restore(s: SideSnapshot): void {
    this.map.clear();
    for (const [k, rows, assoc, times] of s.entries) {
      this.map.set(k, {
        rows: rows.slice(),
        assoc: this.outer ? (assoc?.slice() ?? rows.map(() => 0)) : undefined,
        times: this.ttl > 0 ? (times?.slice() ?? rows.map(() => 0)) : undefined,
      });
    }
  }
}

/** Position of the first row of `rows` equal to `row` column by column (SQL equality, NULL equal to NULL). */
export function indexOfRow(rows: readonly (readonly unknown[])[], row: readonly unknown[]): number {
  outer: for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (r === row) return i;
    if (r.length !== row.length) continue;
    for (let j = 0; j < r.length; j++) {
      const a = r[j];
      const b = row[j];
      if (a === b) continue;
      if (a === null || b === null || typeof a !== "object" || typeof b !== "object" || valueKey(a) !== valueKey(b)) continue outer;
    }
    return i;
  }
  return -1;
}
