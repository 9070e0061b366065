import type { KeyedStore } from "../state/keyed-store.js";
import type { KeyedStateTtl } from "../state-ttl.js";
import type { AggregateLayout } from "./aggregate-layout.js";
import type { GroupColumns } from "./group-columns.js";
import type { KeyIndex } from "./key-index.js";

/**
 * One group in a disk store (and in a snapshot, which has the same shape): its key values, row count,
 * each call's accumulator state (AggregateLayout.snapshot) and, with TTL, the time of its last write.
 */
export interface GroupEntry {
  keys: unknown[];
  rows: number;
  accs: unknown[];
  written?: number;
}

/**
 * The key index of a group aggregate whose state lives in a disk store (`state.backend.type = disk`).
 *
 * The column-wise groups (GroupColumns) stay what the generated per-record code works on; they become a
 * bounded cache of the groups in front of the store, keyed by the index's probe. A probe the resident
 * index does not hold is looked up in the store and, when found, loaded into a fresh gid (a decoded copy:
 * the store's contract) — so `get` still answers "the gid, or -1 for a new group". When `cacheSize`
 * groups are resident and another one comes in, half of them are written back to the store (their
 * snapshot form) and their gids released. A deleted group (its last row retracted, or expired) is deleted
 * from the store too. The store's entry of a resident group may be stale: `writeBack` writes every
 * resident group before anything reads the store as a whole (snapshots).
 *
 * It is a KeyIndex, so the generated code is the same for both backends: it calls `get` / `add` /
 * `delete` on this class instead of the in-memory index — the hashmap backend never sees it.
 */
export class SpillingIndex implements KeyIndex {
  /** Groups in state: resident or in the store (the store is not counted per record). */
  private count = 0;
  /** Set after construction (the TTL's eviction callback refers to this index). */
  ttl: KeyedStateTtl | undefined;
  /** Groups that must stay resident (those of the open mini-batch bundle: it holds their gids). */
  pinned: ((gid: number) => boolean) | undefined;
  /**
   * 1 for a resident group whose store entry is current (written back, and not handed out by `get` since:
   * the generated code changes a group only after `get` or `add` gave it its gid). Such a group is not
   * written again — an incremental checkpoint holds only the groups that records reached. Out-of-range
   * writes to a typed array are no-ops, so clearing a flag needs no bounds check.
   */
  private clean = new Uint8Array(16);

  constructor(
    private readonly inner: KeyIndex,
    private readonly cols: GroupColumns,
    private readonly layout: AggregateLayout,
    readonly store: KeyedStore<GroupEntry>,
    private readonly cacheSize: number,
  ) {}

  get size(): number {
    return this.count;
  }

  /** Groups held as columns now (tests check that the bound holds). */
  get resident(): number {
    return this.inner.size;
  }

  get(probe: unknown): number {
    const g = this.inner.get(probe);
    if (g >= 0) {
      this.clean[g] = 0;
      return g;
    }
    const e = this.store.get(probe);
    if (e === undefined) return -1;
    return this.load(probe, e);
  }

  add(probe: unknown, key: unknown, gid: number): void {
    this.clean[gid] = 0;
    this.makeRoom(gid);
    this.inner.add(probe, key, gid);
    this.count++;
  }

  delete(probe: unknown, gid: number): void {
    if (this.inner.get(probe) !== gid) return;
    this.inner.delete(probe, gid);
    this.store.delete(probe);
    this.count--;
  }

  /** The resident groups only (the store holds the rest): snapshots call `writeBack` and read the store. */
  forEachGroup(f: (gid: number, key: unknown, probe: unknown) => void): void {
    this.inner.forEachGroup(f);
  }

  valuesOf(key: unknown): unknown[] { return this.inner.valuesOf(key); }
  keyOf(values: readonly unknown[]): unknown { return this.inner.keyOf(values); }
  probeOf(key: unknown): unknown { return this.inner.probeOf(key); }

  /** Writes every resident group to the store (they stay resident): the store then holds all groups. */
  writeBack(): void {
    this.inner.forEachGroup((gid, key, probe) => {
      if (this.clean[gid] === 1) return;
      this.store.set(probe, this.entryOf(gid, key));
      this.markClean(gid);
    });
  }

  /** A restored group: into the store (loaded when a record reaches it). */
  restored(e: GroupEntry): void {
    const probe = this.inner.probeOf(this.inner.keyOf(e.keys));
    if (this.store.get(probe) === undefined && this.inner.get(probe) < 0) this.count++;
    this.store.set(probe, e);
  }

  /** After the store was filled from checkpoint files: the group count is the store's. */
  recount(): void {
    this.count = this.store.size;
  }

  private load(probe: unknown, e: GroupEntry): number {
    this.makeRoom(-1);
    const g = this.cols.alloc();
    this.clean[g] = 0;
    this.inner.add(probe, this.inner.keyOf(e.keys), g);
    this.layout.restore(this.cols, g, e);
    const ttl = this.ttl;
    if (ttl !== undefined) ttl.created(g, probe, e.written ?? ttl.now());
    return g;
  }

  private markClean(gid: number): void {
    if (gid >= this.clean.length) {
      const c = new Uint8Array(Math.max(gid + 1, this.clean.length * 2));
      c.set(this.clean);
      this.clean = c;
    }
    this.clean[gid] = 1;
  }

  private entryOf(gid: number, key: unknown): GroupEntry {
    const e: GroupEntry = { keys: this.inner.valuesOf(key), ...this.layout.snapshot(this.cols, gid) };
    if (this.ttl !== undefined) e.written = this.ttl.timeOf(gid);
    return e;
  }

  /**
   * Before a group becomes resident: at the bound, half of the resident groups (not pinned, not `keep`,
   * the gid just allocated for the newcomer) go to the store and release their slots.
   */
  private makeRoom(keep: number): void {
    const resident = this.inner.size;
    if (resident < this.cacheSize) return;
    const out: number[] = [];
    const probes: unknown[] = [];
    const target = resident - (this.cacheSize >> 1);
    const pinned = this.pinned;
    this.inner.forEachGroup((gid, key, probe) => {
      if (out.length >= target || gid === keep || (pinned !== undefined && pinned(gid))) return;
      if (this.clean[gid] !== 1) this.store.set(probe, this.entryOf(gid, key));
      out.push(gid);
      probes.push(probe);
    });
    const ttl = this.ttl;
    for (let i = 0; i < out.length; i++) {
      const gid = out[i]!;
      this.inner.delete(probes[i], gid);
      this.cols.release(gid);
      this.clean[gid] = 0;
      ttl?.removed(gid);
    }
  }
}
