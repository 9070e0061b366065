/**
 * The keyed-state backend seam (Flink's `state.backend.type`). An operator keeps each state entry of all
 * its keys in one `KeyedStore`: the subset of `Map` that the state code uses. The `hashmap` backend hands
 * out plain `Map`s — today's in-memory structures and hot path, unchanged. A disk backend hands out stores
 * that keep the entries in an embedded database behind a bounded write-back cache (disk-store.ts).
 *
 * Values follow RocksDB's rules in Flink: what a disk store returns is a copy (decoded from its bytes);
 * the caller mutates it in place and the cache writes it back (at a checkpoint, or when the cache is full).
 * So code written against a `Map` — get, mutate, set only when new — behaves the same on both.
 */
export interface KeyedStore<V> {
  get(key: unknown): V | undefined;
  set(key: unknown, value: V): unknown;
  delete(key: unknown): unknown;
  has(key: unknown): boolean;
  /** Keys holding a value. On a disk store this counts in the database (not for per-record use). */
  readonly size: number;
  keys(): IterableIterator<unknown>;
  entries(): IterableIterator<[unknown, V]>;
  [Symbol.iterator](): IterableIterator<[unknown, V]>;
}

/**
 * A store whose keys are strings and that reads and deletes a key prefix as a range (the disk store: its
 * table is ordered by key). Window state keys entries `<window end>/...`, so firing a window reads and
 * drops its own entries and nothing of the other windows.
 */
export interface PrefixStore<V> extends KeyedStore<V> {
  prefixEntries(prefix: string): IterableIterator<[string, V]>;
  deletePrefix(prefix: string): void;
}

export function isPrefixStore<V>(s: KeyedStore<V>): s is PrefixStore<V> {
  return typeof (s as Partial<PrefixStore<V>>).prefixEntries === "function" && typeof (s as Partial<PrefixStore<V>>).deletePrefix === "function";
}

/** How a store is declared: its name for messages, and how a decoded value gets its class back. */
export interface StoreSpec<V> {
  /** `<operator>.<state entry>` (messages, file names). */
  readonly name: string;
  /** Rebuilds a decoded value (a value state declared with a class gets its prototype back). */
  readonly revive?: (v: V) => V;
}

/**
 * A disk store's part of a checkpoint: the files that together hold its entries — a full file, then the
 * incremental ones written after it, applied in order. Plain data (JSON), stored in the operator's snapshot
 * where the entries would be; absolute paths under the checkpoint directory's `shared/` folder.
 */
export interface StoreFiles {
  readonly $storeFiles: readonly string[];
}

export function isStoreFiles(x: unknown): x is StoreFiles {
  return x !== null && typeof x === "object" && !Array.isArray(x) && Array.isArray((x as Partial<StoreFiles>).$storeFiles);
}

/** A job's keyed-state backend: makes stores, takes part in checkpoints, and is disposed when the job ends. */
export interface StateBackend {
  /** `hashmap` or `disk` (docs/checkpoints.md, "State backends"). */
  readonly type: string;
  createStore<V>(spec: StoreSpec<V>): KeyedStore<V>;
  /**
   * Values a store's cache holds (`state.backend.cache-size`): operators that keep their own live copies of
   * stored values in front of a store (group aggregation's columns) keep at most this many. Undefined: no
   * bound — the hashmap backend, whose stores are the live state itself.
   */
  readonly cacheSize?: number;
  /** Called when the job ends (finished, failed or cancelled): a disk backend removes its directory. */
  dispose(): void;
}

/** The in-memory backend: every store is a `Map`. */
export const HASHMAP_BACKEND: StateBackend = Object.freeze({
  type: "hashmap",
  createStore<V>(): KeyedStore<V> {
    return new Map<unknown, V>();
  },
  dispose(): void {},
});
