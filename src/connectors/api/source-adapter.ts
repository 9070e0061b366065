import type { MetricGroup } from "../../exec/metrics.js";
import type { Output } from "../../exec/operator.js";
import type { PollResult, SourceReader as InternalReader } from "../../exec/source.js";
import { ExecutionError, TableError } from "../../types/errors.js";
import { Kind, kindFromShort } from "../../types/row.js";
import { coerceValue } from "../../types/values.js";
import type { ConnectorColumn, ConnectorDefinition, JsonValue, PushedFilter, SourceBatch, SourceContext, SourceMetricGroup, SourceReader, TableContext } from "./contract.js";

/** How long the job waits before asking again after an empty batch. */
const EMPTY_BATCH_PAUSE_MS = 10;

/** What the planner pushed into a scan (filters the source accepted, the projected physical columns). */
export interface ScanPushdown {
  readonly filters: readonly PushedFilter[];
  readonly projection?: readonly number[];
  /** The metadata columns (key, type) every row carries after the physical ones. */
  readonly metadata?: readonly ConnectorColumn[];
  /** The partitions left after pruning (SourceDefinition.partitions). */
  readonly partitions?: readonly Readonly<Record<string, string>>[];
  /** The declared physical columns (the table's `columns` may be the projected ones). */
  readonly physicalColumns?: readonly ConnectorColumn[];
}

/**
 * A public pull-based reader seen through the interpreter's poll contract: one `read()` outstanding
 * at a time, started only when the job polls (so the connector is never asked for more than the job
 * takes), its batch handed out `max` rows per poll. Rows are checked against the column types as
 * `fromValues` checks its rows; a reader failure names the connector, the table and the row count.
 */
export class ApiSourceReader implements InternalReader {
  private reader: SourceReader | undefined;
  private pending: Promise<void> | undefined;
  private failure: unknown;
  private batch: SourceBatch | undefined;
  private next = 0;
  private ended = false;
  private closed = false;
  private rows = 0;
  private readonly abort = new AbortController();
  /**
   * The checkpointed position is `{ at, skip }`: the reader's position before the batch being handed out
   * (`at`) and how many rows after it the job has already received (`skip`), so a checkpoint may fall
   * inside a batch. A restore opens the reader at `at` and drops the first `skip` rows it returns.
   */
  private at: JsonValue = null;
  private skip = 0;
  /** After a restore: rows the reader returns again that the job had already received. */
  private drop = 0;
  private restoreFrom: JsonValue | undefined;

  /** What a row holds: the (projected) physical columns, then the metadata columns the scan reads. */
  private readonly rowColumns: readonly ConnectorColumn[];

  /** Whether rows are checked against the column types (not for sources declaring `validRows`). */
  private readonly checked: boolean;

  /** False for a source that cannot read its rows again (SourceDefinition.replayable): a restore drops no row. */
  readonly replayable: boolean;

  /** The scan's metric group (setMetrics, before the first poll); a group of its own when the job gives none. */
  private metrics: SourceMetricGroup;

  /** @param clock the job's processing-time clock (SourceContext.clock) */
  constructor(private readonly def: ConnectorDefinition, private readonly table: TableContext, private readonly pushdown: ScanPushdown = { filters: [] }, private readonly clock: () => number = Date.now) {
    this.rowColumns = pushdown.metadata === undefined ? table.columns : [...table.columns, ...pushdown.metadata];
    this.checked = def.source?.validRows !== true;
    this.replayable = def.source?.replayable !== false;
    this.metrics = { scope: `${def.name}[${table.tableName}]`, gauge: () => {} };
  }

  /** The job's metric group of the scan, handed to the reader as `SourceContext.metrics`. */
  setMetrics(group: MetricGroup): void {
    this.metrics = group;
  }

  poll(out: Output, max: number): PollResult {
    if (this.failure !== undefined) throw this.fail(this.failure);
    if (this.pending !== undefined) return this.pending;
    if (this.reader === undefined) {
      const restore = this.restoreFrom === undefined ? {} : { restoreFrom: this.restoreFrom };
      const ctx: SourceContext = { ...this.table, signal: this.abort.signal, metadata: [], clock: this.clock, physicalColumns: this.table.columns, metrics: this.metrics, ...this.pushdown, ...restore };
      const r = this.guard(() => this.def.source!.createReader(ctx));
      if (isPromise(r)) return this.wait(r.then((x) => { this.opened(x); }));
      this.opened(r);
    }
    let n = 0;
    while (n < max) {
      const b = this.batch;
      if (b === undefined) {
        if (this.ended) return this.end(out);
        // no closure per read: a source of one-row batches (an iterable) reads once per row
        let r: SourceBatch | null | Promise<SourceBatch | null>;
        try { r = this.reader!.read(); } catch (e) { throw this.fail(e); }
        // nothing more now (Flink's NOTHING_AVAILABLE), also after rows of this poll: the job has handled them
        // and waits for the batch instead of taking a step with nothing to read (an idle job stays idle)
        if (isPromise(r)) return this.wait(r.then((x) => this.take(x)));
        this.take(r);
        continue;
      }
      const rows = b.rows;
      const kinds = b.kinds;
      if (!this.checked && kinds === undefined) {
        // a source of valid rows (datagen): the batch is handed out as it is, no per-row work but the call
        const from = this.next;
        const to = Math.min(rows.length, from + (max - n));
        for (let i = from; i < to; i++) out.record(Kind.INSERT, rows[i]!);
        n += to - from;
        this.next = to;
        this.skip += to - from;
        this.rows += to - from;
      } else {
        for (; this.next < rows.length && n < max; n++) {
          const i = this.next++;
          this.skip++;
          const row = rows[i]!;
          out.record(kinds === undefined ? Kind.INSERT : this.kindOf(kinds[i]), this.checked ? this.check(row) : this.counted(row));
        }
      }
      if (this.next >= rows.length) this.consumed();
      // an empty batch: nothing now; ask again shortly (a Promise, so an idle unbounded source does not spin)
      if (this.batch === undefined && rows.length === 0) return n > 0 ? "more" : this.wait(new Promise((r) => setTimeout(r, EMPTY_BATCH_PAUSE_MS)));
    }
    return "more";
  }

  private take(b: SourceBatch | null): void {
    if (b === null) { this.ended = true; return; }
    if (b === undefined || !Array.isArray(b.rows)) throw new ExecutionError(`${this.where()}: read() must resolve to { rows, kinds? } or null, got ${String(b)}`);
    if (b.kinds !== undefined && b.kinds.length !== b.rows.length) throw new ExecutionError(`${this.where()}: a batch has ${b.rows.length} rows but ${b.kinds.length} kinds`);
    this.batch = b;
    // rows the job received before the restore are not emitted again
    const d = Math.min(this.drop, b.rows.length);
    this.drop -= d;
    this.next = d;
    if (d > 0) this.rows += d;
  }

  private opened(r: SourceReader): void {
    this.reader = r;
    if (this.restoreFrom === undefined) this.at = this.readPosition();
  }

  /** The batch was handed out: the position moves past it (rows still to drop lie beyond the new one). */
  private consumed(): void {
    this.batch = undefined;
    this.next = 0;
    this.at = this.readPosition();
    this.skip = this.drop;
  }

  private readPosition(): JsonValue {
    let p: JsonValue;
    try { p = this.reader!.position(); } catch (e) { throw this.fail(e); }
    return p === undefined ? null : p;
  }

  private end(out: Output): "end" {
    out.watermark(Infinity);
    out.endInput();
    this.close();
    return "end";
  }

  private kindOf(k: unknown): number {
    try { return kindFromShort(k as string); } catch (e) { throw new ExecutionError(`${this.where()}, row ${this.rows + 1}: ${(e as Error).message}`); }
  }

  /** A row of a `validRows` source with row kinds: only counted (the count names the row of a later failure). */
  private counted(row: unknown[]): unknown[] {
    this.rows++;
    return row;
  }

  private check(row: unknown[]): unknown[] {
    const n = ++this.rows;
    const cols = this.rowColumns;
    if (!Array.isArray(row) || row.length !== cols.length) {
      throw new ExecutionError(`${this.where()}, row ${n}: expected an array of ${cols.length} values [${cols.map((c) => c.name).join(", ")}], got ${Array.isArray(row) ? `${row.length} values` : String(row)}`);
    }
    for (let j = 0; j < cols.length; j++) {
      const c = cols[j]!;
      row[j] = coerceValue(c.type, row[j], () => `${this.where()}, row ${n}, column '${c.name}'`);
    }
    return row;
  }

  private where(): string {
    return `connector '${this.def.name}' table '${this.table.tableName}'`;
  }

  private guard<T>(f: () => T): T {
    try { return f(); } catch (e) { throw this.fail(e); }
  }

  private wait(p: Promise<unknown>): Promise<void> {
    this.pending = p.then(
      () => { this.pending = undefined; },
      (e) => { this.pending = undefined; this.failure = e ?? new Error("rejected"); },
    );
    return this.pending;
  }

  private fail(e: unknown): TableError {
    if (e instanceof TableError) return e;
    return new ExecutionError(`${this.where()}: read failed after ${this.rows} rows: ${(e as Error)?.message ?? String(e)}`, { cause: e });
  }

  /** `{ at, skip }` (see `at`): plain JSON, as the checkpoint stores it. */
  position(): unknown { return { at: this.at, skip: this.skip }; }

  /**
   * Before the first poll of a restored job: the reader is created with `restoreFrom` = the position's `at`. A
   * position of an earlier version of the connector (not `{ at, skip }`) is translated by `legacyPosition`. A
   * source that cannot replay drops nothing: what it reads after the restore are new rows.
   */
  seek(position: unknown): void {
    const p = position as { at?: JsonValue; skip?: unknown } | null;
    const ours = p !== null && typeof p === "object" && "at" in p && typeof p.skip === "number";
    const legacy = this.def.source?.legacyPosition;
    if ((!ours && legacy === undefined) || this.reader !== undefined) {
      throw new ExecutionError(`${this.where()}: cannot restore from the position ${JSON.stringify(position)}`);
    }
    const at = ours ? p.at ?? null : this.guard(() => legacy!(position as JsonValue));
    const skip = ours && this.replayable ? p.skip as number : 0;
    this.restoreFrom = at ?? null;
    this.at = this.restoreFrom;
    this.skip = skip;
    this.drop = skip;
  }

  /** Cancelling or ending the job: aborts pending requests and closes the reader once. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort();
    const r = this.reader;
    if (r === undefined) {
      // still opening: close it once it is open
      this.pending?.then(() => { void this.reader?.close(); }, () => {});
      return;
    }
    try {
      const p = r.close();
      if (isPromise(p)) p.then(undefined, () => {});
    } catch { /* closing must not hide why the job stopped */ }
  }
}

export function isPromise<T>(v: unknown): v is Promise<T> {
  return v !== null && typeof v === "object" && typeof (v as { then?: unknown }).then === "function";
}

export function createApiReader(def: ConnectorDefinition, table: TableContext, pushdown?: ScanPushdown, clock?: () => number): InternalReader {
  return new ApiSourceReader(def, table, pushdown, clock);
}
