import type { KeyedStore } from "../../state/keyed-store.js";
import type { RowComparator } from "../sort/row-comparator.js";
import { rowsEqual } from "../sort/row-comparator.js";

/** Rows per chunk of the tail: a change past the head reads and writes one chunk of at most this many rows. */
export const CHUNK_ROWS = 128;
const HEAD = "head";
const INDEX = "index";

/**
 * The one partition of a top-N without `PARTITION BY` on a disk backend, in a store of the backend (Flink keys
 * it on the empty key, so its state is in RocksDB): the rows in rank order as
 * - the head, store entry `"head"`: the first `headSize` rows (rankEnd + 1), all a change's output reads;
 * - the tail, the rows after it, in sorted chunks of at most `CHUNK_ROWS` rows, store entries by chunk id;
 *   entry `"index"` lists the chunk ids in order (so a checkpoint of the store is the whole state).
 * In memory per chunk its id, row count and first row (where a row sorts). The tail is non-empty only when
 * the head is full, so the head is exactly what the in-memory top-N would read of the whole list.
 */
export class StoredRows {
  private ids: number[] = [];
  private counts: number[] = [];
  private firsts: unknown[][] = [];
  private nextId = 0;

  constructor(readonly store: KeyedStore<unknown>, private readonly headSize: number, private readonly compare: RowComparator) {}

  /** The head (the store's object: change it in place, then `headChanged`). */
  head(): unknown[][] {
    return (this.store.get(HEAD) as unknown[][] | undefined) ?? [];
  }

  headChanged(head: unknown[][]): void {
    this.store.set(HEAD, head);
  }

  get tailEmpty(): boolean {
    return this.ids.length === 0;
  }

  /** Whether `row` sorts after the full head's last row (`orEqual`: or ties it). */
  pastHead(head: unknown[][], row: unknown[], orEqual: boolean): boolean {
    if (this.ids.length === 0 || head.length < this.headSize) return false;
    const c = this.compare(row, head[head.length - 1]!);
    return orEqual ? c >= 0 : c > 0;
  }

  /** The head grew past its size: its last row goes to the front of the tail. */
  spill(head: unknown[][]): void {
    if (head.length <= this.headSize) return;
    const row = head.pop()!;
    if (this.ids.length === 0) { this.addChunk(0, [row]); return; }
    const rows = this.chunk(0);
    rows.unshift(row);
    this.wrote(0, rows);
  }

  /** The head shrank below its size: the tail's first row moves up into it. */
  refill(head: unknown[][]): void {
    if (head.length >= this.headSize || this.ids.length === 0) return;
    const rows = this.chunk(0);
    head.push(rows.shift()!);
    this.wrote(0, rows);
  }

  /** Inserts a row into the tail after its ties. */
  insertTail(row: unknown[]): void {
    const c = this.chunkFor(row);
    const rows = this.chunk(c);
    rows.splice(upperBound(rows, row, this.compare), 0, row);
    this.wrote(c, rows);
  }

  /** Removes from the tail the last row equal to `row` among its ties; false if there is none. */
  retractTail(row: unknown[]): boolean {
    const cmp = this.compare;
    for (let c = this.chunkFor(row); c >= 0; c--) {
      const rows = this.chunk(c);
      let i = upperBound(rows, row, cmp) - 1;
      while (i >= 0 && cmp(rows[i]!, row) === 0 && !rowsEqual(rows[i]!, row)) i--;
      if (i >= 0 && cmp(rows[i]!, row) === 0) {
        rows.splice(i, 1);
        this.wrote(c, rows);
        return true;
      }
      if (i >= 0) return false; // a row sorting before `row`: no tie earlier
    }
    return false;
  }

  /** All rows in rank order (snapshots; reads every entry). */
  all(): unknown[][] {
    const out = this.head().map((r) => r.slice());
    for (let c = 0; c < this.ids.length; c++) for (const r of this.chunk(c)) out.push(r.slice());
    return out;
  }

  /** Loads rows in rank order into an empty store. */
  load(rows: readonly unknown[][]): void {
    this.headChanged(rows.slice(0, this.headSize).map((r) => r.slice()));
    for (let i = this.headSize; i < rows.length; i += CHUNK_ROWS) {
      this.addChunk(this.ids.length, rows.slice(i, i + CHUNK_ROWS).map((r) => r.slice()));
    }
  }

  /** Rebuilds the chunk index after the store was restored from its files (reads each chunk once). */
  reopen(): void {
    const ids = (this.store.get(INDEX) as number[] | undefined) ?? [];
    this.ids = ids.slice();
    this.counts = [];
    this.firsts = [];
    for (const id of ids) {
      const rows = this.store.get(id) as unknown[][];
      this.counts.push(rows.length);
      this.firsts.push(rows[0]!);
    }
    this.nextId = ids.length === 0 ? 0 : Math.max(...ids) + 1;
  }

  /** The rows of a store written as `StoredRows`, in rank order (a checkpoint restored on the hashmap backend). */
  static rowsOf(entries: ReadonlyMap<unknown, unknown>): unknown[][] {
    const out = ((entries.get(HEAD) as unknown[][] | undefined) ?? []).slice();
    for (const id of (entries.get(INDEX) as number[] | undefined) ?? []) out.push(...(entries.get(id) as unknown[][]));
    return out;
  }

  /** The last chunk whose first row sorts at or before `row` (the first chunk if none). */
  private chunkFor(row: unknown[]): number {
    let lo = 0;
    let hi = this.firsts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(this.firsts[mid]!, row) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 ? lo - 1 : 0;
  }

  private chunk(c: number): unknown[][] {
    return this.store.get(this.ids[c]!) as unknown[][];
  }

  /** A chunk changed: written back, split when too long, removed when empty. */
  private wrote(c: number, rows: unknown[][]): void {
    const id = this.ids[c]!;
    if (rows.length === 0) {
      this.store.delete(id);
      this.ids.splice(c, 1);
      this.counts.splice(c, 1);
      this.firsts.splice(c, 1);
      this.store.set(INDEX, this.ids.slice());
      return;
    }
    if (rows.length > CHUNK_ROWS) {
      const half = rows.splice(rows.length >>> 1);
      this.store.set(id, rows);
      this.counts[c] = rows.length;
      this.firsts[c] = rows[0]!;
      this.addChunk(c + 1, half);
      return;
    }
    this.store.set(id, rows);
    this.counts[c] = rows.length;
    this.firsts[c] = rows[0]!;
  }

  private addChunk(at: number, rows: unknown[][]): void {
    const id = this.nextId++;
    this.store.set(id, rows);
    this.ids.splice(at, 0, id);
    this.counts.splice(at, 0, rows.length);
    this.firsts.splice(at, 0, rows[0]!);
    this.store.set(INDEX, this.ids.slice());
  }
}

function upperBound(rows: readonly unknown[][], row: unknown[], cmp: RowComparator): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(rows[mid]!, row) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
