import { encodeKeyPart } from "../../exec/aggregates/value-key.js";
import { ExecutionError, TableError } from "../../types/errors.js";
import { toJavaString } from "../../types/format.js";
import type { RowKind } from "../../types/row.js";
import type { SinkBatch, SinkContext, SinkWriter } from "../api/contract.js";
import type { JdbcConnection } from "./driver.js";
import { codecOf, openConnection } from "./open.js";
import type { JDBC_OPTIONS, JdbcTable } from "./options.js";
import { type Statement, deleteSql, insertSql, rowsPerStatement, upsertSql } from "./sql.js";

/** Rows per generated statement at most (also bounded by the dialect's parameter limit). */
const MAX_ROWS_PER_STATEMENT = 1000;

/** A buffered change: the row, its kind, and where it came from (to name it when it fails). */
interface Change {
  kind: RowKind;
  row: readonly unknown[];
  /** The write() call (counted from 1) and the row's index in its batch. */
  batch: number;
  index: number;
}

/**
 * The jdbc sink (Flink's JdbcOutputFormat with its buffer-reduced executor for upserts). Rows are buffered
 * and flushed when `sink.buffer-flush.max-rows` are buffered, every `sink.buffer-flush.interval`, and at
 * the end. With a primary key the buffer keeps the last change per key, and a flush upserts the keys
 * whose last change is `+I`/`+U` (`INSERT … ON CONFLICT (key) DO UPDATE`) and deletes those whose last
 * change is `-D`; without one, rows are inserted. A flush is one transaction (all or nothing) and is
 * retried `sink.max-retries` times, reconnecting when the connection broke; when every try failed, the
 * rows are tried one by one in one last transaction, which commits when they all succeed (the batch's
 * failure was passing) or names the row the database refuses.
 */
export class JdbcSinkWriter implements SinkWriter {
  private readonly upsertKeys: readonly number[] | undefined;
  private readonly encoders: ((v: unknown) => unknown)[];
  private readonly columns: readonly string[];
  private readonly byKey = new Map<string, Change>();
  private appended: Change[] = [];
  private batches = 0;
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown;
  private timer: ReturnType<typeof setInterval> | undefined;
  private closed = false;

  private constructor(private readonly table: JdbcTable, private conn: JdbcConnection, private readonly signal: AbortSignal, upsert: boolean) {
    const codec = codecOf(table);
    this.encoders = table.columns.map((c) => codec.encoder(c.type));
    this.columns = table.columns.map((c) => c.name);
    this.upsertKeys = upsert ? table.primaryKey!.map((k) => this.columns.indexOf(k)) : undefined;
    const interval = table.options["sink.buffer-flush.interval"];
    if (interval > 0) {
      this.timer = setInterval(() => { void this.flush().catch((e) => { this.failure ??= e; }); }, interval);
      this.timer.unref?.();
    }
  }

  static async open(ctx: SinkContext<typeof JDBC_OPTIONS>): Promise<JdbcSinkWriter> {
    const upsert = ctx.changelog === "upsert" && ctx.primaryKey !== undefined;
    return new JdbcSinkWriter(ctx, await openConnection(ctx), ctx.signal, upsert);
  }

  private buffered(): number {
    return this.upsertKeys ? this.byKey.size : this.appended.length;
  }

  write(batch: SinkBatch): void | Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    const n = ++this.batches;
    const { rows, kinds } = batch;
    const keys = this.upsertKeys;
    const max = this.table.options["sink.buffer-flush.max-rows"];
    let flush: Promise<void> | undefined;
    for (let i = 0; i < rows.length; i++) {
      const change: Change = { kind: kinds[i]!, row: rows[i]!, batch: n, index: i };
      if (keys === undefined) this.appended.push(change);
      else if (change.kind !== "-U") {
        let k = "";
        for (let j = 0; j < keys.length; j++) k += encodeKeyPart(change.row[keys[j]!]);
        this.byKey.delete(k); // re-inserted last: the buffer stays in order of last change
        this.byKey.set(k, change);
      }
      if (max > 0 && this.buffered() >= max) flush = this.flush();
    }
    return flush;
  }

  /** Flushes what is buffered; flushes run one after another (a timer's and the job's never overlap). */
  flush(): Promise<void> {
    const next = this.chain.then(() => this.flushNow());
    this.chain = next.catch(() => {});
    return next;
  }

  private async flushNow(): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    const changes = this.upsertKeys ? [...this.byKey.values()] : this.appended;
    if (changes.length === 0) return;
    this.byKey.clear();
    this.appended = [];
    const retries = this.table.options["sink.max-retries"];
    let last: unknown;
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) {
        await sleep(1000 * (attempt - 1), this.signal);
        if (this.signal.aborted) break;
        if (!this.conn.usable) await this.reconnect();
      }
      try {
        await this.conn.transaction(this.statements(changes, MAX_ROWS_PER_STATEMENT));
        return;
      } catch (e) {
        last = e;
      }
    }
    const failure = await this.diagnose(changes, last, retries);
    if (failure !== undefined) throw this.failure = failure;
  }

  private async reconnect(): Promise<void> {
    try { await this.conn.close(); } catch { /* it is broken already */ }
    this.conn = await openConnection(this.table);
  }

  /** One last transaction, a statement per row: commits if every row goes in, else names the row refused. */
  private async diagnose(changes: readonly Change[], cause: unknown, retries: number): Promise<ExecutionError | undefined> {
    const after = retries > 0 ? ` (after ${retries} ${retries === 1 ? "retry" : "retries"})` : "";
    const what = this.upsertKeys ? "upsert" : "insert";
    const target = `${this.conn.dialect.name} table '${this.table.options["table-name"]}'`;
    if (!this.signal.aborted && this.conn.usable) {
      const single = changes.map((c) => this.statements([c], 1)[0]!);
      try {
        await this.conn.transaction(single);
        return undefined;
      } catch (e) {
        const i = (e as { statementIndex?: number }).statementIndex;
        if (typeof i === "number" && changes[i] !== undefined) {
          const c = changes[i]!;
          const err = new ExecutionError(`${what} into ${target} failed for row ${c.kind}[${this.show(c.row)}]${after}: ${message(e)}`, { cause: e });
          if (c.batch === this.batches) (err as ExecutionError & { rowIndex?: number }).rowIndex = c.index;
          return err;
        }
        cause = e;
      }
    }
    const first = changes[0]!;
    return new ExecutionError(`${what} of ${changes.length} rows into ${target}, the first ${first.kind}[${this.show(first.row)}], failed${after}: ${message(cause)}`, { cause });
  }

  private show(row: readonly unknown[]): string {
    return row.map((v, j) => toJavaString(this.table.columns[j]!.type, v)).join(", ");
  }

  /** The statements of a flush: upserts (or inserts) in chunks, then deletes in chunks. */
  private statements(changes: readonly Change[], cap: number): Statement[] {
    const d = this.conn.dialect;
    const table = this.table.options["table-name"];
    const enc = this.encoders;
    const out: Statement[] = [];
    const writes = changes.filter((c) => c.kind !== "-D");
    const width = enc.length;
    const per = rowsPerStatement(d, width, cap);
    for (let s = 0; s < writes.length; s += per) {
      const chunk = writes.slice(s, s + per);
      const params = new Array<unknown>(chunk.length * width);
      let p = 0;
      for (const c of chunk) for (let j = 0; j < width; j++) params[p++] = enc[j]!(c.row[j]);
      const sql = this.upsertKeys ? upsertSql(d, table, this.columns, this.table.primaryKey!, chunk.length) : insertSql(d, table, this.columns, chunk.length);
      out.push({ sql, params });
    }
    const keys = this.upsertKeys;
    if (keys === undefined) return out;
    const deletes = changes.filter((c) => c.kind === "-D");
    const kper = rowsPerStatement(d, keys.length, cap);
    for (let s = 0; s < deletes.length; s += kper) {
      const chunk = deletes.slice(s, s + kper);
      const params: unknown[] = [];
      for (const c of chunk) for (const k of keys) params.push(enc[k]!(c.row[k]));
      out.push({ sql: deleteSql(d, table, this.table.primaryKey!, chunk.length), params });
    }
    return out;
  }

  abort(): void {
    this.stopTimer();
    this.byKey.clear();
    this.appended = [];
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopTimer();
    await this.chain;
    await this.conn.close();
  }
}

function message(e: unknown): string {
  if (e instanceof TableError) return e.message;
  const m = (e as Error)?.message ?? String(e);
  const detail = (e as { detail?: unknown })?.detail;
  return typeof detail === "string" && detail !== "" ? `${m} (${detail})` : m;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() { clearTimeout(t); signal.removeEventListener("abort", done); resolve(); }
    signal.addEventListener("abort", done, { once: true });
  });
}
