import type { SinkWriter as InternalWriter } from "../../exec/source.js";
import { ExecutionError, TableError } from "../../types/errors.js";
import { KIND_SHORT, type RowKind } from "../../types/row.js";
import { toJavaString } from "../../types/format.js";
import type { ConnectorDefinition, SinkBatch, SinkChangelog, SinkContext, SinkWriter, TableContext } from "./contract.js";
import { isPromise } from "./source-adapter.js";

interface Batch {
  rows: (readonly unknown[])[];
  kinds: RowKind[];
  /** 1-based number of the batch's first row among all rows the sink received. */
  first: number;
}

/**
 * A public asynchronous writer seen through the interpreter's sink contract. Records are collected into
 * batches of `sink.batch.max-size` rows; at most `sink.requests.max-inflight` `write()` calls are
 * pending, further full batches wait in order (at most one job step's worth), and while the limit is
 * reached `backpressure()` makes the job stop reading its sources. `close()` hands over the last
 * batch, waits for every write, then calls `flush()` and `close()`; `closing()` is that Promise.
 */
export class ApiSinkWriter implements InternalWriter {
  private writer: SinkWriter | undefined;
  private opening: Promise<void> | undefined;
  private batch: Batch;
  private readonly queued: Batch[] = [];
  private inFlight = 0;
  private count = 0;
  private failure: TableError | undefined;
  private closeStarted = false;
  private done: Promise<void> | undefined;
  private finished = false;
  /** Resolves the current waiters when a write settles. */
  private wake: (() => void) | undefined;
  private settled: Promise<void> | undefined;
  private readonly maxSize: number;
  private readonly maxInFlight: number;
  private readonly abort = new AbortController();

  constructor(private readonly def: ConnectorDefinition, private readonly table: TableContext, private readonly changelog: SinkChangelog) {
    const o = table.options as Record<string, unknown>;
    this.maxSize = o["sink.batch.max-size"] as number;
    this.maxInFlight = o["sink.requests.max-inflight"] as number;
    this.batch = { rows: [], kinds: [], first: 1 };
  }

  open(): void {
    const ctx: SinkContext = { ...this.table, changelog: this.changelog, signal: this.abort.signal, pendingCommittables: [] };
    try {
      const w = this.def.sink!.createWriter(ctx);
      if (isPromise<SinkWriter>(w)) {
        this.inFlight++; // opening counts as one request: batches wait behind it
        this.opening = w.then((x) => { this.writer = x; }, (e) => { this.setFailure(this.error("cannot open the sink", e)); })
          .finally(() => { this.opening = undefined; this.inFlight--; this.settle(); });
      } else this.writer = w;
    } catch (e) {
      throw this.error("cannot open the sink", e);
    }
  }

  write(kind: number, row: readonly unknown[]): void {
    const b = this.batch;
    b.rows.push(row);
    b.kinds.push(KIND_SHORT[kind]!);
    this.count++;
    if (b.rows.length >= this.maxSize) this.submit();
  }

  private submit(): void {
    const b = this.batch;
    if (b.rows.length === 0) return;
    this.batch = { rows: [], kinds: [], first: this.count + 1 };
    this.queued.push(b);
    this.pump();
  }

  /** Starts queued batches while fewer than max-inflight writes are pending. */
  private pump(): void {
    while (this.failure === undefined && this.writer !== undefined && this.inFlight < this.maxInFlight && this.queued.length > 0) {
      const b = this.queued.shift()!;
      const batch: SinkBatch = { rows: b.rows, kinds: b.kinds };
      let r: void | Promise<void>;
      try {
        r = this.writer.write(batch);
      } catch (e) {
        this.setFailure(this.writeError(b, e));
        return;
      }
      if (!isPromise(r)) continue;
      this.inFlight++;
      r.then(() => {}, (e) => { this.setFailure(this.writeError(b, e)); }).finally(() => { this.inFlight--; this.settle(); });
    }
  }

  private settle(): void {
    this.pump();
    const w = this.wake;
    this.wake = undefined;
    this.settled = undefined;
    w?.();
  }

  /** A Promise of the next settled request. */
  private nextSettlement(): Promise<void> {
    return (this.settled ??= new Promise<void>((r) => { this.wake = r; }));
  }

  backpressure(): Promise<void> | undefined {
    if (this.failure) throw this.failure;
    return this.inFlight >= this.maxInFlight ? this.nextSettlement() : undefined;
  }

  close(): void {
    if (this.closeStarted) return;
    this.closeStarted = true;
    if (this.failure === undefined) this.submit();
    this.done = this.finish().then(() => { this.finished = true; }, (e) => {
      this.finished = true;
      this.setFailure(e instanceof TableError ? e : this.error("close failed", e));
    });
  }

  private async finish(): Promise<void> {
    while (this.inFlight > 0 || (this.queued.length > 0 && this.failure === undefined)) await this.nextSettlement();
    const w = this.writer;
    if (w === undefined) return;
    if (this.failure !== undefined) {
      try { await w.abort?.(this.failure); } catch { /* the write failure is the job's error */ }
      try { await w.close(); } catch { /* idem */ }
      return;
    }
    try { await w.flush?.(); } catch (e) { throw this.error("flush failed", e); }
    try { await w.close(); } catch (e) { throw this.error("close failed", e); }
  }

  closing(): Promise<void> | undefined {
    if (this.failure) throw this.failure;
    return this.finished ? undefined : this.done;
  }

  written(): number {
    return this.count;
  }

  private setFailure(e: TableError): void {
    if (this.failure === undefined) {
      this.failure = e;
      this.abort.abort(e);
    }
  }

  private where(): string {
    return `connector '${this.def.name}' table '${this.table.tableName}'`;
  }

  private error(what: string, e: unknown): TableError {
    return new ExecutionError(`${this.where()}: ${what}: ${(e as Error)?.message ?? String(e)}`, { cause: e });
  }

  /** Names the failed row: `error.rowIndex` (0-based in the batch) when the writer set it, else the batch's first. */
  private writeError(b: Batch, e: unknown): TableError {
    const idx = (e as { rowIndex?: unknown })?.rowIndex;
    const i = typeof idx === "number" && Number.isInteger(idx) && idx >= 0 && idx < b.rows.length ? idx : 0;
    const cols = this.table.columns;
    const row = b.rows[i]!;
    const shown = `${b.kinds[i]}[${row.map((v, j) => toJavaString(cols[j]?.type, v)).join(", ")}]`;
    const which = typeof idx === "number" ? `row ${b.first + i}` : `the batch of ${b.rows.length} rows starting at row ${b.first}`;
    return new ExecutionError(`${this.where()}: write failed for ${which} ${shown}: ${(e as Error)?.message ?? String(e)}`, { cause: e });
  }
}

export function createApiWriter(def: ConnectorDefinition, table: TableContext, changelog: SinkChangelog): InternalWriter {
  return new ApiSinkWriter(def, table, changelog);
}
