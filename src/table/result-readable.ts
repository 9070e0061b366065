import { Readable } from "node:stream";

/**
 * A Node `Readable` (object mode) over a result's rows: `Readable.from` pulls the next row only when the
 * stream's buffer is below its high-water mark, so the job advances (one slice at a time) only while the
 * consumer wants data; destroying the stream returns the row iterator, which cancels the job. A failing
 * job destroys the stream with the job's error.
 */
export function rowsReadable<R>(rows: AsyncGenerator<R, void, undefined>, highWaterMark = 16): Readable {
  return Readable.from(rows, { objectMode: true, highWaterMark });
}
