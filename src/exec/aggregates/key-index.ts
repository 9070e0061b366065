import { encodeKeyPart, valueKey } from "./value-key.js";
import { NumericKeyTable } from "./numeric-key-table.js";

/**
 * The key index of a keyed operator's state: maps a group's key to a dense group id (gid), so that the
 * per-group values can live column-wise in typed arrays indexed by gid (GroupColumns).
 *
 * The index works on a *probe*: the key in the form the index compares — the number itself for a numeric
 * key, the epoch millis of a timestamp, the string itself, a canonical string for DECIMAL / ARRAY / ROW,
 * a prefix-free encoding of all parts for several keys (so ("a|b", "c") and ("a", "b|c") stay apart).
 * Generated code (key-code.ts) computes the probe of a record and calls `get` / `add` / `delete` directly
 * on the concrete class, so each operator's call sites see one class; `RowKeys` (group-keys.ts) does the
 * same for the operators that are not generated.
 *
 * `key` is the key as the operator's output carries it: the value of a single key, the array of values of
 * several keys, null for a global aggregate. An index whose probe is not the key keeps the key per gid.
 */
export interface KeyIndex {
  /** Number of groups. */
  readonly size: number;
  /** The gid of the probe, or -1. */
  get(probe: unknown): number;
  /** Registers a new group. */
  add(probe: unknown, key: unknown, gid: number): void;
  /** Removes a group (no-op when absent). */
  delete(probe: unknown, gid: number): void;
  /**
   * Calls `f(gid, key, probe)` for every group, in order of creation as long as gids are not reused (batch
   * operators and windows never reuse them, so their output follows first appearance).
   */
  forEachGroup(f: (gid: number, key: unknown, probe: unknown) => void): void;
  /** A key as an array of key values (snapshots); allocates. */
  valuesOf(key: unknown): unknown[];
  /** The key of an array of key values (restore). */
  keyOf(values: readonly unknown[]): unknown;
  /** The probe of a key. */
  probeOf(key: unknown): unknown;
}

/** No keys: one group (a global aggregate). */
export class GlobalIndex implements KeyIndex {
  private gid = -1;
  get size(): number { return this.gid < 0 ? 0 : 1; }
  get(): number { return this.gid; }
  add(_probe: unknown, _key: unknown, gid: number): void { this.gid = gid; }
  delete(): void { this.gid = -1; }
  forEachGroup(f: (gid: number, key: unknown, probe: unknown) => void): void { if (this.gid >= 0) f(this.gid, null, null); }
  valuesOf(): unknown[] { return []; }
  keyOf(): unknown { return null; }
  probeOf(): unknown { return null; }
}

/**
 * One numeric key in a NumericKeyTable (12 bytes a slot, no boxing, no string building). With `dates`,
 * the key is a timestamp (a Date) and the probe its epoch millis; iteration gives new Date objects.
 */
export class NumericIndex implements KeyIndex {
  private readonly table = new NumericKeyTable();
  /** Highest gid ever added: bounds the gid-ordered iteration (the table is in hash order). */
  private maxGid = -1;
  constructor(private readonly dates: boolean) {}
  get size(): number { return this.table.size; }
  get(probe: number | null): number { return this.table.get(probe); }
  add(probe: number | null, _key: unknown, gid: number): void {
    this.table.add(probe, gid);
    if (gid > this.maxGid) this.maxGid = gid;
  }
  delete(probe: number | null): void { this.table.delete(probe); }
  forEachGroup(f: (gid: number, key: unknown, probe: unknown) => void): void {
    const n = this.maxGid + 1;
    const keys = new Float64Array(n);
    const state = new Uint8Array(n); // 0 absent, 1 a number, 2 null
    this.table.forEach((k, gid) => {
      if (k === null) state[gid] = 2;
      else { keys[gid] = k; state[gid] = 1; }
    });
    const dates = this.dates;
    for (let gid = 0; gid < n; gid++) {
      const s = state[gid];
      if (s === 0) continue;
      if (s === 2) f(gid, null, null);
      else {
        const k = keys[gid]!;
        f(gid, dates ? new Date(k) : k, k);
      }
    }
  }
  valuesOf(key: unknown): unknown[] { return [key]; }
  keyOf(values: readonly unknown[]): unknown { return values[0]; }
  probeOf(key: unknown): unknown { return this.dates && key !== null ? (key as Date).getTime() : key; }
}

/** How a MapIndex derives its probe from the key. */
export type MapProbe = "value" | "canonical" | "composite";

/**
 * Keys in a Map: strings, booleans, DATE and TIME values as themselves ("value"); other single values by a
 * canonical string ("canonical", valueKey); several keys by a prefix-free encoding ("composite"). The last
 * two keep the key per gid. A Map iterates in insertion order, which is the order of creation.
 */
export class MapIndex implements KeyIndex {
  private readonly groups = new Map<unknown, number>();
  private readonly keys: unknown[] | undefined;
  constructor(private readonly probeKind: MapProbe) {
    if (probeKind !== "value") this.keys = [];
  }
  get size(): number { return this.groups.size; }
  get(probe: unknown): number {
    const gid = this.groups.get(probe);
    return gid === undefined ? -1 : gid;
  }
  add(probe: unknown, key: unknown, gid: number): void {
    this.groups.set(probe, gid);
    if (this.keys) this.keys[gid] = key;
  }
  delete(probe: unknown, gid: number): void {
    if (!this.groups.delete(probe)) return;
    if (this.keys) this.keys[gid] = undefined;
  }
  forEachGroup(f: (gid: number, key: unknown, probe: unknown) => void): void {
    const keys = this.keys;
    for (const [probe, gid] of this.groups) f(gid, keys ? keys[gid] : probe, probe);
  }
  valuesOf(key: unknown): unknown[] { return this.probeKind === "composite" ? (key as unknown[]).slice() : [key]; }
  keyOf(values: readonly unknown[]): unknown { return this.probeKind === "composite" ? values.slice() : values[0]; }
  probeOf(key: unknown): unknown {
    switch (this.probeKind) {
      case "value": return key;
      case "canonical": return valueKey(key);
      default: return compositeProbe(key as readonly unknown[]);
    }
  }
}

/** The probe of several key values: their self-delimiting encodings, concatenated. */
export function compositeProbe(values: readonly unknown[]): string {
  let s = "";
  for (let i = 0; i < values.length; i++) s += encodeKeyPart(values[i]);
  return s;
}
