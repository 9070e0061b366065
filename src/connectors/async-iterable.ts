import type { Output } from "../exec/operator.js";
import type { PollResult, SourceReader } from "../exec/source.js";
import { ExecutionError, TableError, ValidationError } from "../types/errors.js";
import { Kind, kindFromShort, PositionalRow, ROW_KIND, type RowKind } from "../types/row.js";
import type { ResolvedSchema } from "../types/resolved-schema.js";
import { coerceValue } from "../types/values.js";
import { checkOptionKeys, type ConnectorTable } from "./connector-spec.js";
import type { Connector } from "./connector.js";

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

/** The changelog an iterable source declares: insert-only, or every kind (Flink's fromChangelogStream default). */
export const ALL_KINDS: readonly Kind[] = [Kind.INSERT, Kind.UPDATE_BEFORE, Kind.UPDATE_AFTER, Kind.DELETE];

/**
 * Reads an AsyncIterable (or Iterable) of rows, one `next()` at a time and only when polled, so nothing
 * is buffered ahead of the job (backpressure: a slow job slows the producer). A sync iterator is drained
 * `max` rows per poll; an async one returns the pending `next()` as the poll's Promise, and the row it
 * resolves to is emitted by the following poll. Each row is checked against the physical columns.
 */
class IterableReader implements SourceReader {
  private iterator: AsyncIterator<unknown> | Iterator<unknown> | undefined;
  /** A `next()` result that arrived while the job was not polling. */
  private ready: IteratorResult<unknown> | undefined;
  private failure: unknown;
  private waiting = false;
  private ended = false;
  private rowNumber = 0;
  private readonly names: readonly string[];

  constructor(private readonly att: IterableAttachment, private readonly physical: ResolvedSchema) {
    this.names = physical.names;
  }

  poll(out: Output, max: number): PollResult {
    if (this.failure !== undefined) throw this.fail(this.failure);
    if (this.waiting) return this.pending!;
    const it = (this.iterator ??= this.open());
    for (let n = 0; n < max; n++) {
      let r = this.ready;
      this.ready = undefined;
      if (r === undefined) {
        let next: IteratorResult<unknown> | Promise<IteratorResult<unknown>>;
        try {
          next = it.next();
        } catch (e) {
          throw this.fail(e);
        }
        if (isPromise(next)) return this.wait(next);
        r = next;
      }
      if (r.done) {
        this.ended = true;
        out.watermark(Infinity);
        out.endInput();
        return "end";
      }
      this.emit(out, r.value);
    }
    return "more";
  }

  private pending: Promise<void> | undefined;

  private wait(next: Promise<IteratorResult<unknown>>): Promise<void> {
    this.waiting = true;
    this.pending = next.then(
      (r) => { this.waiting = false; this.ready = r; },
      (e) => { this.waiting = false; this.failure = e ?? new Error("rejected"); },
    );
    return this.pending;
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

  private emit(out: Output, row: unknown): void {
    const n = ++this.rowNumber;
    const cols = this.physical.columns;
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
    out.record(kind, rec);
  }

  position(): unknown { return this.rowNumber; }
  seek(): void {
    throw new ExecutionError(`${this.att.name}: an iterable source cannot be repositioned`);
  }

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

function attachmentOf(table: ConnectorTable): IterableAttachment {
  const a = table.attachment as IterableAttachment | undefined;
  if (a === undefined || a.source === undefined) {
    throw new ValidationError(`table '${table.tableName}': an 'async-iterable' table is made with env.fromAsyncIterable(schema, iterable)`);
  }
  return a;
}

/** The connector behind `env.fromAsyncIterable` / `fromChangelogAsyncIterable` (not for SQL: it reads an object). */
export const asyncIterableConnector: Connector = {
  name: "async-iterable",
  canRead: true,
  canWrite: false,
  validate(table) {
    checkOptionKeys(table, []);
    attachmentOf(table);
  },
  sourceKinds: (table) => (attachmentOf(table).changelog ? ALL_KINDS : [Kind.INSERT]),
  createReader(table) {
    return new IterableReader(attachmentOf(table), table.physical);
  },
};
