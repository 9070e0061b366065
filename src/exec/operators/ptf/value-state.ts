import { codegenFunction } from "../../../expressions/codegen.js";
import type { ValueStateDecl } from "../../../ptf/state.js";
import { getOwn, setOwn, isInheritedName } from "../../../types/own.js";
import { nullRowMaker } from "./rows.js";
import { copyValue } from "./state-copy.js";
import { TtlCleaner } from "./ttl-cleaner.js";
import { HASHMAP_BACKEND, type KeyedStore, type StateBackend } from "../../state/keyed-store.js";
import { restoreStore, storeSnapshot, type ValueStateFiles } from "../../state/snapshot-store.js";

/** One key's entry of a value state in a checkpoint: [key, state, last write (TTL only)]. */
export type ValueStateEntry = readonly [key: unknown, state: object, lastWrite?: number | undefined];

/**
 * Eager value state of one state entry, for all keys: `Map<key, object>` holding the very objects
 * `eval` mutates, so the hot path has no copy and no write-back (no immer per record).
 *
 * Around each eval: `load(key)` returns the stored object or a fresh default; `store(key, obj)` keeps a
 * fresh object that is not empty, drops an object whose fields are all null (Flink treats it as no
 * state) and applies `ctx.clearState`. With TTL, a parallel `Map<key, lastWrite>` is kept; an entry is
 * written when created or changed (Flink's OnCreateAndWrite), expired entries are never returned
 * (NeverReturnExpired) and a few entries are checked per access so idle keys go away
 * (incremental cleanup).
 */
export class ValueStateSlot {
  /** The entries by key: a Map with the hashmap backend, a disk store otherwise (state/keyed-store.ts). */
  readonly map: KeyedStore<object>;
  readonly times: KeyedStore<number> | undefined;
  private readonly cleaner: TtlCleaner<unknown, number> | undefined;
  /** Makes the default object of a new key; read by the generated per-row path (fast-path.ts). */
  readonly fresh: () => object;
  /** The fields whose values make up the state (all null = no state). */
  readonly fields: readonly string[];
  private readonly inherited: readonly boolean[];
  /** Field values before eval (TTL only): to see whether eval changed the state. */
  private readonly before: unknown[];
  private isNew = false;
  cleared = false;
  /** A broadcast state entry (StateKind.BROADCAST): one object under a constant key, shared by all keys. */
  broadcast = false;

  constructor(readonly name: string, decl: ValueStateDecl<unknown>, readonly ttl: number, backend: StateBackend = HASHMAP_BACKEND) {
    this.fields = decl.fields;
    this.inherited = decl.fields.map(isInheritedName);
    this.fresh = freshFactory(decl);
    this.before = new Array<unknown>(this.fields.length);
    this.map = backend.createStore<object>({ name, revive: (v) => this.revive(v) });
    if (ttl > 0) {
      this.times = backend.createStore<number>({ name: `${name}#ttl` });
      this.cleaner = new TtlCleaner(this.times, (_k, t, now) => t + ttl <= now, (k) => { this.map.delete(k); });
    }
  }

  load(key: unknown, now: number): object {
    const times = this.times;
    // the cleaner may remove this very key, so it runs before the lookup
    if (times !== undefined) this.cleaner!.step(now);
    let v = this.map.get(key);
    if (times !== undefined) {
      if (v !== undefined && times.get(key)! + this.ttl <= now) {
        this.map.delete(key);
        times.delete(key);
        v = undefined;
      }
    }
    if (v === undefined) {
      v = this.fresh();
      this.isNew = true;
    } else {
      this.isNew = false;
    }
    if (times !== undefined) {
      const f = this.fields;
      for (let i = 0; i < f.length; i++) this.before[i] = this.field(v, i);
    }
    return v;
  }

  store(key: unknown, v: object, now: number): void {
    if (this.cleared) {
      this.cleared = false;
      if (!this.isNew) this.remove(key);
      return;
    }
    if (this.isEmpty(v)) {
      if (!this.isNew) this.remove(key);
      return;
    }
    if (this.isNew) {
      this.map.set(key, v);
      this.times?.set(key, now);
    } else if (this.times !== undefined && this.changed(v)) {
      this.times.set(key, now);
    }
  }

  /**
   * The stored object of `key` unless it has expired at `now`, else undefined. Reads only (no cleanup,
   * no fresh default): the test harness inspects state with it without changing what eval sees next.
   */
  peek(key: unknown, now: number): object | undefined {
    const v = this.map.get(key);
    if (v === undefined || (this.times !== undefined && this.times.get(key)! + this.ttl <= now)) return undefined;
    return v;
  }

  /**
   * All entries for a checkpoint: [key, state, lastWrite][], the states copied (`copy`) or the live objects
   * (for a writer that encodes them before the next record); with a disk backend during a checkpoint or
   * savepoint, the files its stores wrote instead (state/snapshot-store.ts).
   */
  snapshot(copy = true): ValueStateEntry[] | ValueStateFiles {
    const files = storeSnapshot(this.map, this.times);
    if (files !== undefined) return files;
    // one loop, no intermediate arrays; without TTL an entry is [key, state] (a missing write time reads
    // as undefined, so checkpoints that wrote it as a third element restore the same)
    const out: ValueStateEntry[] = [];
    const times = this.times;
    if (!copy) {
      if (times === undefined) for (const [k, v] of this.map) out.push([k, v]);
      else for (const [k, v] of this.map) out.push([k, v, times.get(k)]);
    } else if (times === undefined) {
      for (const [k, v] of this.map) out.push([k, copyValue(v)]);
    } else {
      for (const [k, v] of this.map) out.push([k, copyValue(v), times.get(k)]);
    }
    return out;
  }

  /** `owned`: the entries' states may become the state as they are (just decoded from a file), else copied. */
  restore(entries: readonly ValueStateEntry[] | ValueStateFiles, now: number, owned = false): void {
    if (!Array.isArray(entries)) {
      restoreStore(entries as ValueStateFiles, this.map, this.times, (v) => this.revive(v as object), now);
      return;
    }
    const list = entries as readonly ValueStateEntry[];
    const times = this.times;
    for (let i = 0; i < list.length; i++) {
      const e = list[i]!;
      this.map.set(e[0], this.revive(owned ? e[1] : copyValue(e[1])));
      // an entry from a checkpoint without TTL starts its TTL at the restore
      if (times !== undefined) times.set(e[0], e[2] ?? now);
    }
  }

  /**
   * A restored state object with the prototype of the declared type: a checkpoint that went through a
   * serializer (snapshot-codec.ts) holds class and row state as plain fields, rebuilt here from the
   * declaration, as a fresh object with the snapshotted fields.
   */
  private revive(v: object): object {
    const f = this.fresh();
    if (Object.getPrototypeOf(v) === Object.getPrototypeOf(f)) return v;
    return Object.assign(f, v);
  }

  private remove(key: unknown): void {
    this.map.delete(key);
    this.times?.delete(key);
  }

  /** Field i of a state object (own properties only; a plain read where no inherited member shares the name). */
  private field(v: object, i: number): unknown {
    const name = this.fields[i]!;
    return this.inherited[i] ? getOwn(v, name) : (v as Record<string, unknown>)[name];
  }

  private isEmpty(v: object): boolean {
    const f = this.fields;
    for (let i = 0; i < f.length; i++) {
      const x = this.field(v, i);
      if (x !== null && x !== undefined) return false;
    }
    return true;
  }

  /** Primitive fields compare by value; object fields (arrays, maps, nested rows) count as changed. */
  private changed(v: object): boolean {
    const f = this.fields;
    for (let i = 0; i < f.length; i++) {
      const x = this.field(v, i);
      if (x !== this.before[i] || (x !== null && typeof x === "object")) return true;
    }
    return false;
  }
}

/** A function making a fresh state object: a copy of the defaults, a null row, or `new C()`. */
function freshFactory(decl: ValueStateDecl<unknown>): () => object {
  const init = decl.init;
  if (init.kind === "row") return nullRowMaker(init.type);
  if (init.kind === "class") {
    const cls = init.cls;
    return () => new cls();
  }
  const defaults = init.defaults;
  const keys = Object.keys(defaults);
  const primitive = keys.every((k) => { const v = defaults[k]; return v === null || typeof v !== "object"; });
  if (primitive) {
    // one object literal per fresh key: a stable hidden class, no cloning
    // (a computed key defines an own property: a plain `"__proto__":` key would set the prototype)
    const body = keys.map((k, i) => `${isInheritedName(k) ? `[${JSON.stringify(k)}]` : JSON.stringify(k)}:d[${i}]`).join(",");
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    return codegenFunction("ptf-value-state", "d", `"use strict";return function(){return {${body}};};`)(keys.map((k) => defaults[k])) as () => object;
  }
  return () => {
    const o: Record<string, unknown> = {};
    for (const k of keys) {
      const v = defaults[k];
      setOwn(o, k, v === null || typeof v !== "object" ? v : structuredClone(v));
    }
    return o;
  };
}
