/**
 * A min-heap of (time, item) entries for event-time firing: `peekTime` / `pop` hand out the entries due at
 * a watermark in time order, ties in insertion order (so firing is deterministic). Entries are never removed
 * from the middle; owners mark stale items and skip them when they come out (lazy deletion).
 */
export class TimeQueue<T> {
  private times: number[] = [];
  private seqs: number[] = [];
  private items: T[] = [];
  private seq = 0;

  get size(): number {
    return this.items.length;
  }

  push(time: number, item: T): void {
    const times = this.times;
    const seqs = this.seqs;
    const items = this.items;
    let i = items.length;
    const s = this.seq++;
    times.push(time);
    seqs.push(s);
    items.push(item);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (times[p]! < time || (times[p] === time && seqs[p]! < s)) break;
      this.move(p, i);
      i = p;
    }
    this.place(i, time, s, item);
  }

  /** Moves the entry at `from` to slot `to`. */
  private move(from: number, to: number): void {
    this.times[to] = this.times[from]!;
    this.seqs[to] = this.seqs[from]!;
    this.items[to] = this.items[from]!;
  }

  private place(i: number, time: number, seq: number, item: T): void {
    this.times[i] = time;
    this.seqs[i] = seq;
    this.items[i] = item;
  }

  /** Time of the earliest entry, or +Infinity when empty. */
  peekTime(): number {
    return this.items.length === 0 ? Infinity : this.times[0]!;
  }

  /** Removes and returns the earliest entry's item (the queue must not be empty). */
  pop(): T {
    const times = this.times;
    const seqs = this.seqs;
    const items = this.items;
    const top = items[0]!;
    const lastTime = times.pop()!;
    const lastSeq = seqs.pop()!;
    const lastItem = items.pop()!;
    const n = items.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && (times[r]! < times[l]! || (times[r] === times[l] && seqs[r]! < seqs[l]!)) ? r : l;
        if (times[c]! > lastTime || (times[c] === lastTime && seqs[c]! > lastSeq)) break;
        this.move(c, i);
        i = c;
      }
      this.place(i, lastTime, lastSeq, lastItem);
    }
    return top;
  }

  /** Every entry in time order (snapshots). */
  entries(): [number, T][] {
    return this.items.map((it, i) => [this.times[i]!, it, this.seqs[i]!] as const)
      .sort((a, b) => a[0] - b[0] || a[2] - b[2]).map(([t, it]) => [t, it]);
  }
}
