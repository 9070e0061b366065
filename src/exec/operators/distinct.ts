import { col } from "../../expressions/node.js";
import { Kind } from "../../types/row.js";
import type { ResolvedSchema } from "../../types/resolved-schema.js";
import { growFloat64 } from "../aggregates/accumulator.js";
import { type GroupKeys, createGroupKeys } from "../aggregates/group-keys.js";
import type { GroupTtl } from "../aggregates/group-aggregate-code.js";
import { BaseOperator } from "../operator.js";
import { KeyedStateTtl } from "../state-ttl.js";
import { type KeyedStore, type StateBackend, type StoreFiles, isStoreFiles } from "../state/keyed-store.js";
import { restoreStore, storeSnapshot } from "../state/snapshot-store.js";

/** A distinct row's state, in a snapshot and in a disk store: its values, its copies, with TTL its last write time. */
type DistinctEntry = [values: unknown[], count: number, written?: number];

/**
 * DISTINCT (and the set UNION built on it): a GROUP BY over every column without aggregates, as Flink
 * plans it. A row is emitted (`+I`) on its first occurrence; later copies change nothing; when the last
 * copy is retracted the row is deleted (`-D`). In batch mode over an updating input the rows are emitted
 * at end of input instead, so that the result is insert-only.
 *
 * With `table.exec.state.ttl` a row not seen for the TTL is forgotten (state-ttl.ts): its next copy is
 * emitted again as `+I`, and a retraction of it is ignored. Unlike the group aggregate, a repeated row
 * emits no refresh: DISTINCT stays insert-only over an insert-only input.
 *
 * State: on the hashmap backend a key index over all columns and a count per gid; on a disk backend (a
 * backend with a bounded cache, state/keyed-store.ts) one store entry per row, `[values, count, written]` by
 * the row's probe — the form snapshots have on both backends. On disk, an expired row is forgotten when it is
 * next read (as Flink's RocksDB backend drops expired values on read and in compaction, not by a scan).
 */
export class DistinctOperator extends BaseOperator {
  private readonly keys: GroupKeys;
  private counts = new Float64Array(16);
  private readonly freeIds: number[] = [];
  private nextId = 0;
  private readonly ttl: KeyedStateTtl | undefined;
  /** The rows' entries on a disk backend (the key index then only computes probes), else undefined. */
  private readonly store: KeyedStore<DistinctEntry> | undefined;
  /** Disk backend: the TTL in ms (0: none) and the clock it is measured on. */
  private readonly storeTtl: number;
  private readonly clock: () => number;

  constructor(schema: ResolvedSchema, private readonly deferToEnd = false, ttl?: GroupTtl, backend?: StateBackend) {
    super(1);
    this.keys = createGroupKeys(schema.names.map(col), schema);
    // batch (deferToEnd) keeps its rows in memory: no checkpoints, and the end of input walks them in order
    if (backend?.cacheSize !== undefined && !deferToEnd) this.store = backend.createStore<DistinctEntry>({ name: "Distinct.rows" });
    this.storeTtl = ttl?.ttl ?? 0;
    this.clock = ttl?.clock ?? (() => 0);
    if (this.store !== undefined) return;
    if (ttl !== undefined && ttl.ttl > 0 && !deferToEnd) {
      this.ttl = new KeyedStateTtl(ttl.ttl, ttl.clock, (gid, probe) => {
        this.keys.removeProbe(probe, gid);
        this.freeIds.push(gid);
      });
    }
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    if (this.store !== undefined) {
      this.processOnStore(this.store, kind, row);
      return;
    }
    if (this.ttl !== undefined) {
      this.processWithTtl(this.ttl, kind, row);
      return;
    }
    const keys = this.keys;
    let gid = keys.find(row);
    if (kind === Kind.INSERT || kind === Kind.UPDATE_AFTER) {
      if (gid < 0) {
        gid = this.freeIds.pop() ?? this.nextId++;
        if (gid >= this.counts.length) this.counts = growFloat64(this.counts, gid + 1);
        this.counts[gid] = 1;
        keys.add(gid);
        if (!this.deferToEnd) this.out.record(Kind.INSERT, row);
      } else this.counts[gid]!++;
    } else if (gid >= 0 && --this.counts[gid]! === 0) {
      keys.remove(gid);
      // rows deferred to the end go out in gid order: not reusing ids keeps that the order of first appearance
      if (!this.deferToEnd) this.freeIds.push(gid);
      if (!this.deferToEnd) this.out.record(Kind.DELETE, row);
    }
  }

  /** The same rules over the store: the row (just found by `keys.find`) is looked up by its probe. */
  private processOnStore(store: KeyedStore<DistinctEntry>, kind: number, row: unknown[]): void {
    const keys = this.keys;
    keys.find(row);
    const probe = keys.currentProbe();
    const ttl = this.storeTtl;
    const now = ttl > 0 ? this.clock() : 0;
    let e = store.get(probe);
    if (e !== undefined && ttl > 0 && e[2]! + ttl <= now) {
      store.delete(probe);
      e = undefined;
    }
    if (kind === Kind.INSERT || kind === Kind.UPDATE_AFTER) {
      if (e === undefined) {
        store.set(probe, ttl > 0 ? [keys.currentValues(), 1, now] : [keys.currentValues(), 1]);
        this.out.record(Kind.INSERT, row);
        return;
      }
      e[1]++;
      if (ttl > 0) e[2] = now;
    } else if (e !== undefined) {
      if (--e[1] === 0) {
        store.delete(probe);
        this.out.record(Kind.DELETE, row);
      } else if (ttl > 0) e[2] = now;
    }
  }

  /** processElement with state retention: expired rows are forgotten on access and by incremental cleanup. */
  private processWithTtl(ttl: KeyedStateTtl, kind: number, row: unknown[]): void {
    const now = ttl.now();
    ttl.step(now);
    const keys = this.keys;
    let gid = keys.find(row);
    if (gid >= 0 && ttl.expireIfIdle(gid, now)) gid = -1;
    if (kind === Kind.INSERT || kind === Kind.UPDATE_AFTER) {
      if (gid < 0) {
        gid = this.freeIds.pop() ?? this.nextId++;
        if (gid >= this.counts.length) this.counts = growFloat64(this.counts, gid + 1);
        this.counts[gid] = 1;
        keys.add(gid);
        ttl.created(gid, keys.currentProbe(), now);
        this.out.record(Kind.INSERT, row);
      } else {
        this.counts[gid]!++;
        ttl.touched(gid, now);
      }
    } else if (gid >= 0) {
      if (--this.counts[gid]! === 0) {
        keys.remove(gid);
        ttl.removed(gid);
        this.freeIds.push(gid);
        this.out.record(Kind.DELETE, row);
      } else ttl.touched(gid, now);
    }
  }

  protected override onEndOfInput(): void {
    if (this.deferToEnd) this.keys.forEachGroup(() => this.out.record(Kind.INSERT, this.keys.currentValues()));
    this.out.endInput();
  }

  /** Number of distinct rows held. */
  groupCount(): number {
    return this.store?.size ?? this.keys.size;
  }

  /** `[values, count, written?][]` on both backends; on a disk backend during a checkpoint its store's files. */
  override snapshotState(): unknown {
    const store = this.store;
    if (store !== undefined) {
      const files = storeSnapshot(store);
      if (files !== undefined) return files;
      const entries: DistinctEntry[] = [];
      for (const [, e] of store) entries.push(e.slice() as DistinctEntry);
      return entries;
    }
    const rows: [unknown[], number, number?][] = [];
    const ttl = this.ttl;
    this.keys.forEachGroup((gid) => rows.push(ttl ? [this.keys.currentValues(), this.counts[gid]!, ttl.timeOf(gid)] : [this.keys.currentValues(), this.counts[gid]!]));
    return rows;
  }

  override restoreState(s: unknown): void {
    let entries = s as DistinctEntry[] | StoreFiles;
    const store = this.store;
    if (isStoreFiles(entries)) {
      if (store !== undefined) {
        restoreStore(entries, store, undefined, (e) => e, 0);
        return;
      }
      const read = new Map<unknown, DistinctEntry>();
      restoreStore(entries, read, undefined, (e) => e, 0);
      entries = [...read.values()];
    }
    if (store !== undefined) {
      // with TTL, rows without a write time count as written at the restore (as on the hashmap backend)
      const now = this.storeTtl > 0 ? this.clock() : 0;
      for (const [values, n, written] of entries) {
        store.set(this.keys.probeOf(values), this.storeTtl > 0 ? [values.slice(), n, written ?? now] : [values.slice(), n]);
      }
      return;
    }
    const now = this.ttl?.now() ?? 0;
    for (const [values, n, written] of entries) {
      const gid = this.nextId++;
      if (gid >= this.counts.length) this.counts = growFloat64(this.counts, gid + 1);
      this.counts[gid] = n;
      this.keys.restore(values, gid);
      this.ttl?.created(gid, this.keys.currentProbe(), written ?? now);
    }
  }
}
