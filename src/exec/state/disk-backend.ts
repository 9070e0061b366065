import type BetterSqlite3 from "better-sqlite3";
import { createRequire } from "node:module";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ExecutionError } from "../../types/errors.js";
import type { KeyedStore, StateBackend, StoreSpec } from "./keyed-store.js";
import { DiskKeyedStore, type DiskStoreHost } from "./disk-store.js";

type DatabaseConstructor = new (path: string, options?: BetterSqlite3.Options) => BetterSqlite3.Database;

/**
 * `better-sqlite3` (an optional peer dependency) is loaded when a job asks for the disk backend. Jobs are
 * built synchronously, so it is required, not imported: with the CommonJS build's own `require`, and in the
 * ES module build (which has no `require`, and whose `import.meta` the CommonJS build cannot contain) with one
 * resolving from the working directory, as an application's dependencies do. The ES module build does have
 * a `require` — the bundler's stand-in, which throws "Dynamic require … is not supported" — so a failing
 * `require` falls through to the working directory's.
 */
function requireFromApp(name: string): unknown {
  if (typeof require === "function") {
    try {
      return require(name);
    } catch { /* the ES module build's stand-in, or not found from here: try the application's */ }
  }
  return createRequire(join(process.cwd(), "index.js"))(name);
}

function loadSqlite(): DatabaseConstructor {
  try {
    const m = requireFromApp("better-sqlite3") as { default?: DatabaseConstructor } | DatabaseConstructor;
    return (m as { default?: DatabaseConstructor }).default ?? (m as DatabaseConstructor);
  } catch (e) {
    throw new ExecutionError(`state.backend.type 'disk' needs the package 'better-sqlite3' 12.x (npm install better-sqlite3@12): ${(e as Error).message}`, { cause: e });
  }
}

/** Backends not yet disposed, removed when the process exits (a job abandoned without cancel()). */
const live = new Set<DiskStateBackend>();
let exitHook = false;

export interface DiskBackendOptions {
  /** Parent of the job's working directory (`state.backend.local-dir`); the OS temp dir by default. */
  readonly localDir: string | undefined;
  /** Entries each store's write-back cache holds before it is written back (`state.backend.cache-size`). */
  readonly cacheSize: number;
  /** `execution.checkpointing.incremental`. */
  readonly incremental: boolean;
}

/**
 * The disk keyed-state backend: one SQLite database per job in a fresh directory under
 * `state.backend.local-dir`, one table per state entry, removed when the job ends. The database is a
 * working area, not a durable copy (journal and fsync off, as Flink's RocksDB runs without a WAL):
 * durability comes from checkpoints, into which each store writes its own files.
 */
export class DiskStateBackend implements StateBackend, DiskStoreHost {
  readonly type = "disk";
  readonly db: BetterSqlite3.Database;
  readonly dir: string;
  readonly token = randomBytes(6).toString("hex");
  checkpoint: { sharedDir: string; id: number; incremental: boolean; savepoint: boolean } | undefined;
  private readonly stores: DiskKeyedStore<unknown>[] = [];
  private referenced: string[] = [];
  private disposed = false;

  constructor(readonly options: DiskBackendOptions) {
    const Database = loadSqlite();
    const parent = options.localDir ?? tmpdir();
    try {
      mkdirSync(parent, { recursive: true });
      this.dir = mkdtempSync(join(parent, "tablestream-state-"));
    } catch (e) {
      throw new ExecutionError(`state.backend.local-dir '${parent}': cannot create the job's state directory: ${(e as Error).message}`, { cause: e });
    }
    this.db = new Database(join(this.dir, "state.db"));
    this.db.pragma("journal_mode = OFF");
    this.db.pragma("synchronous = OFF");
    // SQLite's own page cache: 16 MiB (the write-back caches hold the hot values as objects)
    this.db.pragma("cache_size = -16384");
    // the job's own database: holding its lock for good spares every statement a lock / unlock and the
    // check whether another connection changed the file (30 times faster reads, measured)
    this.db.pragma("locking_mode = EXCLUSIVE");
    live.add(this);
    if (!exitHook) {
      exitHook = true;
      process.once("exit", () => { for (const b of [...live]) b.dispose(); });
    }
  }

  get cacheSize(): number {
    return this.options.cacheSize;
  }

  createStore<V>(spec: StoreSpec<V>): KeyedStore<V> {
    const store = new DiskKeyedStore<V>(this, `s${this.stores.length}`, spec);
    this.stores.push(store as DiskKeyedStore<unknown>);
    return store;
  }

  reference(file: string): void {
    this.referenced.push(file);
  }

  /** Called by the checkpoint coordinator before the operators snapshot: stores write files into `sharedDir`. */
  beginCheckpoint(sharedDir: string, id: number): void {
    mkdirSync(sharedDir, { recursive: true });
    this.checkpoint = { sharedDir, id, incremental: this.options.incremental, savepoint: false };
    this.referenced = [];
  }

  /**
   * Called by the checkpoint coordinator before the operators snapshot for a savepoint: stores write a full
   * file each into `dir`, the savepoint's own directory (self-contained, as Flink's savepoints are), and the
   * incremental chain of the checkpoints is left as it is.
   */
  beginSavepoint(dir: string, id: number): void {
    this.checkpoint = { sharedDir: dir, id, incremental: false, savepoint: true };
    this.referenced = [];
  }

  /** Ends the checkpoint; returns the files it references (its own and the earlier ones it builds on). */
  endCheckpoint(): string[] {
    this.checkpoint = undefined;
    const files = this.referenced;
    this.referenced = [];
    return files;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    live.delete(this);
    try { this.db.close(); } catch { /* already closed */ }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
