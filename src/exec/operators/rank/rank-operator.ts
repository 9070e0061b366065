import { col } from "../../../expressions/node.js";
import { stateLayout, typesOf } from "../../checkpoint/state-layout.js";
import type { FunctionResolver } from "../../../expressions/compile.js";
import type { SortKey } from "../../../plan/nodes/sort.js";
import type { ResolvedSchema } from "../../../types/resolved-schema.js";
import { Kind } from "../../../types/row.js";
import { type GroupKeys, createGroupKeys } from "../../aggregates/group-keys.js";
import { BaseOperator } from "../../operator.js";
import { errorWithRow } from "../row-error.js";
import { type RowComparator, rowComparator, rowsEqual } from "../sort/row-comparator.js";
import { type KeyedStore, type StateBackend, type StoreFiles, isStoreFiles } from "../../state/keyed-store.js";
import { restoreStore, storeSnapshot } from "../../state/snapshot-store.js";
import { type RankEmit, rankEmitter } from "./rank-emit.js";
import { SMALL_TOP_N_MAX, SmallTopN } from "./small-top-n.js";
import { StoredRows } from "./stored-rows.js";

/** One partition in a snapshot and in a disk store: its key values and its rows in rank order. */
type Partition = [keyValues: unknown[], rows: unknown[][]];

export interface RankSpec {
  readonly input: ResolvedSchema;
  readonly partitionKeys: readonly number[];
  readonly orderKeys: readonly SortKey[];
  /** 1-based, inclusive. */
  readonly rankStart: number;
  readonly rankEnd: number;
  /** Append the row number (1-based) to each output row. */
  readonly rankNumber: boolean;
  /** The input is insert-only: only the first `rankEnd` rows of a partition are kept (AppendOnlyTopNFunction). */
  readonly appendOnly: boolean;
}

/**
 * Top-N with ROW_NUMBER semantics, per partition, as Flink's AppendOnlyTopNFunction (insert-only input)
 * and RetractableTopNFunction (updating input). Each partition holds its rows sorted by the ORDER BY keys,
 * ties in arrival order. A change at one position changes the ranks after it; what is emitted is the
 * difference of the top range before and after:
 * - without a row number, the row leaving the range is deleted (`-D`) and the row entering it inserted (`+I`);
 * - with a row number, every rank whose row changed is updated: `-U`/`+U` over an insert-only input,
 *   `-D`/`+I` over an updating one; a rank filled for the first time is `+I`, one emptied `-D`.
 * An insert-only input keeps only the rows that can still be in the range (at most `rankEnd` per partition).
 *
 * State: on the hashmap backend a key index and the partitions by gid; on a disk backend (a backend with a
 * bounded cache, state/keyed-store.ts) one store entry per partition key, `[key values, rows]` — the form
 * snapshots have on both backends. A top-N without partition keys has one partition: on a disk backend its
 * rows are in a store as a head (the rankEnd + 1 first rows, all a change's output reads) and the rest in
 * sorted chunks (stored-rows.ts), so a change reads and writes a bounded part; `{ rows }` in snapshots.
 */
export class RankOperator extends BaseOperator {
  private readonly keys: GroupKeys | undefined;
  private partitions: unknown[][][] = [];
  private readonly freeIds: number[] = [];
  private readonly compare: RowComparator;
  private readonly s: number;
  private readonly e: number;
  private readonly before: number;
  private readonly after: number;
  /** The partitions on a disk backend (the key index then only computes probes), else undefined. */
  private readonly store: KeyedStore<Partition> | undefined;
  /** Emits an output row (with its row number): a record, or the consumer's row object (rank-emit.ts). */
  private readonly emit: RankEmit;
  /** The one partition of a top-N without partition keys on a disk backend, else undefined. */
  private readonly single: StoredRows | undefined;
  /**
   * The partitions of an insert-only ROW_NUMBER top-N with a small rankEnd on the hashmap backend (fixed slots
   * per partition, small-top-n.ts), else undefined (`partitions` then holds them). Undefined again after a
   * restore of a partition longer than rankEnd (a state this path never makes).
   */
  private small: SmallTopN | undefined;

  constructor(private readonly spec: RankSpec, resolveFunction?: FunctionResolver, backend?: StateBackend) {
    super(1);
    this.keys = spec.partitionKeys.length > 0
      ? createGroupKeys(spec.partitionKeys.map((k) => col(spec.input.names[k]!)), spec.input, resolveFunction) : undefined;
    this.compare = rowComparator(spec.orderKeys);
    this.s = spec.rankStart - 1;
    this.e = spec.rankEnd - 1;
    this.before = spec.appendOnly ? Kind.UPDATE_BEFORE : Kind.DELETE;
    this.after = spec.appendOnly ? Kind.UPDATE_AFTER : Kind.INSERT;
    this.emit = rankEmitter(spec.input.size, spec.rankNumber);
    if (this.keys !== undefined && backend?.cacheSize !== undefined) this.store = backend.createStore<Partition>({ name: "Rank.partitions" });
    if (this.keys === undefined && backend?.cacheSize !== undefined) {
      this.single = new StoredRows(backend.createStore<unknown>({ name: "Rank.rows" }), spec.rankEnd + 1, this.compare);
    }
    if (this.keys !== undefined && this.store === undefined && spec.appendOnly && spec.rankNumber && spec.rankEnd <= SMALL_TOP_N_MAX) {
      this.small = new SmallTopN(spec.rankEnd);
    }
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    const insert = kind === Kind.INSERT || kind === Kind.UPDATE_AFTER;
    let gid = 0;
    const keys = this.keys;
    if (keys) {
      try {
        gid = keys.find(row);
      } catch (e) {
        throw errorWithRow(e, kind, row, this.spec.input);
      }
      if (this.store !== undefined) {
        this.processOnStore(this.store, keys, insert, row);
        return;
      }
      const small = this.small;
      if (small !== undefined) {
        if (gid < 0) {
          if (!insert) return; // retraction of a row never seen
          const free = this.freeIds.pop();
          gid = free ?? keys.size;
          keys.add(gid);
          small.reset(gid);
        }
        if (insert) this.insertSmall(small, gid, row);
        else {
          // rare over an insert-only input: the general retraction on a copy of the partition
          const rows = small.get(gid);
          if (this.retract(rows, row)) {
            small.set(gid, rows);
            if (rows.length === 0) { keys.remove(gid); this.freeIds.push(gid); }
          }
        }
        return;
      }
      if (gid < 0) {
        if (!insert) return; // retraction of a row never seen
        const free = this.freeIds.pop();
        gid = free ?? this.partitions.length;
        keys.add(gid);
        if (free === undefined) this.partitions.push([]);
        else this.partitions[gid] = [];
      }
    } else if (this.single !== undefined) {
      this.processOnStoredRows(this.single, insert, row);
      return;
    } else if (this.partitions.length === 0) this.partitions.push([]);
    const rows = this.partitions[gid]!;
    if (insert) this.insert(rows, row);
    else if (this.retract(rows, row) && rows.length === 0 && keys) {
      keys.remove(gid); // the partition's key is still the current one
      this.freeIds.push(gid);
    }
  }

  /**
   * The same over the store: the partition of the key `keys.find` just computed is read (a copy), changed
   * in place and left to the store's write-back cache (the store's contract); an emptied one is deleted.
   */
  private processOnStore(store: KeyedStore<Partition>, keys: GroupKeys, insert: boolean, row: unknown[]): void {
    const probe = keys.currentProbe();
    let p = store.get(probe);
    if (p === undefined) {
      if (!insert) return; // retraction of a row never seen
      p = [keys.currentValues(), []];
      store.set(probe, p);
    }
    const rows = p[1];
    if (insert) this.insert(rows, row);
    else if (this.retract(rows, row) && rows.length === 0) store.delete(probe);
  }

  /**
   * The same over the one stored partition: a row sorting past the full head goes into (or out of) the tail
   * and ranks outside the range (no output); otherwise the head is the whole list as far as the output reads
   * it (the tail is non-empty only behind a full head), and gives its last row to the tail or takes the
   * tail's first. A retraction looks in the tail first: the in-memory list is searched from its end.
   */
  private processOnStoredRows(single: StoredRows, insert: boolean, row: unknown[]): void {
    const head = single.head();
    if (insert) {
      if (single.pastHead(head, row, true)) { single.insertTail(row); return; }
      this.insert(head, row);
      single.spill(head);
      single.headChanged(head);
      return;
    }
    if (single.pastHead(head, row, true) && single.retractTail(row)) return;
    if (this.retract(head, row)) {
      single.refill(head);
      single.headChanged(head);
    }
  }

  /** Index of the first row that sorts after `row` (a new row goes after its ties). */
  private upperBound(rows: unknown[][], row: unknown[]): number {
    let lo = 0;
    let hi = rows.length;
    const cmp = this.compare;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp(rows[mid]!, row) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private insert(rows: unknown[][], row: unknown[]): void {
    const s = this.s;
    const e = this.e;
    const i = this.upperBound(rows, row);
    const bounded = this.spec.appendOnly;
    if (bounded && i > e) return; // can never rank in the range
    const lb = rows.length;
    // the row that held rank e+1 before, when it is pushed out of a bounded buffer (old(e))
    let dropped: unknown[] | undefined;
    if (bounded && lb > e) dropped = rows[lb - 1];
    else rows.push(row);
    for (let p = rows.length - 1; p > i; p--) rows[p] = rows[p - 1]!;
    rows[i] = row;
    // old(p), the row at p before the insert, is rows[p + 1] for p >= i (or the dropped one past the end)
    const len = rows.length;
    const out = this.out;
    const emit = this.emit;
    if (this.spec.rankNumber) {
      const last = lb < e ? lb : e;
      for (let p = i > s ? i : s; p <= last; p++) {
        if (p < lb) {
          emit(out, this.before, p + 1 < len ? rows[p + 1]! : dropped!, p + 1);
          emit(out, this.after, rows[p]!, p + 1);
        } else emit(out, Kind.INSERT, rows[p]!, p + 1);
      }
      return;
    }
    if (i > e) return;
    const leaving = e < lb ? (e + 1 < len ? rows[e + 1] : dropped) : undefined;
    const entering = i >= s ? row : s - 1 < lb ? rows[s] : undefined;
    if (leaving !== undefined) emit(out, Kind.DELETE, leaving, 0);
    if (entering !== undefined) emit(out, Kind.INSERT, entering, 0);
  }

  /**
   * `insert` with a bounded buffer and the row number, over partition `gid`'s slots: the same position (the
   * first row sorting after the new one, ties before it), the same shift and the same output.
   */
  private insertSmall(small: SmallTopN, gid: number, row: unknown[]): void {
    const cap = small.cap; // rankEnd: e + 1
    const base = gid * cap;
    const rows = small.rows;
    const lens = small.lens;
    const lb = lens[gid]!;
    const cmp = this.compare;
    // a full buffer whose last row sorts at or before the new one: the row ranks past e (no output)
    if (lb === cap && cmp(rows[base + lb - 1]!, row) <= 0) return;
    let lo = 0;
    let hi = lb;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp(rows[base + mid]!, row) <= 0) lo = mid + 1;
      else hi = mid;
    }
    const i = lo;
    const e = cap - 1;
    let dropped: unknown[] | undefined;
    let len = lb;
    if (lb > e) dropped = rows[base + lb - 1];
    else lens[gid] = ++len;
    for (let p = len - 1; p > i; p--) rows[base + p] = rows[base + p - 1];
    rows[base + i] = row;
    const out = this.out;
    const emit = this.emit;
    const s = this.s;
    const last = lb < e ? lb : e;
    for (let p = i > s ? i : s; p <= last; p++) {
      if (p < lb) {
        emit(out, Kind.UPDATE_BEFORE, p + 1 < len ? rows[base + p + 1]! : dropped!, p + 1);
        emit(out, Kind.UPDATE_AFTER, rows[base + p]!, p + 1);
      } else emit(out, Kind.INSERT, rows[base + p]!, p + 1);
    }
  }

  /** Removes one row equal to `row`; false if there is none. */
  private retract(rows: unknown[][], row: unknown[]): boolean {
    let i = this.upperBound(rows, row) - 1;
    while (i >= 0 && this.compare(rows[i]!, row) === 0 && !rowsEqual(rows[i]!, row)) i--;
    if (i < 0 || this.compare(rows[i]!, row) !== 0) return false;
    const { s, e } = this;
    const lb = rows.length;
    const removed = rows[i]!;
    rows.splice(i, 1);
    const la = lb - 1;
    const out = this.out;
    const emit = this.emit;
    if (this.spec.rankNumber) {
      const last = Math.min(lb - 1, e);
      for (let p = Math.max(i, s); p <= last; p++) {
        const was = p === i ? removed : rows[p - 1]!;
        emit(out, this.before === Kind.UPDATE_BEFORE && p < la ? Kind.UPDATE_BEFORE : Kind.DELETE, was, p + 1);
        if (p < la) emit(out, this.before === Kind.UPDATE_BEFORE ? Kind.UPDATE_AFTER : Kind.INSERT, rows[p]!, p + 1);
      }
      return true;
    }
    if (i > e) return true;
    const leaving = i >= s ? removed : s < lb ? rows[s - 1] : undefined;
    const entering = e < la ? rows[e] : undefined;
    if (leaving !== undefined) emit(out, Kind.DELETE, leaving, 0);
    if (entering !== undefined) emit(out, Kind.INSERT, entering, 0);
    return true;
  }

  /** Number of partitions holding rows. */
  partitionCount(): number {
    if (this.store !== undefined) return this.store.size;
    if (this.single !== undefined) return this.single.head().length > 0 ? 1 : 0;
    return this.keys ? this.keys.size : this.partitions.length;
  }

  /** The state's layout (checked on restore): partition keys, sort keys and the rows kept. */
  stateSchema(): Readonly<Record<string, string>> {
    const { input, partitionKeys, orderKeys } = this.spec;
    return stateLayout({
      partition: typesOf(input, partitionKeys),
      order: `[${orderKeys.map((k) => `${input.names[k.column]} ${k.ascending ? "ASC" : "DESC"}`).join(", ")}]`,
      rows: typesOf(input),
    });
  }

  /** `{ rows }` without partition keys, else `{ parts }`: `[key values, rows][]`, or a disk store's checkpoint files. */
  override snapshotState(): unknown {
    const single = this.single;
    if (single !== undefined) return { rows: storeSnapshot(single.store) ?? single.all() };
    if (!this.keys) return { rows: (this.partitions[0] ?? []).map((r) => r.slice()) };
    const store = this.store;
    if (store !== undefined) {
      const files = storeSnapshot(store);
      if (files !== undefined) return { parts: files };
      const parts: Partition[] = [];
      for (const [, [key, rows]] of store) parts.push([key, rows.map((r) => r.slice())]);
      return { parts };
    }
    const parts: Partition[] = [];
    const small = this.small;
    this.keys.forEach((key, gid) => parts.push([key, (small !== undefined ? small.get(gid) : this.partitions[gid]!).map((r) => r.slice())]));
    return { parts };
  }

  override restoreState(state: unknown): void {
    const s = state as { rows?: unknown[][] | StoreFiles; parts?: Partition[] | StoreFiles };
    this.partitions = [];
    if (!this.keys) {
      let rows = s.rows ?? [];
      const single = this.single;
      if (isStoreFiles(rows)) {
        if (single !== undefined) {
          restoreStore(rows, single.store, undefined, (v) => v, 0);
          single.reopen();
          return;
        }
        const read = new Map<unknown, unknown>();
        restoreStore(rows, read, undefined, (v) => v, 0);
        rows = StoredRows.rowsOf(read);
      }
      if (single !== undefined) single.load(rows);
      else if (rows.length > 0) this.partitions.push(rows.map((r) => r.slice()));
      return;
    }
    let parts = s.parts ?? [];
    const store = this.store;
    if (isStoreFiles(parts)) {
      if (store !== undefined) {
        restoreStore(parts, store, undefined, (p) => p, 0);
        return;
      }
      const read = new Map<unknown, Partition>();
      restoreStore(parts, read, undefined, (p) => p, 0);
      parts = [...read.values()];
    }
    if (store !== undefined) {
      for (const [key, rows] of parts) store.set(this.keys.probeOf(key), [key.slice(), rows.map((r) => r.slice())]);
      return;
    }
    let small = this.small;
    if (small !== undefined && parts.some(([, rows]) => rows.length > small!.cap)) small = this.small = undefined;
    else small?.clear();
    for (let gid = 0; gid < parts.length; gid++) {
      const [key, rows] = parts[gid]!;
      this.keys.restore(key, gid);
      if (small !== undefined) {
        small.reset(gid);
        small.set(gid, rows.map((r) => r.slice()));
      } else this.partitions.push(rows.map((r) => r.slice()));
    }
  }
}
