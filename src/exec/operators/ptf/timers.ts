/**
 * Event-time timers of a PTF operator, per virtual processor (PARTITION BY key). A key has named timers
 * (re-registering a name replaces its time) and unnamed timers (identified by their time: registering
 * the same time twice is one timer). All live timers sit in one indexed min-heap ordered by time; at
 * equal times unnamed timers come before named ones, then registration order (Flink leaves ties
 * unspecified; this order is deterministic and matches the rows Flink's tests list).
 *
 * The heap is *indexed*: every timer knows its position (`pos`). Re-registering a named timer updates
 * the timer object in place (time, record, registration order) and sifts it up or down; deleting a timer
 * removes it from the heap at once (the last entry moves into its slot). So a function that re-registers
 * a timer on every row allocates nothing per row, and the heap never holds a dead entry.
 */
export interface Timer {
  readonly key: unknown;
  /** The timer's name, or null for an unnamed timer. */
  readonly name: string | null;
  /** Epoch milliseconds; +Infinity fires at end of input only. */
  readonly time: number;
  /** An input record of the key: the output's key columns are read from it when the timer fires. */
  readonly record: readonly unknown[];
  /** The table argument `record` came from (several with several table arguments). */
  readonly input: number;
  /** Registration order (ties at equal time and kind). */
  readonly seq: number;
}

/** The service's own view of a timer: mutable, with its heap position (-1 once out of the heap). */
class Entry implements Timer {
  constructor(
    readonly key: unknown,
    readonly name: string | null,
    public time: number,
    public record: readonly unknown[],
    public input: number,
    public seq: number,
    public pos: number,
  ) {}
}

/**
 * A key's timers. The first named timer sits in `first` (most functions use one name: no string-keyed Map
 * lookup per registration); further names go to `named`. The maps are made when first needed.
 */
interface KeyTimers {
  first: Entry | undefined;
  named: Map<string, Entry> | undefined;
  unnamed: Map<number, Entry> | undefined;
  count: number;
}

/** A timer in a checkpoint: [key, name, time, record, input]. */
export type TimerSnapshot = readonly [unknown, string | null, number, readonly unknown[], number?];

/** Firing order: time, then unnamed before named, then registration order. */
function before(a: Entry, b: Entry): boolean {
  if (a.time !== b.time) return a.time < b.time;
  const an = a.name === null ? 0 : 1;
  const bn = b.name === null ? 0 : 1;
  return an !== bn ? an < bn : a.seq < b.seq;
}

function findNamed(k: KeyTimers, name: string): Entry | undefined {
  const f = k.first;
  return f !== undefined && f.name === name ? f : k.named?.get(name);
}

function deleteNamed(k: KeyTimers, t: Entry): void {
  if (k.first === t) k.first = undefined;
  else k.named!.delete(t.name!);
}

/** Whether records `a` and `b` hold identical (`Object.is`) values in the columns `cols`. */
function sameColumns(a: readonly unknown[], b: readonly unknown[], cols: readonly number[]): boolean {
  for (let i = 0; i < cols.length; i++) if (!Object.is(a[cols[i]!], b[cols[i]!])) return false;
  return true;
}

export class TimerService {
  private readonly byKey = new Map<unknown, KeyTimers>();
  private readonly heap: Entry[] = [];
  private seq = 0;

  /**
   * @param keyColumns per input (table argument), the PARTITION BY columns: all a firing timer reads from
   * its record (the output's key columns, the key of a timer registered in onTimer). Given, a re-registration
   * whose record holds identical key values keeps the record it has — the timer's registration order and
   * time still change. A function that re-registers a timer on every row (W6) would otherwise keep each
   * row's record alive until the key's next row, so most records would survive a young-generation GC and be
   * copied and promoted; keeping the older one lets the new one die young. Without it the newest is kept.
   */
  constructor(private readonly keyColumns?: readonly (readonly number[])[]) {}

  /** Registers (or replaces, by name / by time) a timer of `key`. */
  register(key: unknown, record: readonly unknown[], name: string | null, time: number, input = 0): void {
    let k = this.byKey.get(key);
    if (k === undefined) this.byKey.set(key, (k = { first: undefined, named: undefined, unnamed: undefined, count: 0 }));
    if (name === null) {
      const unnamed = (k.unnamed ??= new Map());
      // the same unnamed time is one timer, which keeps its place
      if (unnamed.has(time)) return;
      const t = new Entry(key, null, time, record, input, this.seq++, this.heap.length);
      unnamed.set(time, t);
      k.count++;
      this.heap.push(t);
      this.up(t.pos);
      return;
    }
    const old = findNamed(k, name);
    if (old !== undefined) {
      // replaced in place: a new registration (time, record, order), the same heap slot sifted to its place
      old.time = time;
      const cols = this.keyColumns?.[input];
      if (old.input !== input || cols === undefined || !sameColumns(old.record, record, cols)) old.record = record;
      old.input = input;
      old.seq = this.seq++;
      this.sift(old.pos);
      return;
    }
    const t = new Entry(key, name, time, record, input, this.seq++, this.heap.length);
    if (k.first === undefined) k.first = t;
    else (k.named ??= new Map()).set(name, t);
    k.count++;
    this.heap.push(t);
    this.up(t.pos);
  }

  /** Deletes the named timer `name` of `key`, if any. */
  clearNamed(key: unknown, name: string): void {
    const k = this.byKey.get(key);
    if (k === undefined) return;
    const t = findNamed(k, name);
    if (t === undefined) return;
    deleteNamed(k, t);
    this.forget(key, k, t);
  }

  /** Deletes the unnamed timer of `key` at `time`, if any. */
  clearUnnamed(key: unknown, time: number): void {
    const k = this.byKey.get(key);
    const t = k?.unnamed?.get(time);
    if (t === undefined) return;
    k!.unnamed!.delete(time);
    this.forget(key, k!, t);
  }

  /** Deletes every timer of `key` (named and unnamed). */
  clearAll(key: unknown): void {
    const k = this.byKey.get(key);
    if (k === undefined) return;
    if (k.first !== undefined) this.remove(k.first);
    if (k.named !== undefined) for (const t of k.named.values()) this.remove(t);
    if (k.unnamed !== undefined) for (const t of k.unnamed.values()) this.remove(t);
    this.byKey.delete(key);
  }

  /**
   * Removes and returns the earliest timer with time ≤ `watermark`, or undefined. Called in a loop
   * while firing, so timers registered by onTimer at or before the watermark fire in the same pass.
   */
  pollDue(watermark: number): Timer | undefined {
    const heap = this.heap;
    if (heap.length === 0) return undefined;
    const top = heap[0]!;
    if (top.time > watermark) return undefined;
    const k = this.byKey.get(top.key)!;
    if (top.name === null) k.unnamed!.delete(top.time);
    else deleteNamed(k, top);
    this.forget(top.key, k, top);
    return top;
  }

  /** The time of the earliest timer (+Infinity without timers): whether a watermark fires anything. */
  nextTime(): number {
    const heap = this.heap;
    return heap.length === 0 ? Infinity : heap[0]!.time;
  }

  /** Number of registered timers. */
  size(): number {
    return this.heap.length;
  }

  /** All timers in firing order (plain data for checkpoints and inspection). */
  snapshot(): TimerSnapshot[] {
    return [...this.heap].sort((a, b) => (before(a, b) ? -1 : 1)).map((t) => (t.input === 0 ? [t.key, t.name, t.time, t.record] as const : [t.key, t.name, t.time, t.record, t.input] as const));
  }

  /** Replaces all timers with those of a checkpoint (in its order). */
  restore(timers: readonly TimerSnapshot[]): void {
    this.byKey.clear();
    for (const t of this.heap) t.pos = -1;
    this.heap.length = 0;
    for (const [key, name, time, record, input] of timers) this.register(key, record, name, time, input ?? 0);
  }

  /** Takes `t` (already deleted from its key's map) out of the heap and drops the key when it has no timer left. */
  private forget(key: unknown, k: KeyTimers, t: Entry): void {
    this.remove(t);
    if (--k.count === 0) this.byKey.delete(key);
  }

  /** Removes `t` from the heap in place: the last entry takes its slot and moves to its own place. */
  private remove(t: Entry): void {
    const heap = this.heap;
    const i = t.pos;
    t.pos = -1;
    const last = heap.pop()!;
    if (last === t) return;
    heap[i] = last;
    last.pos = i;
    this.sift(i);
  }

  /** Moves the entry at `i` up or down to its place after its order changed. */
  private sift(i: number): void {
    if (i > 0 && before(this.heap[i]!, this.heap[(i - 1) >> 1]!)) this.up(i);
    else this.down(i);
  }

  private up(i: number): void {
    const heap = this.heap;
    const x = heap[i]!;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = heap[p]!;
      if (!before(x, parent)) break;
      heap[i] = parent;
      parent.pos = i;
      i = p;
    }
    heap[i] = x;
    x.pos = i;
  }

  private down(i: number): void {
    const heap = this.heap;
    const n = heap.length;
    const x = heap[i]!;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && before(heap[r]!, heap[l]!) ? r : l;
      const child = heap[c]!;
      if (!before(child, x)) break;
      heap[i] = child;
      child.pos = i;
      i = c;
    }
    heap[i] = x;
    x.pos = i;
  }
}
