import { ExecutionError } from "../../types/errors.js";
import type { LookupContext, LookupReader } from "../api/contract.js";
import type { JdbcConnection } from "./driver.js";
import { codecOf, openConnection, whereOf } from "./open.js";
import type { JDBC_OPTIONS } from "./options.js";
import { filterCondition } from "./filters.js";
import { lookupQuery } from "./sql.js";

type Rows = readonly (readonly unknown[])[];

/**
 * The lookup side of the jdbc connector (Flink's JdbcRowDataLookupFunction): one prepared
 * `SELECT … WHERE k1 = ? AND …` per key, on a connection of its own. SQLite answers synchronously (no
 * Promise per lookup), PostgreSQL with a Promise; the lookup join caches and retries
 * (`lookup.cache`, `lookup.partial-cache.*`, `lookup.max-retries`). Conditions of the join on the table's
 * columns alone that the planner pushed down (`ctx.filters`) are part of the query's WHERE, their values bound
 * after the key's: `SELECT … WHERE "id" = $1 AND "age" > $2`.
 */
export class JdbcLookupReader implements LookupReader {
  /** The lookup query (tests read it: the pushed filters are in it). */
  readonly sql: string;
  private readonly filterParams: readonly unknown[];
  private readonly keyEncoders: ((v: unknown) => unknown)[];
  private readonly decoders: ((raw: unknown) => unknown)[];

  private constructor(private readonly ctx: LookupContext<typeof JDBC_OPTIONS>, private readonly conn: JdbcConnection) {
    const codec = codecOf(ctx);
    const cols = ctx.columns;
    const base = lookupQuery(conn.dialect, ctx.options["table-name"], cols.map((c) => c.name), ctx.keys);
    const filters = filterCondition(conn.dialect, ctx.filters ?? [], cols, codec, ctx.keys.length + 1);
    this.sql = filters.sql === "" ? base : `${base} AND ${filters.sql}`;
    this.filterParams = filters.params;
    this.keyEncoders = ctx.keys.map((k) => codec.encoder(cols.find((c) => c.name === k)!.type));
    this.decoders = cols.map((c) => codec.decoder(c.type));
  }

  static async open(ctx: LookupContext<typeof JDBC_OPTIONS>): Promise<JdbcLookupReader> {
    return new JdbcLookupReader(ctx, await openConnection(ctx));
  }

  lookup(key: readonly unknown[]): Rows | Promise<Rows> {
    const params = key.map((v, i) => this.keyEncoders[i]!(v));
    for (const p of this.filterParams) params.push(p);
    let rows: unknown[][] | Promise<unknown[][]>;
    try {
      rows = this.conn.query({ sql: this.sql, params });
    } catch (e) {
      throw this.failed(key, e);
    }
    if (rows instanceof Promise) return rows.then((r) => this.decode(key, r), (e) => { throw this.failed(key, e); });
    return this.decode(key, rows);
  }

  private decode(key: readonly unknown[], rows: unknown[][]): Rows {
    const decoders = this.decoders;
    for (const row of rows) {
      for (let c = 0; c < decoders.length; c++) {
        const raw = row[c];
        if (raw === null || raw === undefined) { row[c] = null; continue; }
        try {
          row[c] = decoders[c]!(raw);
        } catch (e) {
          throw new ExecutionError(`${whereOf(this.ctx)}: lookup of key [${key.join(", ")}], column '${this.ctx.columns[c]!.name}' (${this.ctx.columns[c]!.type}): ${(e as Error).message}`, { cause: e });
        }
      }
    }
    return rows;
  }

  private failed(key: readonly unknown[], e: unknown): ExecutionError {
    return new ExecutionError(`${whereOf(this.ctx)}: lookup of key [${key.join(", ")}] in ${this.conn.dialect.name} table '${this.ctx.options["table-name"]}' failed: ${(e as Error)?.message ?? String(e)}`, { cause: e });
  }

  close(): void | Promise<void> {
    return this.conn.close();
  }
}
