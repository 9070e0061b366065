import { ExecutionError, TableError, ValidationError } from "../types/errors.js";
import { Kind, KIND_SHORT, kindFromShort, PositionalRow, ROW_KIND, type RowKind } from "../types/row.js";
import { coerceValue } from "../types/values.js";
import { defineConnector } from "./api/define.js";
import type { ConnectorColumn, JsonValue, SourceBatch, SourceContext, SourceReader, TableContext } from "./api/contract.js";

/**
 * What an `async-iterable` table reads (the table's attachment): the iterable, the name it is reported
 * by, and whether its rows may carry kinds other than +I (the changelog variant).
 */
export interface IterableAttachment {
  readonly attachmentOf: "async-iterable";
  readonly source: AsyncIterable<unknown> | Iterable<unknown>;
  readonly name: string;
  readonly changelog: boolean;
}

/**
 * Reads an AsyncIterable (or Iterable) of rows, one `next()` per `read()` and only when the job asks, so nothing
 * is buffered ahead of the job (backpressure: a slow job slows the producer). Every batch is one row: the job
 * never holds a row the iterator gave that it has not taken, which is what makes the row count an exact position
 * for a source that cannot be read again. The batch object is reused (the job is done with it before the next
 * `read()`); the row array is new. Each row is checked against the physical columns here (`validRows`), so the
 * messages name the iterable and its row.
 */
class IterableReader implements SourceReader {
  private iterator: AsyncIterator<unknown> | Iterator<unknown> | undefined;
  private ended = false;
  private rowNumber = 0;
  private readonly names: readonly string[];
  private readonly columns: readonly ConnectorColumn[];
  private readonly rows: unknown[][] = [[]];
  private readonly kinds: RowKind[] = ["+I"];
  private readonly batch: SourceBatch = { rows: this.rows, kinds: this.kinds };
  private readonly att: IterableAttachment;

  constructor(ctx: SourceContext) {
    this.att = attachmentOf(ctx);
    this.columns = ctx.columns;
    this.names = ctx.columns.map((c) => c.name);
    // an iterable cannot be read again: after a restore the row count continues, so messages name the right row
    if (typeof ctx.restoreFrom === "number") this.rowNumber = ctx.restoreFrom;
  }

  read(): SourceBatch | null | Promise<SourceBatch | null> {
    const it = (this.iterator ??= this.open());
    let next: IteratorResult<unknown> | Promise<IteratorResult<unknown>>;
    try {
      next = it.next();
    } catch (e) {
      throw this.fail(e);
    }
    if (isPromise(next)) return next.then((r) => this.take(r), (e) => { throw this.fail(e ?? new Error("rejected")); });
    return this.take(next);
  }

  private take(r: IteratorResult<unknown>): SourceBatch | null {
    if (r.done) {
      this.ended = true;
      return null;
    }
    this.emit(r.value);
    return this.batch;
  }

  private open(): AsyncIterator<unknown> | Iterator<unknown> {
    const src = this.att.source as Partial<AsyncIterable<unknown> & Iterable<unknown>>;
    const make = (src[Symbol.asyncIterator] ?? src[Symbol.iterator]) as ((this: unknown) => unknown) | undefined;
    if (typeof make !== "function") throw new ValidationError(`${this.att.name}: expected an AsyncIterable or Iterable of rows`);
    return make.call(src) as AsyncIterator<unknown> | Iterator<unknown>;
  }

  private fail(e: unknown): TableError {
    if (e instanceof TableError) return e;
    this.ended = true; // a throwing iterator is finished; return() is not called on it
    return new ExecutionError(`${this.att.name} failed after ${this.rowNumber} rows: ${(e as Error)?.message ?? String(e)}`, { cause: e });
  }

  /** Checks and converts one row into the batch. */
  private emit(row: unknown): void {
    const n = ++this.rowNumber;
    const cols = this.columns;
    let kind: number = Kind.INSERT;
    let values: readonly unknown[];
    if (row instanceof PositionalRow) {
      kind = kindFromShort(row.kind);
      values = row.values;
      if (values.length !== cols.length) {
        throw new ValidationError(`${this.att.name} row ${n}: has ${values.length} values but the schema has ${cols.length} physical columns [${this.names.join(", ")}]`);
      }
    } else if (row !== null && typeof row === "object" && !Array.isArray(row) && !(row instanceof Date)) {
      const obj = row as Record<string, unknown> & { [ROW_KIND]?: RowKind };
      const k = obj[ROW_KIND];
      if (k !== undefined) kind = kindFromShort(k);
      for (const key in obj) {
        if (!this.names.includes(key)) throw new ValidationError(`${this.att.name} row ${n}: column '${key}' is not a physical column of [${this.names.join(", ")}]`);
      }
      values = this.names.map((c) => obj[c]);
    } else {
      throw new ValidationError(`${this.att.name} row ${n}: expected Row.of(...) or an object with the columns [${this.names.join(", ")}], got ${String(row)}`);
    }
    if (kind !== Kind.INSERT && !this.att.changelog) {
      throw new ValidationError(`${this.att.name} row ${n}: kind ${row instanceof PositionalRow ? row.kind : String(kind)} in an insert-only source; use fromChangelogAsyncIterable for rows with kinds`);
    }
    const rec = new Array<unknown>(cols.length);
    for (let j = 0; j < cols.length; j++) {
      const c = cols[j]!;
      rec[j] = coerceValue(c.type, values[j], () => `${this.att.name} row ${n}, column '${c.name}'`);
    }
    this.rows[0] = rec;
    this.kinds[0] = KIND_SHORT[kind]!;
  }

  /** The rows read so far (the source is not replayable: the count only continues the row numbers). */
  position(): JsonValue { return this.rowNumber; }

  /** Cancelling (or ending) the job: an iterator that has not finished is told so with `return()`. */
  close(): void {
    const it = this.iterator;
    if (it === undefined || this.ended) return;
    this.ended = true;
    try {
      const r = it.return?.();
      // an async return() settles later; its rejection is not the job's failure
      if (isPromise(r)) r.then(undefined, () => {});
    } catch { /* closing must not hide why the job stopped */ }
  }
}

function isPromise<T>(v: unknown): v is Promise<T> {
  return v !== null && typeof v === "object" && typeof (v as { then?: unknown }).then === "function";
}

function attachmentOf(table: TableContext): IterableAttachment {
  const a = table.attachment as IterableAttachment | undefined;
  if (a === undefined || a.source === undefined) {
    throw new ValidationError(`table '${table.tableName}': an 'async-iterable' table is made with env.fromAsyncIterable(schema, iterable)`);
  }
  return a;
}

/**
 * The connector behind `env.fromAsyncIterable` / `fromChangelogAsyncIterable` (not for SQL: it reads an object),
 * written against the public connector API. It cannot replay (`replayable: false`): after a restore the reader
 * takes the iterable the new job was given as the rows that follow the checkpoint (the user hands over the rest
 * of the stream). Checkpoints of the version before this API stored the bare row count (`legacyPosition`).
 */
export const asyncIterableConnector = defineConnector({
  name: "async-iterable",
  options: {},
  validate(table) {
    attachmentOf(table);
  },
  source: {
    bounded: () => true,
    changelog: (table) => (attachmentOf(table).changelog ? "all" : "insert-only"),
    validRows: true,
    replayable: false,
    legacyPosition: (stored) => (typeof stored === "number" ? stored : null),
    createReader: (ctx) => new IterableReader(ctx),
  },
});
