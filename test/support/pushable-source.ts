import { type CollectionSink, type PositionalRow, Row } from "../../src/index.js";

/** Lets the job run what it has (its sources, timers woken by a manualClock). */
export const settle = (): Promise<void> => new Promise<void>((r) => setTimeout(r, 5));

/** Waits (bounded) until the sink holds `n` rows; the exact rows are asserted after. */
export async function rowsIn(sink: CollectionSink, n: number): Promise<string[]> {
  for (let waited = 0; sink.size < n && waited < 2000; waited += 5) await settle();
  return sink.changelog();
}

/** A source that does not end: rows are pushed by the test, and it waits (idle) in between. */
export function pushable(): { rows: AsyncIterable<PositionalRow>; push(...values: unknown[]): void } {
  const queue: PositionalRow[] = [];
  let wake: (() => void) | undefined;
  async function* gen(): AsyncGenerator<PositionalRow> {
    for (;;) {
      while (queue.length > 0) yield queue.shift()!;
      await new Promise<void>((r) => { wake = r; });
    }
  }
  return { rows: gen(), push: (...values) => { queue.push(Row.of(...values)); wake?.(); } };
}
