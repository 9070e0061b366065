import { CodegenContext, type FunctionResolver, compileExpr } from "../../expressions/compile.js";
import type { ExprNode } from "../../expressions/node.js";
import type { DataType } from "../../table/types/data-type.js";
import type { ResolvedSchema } from "../../table/types/resolved-schema.js";
import { encodeKeyPart, valueKey } from "./value-key.js";
import { NumericKeyTable } from "./numeric-key-table.js";

/**
 * The key half of a keyed operator's state: maps the grouping key of a record to a dense group id (gid),
 * so that the per-group values can live column-wise in typed arrays indexed by gid.
 *
 * Which index is used depends on the key's type, because memory per group is the dominant cost:
 * - one numeric key (integers, FLOAT/DOUBLE, intervals, timestamps by epoch millis): a NumericKeyTable,
 *   12 bytes a slot, no boxing and no string building;
 * - one string / boolean / DATE / TIME key: a Map keyed by the value itself;
 * - one key of another type (DECIMAL, ARRAY, ROW ...): a Map keyed by a canonical string of the value;
 * - several keys: a Map keyed by a prefix-free encoding of all of them (so ("a|b", "c") and ("a", "b|c")
 *   stay apart), with the key values kept per gid;
 * - no keys (a global aggregate): one group.
 *
 * Protocol: `find(row)` computes the row's key and makes it the *current* key; `add`, `remove`, `write` and
 * `currentValues` then work on that key without computing it again. `forEachGroup` makes each group's key current
 * in turn. Nothing is allocated per lookup.
 */
export interface GroupKeys {
  /** Number of key columns. */
  readonly keyCount: number;
  /** Number of groups. */
  readonly size: number;
  /** The gid of the row's key, or -1; the key becomes the current key. */
  find(row: readonly unknown[]): number;
  /** Registers the current key for `gid`. */
  add(gid: number): void;
  /** Removes the current key. */
  remove(gid: number): void;
  /** Writes the current key's values into `out[0..keyCount)`. */
  write(out: unknown[]): void;
  /** The current key's values as a new array (snapshots). */
  currentValues(): unknown[];
  /**
   * Calls `f(gid)` for every group with its key as the current key, in order of creation as long as gids are
   * not reused (batch operators never reuse them, so their end-of-input output follows first appearance).
   */
  forEachGroup(f: (gid: number) => void): void;
  /** Calls `f` for every group with a new array of its key values (allocates; snapshots), in `forEachGroup` order. */
  forEach(f: (keyValues: unknown[], gid: number) => void): void;
  /** Registers a group from a snapshot. */
  restore(keyValues: readonly unknown[], gid: number): void;
}

const NUMERIC_ROOTS = new Set(["TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "INTERVAL_DAY_TIME", "INTERVAL_YEAR_MONTH"]);
const TIME_ROOTS = new Set(["TIMESTAMP", "TIMESTAMP_LTZ"]);
/** Values of these types are primitives whose JS identity is SQL equality. */
const PRIMITIVE_ROOTS = new Set(["CHAR", "VARCHAR", "BOOLEAN", "DATE", "TIME", "NULL"]);

/** Builds the key index of a keyed operator from its key expressions over the input schema. */
export function createGroupKeys(keyExprs: readonly ExprNode[], input: ResolvedSchema, resolveFunction?: FunctionResolver): GroupKeys {
  if (keyExprs.length === 0) return new GlobalKey();
  const ctx = new CodegenContext(input, resolveFunction, "r");
  const compiled = keyExprs.map((k) => compileExpr(k, ctx));
  if (compiled.length === 1) {
    const read = ctx.build<(r: readonly unknown[]) => unknown>(`function(r){${ctx.tempDeclarations()}return ${compiled[0]!.src};}`);
    const type = compiled[0]!.type;
    if (NUMERIC_ROOTS.has(type.root)) return new NumericKey(read);
    if (TIME_ROOTS.has(type.root)) return new TimestampKey(read);
    return new MapKey(read, !PRIMITIVE_ROOTS.has(type.root));
  }
  const body = compiled.map((c, i) => `o[${i}]=${c.src};`).join("");
  const read = ctx.build<(r: readonly unknown[], o: unknown[]) => void>(`function(r,o){${ctx.tempDeclarations()}${body}}`);
  return new CompositeKey(read, compiled.map((c) => c.type));
}

/** `forEach` in terms of `forEachGroup` (the same for every index). */
function forEachWithValues(keys: GroupKeys, f: (keyValues: unknown[], gid: number) => void): void {
  keys.forEachGroup((gid) => f(keys.currentValues(), gid));
}

class GlobalKey implements GroupKeys {
  readonly keyCount = 0;
  private gid = -1;
  get size(): number { return this.gid < 0 ? 0 : 1; }
  find(): number { return this.gid; }
  add(gid: number): void { this.gid = gid; }
  remove(): void { this.gid = -1; }
  write(): void {}
  currentValues(): unknown[] { return []; }
  forEachGroup(f: (gid: number) => void): void { if (this.gid >= 0) f(this.gid); }
  forEach(f: (keyValues: unknown[], gid: number) => void): void { forEachWithValues(this, f); }
  restore(_kv: readonly unknown[], gid: number): void { this.gid = gid; }
}

/** Keys in a NumericKeyTable; iteration goes through a gid-indexed copy of the keys (the table is in hash order). */
abstract class TableKey implements GroupKeys {
  readonly keyCount = 1;
  protected readonly table = new NumericKeyTable();
  /** Highest gid ever added: bounds the gid-ordered iteration. */
  private maxGid = -1;
  get size(): number { return this.table.size; }
  abstract find(row: readonly unknown[]): number;
  abstract write(out: unknown[]): void;
  protected abstract get currentNumber(): number | null;
  /** Makes the key `k` (a table key) current. */
  protected abstract setCurrent(k: number | null): void;
  add(gid: number): void {
    this.table.add(this.currentNumber, gid);
    if (gid > this.maxGid) this.maxGid = gid;
  }
  remove(): void { this.table.delete(this.currentNumber); }
  currentValues(): unknown[] {
    const out = [null];
    this.write(out);
    return out;
  }
  forEachGroup(f: (gid: number) => void): void {
    const n = this.maxGid + 1;
    const keys = new Float64Array(n);
    const state = new Uint8Array(n); // 0 absent, 1 a number, 2 null
    this.table.forEach((k, gid) => {
      if (k === null) state[gid] = 2;
      else { keys[gid] = k; state[gid] = 1; }
    });
    for (let gid = 0; gid < n; gid++) {
      if (state[gid] === 0) continue;
      this.setCurrent(state[gid] === 2 ? null : keys[gid]!);
      f(gid);
    }
  }
  forEach(f: (keyValues: unknown[], gid: number) => void): void { forEachWithValues(this, f); }
  restore(kv: readonly unknown[], gid: number): void {
    this.setCurrent(kv[0] as number | null);
    this.add(gid);
  }
}

class NumericKey extends TableKey {
  private current: number | null = null;
  constructor(private readonly read: (r: readonly unknown[]) => unknown) { super(); }
  find(row: readonly unknown[]): number {
    const k = this.read(row) as number | null;
    this.current = k;
    return this.table.get(k);
  }
  write(out: unknown[]): void { out[0] = this.current; }
  protected get currentNumber(): number | null { return this.current; }
  protected setCurrent(k: number | null): void { this.current = k; }
}

/** Timestamps are indexed by epoch millis; the row's own Date object is what the output carries. */
class TimestampKey extends TableKey {
  private current: Date | null = null;
  private currentMillis: number | null = null;
  constructor(private readonly read: (r: readonly unknown[]) => unknown) { super(); }
  find(row: readonly unknown[]): number {
    const d = this.read(row) as Date | null;
    this.current = d;
    this.currentMillis = d === null ? null : d.getTime();
    return this.table.get(this.currentMillis);
  }
  write(out: unknown[]): void { out[0] = this.current; }
  protected get currentNumber(): number | null { return this.currentMillis; }
  protected setCurrent(k: number | null): void {
    this.currentMillis = k;
    this.current = k === null ? null : new Date(k);
  }
  override restore(kv: readonly unknown[], gid: number): void {
    const d = kv[0] as Date | null;
    this.current = d;
    this.currentMillis = d === null ? null : d.getTime();
    this.add(gid);
  }
}

/** One key in a Map: strings and booleans as themselves, other values by a canonical string (kept per gid). */
class MapKey implements GroupKeys {
  readonly keyCount = 1;
  private readonly groups = new Map<unknown, number>();
  private readonly values: unknown[] = [];
  private current: unknown = null;
  private currentKey: unknown = null;
  constructor(private readonly read: (r: readonly unknown[]) => unknown, private readonly canonical: boolean) {}
  get size(): number { return this.groups.size; }
  find(row: readonly unknown[]): number {
    const v = this.read(row);
    this.current = v;
    const k = this.canonical ? valueKey(v) : v;
    this.currentKey = k;
    const gid = this.groups.get(k);
    return gid === undefined ? -1 : gid;
  }
  add(gid: number): void {
    this.groups.set(this.currentKey, gid);
    if (this.canonical) this.values[gid] = this.current;
  }
  remove(gid: number): void {
    this.groups.delete(this.currentKey);
    if (this.canonical) this.values[gid] = undefined;
  }
  write(out: unknown[]): void { out[0] = this.current; }
  currentValues(): unknown[] { return [this.current]; }
  forEachGroup(f: (gid: number) => void): void {
    // a Map iterates in insertion order, which is the order of creation
    for (const [k, gid] of this.groups) {
      this.currentKey = k;
      this.current = this.canonical ? this.values[gid] : k;
      f(gid);
    }
  }
  forEach(f: (keyValues: unknown[], gid: number) => void): void { forEachWithValues(this, f); }
  restore(kv: readonly unknown[], gid: number): void {
    this.current = kv[0];
    this.currentKey = this.canonical ? valueKey(kv[0]) : kv[0];
    this.add(gid);
  }
}

/** Several keys: a Map keyed by an unambiguous string encoding; the key values are kept per gid. */
class CompositeKey implements GroupKeys {
  readonly keyCount: number;
  private readonly groups = new Map<string, number>();
  private readonly values: (unknown[] | undefined)[] = [];
  /** The current key's values. */
  private readonly scratch: unknown[];
  private currentKey = "";
  constructor(private readonly read: (r: readonly unknown[], o: unknown[]) => void, types: readonly DataType[]) {
    this.keyCount = types.length;
    this.scratch = new Array<unknown>(types.length).fill(null);
  }
  get size(): number { return this.groups.size; }
  find(row: readonly unknown[]): number {
    const s = this.scratch;
    this.read(row, s);
    let k = "";
    for (let i = 0; i < s.length; i++) k += encodeKeyPart(s[i]);
    this.currentKey = k;
    const gid = this.groups.get(k);
    return gid === undefined ? -1 : gid;
  }
  add(gid: number): void {
    this.groups.set(this.currentKey, gid);
    this.values[gid] = this.scratch.slice();
  }
  remove(gid: number): void {
    this.groups.delete(this.currentKey);
    this.values[gid] = undefined;
  }
  write(out: unknown[]): void {
    const s = this.scratch;
    for (let i = 0; i < s.length; i++) out[i] = s[i];
  }
  currentValues(): unknown[] { return this.scratch.slice(); }
  forEachGroup(f: (gid: number) => void): void {
    const s = this.scratch;
    for (const [k, gid] of this.groups) {
      this.currentKey = k;
      const v = this.values[gid]!;
      for (let i = 0; i < s.length; i++) s[i] = v[i];
      f(gid);
    }
  }
  forEach(f: (keyValues: unknown[], gid: number) => void): void { forEachWithValues(this, f); }
  restore(kv: readonly unknown[], gid: number): void {
    let k = "";
    for (let i = 0; i < this.scratch.length; i++) {
      this.scratch[i] = kv[i];
      k += encodeKeyPart(kv[i]);
    }
    this.currentKey = k;
    this.add(gid);
  }
}
