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

  /** Its progress (highest time seen, watermark emitted), for a test harness's snapshot of a source. */
  snapshot(): { readonly maxSeen: number; readonly emitted: number } {
    return { maxSeen: this.maxSeen, emitted: this.emitted };
  }

  restore(s: { readonly maxSeen: number; readonly emitted: number }): void {
    this.maxSeen = s.maxSeen;
    this.emitted = s.emitted;
    this.sinceEmit = 0;
  }
}
