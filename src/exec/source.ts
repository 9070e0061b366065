/**
 * The Source contract shared by every connector: a reader that pushes records into an output when
 * polled, bounded or not, with a position a checkpoint can record.
 */
import type { Output } from "./operator.js";

export type PollResult =
  /** More records are available right away. */
  | "more"
  /** The source is exhausted; the reader has emitted +Infinity and endInput. */
  | "end"
  /** Nothing available now; poll again after the promise resolves. */
  | Promise<void>;

export interface SourceReader {
  /** Emits up to `max` records (and the watermarks that follow them) into `out`. */
  poll(out: Output, max: number): PollResult;
  /** Position for checkpoints (e.g. the next row index). */
  position(): unknown;
  seek(position: unknown): void;
  close(): void;
}
