import { CodegenContext, type FunctionResolver, compileExpr } from "../../expressions/compile.js";
import type { AsyncCalcNode } from "../../plan/nodes/async-calc.js";
import { ExecutionError, TableError, ValidationError } from "../../types/errors.js";
import { parseDuration } from "../../ptf/ttl.js";
import type { AsyncScalarFunction } from "../../functions/async-scalar-function.js";
import { userCodeFailure, valueCheck, type ValueCheck } from "../../functions/value-check.js";
import { BaseOperator } from "../operator.js";
import type { AsyncWork } from "../source.js";

/** The async-scalar options, with Flink's keys and defaults. */
export interface AsyncCalcOptions {
  readonly capacity: number;
  readonly timeoutMs: number;
  readonly maxAttempts: number;
  readonly retryDelayMs: number;
  readonly ordered: boolean;
}

export function asyncCalcOptions(config: ReadonlyMap<string, string>, insertOnlyInput: boolean): AsyncCalcOptions {
  const int = (key: string, fallback: number, min: number) => {
    const v = config.get(key);
    if (v === undefined) return fallback;
    const n = Number(v.trim());
    if (!/^\d+$/.test(v.trim()) || n < min) throw new ValidationError(`option '${key}' must be a whole number ≥ ${min}, got '${v}'`);
    return n;
  };
  const strategy = (config.get("table.exec.async-scalar.retry-strategy") ?? "FIXED_DELAY").toUpperCase();
  if (strategy !== "FIXED_DELAY" && strategy !== "NO_RETRY") throw new ValidationError(`option 'table.exec.async-scalar.retry-strategy' must be FIXED_DELAY or NO_RETRY, got '${strategy}'`);
  const mode = (config.get("table.exec.async-scalar.output-mode") ?? "ORDERED").toUpperCase();
  if (mode !== "ORDERED" && mode !== "ALLOW_UNORDERED") throw new ValidationError(`option 'table.exec.async-scalar.output-mode' must be ORDERED or ALLOW_UNORDERED, got '${mode}'`);
  return {
    capacity: int("table.exec.async-scalar.buffer-capacity", 10, 1),
    timeoutMs: parseDuration(config.get("table.exec.async-scalar.timeout") ?? "3 min", "option 'table.exec.async-scalar.timeout'"),
    maxAttempts: strategy === "NO_RETRY" ? 1 : int("table.exec.async-scalar.max-attempts", 3, 1),
    retryDelayMs: parseDuration(config.get("table.exec.async-scalar.retry-delay") ?? "100 ms", "option 'table.exec.async-scalar.retry-delay'"),
    // updates must stay in changelog order: unordered output only for an insert-only input (as Flink)
    ordered: mode === "ORDERED" || !insertOnlyInput,
  };
}

/** A queued element: a row with its calls' results, a watermark, or the end of input. */
interface Entry {
  readonly kind: number;
  /** The input row; null for a watermark or the end of input. */
  readonly row: unknown[] | null;
  readonly wm: number;
  readonly results: unknown[];
  remaining: number;
  started: boolean;
  emitted: boolean;
}

const END = -1;

/**
 * Flink's AsyncWaitOperator for async scalar calls. Each row's calls start when fewer than
 * `buffer-capacity` rows are in the queue ahead of it being emitted; while the queue is full the job
 * reads no input (AsyncWork.backpressure). Results are emitted inside the job's step
 * (`emitCompleted`): in input order (ORDERED), or as they complete but never across a watermark
 * (ALLOW_UNORDERED). End of input is forwarded after the last row. A call that rejects is retried
 * (`max-attempts`, `retry-delay`); a call still unsettled after `timeout` (all attempts together) or
 * failing every attempt fails the job naming the function and its arguments.
 */
export class AsyncCalcOperator extends BaseOperator {
  private readonly queue: Entry[] = [];
  private head = 0;
  /** Row entries queued and not emitted yet. */
  private rows = 0;
  /** Row entries whose calls started and that are not emitted yet. */
  private startedRows = 0;
  private nextToStart = 0;
  private failure: TableError | undefined;
  private closed = false;
  private wake: (() => void) | undefined;
  private waiting: Promise<void> | undefined;
  private readonly argFns: ((r: unknown[]) => unknown[])[];
  private readonly nullOnNull: (readonly number[])[];
  private readonly checks: ValueCheck[];
  private readonly fns: AsyncScalarFunction[];
  /** Calls in flight: their abort controllers and timeout timers (cleared on close, so nothing keeps the process alive). */
  private readonly controllers = new Map<AbortController, ReturnType<typeof setTimeout>>();

  constructor(private readonly node: AsyncCalcNode, private readonly options: AsyncCalcOptions, resolveFunction?: FunctionResolver) {
    super(1);
    this.fns = node.calls.map((c) => c.fn as unknown as AsyncScalarFunction);
    this.argFns = node.calls.map((c) => {
      const ctx = new CodegenContext(node.input.schema, resolveFunction, "r");
      const items = c.args.map((a) => compileExpr(a, ctx).src);
      return ctx.build<(r: unknown[]) => unknown[]>(`function(r){${ctx.tempDeclarations()}return [${items.join(",")}];}`);
    });
    this.nullOnNull = this.fns.map((f) => f.params.flatMap((p, i) => (p.isNullable ? [] : [i])));
    this.checks = node.calls.map((c, i) => valueCheck(this.fns[i]!.resultType, () => `async function '${c.name}'`));
  }

  processElement(_input: number, kind: number, row: unknown[]): void {
    this.queue.push({ kind, row, wm: 0, results: new Array<unknown>(this.fns.length), remaining: this.fns.length, started: false, emitted: false });
    this.rows++;
    this.startCalls();
  }

  protected override onWatermark(wm: number): void {
    if (wm === Infinity) return; // forwarded with the end of input, after the last row
    this.queue.push({ kind: 0, row: null, wm, results: [], remaining: 0, started: true, emitted: false });
    if (this.head === this.queue.length - 1) this.emitCompleted();
  }

  protected override onEndOfInput(): void {
    this.queue.push({ kind: END, row: null, wm: Infinity, results: [], remaining: 0, started: true, emitted: false });
    this.emitCompleted();
  }

  /** Starts the calls of queued rows while fewer than `capacity` started rows wait to be emitted. */
  private startCalls(): void {
    const q = this.queue;
    while (this.failure === undefined && !this.closed && this.nextToStart < q.length && this.startedRows < this.options.capacity) {
      const e = q[this.nextToStart++]!;
      if (e.row === null || e.started) continue;
      e.started = true;
      this.startedRows++;
      for (let c = 0; c < this.fns.length; c++) this.startCall(e, c);
    }
  }

  private startCall(e: Entry, c: number): void {
    let args: unknown[];
    try {
      args = this.argFns[c]!(e.row!);
    } catch (err) {
      this.fail(err instanceof TableError ? err : new ExecutionError(`async function '${this.node.calls[c]!.name}': ${(err as Error).message}`, { cause: err }));
      return;
    }
    const nn = this.nullOnNull[c]!;
    for (let k = 0; k < nn.length; k++) {
      if (args[nn[k]!] === null) { this.complete(e, c, null); return; }
    }
    const name = this.node.calls[c]!.name;
    const fn = this.fns[c]!;
    const ctl = new AbortController();
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      ctl.abort();
      this.controllers.delete(ctl);
      this.fail(new ExecutionError(`async function '${name}' timed out after ${this.options.timeoutMs} ms for arguments (${args.map(String).join(", ")}) (option 'table.exec.async-scalar.timeout')`));
    }, this.options.timeoutMs);
    this.controllers.set(ctl, timer);
    const attempt = (n: number): void => {
      let p: Promise<unknown>;
      try {
        p = Promise.resolve(fn.spec.eval(...args, ctl.signal));
      } catch (err) {
        p = Promise.reject(err);
      }
      p.then((v) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.controllers.delete(ctl);
        let checked: unknown;
        try { checked = this.checks[c]!(v); } catch (err) { this.fail(err as TableError); return; }
        this.complete(e, c, checked);
      }, (err) => {
        if (settled) return;
        if (n < this.options.maxAttempts && !this.closed) {
          setTimeout(() => { if (!settled) attempt(n + 1); }, this.options.retryDelayMs);
          return;
        }
        settled = true;
        clearTimeout(timer);
        this.controllers.delete(ctl);
        const f = userCodeFailure(`async function '${name}'`, args, err);
        this.fail(n > 1 ? new ExecutionError(`${f.message} (after ${n} attempts)`, { cause: err }) : f);
      });
    };
    attempt(1);
  }

  private complete(e: Entry, c: number, v: unknown): void {
    e.results[c] = v;
    if (--e.remaining === 0) this.notify();
  }

  private fail(e: TableError): void {
    this.failure ??= e;
    this.notify();
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

  /** Emits what completed, in the order the output mode allows. Runs inside the job's step. */
  emitCompleted(): void {
    if (this.failure) throw this.failure;
    const q = this.queue;
    const ordered = this.options.ordered;
    for (let i = this.head; i < q.length; i++) {
      const e = q[i]!;
      if (e.emitted) { if (i === this.head) this.head++; continue; }
      if (e.row === null) {
        // a watermark or the end: only once everything before it went out
        if (i !== this.head) break;
        e.emitted = true;
        this.head++;
        if (e.kind === END) { this.out.watermark(Infinity); this.out.endInput(); } else this.out.watermark(e.wm);
        continue;
      }
      if (!e.started || e.remaining > 0) {
        if (ordered) break;
        continue;
      }
      e.emitted = true;
      if (i === this.head) this.head++;
      this.rows--;
      this.startedRows--;
      const out = e.row.concat(e.results);
      this.out.record(e.kind, out);
    }
    if (this.head > 1024 && this.head * 2 > q.length) {
      q.splice(0, this.head);
      this.nextToStart -= this.head;
      this.head = 0;
    }
    this.startCalls();
  }

  /** The job's view: emit results, wait while the queue is full, wait at the end until it is empty. */
  asyncWork(): AsyncWork {
    return {
      emitCompleted: () => this.emitCompleted(),
      backpressure: () => {
        if (this.failure) throw this.failure;
        return this.rows >= this.options.capacity ? this.next() : undefined;
      },
      drain: () => {
        if (this.failure) throw this.failure;
        return this.head < this.queue.length ? this.next() : undefined;
      },
      inFlight: () => (this.rows > 0 && this.failure === undefined ? this.next() : undefined),
    };
  }

  /**
   * The rows taken in and not emitted yet (Flink's AsyncWaitOperator keeps its in-flight inputs in state):
   * a restored job calls the functions for them again, so a row in flight at a savepoint is neither lost
   * nor emitted twice. Watermarks in the queue are not state, as everywhere.
   */
  override snapshotState(): unknown {
    const pending: [number, unknown[]][] = [];
    for (let i = this.head; i < this.queue.length; i++) {
      const e = this.queue[i]!;
      if (e.row !== null && !e.emitted) pending.push([e.kind, e.row]);
    }
    return pending.length === 0 ? null : { pending };
  }

  override restoreState(state: unknown): void {
    if (state === null || state === undefined) return;
    for (const [kind, row] of (state as { pending: [number, unknown[]][] }).pending) this.processElement(0, kind, row);
  }

  /** Cancelling: pending calls are aborted, nothing more is emitted. */
  override close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const [c, timer] of this.controllers) { clearTimeout(timer); c.abort(); }
    this.controllers.clear();
  }
}
