/**
 * The processing-time timers of one job (Flink's ProcessingTimeService): an operator on processing time
 * registers the moment it has something to emit — a window's end, the release time of a temporal-sort
 * bucket — and the job calls it back once the job clock reaches that moment: at the start of every step
 * (between slices of records) and when the job wakes while its sources are idle (job.ts asks the clock to
 * wake it at `next()`, clock.ts). A timer at T is due when the clock reads T or later, as in Flink.
 *
 * Operators register once per window or per distinct time, never per row, and also keep firing on their
 * rows (a row read at processing time t first fires what ended before t), so a timer that comes due in the
 * middle of a slice fires no later than the next row. Timers are not snapshotted on their own: an operator
 * registers the timers of what it restores (its open windows, its waiting rows), which are exactly the
 * timers its snapshot held.
 */
export interface ProcessingTimeTarget {
  /** The clock reads `now`, at or past a timer this target registered: emit what is due by `now`. */
  onProcessingTime(now: number): void;
}

export class ProcessingTimeService {
  /** Min-heap on `times` (parallel arrays: no object per timer). */
  private readonly times: number[] = [];
  private readonly targets: ProcessingTimeTarget[] = [];

  /** Timers registered and not yet fired. */
  get size(): number {
    return this.times.length;
  }

  /** The earliest registered timer, Infinity when there is none. */
  next(): number {
    return this.times.length === 0 ? Infinity : this.times[0]!;
  }

  register(target: ProcessingTimeTarget, time: number): void {
    const times = this.times;
    const targets = this.targets;
    let i = times.length;
    times.push(time);
    targets.push(target);
    while (i > 0) {
      const p = (i - 1) >>> 1;
      if (times[p]! <= time) break;
      times[i] = times[p]!;
      targets[i] = targets[p]!;
      i = p;
    }
    times[i] = time;
    targets[i] = target;
  }

  /** Fires every timer due at `now`, earliest first; whether any fired. */
  fireDue(now: number): boolean {
    let fired = false;
    while (this.times.length > 0 && this.times[0]! <= now) {
      const target = this.targets[0]!;
      this.pop();
      target.onProcessingTime(now);
      fired = true;
    }
    return fired;
  }

  /** Forgets every timer (the job ended). */
  clear(): void {
    this.times.length = 0;
    this.targets.length = 0;
  }

  private pop(): void {
    const times = this.times;
    const targets = this.targets;
    const lastTime = times.pop()!;
    const lastTarget = targets.pop()!;
    const n = times.length;
    if (n === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const c = l + 1 < n && times[l + 1]! < times[l]! ? l + 1 : l;
      if (times[c]! >= lastTime) break;
      times[i] = times[c]!;
      targets[i] = targets[c]!;
      i = c;
    }
    times[i] = lastTime;
    targets[i] = lastTarget;
  }
}

/** An operator that takes processing-time timers: the job hands it its service before `open`. */
export interface UsesProcessingTime {
  bindProcessingTime(service: ProcessingTimeService): void;
}

export function usesProcessingTime(op: object): op is UsesProcessingTime {
  return typeof (op as Partial<UsesProcessingTime>).bindProcessingTime === "function";
}
