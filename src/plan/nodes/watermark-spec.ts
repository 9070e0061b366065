/** Event-time declaration of a source: rowtime column index and the watermark strategy. */
export interface WatermarkSpec {
  readonly rowtimeColumn: string;
  /** Watermark = max(rowtime) - delayMillis. */
  readonly delayMillis: number;
  /** Emitted after each record (Flink's `on-event`), or every `intervalRecords` records. */
  readonly emit: "on-event" | "periodic";
  /** Records between two watermarks when `emit` is "periodic". */
  readonly intervalRecords?: number;
}
