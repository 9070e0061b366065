import { HASHMAP_BACKEND, type KeyedStore, type StateBackend, isStoreFiles } from "../../state/keyed-store.js";
import { restoreStore, storeSnapshot } from "../../state/snapshot-store.js";
import type { SideSnapshot } from "./join-state.js";

/**
 * The rows of one input of an inner join whose two inputs are both insert-only, by join key: per key only
 * the list of its rows in arrival order. Nothing is ever retracted, no side is outer and no TTL applies, so
 * the general bucket's wrapper and parallel arrays (join-state.ts) would be dead weight per key.
 *
 * The snapshot format is the general side's (`[key, rows, undefined, undefined]` entries), and a disk
 * store's files hold either a rows list or a general bucket: a checkpoint of either kind restores into
 * either kind of side. On the disk backend a read is a copy that is pushed to right after the read, which the
 * store's write-back cache writes back (as for the general buckets).
 */
export class RowsOnlySideState {
  readonly map: KeyedStore<unknown[][]>;

  constructor(backend: StateBackend = HASHMAP_BACKEND, name = "join.side") {
    this.map = backend.createStore<unknown[][]>({ name });
  }

  /** Number of stored rows (tests, metrics). */
  rowCount(): number {
    let n = 0;
    for (const [, rows] of this.map) n += rows.length;
    return n;
  }

  snapshot(): SideSnapshot {
    const files = storeSnapshot(this.map);
    if (files !== undefined) return { entries: files };
    return { entries: Array.from(this.map, ([k, rows]) => [k, rows.slice(), undefined, undefined] as const) };
  }

  /** Into a fresh state (of either backend): a side's entries, or the files a disk backend's checkpoint wrote. */
  restore(s: SideSnapshot): void {
    if (isStoreFiles(s.entries)) {
      restoreStore(s.entries, this.map, undefined, rowsOf, 0);
      return;
    }
    for (const [k, rows] of s.entries) this.map.set(k, rows.slice());
  }
}

/** The rows of a stored value: a rows list, or a general side's bucket. */
function rowsOf(v: unknown): unknown[][] {
  return Array.isArray(v) ? (v as unknown[][]) : (v as { rows: unknown[][] }).rows;
}
