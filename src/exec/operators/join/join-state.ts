import { valueKey } from "../../aggregates/value-key.js";
import { HASHMAP_BACKEND, type KeyedStore, type StateBackend, type StoreFiles, isStoreFiles } from "../../state/keyed-store.js";
import { restoreStore, storeSnapshot } from "../../state/snapshot-store.js";

/**
 * The rows of one join input, by join key (Flink's JoinRecordStateView without a unique key). A bucket holds
 * the key's rows in arrival order, a row twice when it arrived twice, and in parallel arrays only what is
 * needed: `assoc` (outer side: how many partners each row has, to know when its padded row is deleted or
 * inserted again) and `times` (with state TTL: when each row was last written).
 *
 * TTL (`table.exec.state.ttl`, Flink's OnCreateAndWrite / NeverReturnExpired): a row expires `ttl` ms of
 * processing time after it was written; expired rows are dropped when their key is next read and are never
 * matched. Nothing is emitted for an expired row (as in Flink).
 *
 * The buckets are in a store of the job's state backend (state/keyed-store.ts): a `Map` on the hashmap
 * backend; on the disk backend a bucket read is a copy that the code changes in place right after the
 * read (push, splice, `assoc[i]++`), which the store's write-back cache writes back — the store's contract.
 */
export interface Bucket {
  rows: unknown[][];
  assoc: number[] | undefined;
  times: number[] | undefined;
}

/** A side's state in a snapshot: its entries, or (disk backend, in a checkpoint) the files of its store. */
export interface SideSnapshot {
  readonly entries: readonly (readonly [unknown, unknown[][], number[] | undefined, number[] | undefined])[] | StoreFiles;
}

export class JoinSideState {
  readonly map: KeyedStore<Bucket>;

  constructor(readonly outer: boolean, readonly ttl: number, backend: StateBackend = HASHMAP_BACKEND, name = "join.side") {
    this.map = backend.createStore<Bucket>({ name });
  }

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
    for (const [, b] of this.map) n += b.rows.length;
    return n;
  }

  snapshot(): SideSnapshot {
    const files = storeSnapshot(this.map);
    if (files !== undefined) return { entries: files };
    return { entries: Array.from(this.map, ([k, b]) => [k, b.rows.slice(), b.assoc?.slice(), b.times?.slice()] as const) };
  }

  /** Into a fresh state (of either backend): a side's entries, or the files a disk backend's checkpoint wrote. */
  restore(s: SideSnapshot): void {
    if (isStoreFiles(s.entries)) {
      restoreStore(s.entries, this.map, undefined, (b) => this.bucket(b as Bucket | unknown[][]), 0);
      return;
    }
    for (const [k, rows, assoc, times] of s.entries) this.map.set(k, this.bucket({ rows: rows.slice(), assoc: assoc?.slice(), times: times?.slice() }));
  }

  /** A bucket from a snapshot, with the parallel arrays this side keeps (an outer side's partner counts, TTL times). */
  private bucket(b: (Partial<Bucket> & { rows: unknown[][] }) | unknown[][]): Bucket {
    // a rows list: from the files of a rows-only side (rows-only-state.ts)
    if (Array.isArray(b)) b = { rows: b };
    const rows = b.rows;
    return {
      rows,
      assoc: this.outer ? (b.assoc ?? rows.map(() => 0)) : undefined,
      times: this.ttl > 0 ? (b.times ?? rows.map(() => 0)) : undefined,
    };
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
