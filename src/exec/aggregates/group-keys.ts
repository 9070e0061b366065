import { CodegenContext, type FunctionResolver } from "../../expressions/compile.js";
import type { ExprNode } from "../../expressions/node.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import { compileKeys } from "./key-code.js";
import type { KeyIndex } from "./key-index.js";

/**
 * The key half of a keyed operator's state, addressed by records: for the operators whose per-record
 * path is not generated as a whole (DISTINCT, session and over windows, the batch materializer). The
 * group aggregate and the fixed windows generate their key handling inline (key-code.ts) over the same
 * index classes (key-index.ts), which choose the index by key type.
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
  /** The current key's probe (what `removeProbe` takes: state TTL evicts groups by it later). */
  currentProbe(): unknown;
  /** Removes the group with this probe, whatever the current key is. */
  removeProbe(probe: unknown, gid: number): void;
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
  /** The probe of a key given as its values (a key of a snapshot), without registering it. */
  probeOf(keyValues: readonly unknown[]): unknown;
}

/** Builds the key index of a keyed operator from its key expressions over the input schema. */
export function createGroupKeys(keyExprs: readonly ExprNode[], input: ResolvedSchema, resolveFunction?: FunctionResolver): GroupKeys {
  const ctx = new CodegenContext(input, resolveFunction, "r");
  const code = compileKeys(keyExprs, ctx);
  const decl = code.vars.length > 0 ? `let ${code.vars.join(",")};` : "";
  const body = `${decl}${code.read}${code.columns.map((k, i) => `o[${i}]=${k};`).join("")}return ${code.probe};`;
  const read = ctx.build<(r: readonly unknown[], o: unknown[]) => unknown>(`function(r,o){${ctx.tempDeclarations()}${body}}`);
  return new RowKeys(code.newIndex(), read, code.count);
}

/** A KeyIndex addressed through records: a generated reader writes the key values and returns the probe. */
class RowKeys implements GroupKeys {
  /** The current key's values. */
  private readonly scratch: unknown[];
  private probe: unknown = null;

  constructor(private readonly index: KeyIndex, private readonly read: (r: readonly unknown[], o: unknown[]) => unknown, readonly keyCount: number) {
    this.scratch = new Array<unknown>(keyCount).fill(null);
  }

  get size(): number { return this.index.size; }

  find(row: readonly unknown[]): number {
    this.probe = this.read(row, this.scratch);
    return this.index.get(this.probe);
  }

  add(gid: number): void {
    const s = this.scratch;
    this.index.add(this.probe, this.keyCount === 1 ? s[0] : this.keyCount === 0 ? null : s.slice(), gid);
  }

  remove(gid: number): void { this.index.delete(this.probe, gid); }

  currentProbe(): unknown { return this.probe; }

  removeProbe(probe: unknown, gid: number): void { this.index.delete(probe, gid); }

  write(out: unknown[]): void {
    const s = this.scratch;
    for (let i = 0; i < s.length; i++) out[i] = s[i];
  }

  currentValues(): unknown[] { return this.scratch.slice(); }

  forEachGroup(f: (gid: number) => void): void {
    const s = this.scratch;
    const single = this.keyCount === 1;
    this.index.forEachGroup((gid, key, probe) => {
      this.probe = probe;
      if (single) s[0] = key;
      else for (let i = 0; i < s.length; i++) s[i] = (key as unknown[])[i];
      f(gid);
    });
  }

  forEach(f: (keyValues: unknown[], gid: number) => void): void {
    this.forEachGroup((gid) => f(this.currentValues(), gid));
  }

  probeOf(keyValues: readonly unknown[]): unknown {
    return this.index.probeOf(this.index.keyOf(keyValues));
  }

  restore(keyValues: readonly unknown[], gid: number): void {
    const key = this.index.keyOf(keyValues);
    this.probe = this.index.probeOf(key);
    for (let i = 0; i < this.scratch.length; i++) this.scratch[i] = keyValues[i];
    this.index.add(this.probe, key, gid);
  }
}
