import { helpers } from "../../../expressions/helpers.js";
import type { OrderColumn } from "../../../ptf/order-by.js";
import { HASHMAP_BACKEND, type KeyedStore, type StateBackend, type StoreFiles, isStoreFiles } from "../../state/keyed-store.js";
import { restoreStore, storeSnapshot } from "../../state/snapshot-store.js";
import { encodeKey } from "../../state/store-codec.js";
import { TimeQueue } from "../../windows/time-queue.js";

/** A buffered row of an ORDER BY table: its key, kind, record and time (epoch ms). */
export interface SortedRow {
  readonly key: unknown;
  readonly kind: number;
  readonly record: unknown[];
  readonly time: number;
  readonly seq: number;
}

/** A sort buffer in a checkpoint: [key, kind, record] in release order. */
export type SortBufferSnapshot = readonly (readonly [unknown, number, readonly unknown[]])[];

/** A sort buffer of the disk backend in a checkpoint: its store's files and the next arrival number. */
export interface SortBufferFiles {
  readonly rows: StoreFiles;
  readonly seq: number;
}

export function isSortBufferFiles(x: unknown): x is SortBufferFiles {
  return x !== null && typeof x === "object" && !Array.isArray(x) && isStoreFiles((x as Partial<SortBufferFiles>).rows);
}

/** One partition's rows of one time in the store: the partition key, then [kind, record, arrival] per row. */
type WaitingRows = [key: unknown, rows: [kind: number, record: unknown[], seq: number][]];

type Compare = (a: SortedRow, b: SortedRow) => number;

/** (time, secondary ORDER BY columns in their directions, arrival): equal rows keep their arrival order. */
function comparator(orderBy: readonly OrderColumn[]): Compare {
  const cols = orderBy.slice(1).map((o) => ({
    i: o.column,
    dir: o.direction.startsWith("ASC") ? 1 : -1,
    nulls: o.direction.endsWith("NULLS_FIRST") ? -1 : 1,
  }));
  return (a, b) => {
    if (a.time !== b.time) return a.time < b.time ? -1 : 1;
    for (let j = 0; j < cols.length; j++) {
      const { i, dir, nulls } = cols[j]!;
      const x = a.record[i];
      const y = b.record[i];
      if (x === y) continue;
      if (x === null || y === null || x === undefined || y === undefined) return x == null ? nulls : -nulls;
      // x !== y: neither < nor > only with a NaN, which sorts above every number (helpers.cmp)
      const c = typeof x === "number" && typeof y === "number" ? (x < y ? -1 : x > y ? 1 : helpers.cmp(x, y)) : helpers.cmp(x, y);
      if (c !== 0) return c * dir;
    }
    return a.seq - b.seq;
  };
}

/** The store key of a partition's rows of one time: `<time>/<key>` (the time first: a time's entries are one range on disk). */
function entryKey(time: number, key: unknown): string {
  return `${time}/${encodeKey(key)}`;
}

function timeOfEntry(k: string): number {
  return Number(k.slice(0, k.indexOf("/")));
}

/**
 * The sort buffer of one ORDER BY table argument (PTF rule 10): rows wait until the table's watermark passes
 * their time and are then released in (time, secondary keys, arrival) order across all keys, which is the
 * order within each key as well.
 *
 * State, as Flink's ProcessTableOperator keeps its sorted input buffer in keyed state: the waiting rows per
 * partition key and time in a store of the job's state backend (`<time>/<key>` → the rows in arrival order;
 * on the disk backend behind its bounded cache), and the entries' times in a queue in memory (Flink's
 * timers, one per key and time). A watermark takes the due times in order; each time's rows of all keys are
 * read, sorted by the secondary keys and arrival, and handed out one by one.
 */
export class SortBuffer {
  private readonly store: KeyedStore<WaitingRows>;
  /** The store's entries by time, earliest first. */
  private readonly times = new TimeQueue<string>();
  /** The due rows of the time being released, sorted; `next` is the first not handed out. */
  private ready: SortedRow[] = [];
  private next = 0;
  private seq = 0;
  private readonly compare: Compare;

  constructor(readonly timeColumn: number, orderBy: readonly OrderColumn[], backend: StateBackend = HASHMAP_BACKEND, name = "Ptf.sortBuffer") {
    this.compare = comparator(orderBy);
    this.store = backend.createStore<WaitingRows>({ name });
  }

  /** Whether rows wait (cheap: the entries in memory, not the store). */
  size(): number {
    return this.times.size + this.ready.length - this.next;
  }

  add(key: unknown, kind: number, record: unknown[], time: number): void {
    const k = entryKey(time, key);
    const waiting = this.store.get(k);
    if (waiting !== undefined) waiting[1].push([kind, record, this.seq++]);
    else {
      this.store.set(k, [key, [[kind, record, this.seq++]]]);
      this.times.push(time, k);
    }
  }

  /** Removes and returns the first row with time ≤ `watermark`, or undefined. */
  pollDue(watermark: number): SortedRow | undefined {
    if (this.next === this.ready.length && !this.takeTime(watermark)) return undefined;
    return this.ready[this.next++];
  }

  /** Moves the rows of the earliest time, if due, from the store into `ready`, sorted. */
  private takeTime(watermark: number): boolean {
    const times = this.times;
    if (times.size === 0 || times.peekTime() > watermark) return false;
    const t = times.peekTime();
    const ready: SortedRow[] = [];
    while (times.size > 0 && times.peekTime() === t) {
      const k = times.pop();
      const [key, rows] = this.store.get(k)!;
      this.store.delete(k);
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]!;
        ready.push({ key, kind: r[0], record: r[1], time: t, seq: r[2] });
      }
    }
    if (ready.length > 1) ready.sort(this.compare);
    this.ready = ready;
    this.next = 0;
    return true;
  }

  /** The buffered rows in release order (plain data), or on a disk backend during a checkpoint its store's files. */
  snapshot(): SortBufferSnapshot | SortBufferFiles {
    const files = storeSnapshot(this.store);
    if (files !== undefined) return { rows: files, seq: this.seq };
    const all: SortedRow[] = this.ready.slice(this.next);
    for (const [t, k] of this.times.entries()) {
      const [key, rows] = this.store.get(k)!;
      for (const [kind, record, seq] of rows) all.push({ key, kind, record, time: t, seq });
    }
    return all.sort(this.compare).map((r) => [r.key, r.kind, [...r.record]] as const);
  }

  restore(rows: SortBufferSnapshot | SortBufferFiles, timeOf: (record: readonly unknown[]) => number): void {
    if (isSortBufferFiles(rows)) {
      restoreStore(rows.rows, this.store, undefined, (v) => v, 0);
      const keys: string[] = [];
      for (const k of this.store.keys()) keys.push(k as string);
      keys.sort((a, b) => timeOfEntry(a) - timeOfEntry(b));
      for (const k of keys) this.times.push(timeOfEntry(k), k);
      this.seq = rows.seq;
      return;
    }
    this.seq = 0;
    for (const [key, kind, record] of rows) this.add(key, kind, [...record], timeOf(record));
  }
}
