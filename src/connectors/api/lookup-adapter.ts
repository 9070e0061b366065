import { encodeKeyPart } from "../../exec/aggregates/value-key.js";
import type { LookupReader as InternalReader, LookupReaderFactory } from "../../exec/lookup.js";
import { ExecutionError, TableError } from "../../types/errors.js";
import { toJavaString } from "../../types/format.js";
import type { LookupFilterSupport, PushedFilter } from "../../plan/pushed-filter.js";
import type { ConnectorDefinition, LookupContext, LookupReader, TableContext } from "./contract.js";
import { isPromise } from "./source-adapter.js";

type Rows = readonly (readonly unknown[])[];

interface Cached { readonly rows: Rows; readonly loaded: number; accessed: number }

/**
 * A connector's lookup side as the lookup join sees it: opened per job, with Flink's partial cache in front
 * (`lookup.cache = PARTIAL`: least recently used keys evicted beyond `max-rows`, entries expiring after
 * write / access, missing keys cached unless `cache-missing-key = false`); a cache hit is answered
 * synchronously. A failed lookup is retried `lookup.max-retries` times, then fails the job naming the
 * connector, the table and the key. Filters the planner pushed (plan/lookup-pushdown.ts; the connector's
 * `lookup.acceptFilter`) reach the reader in `ctx.filters`.
 */
export class ConnectorLookup implements LookupReaderFactory, LookupFilterSupport {
  readonly maxConcurrent: number;
  readonly lookupColumns: readonly string[];

  constructor(private readonly def: ConnectorDefinition, private readonly table: TableContext, private readonly keys: readonly string[],
    private readonly clock: () => number = Date.now, private readonly filters: readonly PushedFilter[] = []) {
    this.maxConcurrent = (table.options as Record<string, unknown>)["lookup.async.max-concurrent"] as number;
    this.lookupColumns = table.columns.map((c) => c.name);
  }

  acceptLookupFilter(filter: PushedFilter): boolean {
    return this.def.lookup?.acceptFilter?.(filter, this.table) === true;
  }

  withLookupFilters(filters: readonly PushedFilter[]): ConnectorLookup {
    return new ConnectorLookup(this.def, this.table, this.keys, this.clock, [...this.filters, ...filters]);
  }

  open(signal: AbortSignal): InternalReader & { close(): void } {
    const o = this.table.options as Record<string, unknown>;
    const cache = o["lookup.cache"] === "PARTIAL" ? new Map<string, Cached>() : undefined;
    const maxRows = o["lookup.partial-cache.max-rows"] as number;
    const afterWrite = o["lookup.partial-cache.expire-after-write"] as number | undefined;
    const afterAccess = o["lookup.partial-cache.expire-after-access"] as number | undefined;
    const cacheMissing = o["lookup.partial-cache.cache-missing-key"] as boolean;
    const retries = o["lookup.max-retries"] as number;
    const where = `connector '${this.def.name}' table '${this.table.tableName}'`;
    const ctx: LookupContext = { ...this.table, keys: this.keys, filters: this.filters, signal };
    let reader: LookupReader | Promise<LookupReader> | undefined;
    let closed = false;
    const readerNow = (): LookupReader | Promise<LookupReader> => {
      if (reader === undefined) {
        try { reader = this.def.lookup!.createReader(ctx); } catch (e) { throw new ExecutionError(`${where}: cannot open the lookup: ${(e as Error)?.message ?? String(e)}`, { cause: e }); }
        if (isPromise<LookupReader>(reader)) reader.then((r) => { reader = r; }, () => {});
      }
      return reader;
    };
    const clock = this.clock;
    const fail = (key: readonly unknown[], attempts: number, e: unknown): TableError => {
      if (e instanceof TableError) return e;
      const shown = key.map((v, i) => toJavaString(this.table.columns.find((c) => c.name === this.keys[i])?.type, v)).join(", ");
      return new ExecutionError(`${where}: lookup failed for key (${shown})${attempts > 1 ? ` after ${attempts} attempts` : ""}: ${(e as Error)?.message ?? String(e)}`, { cause: e });
    };
    const remember = (id: string, rows: Rows): Rows => {
      if (cache !== undefined && (rows.length > 0 || cacheMissing)) {
        const now = clock();
        cache.set(id, { rows, loaded: now, accessed: now });
        if (cache.size > maxRows) cache.delete(cache.keys().next().value!);
      }
      return rows;
    };
    const attempt = async (key: readonly unknown[], n: number): Promise<Rows> => {
      try {
        const r = await readerNow();
        return await r.lookup(key);
      } catch (e) {
        if (n <= retries && !closed) return attempt(key, n + 1);
        throw fail(key, n, e);
      }
    };
    return {
      lookup: (key) => {
        let id: string | undefined;
        if (cache !== undefined) {
          id = key.map(encodeKeyPart).join("");
          const hit = cache.get(id);
          if (hit !== undefined) {
            const now = clock();
            const fresh = (afterWrite === undefined || now - hit.loaded < afterWrite) && (afterAccess === undefined || now - hit.accessed < afterAccess);
            if (fresh) {
              hit.accessed = now;
              // least recently used first: move to the end
              cache.delete(id);
              cache.set(id, hit);
              return hit.rows;
            }
            cache.delete(id);
          }
        }
        const r = readerNow();
        let rows: Rows | Promise<Rows>;
        if (isPromise(r)) rows = attempt(key, 1);
        else {
          try { rows = r.lookup(key); } catch (e) { rows = retries > 0 ? attempt(key, 2) : Promise.reject(fail(key, 1, e)); }
          if (isPromise<Rows>(rows)) rows = rows.then(undefined, (e) => (retries > 0 ? attempt(key, 2) : Promise.reject(fail(key, 1, e))));
        }
        if (!isPromise<Rows>(rows)) return id === undefined ? rows : remember(id, rows);
        return id === undefined ? rows : rows.then((x) => remember(id!, x));
      },
      close: () => {
        closed = true;
        const r = reader;
        if (r === undefined) return;
        const done = (x: LookupReader) => { try { const p = x.close?.(); if (isPromise(p)) p.then(undefined, () => {}); } catch { /* closing must not hide why the job stopped */ } };
        if (isPromise<LookupReader>(r)) r.then(done, () => {}); else done(r);
      },
    };
  }
}
