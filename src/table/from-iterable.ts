import { ValidationError } from "../types/errors.js";
import type { IterableAttachment } from "../connectors/async-iterable.js";
import { Schema } from "./schema.js";
import { TableDescriptor } from "./table-descriptor.js";

/** Options of `env.fromAsyncIterable` / `env.fromChangelogAsyncIterable`. */
export interface FromIterableOptions<T extends object> {
  /**
   * An event-time declaration added to the schema (the same as the schema's own `.watermark(...)`):
   * `{ column: "ts", expression: "ts - INTERVAL '1' SECOND" }`.
   */
  readonly watermark?: { readonly column: keyof T & string; readonly expression: string };
  /** The name errors and metrics report the source by (default `fromAsyncIterable#<n>`). */
  readonly name?: string;
}

let sources = 0;

/** The anonymous `async-iterable` table descriptor of one iterable; its reader pulls rows when the job polls. */
export function iterableDescriptor<T extends object>(
  schema: Schema<T>, source: AsyncIterable<unknown> | Iterable<unknown>, options: FromIterableOptions<T> | undefined, changelog: boolean,
): TableDescriptor<T> {
  const method = changelog ? "fromChangelogAsyncIterable" : "fromAsyncIterable";
  if (!(schema instanceof Schema)) throw new ValidationError(`${method}: the first argument must be a Schema (Schema.newBuilder()...build())`);
  const s = source as Partial<AsyncIterable<unknown> & Iterable<unknown>> | null | undefined;
  if (s === null || s === undefined || (typeof s[Symbol.asyncIterator] !== "function" && typeof s[Symbol.iterator] !== "function") || typeof s === "string") {
    throw new ValidationError(`${method}: the second argument must be an AsyncIterable or Iterable of rows (an async generator, a Node Readable in object mode, an array)`);
  }
  let full: Schema<object> = schema;
  if (options?.watermark) {
    const { column, expression } = options.watermark;
    full = (Schema.newBuilder().fromSchema(schema) as unknown as { watermark(c: string, e: string): { build(): Schema<object> } }).watermark(column, expression).build();
  }
  const attachment: IterableAttachment = { attachmentOf: "async-iterable", source: source as AsyncIterable<unknown> | Iterable<unknown>, name: options?.name ?? `${method}#${++sources}`, changelog };
  return TableDescriptor.forConnector("async-iterable").schema(full).attach(attachment).build() as unknown as TableDescriptor<T>;
}
