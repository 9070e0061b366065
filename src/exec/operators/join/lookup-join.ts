import { CodegenContext, type FunctionResolver, compileExpr } from "../../../expressions/compile.js";
import type { LookupJoinNode } from "../../../plan/nodes/lookup-join.js";
import { TableError, ExecutionError } from "../../../types/errors.js";
import { isLookupReaderFactory, type LookupReader } from "../../lookup.js";
import { BaseOperator } from "../../operator.js";
import type { AsyncWork } from "../../source.js";
import { compileCombine, compilePad, compileResidual } from "./join-code.js";
import { errorWithRow } from "../row-error.js";

type Rows = readonly (readonly unknown[])[];

/** A row waiting for its lookup (or a watermark / the end of input, kept in order behind the rows). */
interface Pending {
  readonly kind: number;
  readonly row: unknown[] | null;
  readonly wm: number;
  /** The lookup key (null: finds nothing). */
  readonly key: unknown[] | null;
  rows: Rows | undefined;
  started: boolean;
}

const END = -1;
const DEFAULT_CAPACITY = 16;

/**
 * A processing-time lookup join (Flink's LookupJoinRunner / AsyncLookupJoinRunner): each input row asks the
 * lookup source for the rows of its key, as the source holds them now, and is emitted once per found row that
 * passes the residual (LEFT: padded once when none does), with the input row's kind. A NULL key finds nothing.
 * Its only state is the rows taken in and not emitted yet (Flink's AsyncWaitOperator keeps its in-flight
 * inputs in state): a restored job looks them up again, so a row in flight at a savepoint is neither lost nor
 * emitted twice. A restored job looks every later row up in the table as it is then.
 *
 * A lookup answered synchronously (an in-memory source, a cache hit) is joined at once while nothing waits.
 * An asynchronous answer puts the row in an ordered queue; later rows queue behind it (their lookups start
 * while fewer than the source's `maxConcurrent` are in flight; with that many rows queued the job reads no
 * input), and rows,
 * watermarks and the end of input leave the queue in input order, inside the job's step (AsyncWork).
 */
export class LookupJoinOperator extends BaseOperator {
  private readonly keyOf: (r: unknown[]) => unknown[] | null;
  private readonly combine: (l: unknown[], r: unknown[]) => unknown[];
  private readonly pad: (l: unknown[]) => unknown[];
  private readonly residual: ((row: unknown[]) => boolean) | undefined;
  private reader: LookupReader;
  private readonly outer: boolean;
  private readonly queue: Pending[] = [];
  private head = 0;
  private nextToStart = 0;
  private inFlight = 0;
  private failure: TableError | undefined;
  private wake: (() => void) | undefined;
  private waiting: Promise<void> | undefined;
  private readonly capacity: number;
  private readonly abort = new AbortController();
  private opened: (LookupReader & { close(): void }) | undefined;

  constructor(private readonly node: LookupJoinNode, resolve?: FunctionResolver) {
    super(1);
    const ctx = new CodegenContext(node.input.schema, resolve, "r");
    const keys = node.keys.map((k) => compileExpr(k, ctx).src);
    this.keyOf = ctx.build(`(function(r){${ctx.tempDeclarations()}const k=[${keys.join(",")}];`
      + `for(let i=0;i<k.length;i++)if(k[i]===null)return null;return k;})`);
    const ls = node.input.schema.size;
    const rs = node.lookupSchema.size;
    this.combine = compileCombine(ls, rs);
    this.pad = compilePad(ls, rs, true);
    this.residual = compileResidual(node.residual, node.schema, resolve);
    this.reader = node.reader as LookupReader;
    this.capacity = isLookupReaderFactory(node.reader) ? node.reader.maxConcurrent : DEFAULT_CAPACITY;
    this.outer = node.joinType === "LEFT";
  }

  override open(): void {
    if (isLookupReaderFactory(this.node.reader)) this.reader = this.opened = this.node.reader.open(this.abort.signal);
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    let key: unknown[] | null;
    try {
      key = this.keyOf(row);
    } catch (e) {
      throw errorWithRow(e, kind, row, this.node.input.schema);
    }
    if (this.head === this.queue.length) {
      const rows = key === null ? [] : this.reader.lookup(key);
      if (!isPromise(rows)) { this.join(kind, row, rows); return; }
      const p: Pending = { kind, row, wm: 0, key, rows: undefined, started: true };
      this.queue.push(p);
      this.nextToStart = this.queue.length;
      this.await(p, rows);
      return;
    }
    this.queue.push({ kind, row, wm: 0, key, rows: undefined, started: false });
    this.startMore();
  }

  /** Starts the lookups of queued rows while fewer than `capacity` are in flight. */
  private startMore(): void {
    const q = this.queue;
    while (this.inFlight < this.capacity && this.nextToStart < q.length && this.failure === undefined) {
      const p = q[this.nextToStart++]!;
      if (p.started) continue;
      p.started = true;
      let rows: Rows | Promise<Rows>;
      try {
        rows = p.key === null ? [] : this.reader.lookup(p.key);
      } catch (e) {
        this.setFailure(e);
        return;
      }
      if (isPromise<Rows>(rows)) this.await(p, rows);
      else p.rows = rows;
    }
  }

  private await(p: Pending, rows: Promise<Rows>): void {
    this.inFlight++;
    rows.then((r) => { p.rows = r; this.inFlight--; this.startMore(); this.notify(); }, (e) => { this.inFlight--; this.setFailure(e); });
  }

  private setFailure(e: unknown): void {
    this.failure ??= e instanceof TableError ? e : new ExecutionError(`lookup join with '${this.node.tableName}': lookup failed: ${(e as Error)?.message ?? String(e)}`, { cause: e });
    this.notify();
  }

  private join(kind: number, row: unknown[], rows: Rows): void {
    let found = false;
    for (let i = 0; i < rows.length; i++) {
      const j = this.combine(row, rows[i] as unknown[]);
      if (this.residual !== undefined && !this.residual(j)) continue;
      found = true;
      this.out.record(kind, j);
    }
    if (!found && this.outer) this.out.record(kind, this.pad(row));
  }

  protected override onWatermark(wm: number): void {
    if (this.head === this.queue.length) { this.out.watermark(wm); return; }
    if (wm !== Infinity) this.queue.push({ kind: 0, row: null, wm, key: null, rows: [], started: true });
  }

  protected override onEndOfInput(): void {
    if (this.head === this.queue.length) { this.out.endInput(); return; }
    this.queue.push({ kind: END, row: null, wm: Infinity, key: null, rows: [], started: true });
  }

  private notify(): void {
    const w = this.wake;
    this.wake = undefined;
    this.waiting = undefined;
    w?.();
  }

  private next(): Promise<void> {
    return (this.waiting ??= new Promise<void>((r) => { this.wake = r; }));
  }

  /** Joins and emits the queued rows whose lookups completed, in input order. */
  private emitCompleted(): void {
    if (this.failure) throw this.failure;
    const q = this.queue;
    while (this.head < q.length) {
      const p = q[this.head]!;
      if (p.rows === undefined) break;
      q[this.head++] = undefined as never;
      if (p.row !== null) this.join(p.kind, p.row, p.rows);
      else if (p.kind === END) { this.out.watermark(Infinity); this.out.endInput(); } else this.out.watermark(p.wm);
    }
    if (this.head === q.length) { q.length = 0; this.head = 0; this.nextToStart = 0; }
    this.startMore();
  }

  asyncWork(): AsyncWork {
    return {
      emitCompleted: () => this.emitCompleted(),
      backpressure: () => {
        if (this.failure) throw this.failure;
        return this.queue.length - this.head >= this.capacity ? this.next() : undefined;
      },
      drain: () => {
        if (this.failure) throw this.failure;
        // a cancelled (or stopped-with-savepoint) job does not wait for lookups that may never answer: the
        // rows they were for are in the snapshot
        return this.head < this.queue.length && !this.abort.signal.aborted ? this.next() : undefined;
      },
      // while the sources wait, a completed lookup wakes the job: an idle input must not hold results back
      inFlight: () => (this.inFlight > 0 && this.failure === undefined ? this.next() : undefined),
    };
  }

  override snapshotState(): unknown {
    const pending: [number, unknown[]][] = [];
    for (let i = this.head; i < this.queue.length; i++) {
      const p = this.queue[i]!;
      if (p.row !== null) pending.push([p.kind, p.row]);
    }
    return pending.length === 0 ? null : { pending };
  }

  override restoreState(state: unknown): void {
    if (state === null || state === undefined) return;
    for (const [kind, row] of (state as { pending: [number, unknown[]][] }).pending) this.processElement(0, kind, row);
  }

  override close(): void {
    this.abort.abort();
    this.notify();
    const r = this.opened;
    this.opened = undefined;
    try { r?.close(); } catch { /* closing must not hide why the job stopped */ }
  }
}

function isPromise<T>(v: unknown): v is Promise<T> {
  return v !== null && typeof v === "object" && typeof (v as { then?: unknown }).then === "function";
}
