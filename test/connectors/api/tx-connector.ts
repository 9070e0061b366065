// A test connector on the public API whose storage outlives its jobs (as a database does): the source reads
// a shared list of rows in batches, from the index a checkpoint stored; the sink is transactional — rows are
// staged per transaction, `prepareCommit` closes the transaction, `commit` makes it visible once (idempotent),
// `abort` drops the open one. Every hook call is logged, so tests can check the protocol.
import { defineConnector, option, type Committable, type SinkBatch, type SourceBatch } from "../../../src/index.js";

export interface TxStore {
  /** The source's rows; the reader sees the first `available` of them. */
  readonly input: unknown[][];
  available: number;
  /** When true, the reader ends (null) once it has read every available row; else it waits for more. */
  closed: boolean;
  /** Where the reader stands (rows it returned). */
  readPos: number;
  /** Rows of committed transactions, in commit order. */
  readonly committed: unknown[][];
  /** Transactions prepared and not committed: id → rows. */
  readonly prepared: Map<string, unknown[][]>;
  readonly done: Set<string>;
  /** While true, commit() does nothing (a job that crashes before its commits ran). */
  commitsLost: boolean;
  readonly log: string[];
}

export function txStore(input: unknown[][]): TxStore {
  return { input, available: input.length, closed: true, readPos: 0, committed: [], prepared: new Map(), done: new Set(), commitsLost: false, log: [] };
}

/** `tx` connector over `store`; `read.batch` rows per read(), every other read() resolving asynchronously. */
export function txConnector(store: TxStore) {
  return defineConnector({
    name: "tx",
    options: { "read.batch": option.int({ default: 3, min: 1 }), "read.fail-at": option.int({ min: 1 }), "sink.all": option.boolean({ default: false }) },
    source: {
      bounded: () => false,
      createReader(ctx) {
        let pos = typeof ctx.restoreFrom === "number" ? ctx.restoreFrom : 0;
        store.log.push(`open reader at ${String(ctx.restoreFrom ?? "start")}`);
        let reads = 0;
        const next = (): SourceBatch | null => {
          if (pos >= store.available) return store.closed ? null : { rows: [] };
          const failAt = ctx.options["read.fail-at"];
          if (failAt !== undefined && pos + 1 >= failAt) throw new Error(`disk gone at row ${failAt}`);
          const rows = store.input.slice(pos, Math.min(store.available, pos + ctx.options["read.batch"])).map((r) => [...r]);
          pos += rows.length;
          store.readPos = pos;
          return { rows };
        };
        return {
          read: () => (++reads % 2 === 0 ? Promise.resolve().then(next) : next()),
          position: () => pos,
          close: () => { store.log.push("close reader"); },
        };
      },
    },
    sink: {
      // with 'sink.all' the sink takes every row kind and stores each row with its kind first
      changelog: (t) => (t.options["sink.all"] ? "all" : "insert-only"),
      async createWriter(ctx) {
        await Promise.resolve();
        store.log.push(`open writer pending=${JSON.stringify(ctx.pendingCommittables)}`);
        let open: unknown[][] = [];
        return {
          async write(batch: SinkBatch) {
            await Promise.resolve();
            const all = ctx.options["sink.all"];
            open.push(...batch.rows.map((r, i) => (all ? [batch.kinds[i], ...r] : [...r])));
          },
          flush() { store.log.push("flush"); },
          async prepareCommit(id: number): Promise<Committable> {
            await Promise.resolve();
            const tx = `${ctx.tableName}-${id}`;
            store.prepared.set(tx, open);
            open = [];
            store.log.push(`prepare ${tx}`);
            return tx;
          },
          async commit(list: readonly Committable[]) {
            await Promise.resolve();
            store.log.push(`commit ${list.join(",")}`);
            if (store.commitsLost) return;
            for (const tx of list as string[]) {
              if (store.done.has(tx)) continue;
              const rows = store.prepared.get(tx);
              if (rows === undefined) throw new Error(`unknown transaction ${tx}`);
              store.committed.push(...rows);
              store.prepared.delete(tx);
              store.done.add(tx);
            }
          },
          abort() { store.log.push(`abort (${open.length} open rows dropped)`); open = []; },
          close() { store.log.push("close writer"); },
        };
      },
    },
  });
}
