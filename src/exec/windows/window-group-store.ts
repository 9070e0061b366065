import { ExecutionError } from "../../types/errors.js";
import type { AggregateLayout } from "../aggregates/aggregate-layout.js";
import type { GroupColumns } from "../aggregates/group-columns.js";
import type { KeyCode } from "../aggregates/key-code.js";
import type { KeyIndex } from "../aggregates/key-index.js";
import { isPrefixStore, type KeyedStore, type PrefixStore, type StateBackend } from "../state/keyed-store.js";
import { encodeKey } from "../state/store-codec.js";

/** One group of one window in the disk store (and in a snapshot's inline form, as `{ keys, state }`). */
export interface WindowGroup {
  keys: unknown[];
  rows: number;
  accs: unknown[];
}

/** Digits of a group's sequence number in its store key: the table's text order is then arrival order. */
const SEQ_DIGITS = 12;

/** The store key of a window's group: `<end>/<sequence number, zero-padded>`. */
export function groupKey(end: number, seq: number): string {
  return `${end}/${String(seq).padStart(SEQ_DIGITS, "0")}`;
}

/** The window end and sequence number of a group's store key. */
export function parseGroupKey(k: string): [number, number] {
  const i = k.indexOf("/");
  return [Number(k.slice(0, i)), Number(k.slice(i + 1))];
}

/**
 * The state of a TUMBLE / SLIDE / CUMULATE window aggregate on the disk backend (`state.backend.type =
 * disk`). Two stores of the backend:
 * - `groups`: `<end>/<seq>` → the group's keys and accumulators, `seq` its arrival number in its window,
 *   so that a window's groups are one range of the table in the order Flink's hashmap backend emits them;
 * - `index`: `<end>/<encoded probe>` → `seq`, to find a group a record reaches when it is not resident.
 *
 * The column-wise groups of each open window (GroupColumns, what the generated code updates) are a cache
 * in front of them: at most `cacheSize` groups over all open windows are resident. At the bound, half of
 * them go to the stores (windows ending first give theirs first: the one a record is adding to last) and
 * release their slots. A window that never had to give groups away fires from its columns as on the hashmap
 * backend; one that did is written back and then streams its range out of the store in chunks.
 */
export class WindowGroupStore {
  readonly groups: PrefixStore<WindowGroup>;
  readonly index: PrefixStore<number>;
  /** Groups held as columns over all open windows (tests check the bound). */
  resident = 0;
  /** Most groups ever resident at once (tests check the bound). */
  mostResident = 0;
  private readonly open = new Map<number, SpillingWindowIndex>();

  constructor(backend: StateBackend, readonly layout: AggregateLayout, readonly key: KeyCode, readonly cacheSize: number, name: string) {
    this.groups = prefixStore(backend.createStore<WindowGroup>({ name: `${name}.groups` }), name);
    this.index = prefixStore(backend.createStore<number>({ name: `${name}.index` }), name);
  }

  /** The key index of a window opened with columns `cols`. */
  newIndex(end: number, cols: GroupColumns): SpillingWindowIndex {
    const idx = new SpillingWindowIndex(this, this.key.newIndex(), cols, end);
    this.open.set(end, idx);
    return idx;
  }

  /** A group becomes resident: at the bound, groups of the open windows go to the stores first. */
  admit(current: SpillingWindowIndex, keep: number): void {
    if (this.resident >= this.cacheSize) {
      let need = this.resident - (this.cacheSize >> 1);
      const ends = [...this.open.keys()].sort((a, b) => a - b);
      for (const end of ends) {
        const w = this.open.get(end)!;
        if (w !== current) need -= w.evict(need, -1);
        if (need <= 0) break;
      }
      if (need > 0) current.evict(need, keep);
    }
    if (++this.resident > this.mostResident) this.mostResident = this.resident;
  }

  /**
   * Emits window `w`'s groups through `emit` (the operator's generated firing) and forgets them: from its
   * columns when all its groups are resident, else written back and read from the store in arrival order,
   * `chunk` groups at a time loaded into fresh columns (the same emission code, bounded memory).
   */
  fire(idx: SpillingWindowIndex, start: number, emit: (w: { start: number; end: number; keys: KeyIndex; cols: GroupColumns }) => void): void {
    this.open.delete(idx.end);
    if (!idx.spilled) {
      emit({ start, end: idx.end, keys: idx, cols: idx.cols });
      this.resident -= idx.residentCount;
      return;
    }
    idx.writeBack();
    this.resident -= idx.residentCount;
    const chunk = Math.max(1, Math.min(this.cacheSize, 4096));
    let keys = this.key.newIndex();
    let cols = this.layout.newColumns();
    for (const [, e] of this.groups.prefixEntries(`${idx.end}/`)) {
      const k = keys.keyOf(e.keys);
      const gid = cols.alloc();
      keys.add(keys.probeOf(k), k, gid);
      this.layout.restore(cols, gid, e);
      if (keys.size >= chunk) {
        emit({ start, end: idx.end, keys, cols });
        keys = this.key.newIndex();
        cols = this.layout.newColumns();
      }
    }
    if (keys.size > 0) emit({ start, end: idx.end, keys, cols });
    this.groups.deletePrefix(`${idx.end}/`);
    this.index.deletePrefix(`${idx.end}/`);
  }

  /** Writes every resident group of every open window to the stores (they stay resident): snapshots. */
  writeBack(): void {
    for (const w of this.open.values()) w.writeBack();
  }
}

function prefixStore<V>(s: KeyedStore<V>, name: string): PrefixStore<V> {
  if (!isPrefixStore(s)) throw new ExecutionError(`${name}: the state backend's stores cannot read a window's entries as a range`);
  return s;
}

/**
 * The key index of one open window on the disk backend: its resident groups in the in-memory index, the
 * others in the WindowGroupStore's stores. It is a KeyIndex, so the generated per-record code is the same
 * on both backends: `get` answers the gid (loading a group the store holds into a fresh one) or -1.
 */
export class SpillingWindowIndex implements KeyIndex {
  /** Groups of this window, resident or in the store. */
  private count = 0;
  /** The next group's arrival number. */
  next = 0;
  /** Some group of this window is (or was) in the store: lookups and firing must consult it. */
  spilled = false;
  readonly prefix: string;
  /** Arrival number per resident gid. */
  private seqs: number[] = [];
  /** 1: the resident group's store entry is current (not handed out by `get` / `add` since it was written). */
  private clean = new Uint8Array(16);

  constructor(private readonly host: WindowGroupStore, private readonly inner: KeyIndex, readonly cols: GroupColumns, readonly end: number) {
    this.prefix = `${end}/`;
  }

  get size(): number {
    return this.count;
  }

  get residentCount(): number {
    return this.inner.size;
  }

  get(probe: unknown): number {
    const g = this.inner.get(probe);
    if (g >= 0) {
      this.clean[g] = 0;
      return g;
    }
    if (!this.spilled) return -1;
    const seq = this.host.index.get(this.prefix + encodeKey(probe));
    if (seq === undefined) return -1;
    const e = this.host.groups.get(groupKey(this.end, seq));
    if (e === undefined) throw new ExecutionError(`window ending at ${this.end}: the group of sequence number ${seq} is missing from the disk store (damaged state)`);
    this.host.admit(this, -1);
    const gid = this.cols.alloc();
    this.inner.add(probe, this.inner.keyOf(e.keys), gid);
    this.host.layout.restore(this.cols, gid, e);
    this.seqs[gid] = seq;
    this.clean[gid] = 0;
    return gid;
  }

  add(probe: unknown, key: unknown, gid: number): void {
    this.host.admit(this, gid);
    this.inner.add(probe, key, gid);
    this.seqs[gid] = this.next++;
    this.clean[gid] = 0;
    this.count++;
  }

  /** Window groups are never deleted one by one (a window fires as a whole). */
  delete(): void {
    throw new ExecutionError("a window's groups are not deleted one by one");
  }

  /** The resident groups (a window that spilled is read from the store: WindowGroupStore.fire). */
  forEachGroup(f: (gid: number, key: unknown, probe: unknown) => void): void {
    this.inner.forEachGroup(f);
  }

  valuesOf(key: unknown): unknown[] { return this.inner.valuesOf(key); }
  keyOf(values: readonly unknown[]): unknown { return this.inner.keyOf(values); }
  probeOf(key: unknown): unknown { return this.inner.probeOf(key); }

  /** Writes every resident group whose entry is not current to the stores; they stay resident. */
  writeBack(): void {
    this.inner.forEachGroup((gid, key, probe) => {
      if (this.clean[gid] !== 1) this.write(gid, key, probe);
    });
  }

  /** A group of a restored snapshot (its groups in arrival order): into the stores, loaded when reached. */
  restored(keys: unknown[], state: { rows: number; accs: unknown[] }): void {
    const seq = this.next++;
    this.host.groups.set(groupKey(this.end, seq), { keys, rows: state.rows, accs: state.accs });
    this.host.index.set(this.prefix + encodeKey(this.inner.probeOf(this.inner.keyOf(keys))), seq);
    this.count++;
    this.spilled = true;
  }

  /** After the stores were filled from checkpoint files: this window's counts from the snapshot. */
  restoredFromFiles(count: number, next: number): void {
    this.count = count;
    this.next = next;
    this.spilled = true;
  }

  /** Gives up to `n` resident groups (not `keep`) to the stores and releases their gids; returns how many. */
  evict(n: number, keep: number): number {
    const out: number[] = [];
    const probes: unknown[] = [];
    this.inner.forEachGroup((gid, key, probe) => {
      if (out.length >= n || gid === keep) return;
      if (this.clean[gid] !== 1) this.write(gid, key, probe);
      out.push(gid);
      probes.push(probe);
    });
    for (let i = 0; i < out.length; i++) {
      const gid = out[i]!;
      this.inner.delete(probes[i], gid);
      this.cols.release(gid);
      this.clean[gid] = 0;
    }
    this.host.resident -= out.length;
    return out.length;
  }

  private write(gid: number, key: unknown, probe: unknown): void {
    const seq = this.seqs[gid]!;
    const s = this.host.layout.snapshot(this.cols, gid);
    this.host.groups.set(groupKey(this.end, seq), { keys: this.inner.valuesOf(key), rows: s.rows, accs: s.accs });
    this.host.index.set(this.prefix + encodeKey(probe), seq);
    this.spilled = true;
    if (gid >= this.clean.length) {
      const c = new Uint8Array(Math.max(gid + 1, this.clean.length * 2));
      c.set(this.clean);
      this.clean = c;
    }
    this.clean[gid] = 1;
  }
}
