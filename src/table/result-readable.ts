import { Readable } from "node:stream";

/**
 * What `toReadable()` declares it returns: the parts of a Node object-mode `Readable` a consumer uses. The
 * value is a real `Readable` (`instanceof Readable` holds; pass it to `stream.pipeline`); the declared type is
 * structural so that the package's declarations need no `@types/node` in projects without it.
 */
export interface RowsReadable<R> extends AsyncIterable<R> {
  readonly readableObjectMode: boolean;
  pipe<T extends { write(chunk: R): unknown }>(destination: T, options?: { end?: boolean }): T;
  read(size?: number): R | null;
  pause(): this;
  resume(): this;
  destroy(error?: Error): this;
  on(event: string, listener: (...args: unknown[]) => void): this;
  once(event: string, listener: (...args: unknown[]) => void): this;
}

/**
 * A Node `Readable` (object mode) over a result's rows: `Readable.from` pulls the next row only when the
 * stream's buffer is below its high-water mark, so the job advances (one slice at a time) only while the
 * consumer wants data; destroying the stream returns the row iterator, which cancels the job. A failing
 * job destroys the stream with the job's error.
 */
export function rowsReadable<R>(rows: AsyncGenerator<R, void, undefined>, highWaterMark = 16): RowsReadable<R> {
  return Readable.from(rows, { objectMode: true, highWaterMark }) as unknown as RowsReadable<R>;
}
