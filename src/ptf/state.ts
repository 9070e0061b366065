import { ValidationError } from "../types/errors.js";
import { DataType } from "../types/data-type.js";
import { type StructuredClass, classOf } from "./structured.js";
import { parseDuration } from "./ttl.js";
import type { ListView, MapView, ValueView } from "./views.js";
import { describeThrown } from "../types/describe-thrown.js";

/**
 * State declarations of a PTF. State is kept per PARTITION BY key (per virtual processor) and comes in
 * four kinds, as in Flink: eager value state (a plain mutable object handed to eval), and the lazy
 * views ValueView, ListView and MapView whose entries are read and written one at a time.
 *
 * TTL: `{ ttl: "1 day" }` (Flink's duration syntax, a bare number is milliseconds, `0`/`"0"` disables
 * TTL); without it the entry uses `table.exec.state.ttl` (default: no expiry). TTL runs on the
 * processing-time clock (`env.setClock`), is refreshed when an entry is created or changed, and
 * expired entries are never returned.
 */
export interface StateOptions<K extends StateKind = StateKind> {
  readonly ttl?: string | number;
  /**
   * Flink's StateKind: `PER_SET` (default) keeps the entry per PARTITION BY key; `BROADCAST` keeps one
   * entry shared by all keys, written only by rows of a BROADCAST_SEMANTIC_TABLE argument and read-only
   * for all other rows (valueState, valueView and mapView; no TTL).
   */
  readonly kind?: K;
}

/** Whether options declare broadcast state (`{ kind: StateKind.BROADCAST }`), at the type level. */
export type IsBroadcastOptions<O> = O extends { readonly kind: "BROADCAST" } ? true : false;

/** Flink's `StateKind`: where a state entry lives. */
export const StateKind = {
  /** One entry per virtual processor (PARTITION BY key); the default. */
  PER_SET: "PER_SET",
  /** One entry shared by all virtual processors; writable only while a broadcast row is processed. */
  BROADCAST: "BROADCAST",
} as const;
export type StateKind = (typeof StateKind)[keyof typeof StateKind];

/** How a fresh value state object is made. */
export type ValueStateInit =
  /** A copy of plain-object defaults. */
  | { readonly kind: "defaults"; readonly defaults: Readonly<Record<string, unknown>> }
  /** A ROW type: every field null. */
  | { readonly kind: "row"; readonly type: DataType }
  /** A class (structured type): `new C()`. */
  | { readonly kind: "class"; readonly cls: StructuredClass<object>; readonly type: DataType | undefined };

abstract class StateDeclBase {
  /** Milliseconds; undefined = `table.exec.state.ttl`; 0 = no TTL. Broadcast state: always 0. */
  readonly ttl: number | undefined;
  /** Shared by all keys (StateKind.BROADCAST) rather than kept per key. */
  readonly broadcast: boolean;
  constructor(options: StateOptions | undefined, what: string) {
    const kind = options?.kind ?? StateKind.PER_SET;
    if (kind !== StateKind.PER_SET && kind !== StateKind.BROADCAST) {
      throw new ValidationError(`${what}: unknown state kind '${String(kind)}'; expected StateKind.PER_SET or StateKind.BROADCAST`);
    }
    this.broadcast = kind === StateKind.BROADCAST;
    if (this.broadcast && options?.ttl !== undefined) throw new ValidationError(`${what}: broadcast state has no TTL (it is not kept per key)`);
    if (this.broadcast && what === "listView") throw new ValidationError("listView: broadcast state supports valueState, valueView and mapView (as in Flink), not listView");
    this.ttl = this.broadcast ? 0 : options?.ttl === undefined ? undefined : parseDuration(options.ttl, `${what} ttl`);
  }
}

/** Eager value state: `eval` receives a plain mutable object; changes are kept for the key. */
export class ValueStateDecl<T, B extends boolean = boolean> extends StateDeclBase {
  /** Phantom: declared with `{ kind: StateKind.BROADCAST }`. */
  declare readonly __broadcast: B;
  readonly kind = "value" as const;
  declare readonly __value: T;
  /** The fields whose values make up the state (all null = no state, as in Flink). */
  readonly fields: readonly string[];
  constructor(readonly init: ValueStateInit, options: StateOptions | undefined) {
    super(options, "valueState");
    this.fields = stateFields(init);
    Object.freeze(this);
  }
}

/** A lazy value (Flink's ValueView). */
export class ValueViewDecl<T, B extends boolean = boolean> extends StateDeclBase {
  /** Phantom: declared with `{ kind: StateKind.BROADCAST }`. */
  declare readonly __broadcast: B;
  readonly kind = "valueView" as const;
  declare readonly __value: T;
  constructor(readonly type: DataType | undefined, options: StateOptions | undefined) {
    super(options, "valueView");
    Object.freeze(this);
  }
}

/** A list read and written element by element (Flink's ListView); TTL applies per element. */
export class ListViewDecl<T, B extends boolean = boolean> extends StateDeclBase {
  /** Phantom: declared with `{ kind: StateKind.BROADCAST }`. */
  declare readonly __broadcast: B;
  readonly kind = "listView" as const;
  declare readonly __value: T;
  constructor(readonly elementType: DataType | undefined, options: StateOptions | undefined) {
    super(options, "listView");
    Object.freeze(this);
  }
}

/** A map read and written entry by entry (Flink's MapView); TTL applies per entry. */
export class MapViewDecl<K, V, B extends boolean = boolean> extends StateDeclBase {
  /** Phantom: declared with `{ kind: StateKind.BROADCAST }`. */
  declare readonly __broadcast: B;
  readonly kind = "mapView" as const;
  declare readonly __key: K;
  declare readonly __value: V;
  constructor(readonly keyType: DataType | undefined, readonly valueType: DataType | undefined, options: StateOptions | undefined) {
    super(options, "mapView");
    Object.freeze(this);
  }
}

export type StateDecl = ValueStateDecl<unknown> | ValueViewDecl<unknown> | ListViewDecl<unknown> | MapViewDecl<unknown, unknown>;

/** Whether a state declaration is broadcast state. */
export type IsBroadcastState<D> = D extends { readonly __broadcast: infer B } ? B : false;

/** What `eval` receives for a state declaration. */
export type StateValueOf<D> =
  D extends ValueStateDecl<infer T> ? T
  : D extends ValueViewDecl<infer T> ? ValueView<T>
  : D extends ListViewDecl<infer T> ? ListView<T>
  : D extends MapViewDecl<infer K, infer V> ? MapView<K, V>
  : never;

function stateFields(init: ValueStateInit): string[] {
  if (init.kind === "row" || (init.kind === "class" && init.type)) return (init.kind === "row" ? init.type : init.type!).fields.map((f) => f.name);
  const sample = (init.kind === "defaults" ? init.defaults : new init.cls()) as Record<string, unknown>;
  return Object.keys(sample).filter((k) => typeof sample[k] !== "function");
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
}

/**
 * Eager value state. Three forms:
 * - plain-object defaults: `valueState({ counter: 0 })`; a fresh key gets a copy of the defaults;
 * - a ROW type: `valueState(DataTypes.ROW(DataTypes.FIELD("count", DataTypes.BIGINT())))`; a fresh key
 *   gets a row whose fields are all null;
 * - a class or structured type: `valueState(ScoreWithDefaults)`; a fresh key gets `new ScoreWithDefaults()`.
 *
 * As in Flink, a state object whose fields are all null counts as empty and is removed.
 */
export function valueState<T extends object, const O extends StateOptions = StateOptions<"PER_SET">>(type: DataType<T | null>, options?: O): ValueStateDecl<T, IsBroadcastOptions<O>>;
export function valueState<C extends object, const O extends StateOptions = StateOptions<"PER_SET">>(cls: StructuredClass<C>, options?: O): ValueStateDecl<C, IsBroadcastOptions<O>>;
export function valueState<T extends object, const O extends StateOptions = StateOptions<"PER_SET">>(defaults: T, options?: O): ValueStateDecl<T, IsBroadcastOptions<O>>;
export function valueState(init: unknown, options?: StateOptions): ValueStateDecl<unknown> {
  if (init instanceof DataType) {
    if (init.root !== "ROW") throw new ValidationError(`valueState: a state type must be a ROW or structured type, got ${init}`);
    const cls = classOf(init);
    return new ValueStateDecl(cls ? { kind: "class", cls, type: init } : { kind: "row", type: init }, options);
  }
  if (typeof init === "function") {
    let probe: unknown;
    try {
      probe = new (init as StructuredClass<object>)();
    } catch (e) {
      throw new ValidationError(`valueState(${(init as { name?: string }).name ?? "class"}): the class must be constructible without arguments: ${describeThrown(e)}`);
    }
    if (probe === null || typeof probe !== "object") throw new ValidationError("valueState: the class must construct an object");
    return new ValueStateDecl({ kind: "class", cls: init as StructuredClass<object>, type: undefined }, options);
  }
  if (!isPlainObject(init)) {
    throw new ValidationError(`valueState: expected plain-object defaults (e.g. { counter: 0 }), a ROW type or a class, got ${Array.isArray(init) ? "an array" : String(init)}`);
  }
  return new ValueStateDecl({ kind: "defaults", defaults: Object.freeze({ ...init }) }, options);
}

/** A lazy single value: `valueView(DataTypes.INT())`; `getValue()` is null while unset. */
export function valueView<T, const O extends StateOptions = StateOptions<"PER_SET">>(type?: DataType<T>, options?: O): ValueViewDecl<NonNullable<T>, IsBroadcastOptions<O>> {
  return new ValueViewDecl(checkType(type, "valueView"), options);
}

/** A list whose elements are stored one by one: `listView(DataTypes.STRING())`. Null elements are rejected. */
export function listView<T>(elementType?: DataType<T>, options?: StateOptions<"PER_SET">): ListViewDecl<NonNullable<T>, false> {
  return new ListViewDecl(checkType(elementType, "listView"), options);
}

/** A map whose entries are stored one by one: `mapView(DataTypes.STRING(), DataTypes.INT())`. Null keys are rejected. */
export function mapView<K, V, const O extends StateOptions = StateOptions<"PER_SET">>(keyType?: DataType<K>, valueType?: DataType<V>, options?: O): MapViewDecl<NonNullable<K>, V, IsBroadcastOptions<O>> {
  return new MapViewDecl(checkType(keyType, "mapView key"), checkType(valueType, "mapView value"), options);
}

function checkType(t: unknown, what: string): DataType | undefined {
  if (t === undefined) return undefined;
  if (!(t instanceof DataType)) throw new ValidationError(`${what}: expected a data type, got ${String(t)}`);
  return t;
}
