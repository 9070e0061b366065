import { helpers } from "../../../expressions/helpers.js";
import type { ListView, MapView, ValueView } from "../../../ptf/views.js";
import { TableRuntimeException } from "../../../types/errors.js";
import { copyValue } from "./state-copy.js";
import { TtlCleaner } from "./ttl-cleaner.js";
import { HASHMAP_BACKEND, type KeyedStore, type StateBackend, type StoreFiles } from "../../state/keyed-store.js";
import { restoreStore, storeSnapshot } from "../../state/snapshot-store.js";

/**
 * The runtime data views (class names as in Flink, which some Flink tests print). Each view object
 * serves all keys of one state entry: before each `eval` the operator points it at the current key
 * (`key`) and processing time (`now`); reads and writes then touch only that key's entries, one at a
 * time. With TTL every value, list element or map entry carries its own write time.
 */
abstract class KeyedView<S> {
  /** Current PARTITION BY key and processing time, set by the operator before each call. */
  key: unknown = undefined;
  now = 0;
  /** `ctx.clearState(name)` was called: the key's entries are removed when eval returns (as in Flink). */
  cleared = false;
  /** A broadcast state entry (StateKind.BROADCAST): one storage under a constant key, shared by all keys. */
  broadcast = false;
  /** Broadcast state outside a broadcast row: every write fails (as in Flink). */
  readOnly = false;
  /** Each key's storage: a Map with the hashmap backend, a disk store otherwise (state/keyed-store.ts). */
  readonly map: KeyedStore<S>;
  protected readonly cleaner: TtlCleaner<unknown, S> | undefined;

  constructor(readonly name: string, readonly ttl: number, backend: StateBackend = HASHMAP_BACKEND) {
    this.map = backend.createStore<S>({ name });
    if (ttl > 0) this.cleaner = new TtlCleaner(this.map, (_k, s, now) => this.expire(s, now));
  }

  /** Drops expired parts of one key's storage; true when nothing is left. */
  protected abstract expire(storage: S, now: number): boolean;

  /**
   * What eval would read for `key` at `now` — the value, a new array of the elements, a new Map of the
   * entries (original keys) — or undefined when nothing unexpired is stored. Reads only (no cleanup):
   * the test harness inspects state with it.
   */
  abstract peek(key: unknown, now: number): unknown;

  /** Called by the operator before eval. */
  enter(key: unknown, now: number): void {
    this.key = key;
    this.now = now;
    this.cleaner?.step(now);
  }

  /** Called by the operator after eval. */
  leave(): void {
    if (this.cleared) {
      this.cleared = false;
      this.map.delete(this.key);
    }
  }

  clear(): void {
    if (this.readOnly) this.readOnlyError();
    this.map.delete(this.key);
  }

  protected readOnlyError(): never {
    throw new TableRuntimeException(
      `Broadcast state entry '${this.name}' is read-only while processing a table with row or set semantics or while notifying stateful sets.`,
    );
  }

  /**
   * All keys' storage for a checkpoint: copies (`copy`), or the live storage for a writer that encodes it
   * before the next record; with a disk backend during a checkpoint or savepoint, its files.
   */
  snapshot(copy = true): [unknown, S][] | StoreFiles {
    return storeSnapshot(this.map) ?? [...this.map].map(([k, s]) => [k, copy ? copyValue(s) : s]);
  }

  /**
   * Restores storage taken by snapshot() of a view with the same TTL setting; `owned`: the entries may
   * become the storage as they are (just decoded from a file), else they are copied.
   */
  restore(entries: readonly (readonly [unknown, S])[] | StoreFiles, owned = false): void {
    if (!Array.isArray(entries)) {
      restoreStore(entries, this.map as KeyedStore<unknown>, undefined, (v) => v, 0);
      return;
    }
    for (const [k, s] of entries as readonly (readonly [unknown, S])[]) this.map.set(k, owned ? s : copyValue(s));
  }

  /** Number of keys holding entries (benchmarks, tests). */
  get keyCount(): number {
    return this.map.size;
  }
}

interface TimedValue<T> {
  value: T;
  time: number;
}

export class KeyedStateValueView<T> extends KeyedView<T | TimedValue<T>> implements ValueView<T> {
  protected expire(s: T | TimedValue<T>, now: number): boolean {
    return (s as TimedValue<T>).time + this.ttl <= now;
  }

  peek(key: unknown, now: number): T | undefined {
    const s = this.map.get(key);
    if (s === undefined) return undefined;
    if (this.ttl <= 0) return s as T;
    return this.expire(s, now) ? undefined : (s as TimedValue<T>).value;
  }

  getValue(): T | null {
    const s = this.map.get(this.key);
    if (s === undefined) return null;
    if (this.ttl > 0) {
      if (this.expire(s, this.now)) {
        this.map.delete(this.key);
        return null;
      }
      return (s as TimedValue<T>).value;
    }
    return s as T;
  }

  setValue(value: T | null): void {
    if (this.readOnly) this.readOnlyError();
    if (value === null || value === undefined) this.map.delete(this.key);
    else this.map.set(this.key, this.ttl > 0 ? { value, time: this.now } : value);
  }
}

interface ListStorage<T> {
  values: T[];
  /** Write time per element (TTL only). */
  times: number[] | undefined;
}

function nullValue(): never {
  throw new TableRuntimeException("List views don't support null values.");
}

function nullKey(): never {
  throw new TableRuntimeException("Map views don't support null keys.");
}

export class KeyedStateListView<T> extends KeyedView<ListStorage<T>> implements ListView<T> {
  protected expire(s: ListStorage<T>, now: number): boolean {
    const times = s.times!;
    // elements are appended in time order, so the expired ones form a prefix (setList resets all times)
    let n = 0;
    while (n < times.length && times[n]! + this.ttl <= now) n++;
    if (n > 0) {
      s.values.splice(0, n);
      times.splice(0, n);
    }
    return s.values.length === 0;
  }

  peek(key: unknown, now: number): T[] | undefined {
    const s = this.map.get(key);
    if (s === undefined) return undefined;
    const times = s.times;
    const live = times === undefined ? [...s.values] : s.values.filter((_, i) => times[i]! + this.ttl > now);
    return live.length === 0 ? undefined : live;
  }

  private storage(create: boolean): ListStorage<T> | undefined {
    let s = this.map.get(this.key);
    if (s !== undefined && this.ttl > 0 && this.expire(s, this.now)) {
      this.map.delete(this.key);
      s = undefined;
    }
    if (s === undefined && create) {
      s = { values: [], times: this.ttl > 0 ? [] : undefined };
      this.map.set(this.key, s);
    }
    return s;
  }

  getList(): T[] {
    return [...(this.storage(false)?.values ?? [])];
  }

  get(): Iterable<T> {
    return this.getList();
  }

  [Symbol.iterator](): Iterator<T> {
    return this.getList()[Symbol.iterator]();
  }

  setList(values: readonly T[]): void {
    if (this.readOnly) this.readOnlyError();
    for (const v of values) if (v === null || v === undefined) nullValue();
    if (values.length === 0) {
      this.map.delete(this.key);
      return;
    }
    this.map.set(this.key, { values: [...values], times: this.ttl > 0 ? values.map(() => this.now) : undefined });
  }

  add(value: T): void {
    if (this.readOnly) this.readOnlyError();
    if (value === null || value === undefined) nullValue();
    const s = this.storage(true)!;
    s.values.push(value);
    s.times?.push(this.now);
  }

  addAll(values: readonly T[]): void {
    if (this.readOnly) this.readOnlyError();
    for (const v of values) if (v === null || v === undefined) nullValue();
    if (values.length === 0) return;
    const s = this.storage(true)!;
    for (const v of values) {
      s.values.push(v);
      s.times?.push(this.now);
    }
  }

  remove(value: T): boolean {
    if (this.readOnly) this.readOnlyError();
    const s = this.storage(false);
    if (s === undefined) return false;
    const i = s.values.findIndex((x) => x === value || (x !== null && typeof x === "object" && helpers.eq(x, value)));
    if (i < 0) return false;
    s.values.splice(i, 1);
    s.times?.splice(i, 1);
    if (s.values.length === 0) this.map.delete(this.key);
    return true;
  }
}

/** Entries of one key: values by normalised map key; original keys only where they are objects. */
interface MapStorage<K, V> {
  readonly values: Map<unknown, V>;
  keys: Map<unknown, K> | undefined;
  readonly times: Map<unknown, number> | undefined;
}

/** Map keys compare by value, as Flink's serialized keys do: objects (dates, decimals, rows) get a string form. */
function norm(k: unknown): unknown {
  if (k === null || typeof k !== "object") return k;
  if (k instanceof Date) return `\u0000d${k.getTime()}`;
  return `\u0000j${JSON.stringify(k, (_p, x) => (x instanceof Map ? [...x] : x))}`;
}

export class KeyedStateMapViewWithKeysNotNull<K, V> extends KeyedView<MapStorage<K, V>> implements MapView<K, V> {
  protected expire(s: MapStorage<K, V>, now: number): boolean {
    for (const [n, t] of s.times!) if (t + this.ttl <= now) this.drop(s, n);
    return s.values.size === 0;
  }

  peek(key: unknown, now: number): Map<K, V> | undefined {
    const s = this.map.get(key);
    if (s === undefined) return undefined;
    const out = new Map<K, V>();
    for (const [n, v] of s.values) {
      if (s.times !== undefined && s.times.get(n)! + this.ttl <= now) continue;
      out.set((s.keys?.get(n) ?? n) as K, v);
    }
    return out.size === 0 ? undefined : out;
  }

  private drop(s: MapStorage<K, V>, n: unknown): void {
    s.values.delete(n);
    s.keys?.delete(n);
    s.times?.delete(n);
  }

  /** Whether entry `n` of `s` is unexpired; an expired one is removed on the way (only this entry: O(1)). */
  private live(s: MapStorage<K, V>, n: unknown): boolean {
    if (s.times === undefined) return true;
    const t = s.times.get(n);
    if (t === undefined || t + this.ttl > this.now) return true;
    this.drop(s, n);
    if (s.values.size === 0) this.map.delete(this.key);
    return false;
  }

  private storage(): MapStorage<K, V> {
    let s = this.map.get(this.key);
    if (s === undefined) {
      s = { values: new Map(), keys: undefined, times: this.ttl > 0 ? new Map() : undefined };
      this.map.set(this.key, s);
    }
    return s;
  }

  get(key: K): V | null {
    if (key === null || key === undefined) nullKey();
    const s = this.map.get(this.key);
    if (s === undefined) return null;
    const n = norm(key);
    const v = s.values.get(n);
    if (v === undefined || !this.live(s, n)) return null;
    return v;
  }

  contains(key: K): boolean {
    if (key === null || key === undefined) nullKey();
    const s = this.map.get(this.key);
    if (s === undefined) return false;
    const n = norm(key);
    return s.values.has(n) && this.live(s, n);
  }

  put(key: K, value: V): void {
    if (this.readOnly) this.readOnlyError();
    if (key === null || key === undefined) nullKey();
    this.putOne(this.storage(), key, value);
  }

  private putOne(s: MapStorage<K, V>, key: K, value: V): void {
    const n = norm(key);
    s.values.set(n, value === undefined ? (null as V) : value);
    if (n !== key) (s.keys ??= new Map()).set(n, key);
    s.times?.set(n, this.now);
  }

  putAll(entries: ReadonlyMap<K, V> | Iterable<readonly [K, V]>): void {
    if (this.readOnly) this.readOnlyError();
    const list = [...(entries as Iterable<readonly [K, V]>)];
    for (const [k] of list) if (k === null || k === undefined) nullKey();
    if (list.length === 0) return;
    const s = this.storage();
    for (const [k, v] of list) this.putOne(s, k, v);
  }

  remove(key: K): void {
    if (this.readOnly) this.readOnlyError();
    if (key === null || key === undefined) nullKey();
    const s = this.map.get(this.key);
    if (s === undefined) return;
    this.drop(s, norm(key));
    if (s.values.size === 0) this.map.delete(this.key);
  }

  isEmpty(): boolean {
    const s = this.map.get(this.key);
    if (s === undefined) return true;
    if (s.times !== undefined) this.expire(s, this.now);
    if (s.values.size === 0) this.map.delete(this.key);
    return s.values.size === 0;
  }

  getMap(): Map<K, V> {
    const out = new Map<K, V>();
    const s = this.map.get(this.key);
    if (s === undefined) return out;
    if (s.times !== undefined && this.expire(s, this.now)) {
      this.map.delete(this.key);
      return out;
    }
    for (const [n, v] of s.values) out.set((s.keys?.get(n) ?? n) as K, v);
    return out;
  }

  setMap(map: ReadonlyMap<K, V>): void {
    if (this.readOnly) this.readOnlyError();
    for (const k of map.keys()) if (k === null || k === undefined) nullKey();
    this.map.delete(this.key);
    if (map.size > 0) this.putAll(map);
  }

  entries(): Iterable<[K, V]> {
    return this.getMap().entries();
  }

  keys(): Iterable<K> {
    return this.getMap().keys();
  }

  values(): Iterable<V> {
    return this.getMap().values();
  }

  [Symbol.iterator](): Iterator<[K, V]> {
    return this.getMap().entries();
  }
}
