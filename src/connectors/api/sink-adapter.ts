import type { SinkWriter as InternalWriter } from "../../exec/source.js";
import { ExecutionError, TableError } from "../../types/errors.js";
import { KIND_SHORT, type RowKind } from "../../types/row.js";
import { toJavaString } from "../../types/format.js";
import type { Committable, ConnectorDefinition, SinkBatch, SinkChangelog, SinkContext, SinkWriter, TableContext } from "./contract.js";
import { andThen, guarded, isPromise, quietly } from "./maybe-async.js";

/** A sink's share of a checkpoint: the id it prepared for and the committables not yet seen committed. */
interface SinkState {
  readonly checkpointId: number;
  readonly committables: readonly Committable[];
}

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
 *
 * Checkpoints (Flink's SinkWriter + Committer): at the barrier the current batch is handed over, every
 * write settles, then `flush()` and `prepareCommit(checkpointId)` run; the checkpoint stores the
 * committables not yet committed (this one and any whose commit is still under way). Once the checkpoint
 * is durable they are committed (`commit`, one call at a time, in checkpoint order). A restored job hands
 * them to the new writer (`SinkContext.pendingCommittables`) and commits them again before its first write
 * (commit is idempotent). A cancelled job with checkpoints, or a failed one, calls `abort` instead of
 * committing what no checkpoint covers. The writer is created when the job starts (after the restore).
 */
export class ApiSinkWriter implements InternalWriter {
  private writer: SinkWriter | undefined;
  private opening: Promise<void> | undefined;
  private openRequested = false;
  private started = false;
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
  private readonly stepHandOver: boolean;
  private readonly aborter = new AbortController();
  /** Committables of the checkpoint the job was restored from (committed again when the writer opens). */
  private pending: readonly Committable[] = [];
  /** The last checkpoint id this writer prepared for or was restored from (the final commit at end of input uses the next). */
  private lastId = 0;
  /** Prepared at a barrier and not yet confirmed committed, oldest first. */
  private uncommitted: Committable[] = [];
  /** The barrier in progress, and what the last completed barrier prepared (taken by the snapshot). */
  private barrierRun: { readonly id: number; readonly promise: Promise<void> } | undefined;
  private prepared: { readonly id: number; readonly count: number; readonly committables: readonly Committable[] } | undefined;
  /** The commits under way, one after another. */
  private committing: Promise<void> | undefined;

  constructor(private readonly def: ConnectorDefinition, private readonly table: TableContext, private readonly changelog: SinkChangelog, private readonly layout: SinkLayout) {
    const o = table.options as Record<string, unknown>;
    this.maxSize = o["sink.batch.max-size"] as number;
    this.maxInFlight = o["sink.requests.max-inflight"] as number;
    this.batch = { rows: [], kinds: [], first: 1 };
    this.stepHandOver = def.sink?.handOver === "step";
  }

  /** The writer is created on the job's first step, once a restore has handed over its pending committables. */
  open(): void {
    this.openRequested = true;
  }

  private start(): void {
    if (this.started || !this.openRequested) return;
    this.started = true;
    const pending = this.pending;
    const ctx: SinkContext = { ...this.table, ...this.layout, changelog: this.changelog, signal: this.aborter.signal, pendingCommittables: pending };
    const restored = () => { this.uncommitted = this.uncommitted.filter((c) => !pending.includes(c)); };
    let created: SinkWriter | Promise<SinkWriter>;
    try {
      created = this.def.sink!.createWriter(ctx);
    } catch (e) {
      this.setFailure(this.error("cannot open the sink", e));
      return;
    }
    if (!isPromise(created)) {
      // a writer at hand (in-process sinks): it takes rows in this very step, no Promise
      const w = created;
      this.writer = w;
      let committed: void | Promise<void> = undefined;
      try {
        if (pending.length > 0 && w.commit !== undefined) committed = w.commit(pending);
      } catch (e) {
        this.setFailure(this.error("commit of the restored checkpoint failed", e));
        return;
      }
      if (!isPromise(committed)) { restored(); return; }
      this.openWith(committed.then(restored, (e) => { throw this.error("commit of the restored checkpoint failed", e); }));
      return;
    }
    this.openWith((async () => {
      let w: SinkWriter;
      try {
        w = await created;
      } catch (e) {
        throw this.error("cannot open the sink", e);
      }
      this.writer = w;
      if (pending.length > 0 && w.commit !== undefined) {
        try { await w.commit(pending); } catch (e) { throw this.error("commit of the restored checkpoint failed", e); }
      }
      restored();
    })());
  }

  /** The opening under way counts as one request: batches wait behind it. */
  private openWith(opening: Promise<void>): void {
    this.inFlight++;
    this.opening = opening.then(undefined, (e: TableError) => { this.setFailure(e); })
      .finally(() => { this.opening = undefined; this.inFlight--; this.settle(); });
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
    this.start();
    this.pump();
  }

  /** Sinks with `handOver: "step"`: the rows of the step that ended go to the writer now. */
  endOfStep(): void {
    if (this.stepHandOver && !this.closeStarted && this.failure === undefined) this.submit();
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

  /** Undefined when every batch handed over (and the opening) settled, else a Promise until they have. */
  private writesSettledNow(): void | Promise<void> {
    return this.inFlight === 0 && (this.queued.length === 0 || this.failure !== undefined) ? undefined : this.writesSettled();
  }

  /** Until every batch handed over (and the opening) settled. */
  private async writesSettled(): Promise<void> {
    while (this.inFlight > 0 || (this.queued.length > 0 && this.failure === undefined)) await this.nextSettlement();
  }

  backpressure(): Promise<void> | undefined {
    if (this.failure) throw this.failure;
    this.start();
    return this.inFlight >= this.maxInFlight ? this.nextSettlement() : undefined;
  }

  barrier(checkpointId: number): Promise<void> | undefined {
    if (this.failure) throw this.failure;
    if (this.prepared?.id === checkpointId) return undefined;
    if (this.barrierRun?.id === checkpointId) return this.barrierRun.promise;
    this.start();
    this.submit();
    const done = (committables: readonly Committable[]) => { this.prepared = { id: checkpointId, count: this.count, committables }; this.lastId = checkpointId; };
    const failed = (e: unknown) => { this.setFailure(e instanceof TableError ? e : this.error(`checkpoint ${checkpointId} failed`, e)); };
    let r: readonly Committable[] | Promise<readonly Committable[]>;
    try { r = this.prepare(checkpointId); } catch (e) { failed(e); throw this.failure; }
    // a writer whose writes, flush and prepareCommit returned at once is prepared now: the checkpoint is taken in this step
    if (!isPromise(r)) { done(r); return undefined; }
    const promise = r.then(done, failed).finally(() => { this.barrierRun = undefined; });
    this.barrierRun = { id: checkpointId, promise };
    return promise;
  }

  private prepare(checkpointId: number): readonly Committable[] | Promise<readonly Committable[]> {
    return andThen(this.writesSettledNow(), () => {
      if (this.failure) throw this.failure;
      const w = this.writer!;
      return andThen(guarded(() => w.flush?.(), (e) => this.error(`flush for checkpoint ${checkpointId} failed`, e)), () => {
        if (w.prepareCommit === undefined) return this.uncommitted.slice();
        return andThen(guarded(() => w.prepareCommit!(checkpointId), (e) => this.error(`prepareCommit(${checkpointId}) failed`, e)), (c) => {
          if (c !== undefined) this.uncommitted.push(c);
          return this.uncommitted.slice();
        });
      });
    });
  }

  /** The snapshot's share of this sink: the committables its barrier prepared (JSON, stored in the checkpoint). */
  prepareCommit(): unknown {
    const p = this.prepared;
    if (p === undefined || p.count !== this.count) throw new ExecutionError(`${this.where()}: a checkpoint was taken without the sink's barrier`);
    this.prepared = undefined;
    return { checkpointId: p.id, committables: p.committables };
  }

  /** The checkpoint holding `state` is durable: its committables are committed, after the commits before. */
  commit(state: unknown): void {
    const list = (state as SinkState).committables;
    const w = this.writer;
    if (list.length === 0 || w === undefined) return;
    if (w.commit === undefined) { this.uncommitted = this.uncommitted.filter((c) => !list.includes(c)); return; }
    const previous = this.committing ?? Promise.resolve();
    const run: Promise<void> = previous.then(() => w.commit!(list)).then(
      () => { this.uncommitted = this.uncommitted.filter((c) => !list.includes(c)); },
      (e) => { this.setFailure(this.error("commit failed", e)); },
    ).finally(() => { if (this.committing === run) this.committing = undefined; });
    this.committing = run;
  }

  /** A restored job: what the checkpoint had prepared and not seen committed is committed when the writer opens. */
  restore(state: unknown): void {
    const s = state as Partial<SinkState> | null;
    if (s === null || typeof s !== "object" || !Array.isArray(s.committables) || typeof s.checkpointId !== "number") {
      // the state of an earlier version of the connector, before it was written against this API
      const legacy = this.def.sink?.legacyCommittables;
      if (legacy === undefined) throw new ExecutionError(`${this.where()}: the checkpoint's sink state is not { checkpointId, committables }`);
      let list: readonly Committable[];
      try { list = legacy(state as Committable); } catch (e) { throw this.error("cannot restore the checkpoint's sink state", e); }
      this.pending = list;
      this.uncommitted = [...list];
      return;
    }
    this.pending = s.committables;
    this.uncommitted = [...this.pending];
    this.lastId = s.checkpointId;
  }

  /** Cancelled with checkpoints on, or failed: what no checkpoint covers is dropped (`abort`), then `close`. */
  abort(): void {
    this.end(true);
  }

  close(): void {
    this.end(false);
  }

  private end(discard: boolean): void {
    if (this.closeStarted) return;
    this.closeStarted = true;
    this.start();
    // a sink that shows rows as the job makes them (handOver "step") shows them up to the failure or cancel too
    if (discard && !this.stepHandOver) { this.batch = { rows: [], kinds: [], first: this.count + 1 }; this.queued.length = 0; }
    else if (discard) { if (this.failure === undefined) this.submit(); }
    else if (this.failure === undefined) this.submit();
    const failed = (e: unknown) => { this.finished = true; this.setFailure(e instanceof TableError ? e : this.error("close failed", e)); };
    let r: void | Promise<void>;
    try { r = this.finish(discard); } catch (e) { failed(e); return; }
    // a writer whose hooks all returned at once is closed now; the job need not wait for it
    if (!isPromise(r)) { this.finished = true; return; }
    this.done = r.then(() => { this.finished = true; }, failed);
  }

  /** Every write, then every commit under way settled; then abort (failure, cancel) or the final flush, commit and close. */
  private finish(discard: boolean): void | Promise<void> {
    return andThen(this.writesSettledNow(), () => andThen(this.commitsSettled(), () => {
      const w = this.writer;
      if (w === undefined) return;
      if (this.failure !== undefined || discard) {
        const reason = this.failure ?? new ExecutionError(`${this.where()}: the job was cancelled`);
        return andThen(quietly(() => w.abort?.(reason)), () => quietly(() => w.close()));
      }
      return andThen(guarded(() => w.flush?.(), (e) => this.error("flush failed", e)), () => {
        // end of input is a final checkpoint (Flink commits the last transaction at the end of a bounded input)
        const id = this.lastId + 1;
        const prepared = w.prepareCommit === undefined ? undefined : guarded(() => w.prepareCommit!(id), (e) => this.error(`prepareCommit(${id}) at end of input failed`, e));
        return andThen(prepared, (c) => {
          if (c !== undefined) this.uncommitted.push(c);
          const commit = this.uncommitted.length > 0 && w.commit !== undefined ? guarded(() => w.commit!(this.uncommitted.slice()), (e) => this.error("commit at end of input failed", e)) : undefined;
          return andThen(commit, () => {
            if (w.commit !== undefined) this.uncommitted = [];
            return guarded(() => w.close(), (e) => this.error("close failed", e));
          });
        });
      });
    }));
  }

  /** Undefined when no commit is under way, else a Promise until none is. */
  private commitsSettled(): void | Promise<void> {
    if (this.committing === undefined) return undefined;
    return (async () => { while (this.committing !== undefined) await this.committing; })();
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
      this.aborter.abort(e);
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

/** What a writer is told about the table's layout and the INSERT: static partition, bucketing, written metadata. */
export type SinkLayout = Pick<SinkContext, "staticPartition" | "distribution" | "metadata" | "overwrite">;

export function createApiWriter(def: ConnectorDefinition, table: TableContext, changelog: SinkChangelog, layout: SinkLayout): InternalWriter {
  return new ApiSinkWriter(def, table, changelog, layout);
}
