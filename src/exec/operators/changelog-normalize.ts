import { helpers } from "../../expressions/helpers.js";
import { col } from "../../expressions/node.js";
import type { ChangelogNormalizeNode } from "../../plan/nodes.js";
import { Kind } from "../../types/row.js";
import { type GroupKeys, createGroupKeys } from "../aggregates/group-keys.js";
import { BaseOperator } from "../operator.js";
import { type KeyedStore, type StateBackend, type StoreFiles, isStoreFiles } from "../state/keyed-store.js";
import { restoreStore, storeSnapshot } from "../state/snapshot-store.js";

/**
 * Flink's ChangelogNormalize (the last-row deduplication over a keyed changelog): keeps the last row per
 * primary key and turns an upsert changelog into a full retract changelog.
 * - `+I` / `+U` of a new key: `+I`; of a known key: `-U` (the stored row) and `+U` — nothing when the row
 *   equals the stored one (a duplicated event);
 * - `-D` (also a key-only delete): `-D` with the stored row's full content; nothing for an unknown key;
 * - `-U` is dropped: the `+U` that follows carries the change (Flink drops UPDATE_BEFORE before the
 *   normalizer), and a `-U` without `+U` is no delete.
 * State: the last row per key (Flink's ValueState per key). On the hashmap backend a key index and the rows
 * by gid; on a disk backend (a backend with a bounded cache, state/keyed-store.ts) one store entry per key,
 * the row by its key's probe, so only the keys a record changed are written back (and go into an
 * incremental checkpoint). Snapshots are the list of rows on both backends; during a checkpoint on the disk
 * backend, the store's files — either backend restores both forms.
 */
export class ChangelogNormalizeOperator extends BaseOperator {
  private readonly keys: GroupKeys;
  private rows: (unknown[] | undefined)[] = [];
  private readonly freeIds: number[] = [];
  private nextId = 0;
  /** The last row per key's probe on a disk backend (the key index then only computes probes), else undefined. */
  private readonly store: KeyedStore<unknown[]> | undefined;

  constructor(node: ChangelogNormalizeNode, backend?: StateBackend) {
    super(1);
    this.keys = createGroupKeys(node.uniqueKeys.map(col), node.input.schema);
    if (backend?.cacheSize !== undefined) this.store = backend.createStore<unknown[]>({ name: "ChangelogNormalize.rows" });
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    if (kind === Kind.UPDATE_BEFORE) return;
    const keys = this.keys;
    let gid = keys.find(row);
    if (this.store !== undefined) {
      this.processOnStore(this.store, kind, row);
      return;
    }
    if (kind === Kind.DELETE) {
      if (gid < 0) return;
      const previous = this.rows[gid]!;
      keys.remove(gid);
      this.rows[gid] = undefined;
      this.freeIds.push(gid);
      this.out.record(Kind.DELETE, previous);
      return;
    }
    if (gid < 0) {
      gid = this.freeIds.pop() ?? this.nextId++;
      keys.add(gid);
      this.rows[gid] = row;
      this.out.record(Kind.INSERT, row);
      return;
    }
    const previous = this.rows[gid]!;
    if (sameRow(previous, row)) return;
    this.rows[gid] = row;
    this.out.record(Kind.UPDATE_BEFORE, previous);
    this.out.record(Kind.UPDATE_AFTER, row);
  }

  /** The same rules over the store: the key (just found by `keys.find`) is looked up by its probe. */
  private processOnStore(store: KeyedStore<unknown[]>, kind: number, row: unknown[]): void {
    const probe = this.keys.currentProbe();
    const previous = store.get(probe);
    if (kind === Kind.DELETE) {
      if (previous === undefined) return;
      store.delete(probe);
      this.out.record(Kind.DELETE, previous);
      return;
    }
    if (previous === undefined) {
      store.set(probe, row);
      this.out.record(Kind.INSERT, row);
      return;
    }
    if (sameRow(previous, row)) return;
    store.set(probe, row);
    this.out.record(Kind.UPDATE_BEFORE, previous);
    this.out.record(Kind.UPDATE_AFTER, row);
  }

  /** Number of keys held. */
  keyCount(): number {
    return this.store?.size ?? this.keys.size;
  }

  /** The rows (one per key) on both backends; on a disk backend during a checkpoint its store's files. */
  override snapshotState(): unknown {
    const store = this.store;
    if (store !== undefined) {
      const files = storeSnapshot(store);
      if (files !== undefined) return files;
      const rows: unknown[][] = [];
      for (const [, row] of store) rows.push(row.slice());
      return rows;
    }
    const out: unknown[][] = [];
    this.keys.forEach((_key, gid) => out.push(this.rows[gid]!.slice()));
    return out;
  }

  override restoreState(s: unknown): void {
    let rows = s as unknown[][] | StoreFiles;
    const store = this.store;
    if (isStoreFiles(rows)) {
      if (store !== undefined) {
        restoreStore(rows, store, undefined, (r) => r, 0);
        return;
      }
      const read = new Map<unknown, unknown[]>();
      restoreStore(rows, read as Map<unknown, unknown>, undefined, (r) => r, 0);
      rows = [...read.values()];
    }
    if (store !== undefined) {
      for (const row of rows) {
        this.keys.find(row);
        store.set(this.keys.currentProbe(), row.slice());
      }
      return;
    }
    for (const row of rows) {
      this.keys.find(row);
      const gid = this.nextId++;
      this.keys.add(gid);
      this.rows[gid] = row.slice();
    }
  }
}

function sameRow(a: readonly unknown[], b: readonly unknown[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !helpers.eq(a[i], b[i])) return false;
  return true;
}
