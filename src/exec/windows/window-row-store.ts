import { ExecutionError } from "../../types/errors.js";
import { isPrefixStore, isStoreFiles, type PrefixStore, type StateBackend, type StoreFiles } from "../state/keyed-store.js";
import { restoreStore, storeSnapshot } from "../state/snapshot-store.js";
import { groupKey, parseGroupKey } from "./window-group-store.js";

/** A buffered row and its tag: the partition key (window top-N) or the side (window join). */
export type TaggedRow = [tag: unknown, row: unknown[]];

/** The disk form of the buffers in a snapshot: the open windows with their next arrival number, and the store's files. */
export interface WindowRowFiles {
  readonly ends: [end: number, next: number][];
  readonly rows: StoreFiles;
}

/**
 * The rows that window top-N / deduplication and window joins buffer until their window fires, on the disk
 * backend: one store entry per row, `<window end>/<arrival number>` → `[tag, row]`, so appending a row is one
 * write (through the store's bounded write-back cache) and a window reads back its own key range in arrival
 * order when it fires, then deletes it. Only the open windows' ends and next arrival numbers stay on the heap;
 * the firing window's rows are read into memory for the firing (a top-N sorts a partition, a join matches
 * the window's two sides), as the hashmap backend holds them all the time.
 */
export class WindowRowStore {
  private readonly store: PrefixStore<TaggedRow>;
  private readonly next = new Map<number, number>();

  constructor(backend: StateBackend, name: string) {
    const s = backend.createStore<TaggedRow>({ name });
    if (!isPrefixStore(s)) throw new ExecutionError(`${name}: the state backend's stores cannot read a window's entries as a range`);
    this.store = s;
  }

  get windowCount(): number {
    return this.next.size;
  }

  /** Ends of the open windows, in no particular order. */
  ends(): IterableIterator<number> {
    return this.next.keys();
  }

  add(end: number, tag: unknown, row: unknown[]): void {
    const seq = this.next.get(end) ?? 0;
    this.next.set(end, seq + 1);
    this.store.set(groupKey(end, seq), [tag, row]);
  }

  /** The window's rows in arrival order, then forgets them (the caller consumes the list). */
  take(end: number): TaggedRow[] {
    const out = this.peek(end);
    this.store.deletePrefix(`${end}/`);
    this.next.delete(end);
    return out;
  }

  /** The window's rows in arrival order (snapshots). */
  peek(end: number): TaggedRow[] {
    const out: TaggedRow[] = [];
    for (const [, e] of this.store.prefixEntries(`${end}/`)) out.push(e);
    return out;
  }

  /** The store's files when a checkpoint or savepoint is being taken, else undefined (the caller inlines). */
  files(): WindowRowFiles | undefined {
    const rows = storeSnapshot(this.store);
    return rows === undefined ? undefined : { ends: [...this.next].sort((a, b) => a[0] - b[0]), rows };
  }

  /** Restores files of a disk snapshot into this store. */
  restoreFiles(f: WindowRowFiles): void {
    restoreStore(f.rows, this.store, undefined, (e) => e, 0);
    for (const [end, next] of f.ends) this.next.set(end, next);
  }
}

export function isWindowRowFiles(x: unknown): x is WindowRowFiles {
  return x !== null && typeof x === "object" && isStoreFiles((x as Partial<WindowRowFiles>).rows) && Array.isArray((x as Partial<WindowRowFiles>).ends);
}

/** The rows of a disk snapshot's files per window end, each window's in arrival order (the hashmap backend restores them). */
export function readWindowRowFiles(f: WindowRowFiles): Map<number, TaggedRow[]> {
  const read = new Map<unknown, unknown>();
  restoreStore(f.rows, read, undefined, (e) => e, 0);
  const byEnd = new Map<number, [number, TaggedRow][]>();
  for (const [k, e] of read) {
    const [end, seq] = parseGroupKey(k as string);
    let list = byEnd.get(end);
    if (list === undefined) byEnd.set(end, list = []);
    list.push([seq, e as TaggedRow]);
  }
  const out = new Map<number, TaggedRow[]>();
  for (const [end] of f.ends) out.set(end, (byEnd.get(end) ?? []).sort((a, b) => a[0] - b[0]).map(([, e]) => e));
  return out;
}
