import type BetterSqlite3 from "better-sqlite3";
import { join } from "node:path";
import type { KeyedStore, StoreFiles, StoreSpec } from "./keyed-store.js";
import { decodeKey, decodeValue, encodeKey, encodeValue } from "./store-codec.js";
import { StoreFileWriter } from "./store-files.js";

/** What a store needs from its backend: the connection, the cache bound and the checkpoint in progress. */
export interface DiskStoreHost {
  readonly db: BetterSqlite3.Database;
  readonly cacheSize: number;
  /**
   * The checkpoint being taken (set by the checkpoint coordinator around the snapshot), else undefined. For a
   * savepoint, `sharedDir` is the savepoint's own directory.
   */
  readonly checkpoint: { readonly sharedDir: string; readonly id: number; readonly incremental: boolean; readonly savepoint: boolean } | undefined;
  /** A unique prefix for this backend's checkpoint files. */
  readonly token: string;
  /** Records a file the checkpoint in progress references (retention keeps it while a checkpoint does). */
  reference(file: string): void;
}

/**
 * A cached entry: the live value (undefined: deleted, not yet written) and the text it had in the database
 * when it was read (undefined: not read from there), so an unchanged value is not written back.
 */
interface Cached<V> {
  v: V | undefined;
  s: string | undefined;
}

/** Incremental files after a full one before the next checkpoint is full again (bounds the restore chain). */
const MAX_CHAIN = 8;
/** Keys per page when iterating (no statement stays open: writes may happen between pages). */
const PAGE = 512;

/**
 * One state entry's keyed values in an SQLite table `(k, v, ver)`, with a write-back cache in front (as
 * RocksDB's memtable and block cache are in front of its files in Flink). `get` returns the cached object or
 * decodes a copy from the table and caches it; callers mutate it in place; the cache writes every value it
 * holds back when it is full (then it is emptied) and at each checkpoint (then it is kept), skipping values
 * whose text did not change. `ver` is the checkpoint epoch of the last write, and deletions since the last
 * checkpoint are kept in a second table, so an incremental checkpoint writes exactly the keys that changed.
 */
export class DiskKeyedStore<V> implements KeyedStore<V> {
  private readonly cache = new Map<unknown, Cached<V>>();
  private readonly revive: ((v: V) => V) | undefined;
  private readonly sel: BetterSqlite3.Statement;
  private readonly put: BetterSqlite3.Statement;
  private readonly del: BetterSqlite3.Statement;
  private readonly tomb: BetterSqlite3.Statement;
  private readonly count: BetterSqlite3.Statement;
  private readonly page: BetterSqlite3.Statement;
  private readonly changed: BetterSqlite3.Statement;
  private readonly deleted: BetterSqlite3.Statement;
  private readonly clearTombs: BetterSqlite3.Statement;
  private readonly prefixPage: BetterSqlite3.Statement;
  private readonly prefixTomb: BetterSqlite3.Statement;
  private readonly prefixDel: BetterSqlite3.Statement;
  private readonly writeAll: () => void;
  /** Checkpoint epoch: values written since the last checkpoint carry it. */
  private epoch = 1;
  /** The files of this store's last checkpoint (empty: the next one is full). */
  private chain: string[] = [];

  constructor(private readonly host: DiskStoreHost, readonly table: string, readonly spec: StoreSpec<V>) {
    const db = host.db;
    this.revive = spec.revive;
    db.exec(`CREATE TABLE ${table} (k TEXT PRIMARY KEY, v TEXT NOT NULL, ver INTEGER NOT NULL) WITHOUT ROWID;`
      + `CREATE TABLE ${table}_deleted (k TEXT PRIMARY KEY) WITHOUT ROWID;`);
    this.sel = db.prepare(`SELECT v FROM ${table} WHERE k = ?`).pluck();
    this.put = db.prepare(`INSERT OR REPLACE INTO ${table} (k, v, ver) VALUES (?, ?, ?)`);
    this.del = db.prepare(`DELETE FROM ${table} WHERE k = ?`);
    this.tomb = db.prepare(`INSERT OR IGNORE INTO ${table}_deleted (k) VALUES (?)`);
    this.count = db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck();
    this.page = db.prepare(`SELECT k, v FROM ${table} WHERE k > ? ORDER BY k LIMIT ${PAGE}`).raw();
    this.changed = db.prepare(`SELECT k, v FROM ${table} WHERE ver >= ?`).raw();
    this.deleted = db.prepare(`SELECT k FROM ${table}_deleted`).pluck();
    this.clearTombs = db.prepare(`DELETE FROM ${table}_deleted`);
    this.prefixPage = db.prepare(`SELECT k, v FROM ${table} WHERE k > ? AND k < ? ORDER BY k LIMIT ${PAGE}`).raw();
    this.prefixTomb = db.prepare(`INSERT OR IGNORE INTO ${table}_deleted (k) SELECT k FROM ${table} WHERE k > ? AND k < ?`);
    this.prefixDel = db.prepare(`DELETE FROM ${table} WHERE k > ? AND k < ?`);
    this.writeAll = db.transaction(() => this.writeCache());
  }

  get(key: unknown): V | undefined {
    const c = this.cache.get(key);
    if (c !== undefined) return c.v;
    const s = this.sel.get(encodeKey(key)) as string | undefined;
    if (s === undefined) return undefined;
    let v = decodeValue(s) as V;
    if (this.revive !== undefined) v = this.revive(v);
    this.admit(key, v, s);
    return v;
  }

  set(key: unknown, value: V): this {
    const c = this.cache.get(key);
    if (c !== undefined) c.v = value;
    else this.admit(key, value, undefined);
    return this;
  }

  delete(key: unknown): boolean {
    const c = this.cache.get(key);
    if (c !== undefined) {
      const had = c.v !== undefined;
      c.v = undefined;
      return had;
    }
    this.admit(key, undefined, undefined);
    return true;
  }

  has(key: unknown): boolean {
    return this.get(key) !== undefined;
  }

  get size(): number {
    this.flush(true);
    return this.count.get() as number;
  }

  keys(): IterableIterator<unknown> {
    return mapIterator(this.entries(), (e) => e[0]);
  }

  /**
   * Every key with its value: the cache is written back first, then the table is read page by page (no
   * statement stays open, so the caller may write between entries — the TTL cleaner deletes as it goes);
   * a key the cache holds yields the cached object.
   */
  *entries(): IterableIterator<[unknown, V]> {
    this.flush(true);
    let after = "";
    for (;;) {
      const rows = this.page.all(after) as [string, string][];
      for (const [k, s] of rows) {
        const key = decodeKey(k);
        const c = this.cache.get(key);
        if (c !== undefined) {
          if (c.v !== undefined) yield [key, c.v];
          continue;
        }
        let v = decodeValue(s) as V;
        if (this.revive !== undefined) v = this.revive(v);
        yield [key, v];
      }
      if (rows.length < PAGE) return;
      after = rows[rows.length - 1]![0];
    }
  }

  [Symbol.iterator](): IterableIterator<[unknown, V]> {
    return this.entries();
  }

  /**
   * The entries whose key is a string starting with `prefix`, in the order of their keys' text (a range of
   * the table's primary key: only those rows are read). Paged like `entries`; a key the cache holds yields
   * the cached object. Window state keys its entries `<window end>/<...>`, so a window reads its own.
   */
  *prefixEntries(prefix: string): IterableIterator<[string, V]> {
    this.flush(true);
    const [lo, hi] = prefixRange(prefix);
    let after = lo;
    for (;;) {
      const rows = this.prefixPage.all(after, hi) as [string, string][];
      for (const [k, s] of rows) {
        const key = JSON.parse(k) as string;
        const c = this.cache.get(key);
        if (c !== undefined) {
          if (c.v !== undefined) yield [key, c.v];
          continue;
        }
        let v = decodeValue(s) as V;
        if (this.revive !== undefined) v = this.revive(v);
        yield [key, v];
      }
      if (rows.length < PAGE) return;
      after = rows[rows.length - 1]![0];
    }
  }

  /**
   * Deletes every entry whose key is a string starting with `prefix` (a fired window's), recorded for the
   * next incremental checkpoint as single deletions are. Costs a pass over the cache, not over the table.
   */
  deletePrefix(prefix: string): void {
    this.flush(true);
    for (const key of this.cache.keys()) if (typeof key === "string" && key.startsWith(prefix)) this.cache.delete(key);
    const [lo, hi] = prefixRange(prefix);
    this.prefixTomb.run(lo, hi);
    this.prefixDel.run(lo, hi);
  }

  /**
   * This store's part of the checkpoint or savepoint in progress, or undefined when none is (a snapshot taken
   * outside one: the caller then inlines the entries). With incremental checkpoints, the keys written or
   * deleted since the previous checkpoint go into a new file that the previous files precede; otherwise (and
   * for the first checkpoint, and every MAX_CHAIN-th) all keys. Either way the rows stream from the table
   * into the file: no list of the entries is built.
   */
  checkpoint(): StoreFiles | undefined {
    const cp = this.host.checkpoint;
    if (cp === undefined) return undefined;
    this.flush(true);
    if (cp.savepoint) return this.savepoint(cp.sharedDir);
    const incremental = cp.incremental && this.chain.length > 0 && this.chain.length <= MAX_CHAIN;
    const file = join(cp.sharedDir, `${this.host.token}-${this.table}-${cp.id}${incremental ? "-delta" : "-full"}.kv`);
    const w = new StoreFileWriter(file);
    try {
      // deletions first: a key deleted and then written again since the last checkpoint ends up written
      if (incremental) for (const k of this.deleted.iterate() as IterableIterator<string>) w.delete(k);
      for (const [k, v] of this.changed.iterate(incremental ? this.epoch : 0) as IterableIterator<[string, string]>) w.put(k, v);
    } finally {
      w.close();
    }
    this.clearTombs.run();
    this.epoch++;
    this.chain = incremental ? [...this.chain, file] : [file];
    for (const f of this.chain) this.host.reference(f);
    return { $storeFiles: this.chain };
  }

  /**
   * A full file of all keys in the savepoint's directory `dir`, named relative to it (`<table>.kv`). The
   * checkpoints' incremental state (epoch, deletions, chain) is untouched: the next checkpoint builds on the
   * previous checkpoint as if no savepoint had been taken, as in Flink.
   */
  private savepoint(dir: string): StoreFiles {
    const name = `${this.table}.kv`;
    const w = new StoreFileWriter(join(dir, name));
    try {
      for (const [k, v] of this.changed.iterate(0) as IterableIterator<[string, string]>) w.put(k, v);
    } finally {
      w.close();
    }
    return { $storeFiles: [name] };
  }

  /** Writes the cache back; `keep`: the cache keeps its (now clean) values, else it is emptied. */
  flush(keep: boolean): void {
    if (this.cache.size === 0) return;
    this.writeAll();
    if (!keep) this.cache.clear();
  }

  /** Entries the cache holds (tests check that it stays bounded). */
  get cached(): number {
    return this.cache.size;
  }

  private admit(key: unknown, v: V | undefined, s: string | undefined): void {
    if (this.cache.size >= this.host.cacheSize) this.flush(false);
    this.cache.set(key, { v, s });
  }

  private writeCache(): void {
    const epoch = this.epoch;
    for (const [key, c] of this.cache) {
      if (c.v === undefined) {
        const k = encodeKey(key);
        this.del.run(k);
        this.tomb.run(k);
        this.cache.delete(key);
        continue;
      }
      const s = encodeValue(c.v);
      if (s === c.s) continue;
      this.put.run(encodeKey(key), s, epoch);
      c.s = s;
    }
  }
}

/**
 * The encoded keys of the strings starting with `prefix` lie strictly between these two texts: a string key
 * is its JSON text, so they all start with `"` + the prefix's JSON (without the closing quote) and sort
 * below the same text with its last character incremented.
 */
function prefixRange(prefix: string): [string, string] {
  const lo = JSON.stringify(prefix).slice(0, -1);
  const hi = lo.slice(0, -1) + String.fromCharCode(lo.charCodeAt(lo.length - 1) + 1);
  return [lo, hi];
}

function* mapIterator<A, B>(it: Iterable<A>, f: (a: A) => B): IterableIterator<B> {
  for (const a of it) yield f(a);
}
