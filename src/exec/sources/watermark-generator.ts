/**
 * Bounded-out-of-orderness watermarks, emitted per record (Flink's `on-event`) or every N records.
 * Watermark = max event time seen - delay; only increases are emitted.
 */
export class WatermarkGenerator {
  private maxSeen = -Infinity;
  private emitted = -Infinity;
  private sinceEmit = 0;

  constructor(private readonly delay: number, private readonly everyRecords = 1) {}

  /** Returns the watermark to emit after a record with event time `t`, or undefined. */
  onEvent(t: number): number | undefined {
    if (t > this.maxSeen) this.maxSeen = t;
    if (++this.sinceEmit < this.everyRecords) return undefined;
    this.sinceEmit = 0;
    const wm = this.maxSeen - this.delay;
    if (wm > this.emitted) {
      this.emitted = wm;
      return wm;
    }
    return undefined;
  }

  current(): number {
    return this.emitted;
  }

  /** The generator's state for a checkpoint: [max event time seen, last emitted, records since]. */
  state(): readonly [number, number, number] {
    return [this.maxSeen, this.emitted, this.sinceEmit];
  }

  restore(s: readonly [number, number, number]): void {
    [this.maxSeen, this.emitted, this.sinceEmit] = s;
  }
}
