/**
 * The data views a PTF receives for `valueView`, `listView` and `mapView` state (Flink's
 * `org.apache.flink.table.api.dataview`). A view reads and writes the state of the current key one
 * entry at a time; it is not a copy of the collection. `ctx.clearState(name)` empties a view after the
 * current `eval` returns.
 */

/** A single lazily read value. */
export interface ValueView<T> {
  /** The value, or null when unset or expired. */
  getValue(): T | null;
  /** Sets the value; null clears it. */
  setValue(value: T | null): void;
  clear(): void;
}

/** A list state; null elements are rejected (`List views don't support null values.`). */
export interface ListView<T> extends Iterable<T> {
  /** A copy of all (unexpired) elements. */
  getList(): T[];
  /** Replaces all elements. */
  setList(values: readonly T[]): void;
  add(value: T): void;
  addAll(values: readonly T[]): void;
  /** Removes the first element equal to `value`; true if one was removed. */
  remove(value: T): boolean;
  /** All elements, as Flink's `get()`. */
  get(): Iterable<T>;
  clear(): void;
}

/** A map state; null keys are rejected (`Map views don't support null keys.`), null values are allowed. */
export interface MapView<K, V> extends Iterable<[K, V]> {
  /** The value for `key`, or null when absent (or expired). */
  get(key: K): V | null;
  put(key: K, value: V): void;
  putAll(entries: ReadonlyMap<K, V> | Iterable<readonly [K, V]>): void;
  remove(key: K): void;
  contains(key: K): boolean;
  entries(): Iterable<[K, V]>;
  keys(): Iterable<K>;
  values(): Iterable<V>;
  isEmpty(): boolean;
  /** A copy of all (unexpired) entries. */
  getMap(): Map<K, V>;
  /** Replaces all entries. */
  setMap(map: ReadonlyMap<K, V>): void;
  clear(): void;
}
