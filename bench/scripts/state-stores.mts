/**
 * The measurement behind the disk state backend's choice of store (docs/benchmarks.md, "State backends"):
 * W5's access pattern — read a key's small value, change it, write it back — through better-sqlite3 and
 * through lmdb, with the same JSON values and the same transaction size (10,000 operations).
 *
 *   npx tsx bench/scripts/state-stores.mts sqlite|lmdb <keys> <operations>
 *
 * keys < operations: random keys out of `keys` (W5's 65k auctions); keys = operations: every key once.
 * lmdb is not a dependency of tablestream: `npm install --no-save lmdb@3` before measuring it.
 */
import { createRequire } from "node:module";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const require = createRequire(import.meta.url);
const [which, keysText, opsText] = process.argv.slice(2);
const keys = Number(keysText);
const ops = Number(opsText);
const BATCH = 10_000;
const dir = mkdtempSync(join(tmpdir(), "tablestream-stores-"));
let get: (k: string) => string | undefined;
let put: (k: string, v: string) => void;
let txn: (f: () => void) => void;
let close: () => void;
if (which === "sqlite") {
  const Database = require("better-sqlite3");
  const db = new Database(join(dir, "s.db"));
  db.pragma("journal_mode = OFF");
  db.pragma("synchronous = OFF");
  db.exec("CREATE TABLE s (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID");
  const g = db.prepare("SELECT v FROM s WHERE k = ?").pluck();
  const p = db.prepare("INSERT OR REPLACE INTO s (k, v) VALUES (?, ?)");
  get = (k) => g.get(k);
  put = (k, v) => { p.run(k, v); };
  txn = (f) => db.transaction(f)();
  close = () => db.close();
} else if (which === "lmdb") {
  const { open } = require("lmdb");
  const db = open({ path: join(dir, "l.mdb"), noSync: true, encoding: "string", compression: false });
  get = (k) => db.get(k);
  put = (k, v) => { db.putSync(k, v); };
  txn = (f) => db.transactionSync(f);
  close = () => db.close();
} else {
  throw new Error("usage: state-stores.mts sqlite|lmdb <keys> <operations>");
}
const t0 = performance.now();
let done = 0;
let x = 1;
while (done < ops) {
  txn(() => {
    for (let i = 0; i < BATCH && done < ops; i++, done++) {
      const key = keys >= ops ? done : (x = (x * 1103515245 + 12345) % 2147483648) % keys;
      const s = get(String(key));
      const o = s === undefined ? { count: 0 } : JSON.parse(s) as { count: number };
      o.count++;
      put(String(key), JSON.stringify(o));
    }
  });
}
const t1 = performance.now();
close();
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ store: which, keys, ops, opsPerSecond: Math.round(ops / ((t1 - t0) / 1000)), rssMB: Math.round(process.memoryUsage().rss / 1e6) }));
