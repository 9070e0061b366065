import { heapify, heapPop, heapPush } from "./heap.js";

/**
 * Event-time timers of a PTF operator, per virtual processor (PARTITION BY key). A key has named timers
 * (re-registering a name replaces its time) and unnamed timers (identified by their time: registering
 * the same time twice is one timer). All live timers sit in one min-heap ordered by time; at equal
 * times unnamed timers come before named ones, then registration order (Flink leaves ties unspecified;
 * this order is deterministic and matches the rows Flink's tests list).
 *
 * Replaced and cleared timers are removed from the key's maps at once and from the heap lazily (marked
 * dead, dropped when they reach the top); the heap is rebuilt when dead entries outnumber live ones,
 * so a function that re-registers a timer on every row does not grow memory.
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
  readonly seq: number;
  live: boolean;
}

interface KeyTimers {
  readonly named: Map<string, Timer>;
  readonly unnamed: Map<number, Timer>;
}

/** A timer in a checkpoint: [key, name, time, record, input]. */
export type TimerSnapshot = readonly [unknown, string | null, number, readonly unknown[], number?];

function before(a: Timer, b: Timer): boolean {
  if (a.time !== b.time) return a.time < b.time;
  const an = a.name === null ? 0 : 1;
  const bn = b.name === null ? 0 : 1;
  return an !== bn ? an < bn : a.seq < b.seq;
}

export class TimerService {
  private readonly byKey = new Map<unknown, KeyTimers>();
  private heap: Timer[] = [];
  private seq = 0;
  private live = 0;
  private dead = 0;

  /** Registers (or replaces, by name / by time) a timer of `key`. */
  register(key: unknown, record: readonly unknown[], name: string | null, time: number, input = 0): void {
    let k = this.byKey.get(key);
    if (k === undefined) this.byKey.set(key, (k = { named: new Map(), unnamed: new Map() }));
    const old = name === null ? k.unnamed.get(time) : k.named.get(name);
    if (old !== undefined) {
      // same unnamed time: one timer (keeps its place); same name: replaced
      if (name === null) return;
      this.kill(old);
    }
    const t: Timer = { key, name, time, record, input, seq: this.seq++, live: true };
    if (name === null) k.unnamed.set(time, t);
    else k.named.set(name, t);
    heapPush(this.heap, t, before);
    this.live++;
  }

  /** Deletes the named timer `name` of `key`, if any. */
  clearNamed(key: unknown, name: string): void {
    const k = this.byKey.get(key);
    const t = k?.named.get(name);
    if (t === undefined) return;
    k!.named.delete(name);
    this.kill(t);
    this.dropIfEmpty(key, k!);
  }

  /** Deletes the unnamed timer of `key` at `time`, if any. */
  clearUnnamed(key: unknown, time: number): void {
    const k = this.byKey.get(key);
    const t = k?.unnamed.get(time);
    if (t === undefined) return;
    k!.unnamed.delete(time);
    this.kill(t);
    this.dropIfEmpty(key, k!);
  }

  /** Deletes every timer of `key` (named and unnamed). */
  clearAll(key: unknown): void {
    const k = this.byKey.get(key);
    if (k === undefined) return;
    for (const t of k.named.values()) this.kill(t);
    for (const t of k.unnamed.values()) this.kill(t);
    this.byKey.delete(key);
  }

  /**
   * Removes and returns the earliest live timer with time ≤ `watermark`, or undefined. Called in a loop
   * while firing, so timers registered by onTimer at or before the watermark fire in the same pass.
   */
  pollDue(watermark: number): Timer | undefined {
    const heap = this.heap;
    while (heap.length > 0) {
      const top = heap[0]!;
      if (!top.live) {
        heapPop(heap, before);
        this.dead--;
        continue;
      }
      if (top.time > watermark) return undefined;
      heapPop(heap, before);
      top.live = false;
      this.live--;
      const k = this.byKey.get(top.key)!;
      if (top.name === null) k.unnamed.delete(top.time);
      else k.named.delete(top.name);
      this.dropIfEmpty(top.key, k);
      return top;
    }
    return undefined;
  }

  /** Number of registered timers. */
  size(): number {
    return this.live;
  }

  /** All live timers in firing order (plain data for checkpoints and inspection). */
  snapshot(): TimerSnapshot[] {
    return this.heap.filter((t) => t.live).sort((a, b) => (before(a, b) ? -1 : 1)).map((t) => (t.input === 0 ? [t.key, t.name, t.time, t.record] as const : [t.key, t.name, t.time, t.record, t.input] as const));
  }

  /** Replaces all timers with those of a checkpoint (in its order). */
  restore(timers: readonly TimerSnapshot[]): void {
    this.byKey.clear();
    this.heap = [];
    this.live = 0;
    this.dead = 0;
    for (const [key, name, time, record, input] of timers) this.register(key, record, name, time, input ?? 0);
  }

  private dropIfEmpty(key: unknown, k: KeyTimers): void {
    if (k.named.size === 0 && k.unnamed.size === 0) this.byKey.delete(key);
  }

  private kill(t: Timer): void {
    t.live = false;
    this.live--;
    this.dead++;
    // compaction: keeps the heap proportional to the live timers
    if (this.dead > 64 && this.dead > this.live) {
      this.heap = this.heap.filter((x) => x.live);
      this.dead = 0;
      heapify(this.heap, before);
    }
  }
}
