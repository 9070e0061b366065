import { col } from "../../../expressions/node.js";
import type { FunctionResolver } from "../../../expressions/compile.js";
import { helpers } from "../../../expressions/helpers.js";
import type { DeduplicateNode } from "../../../plan/nodes.js";
import { Kind } from "../../../types/row.js";
import { type GroupKeys, createGroupKeys } from "../../aggregates/group-keys.js";
import { BaseOperator } from "../../operator.js";
import { errorWithRow } from "../row-error.js";
import { type KeyedStore, type StateBackend, type StoreFiles, isStoreFiles } from "../../state/keyed-store.js";
import { restoreStore, storeSnapshot } from "../../state/snapshot-store.js";

/** One key's state, in a snapshot and in a disk store: its key values and the kept row (null for keep-first by processing time). */
type DedupEntry = [keyValues: unknown[], row: unknown[] | null];

/**
 * One row per key, as Flink's deduplicate functions (insert-only input):
 * - keep first by processing time (ProcTimeDeduplicateKeepFirstRowFunction): the first row per key is
 *   emitted, later ones dropped; the state is only the set of keys seen;
 * - keep last by processing time (ProcTimeDeduplicateKeepLastRowFunction): every row replaces the
 *   previous one of its key (`-U` old, `+U` new; the first is `+I`);
 * - by event time (RowTimeDeduplicateFunction): a row replaces the kept one when its rowtime is smaller
 *   (keep first) or not smaller (keep last), with the same `-U` / `+U`.
 *
 * State: on the hashmap backend a key index and the kept rows by gid; on a disk backend (a backend with a
 * bounded cache, state/keyed-store.ts) one store entry per key, `[key values, kept row]` by the key's probe
 * — the form snapshots have on both backends.
 */
export class DeduplicateOperator extends BaseOperator {
  private readonly keys: GroupKeys;
  /** The kept row per key (unused, and left empty, for keep-first by processing time). */
  private rows: (unknown[] | undefined)[] = [];
  private nextId = 0;
  private readonly keepRows: boolean;
  /** The keys' entries on a disk backend (the key index then only computes probes), else undefined. */
  private readonly store: KeyedStore<DedupEntry> | undefined;

  constructor(private readonly node: DeduplicateNode, resolveFunction?: FunctionResolver, backend?: StateBackend) {
    super(1);
    const schema = node.input.schema;
    this.keys = createGroupKeys(node.keys.map((k) => col(schema.names[k]!)), schema, resolveFunction);
    this.keepRows = node.keepLast || node.rowtime !== undefined;
    if (backend?.cacheSize !== undefined) this.store = backend.createStore<DedupEntry>({ name: "Deduplicate.rows" });
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    let gid: number;
    try {
      gid = this.keys.find(row);
    } catch (e) {
      throw errorWithRow(e, kind, row, this.node.input.schema);
    }
    if (this.store !== undefined) {
      this.processOnStore(this.store, row);
      return;
    }
    if (gid < 0) {
      gid = this.nextId++;
      this.keys.add(gid);
      if (this.keepRows) this.rows[gid] = row;
      this.out.record(Kind.INSERT, row);
      return;
    }
    if (!this.keepRows) return;
    const prev = this.rows[gid]!;
    if (!this.replaces(row, prev)) return;
    this.rows[gid] = row;
    this.out.record(Kind.UPDATE_BEFORE, prev);
    this.out.record(Kind.UPDATE_AFTER, row);
  }

  /** The same rules over the store: the key (just found by `keys.find`) is looked up by its probe. */
  private processOnStore(store: KeyedStore<DedupEntry>, row: unknown[]): void {
    const probe = this.keys.currentProbe();
    const e = store.get(probe);
    if (e === undefined) {
      store.set(probe, [this.keys.currentValues(), this.keepRows ? row : null]);
      this.out.record(Kind.INSERT, row);
      return;
    }
    if (!this.keepRows) return;
    const prev = e[1]!;
    if (!this.replaces(row, prev)) return;
    e[1] = row;
    store.set(probe, e);
    this.out.record(Kind.UPDATE_BEFORE, prev);
    this.out.record(Kind.UPDATE_AFTER, row);
  }

  /** Whether `row` replaces the kept row `prev` of its key (keep last, or an earlier / later rowtime). */
  private replaces(row: unknown[], prev: unknown[]): boolean {
    const t = this.node.rowtime;
    if (t === undefined) return true;
    const c = compareTime(row[t], prev[t]);
    return this.node.keepLast ? c >= 0 : c < 0;
  }

  /** Number of keys held. */
  keyCount(): number {
    return this.store?.size ?? this.keys.size;
  }

  /** `[key values, kept row | null][]` on both backends; on a disk backend during a checkpoint its store's files. */
  override snapshotState(): unknown {
    const store = this.store;
    if (store !== undefined) {
      const files = storeSnapshot(store);
      if (files !== undefined) return files;
      const entries: DedupEntry[] = [];
      for (const [, [key, row]] of store) entries.push([key, row === null ? null : row.slice()]);
      return entries;
    }
    const out: DedupEntry[] = [];
    this.keys.forEach((key, gid) => out.push([key, this.keepRows ? this.rows[gid]!.slice() : null]));
    return out;
  }

  override restoreState(state: unknown): void {
    let entries = state as DedupEntry[] | StoreFiles;
    const store = this.store;
    if (isStoreFiles(entries)) {
      if (store !== undefined) {
        restoreStore(entries, store, undefined, (e) => e, 0);
        return;
      }
      const read = new Map<unknown, DedupEntry>();
      restoreStore(entries, read, undefined, (e) => e, 0);
      entries = [...read.values()];
    }
    for (const [key, row] of entries) {
      if (store !== undefined) {
        store.set(this.keys.probeOf(key), [key.slice(), row === null ? null : row.slice()]);
        continue;
      }
      const gid = this.nextId++;
      this.keys.restore(key, gid);
      if (row) this.rows[gid] = row.slice();
    }
  }
}

/** Rowtimes are never NULL in practice; a NULL sorts first, as in an ascending ORDER BY. */
function compareTime(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return helpers.cmp(a, b);
}
