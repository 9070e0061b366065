// Changelog normalization on the disk backend: the last row per key is in the backend's store. The operator
// gives the hashmap backend's exact changelog through a cache of 2 entries (bound checked); its snapshots
// restore on either backend in each direction, inline and as a checkpoint's store files.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { ChangelogNormalizeOperator } from "../../src/exec/operators/changelog-normalize.js";
import { stateBackendFor } from "../../src/exec/state/backend-options.js";
import { DiskKeyedStore } from "../../src/exec/state/disk-store.js";
import type { StateBackend } from "../../src/exec/state/keyed-store.js";
import type { JobSnapshot } from "../../src/exec/checkpoint/format.js";
import type { ChangelogNormalizeNode, PlanNode } from "../../src/plan/nodes.js";
import { CollectionSink, DataTypes, EnvironmentSettings, Row, RowKind, Schema, TableEnvironment } from "../../src/index.js";
import { Kind } from "../../src/types/row.js";

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), "ts-normalize-disk-")); dirs.push(d); return d; };
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

function findNode(n: PlanNode): ChangelogNormalizeNode {
  if (n.kind === "ChangelogNormalize") return n;
  const input = (n as { input?: PlanNode }).input;
  if (!input) throw new Error("no ChangelogNormalize node");
  return findNode(input);
}

const SCHEMA = Schema.newBuilder().column("k", DataTypes.STRING().notNull()).column("v", DataTypes.INT()).primaryKey("k").build();
const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const NODE = findNode(env.negotiate(env.fromValues(SCHEMA, Row.ofKind(RowKind.UPDATE_AFTER, "a", 1)).node, true));

const DISK_OPTIONS = { "state.backend.type": "disk", "state.backend.cache-size": "2" };

/** An operator on `backend` (undefined: hashmap), writing what it emits into `out`. */
function operator(backend: StateBackend | undefined, out: string[]): ChangelogNormalizeOperator {
  const op = new ChangelogNormalizeOperator(NODE, backend);
  op.out = { record: (k, r) => out.push(`${k}${JSON.stringify(r)}`), watermark: () => {}, endInput: () => {} };
  op.open();
  return op;
}

function storeOf(op: ChangelogNormalizeOperator): DiskKeyedStore<unknown> {
  const s = Object.values(op as unknown as Record<string, unknown>).find((v) => v instanceof DiskKeyedStore);
  if (!(s instanceof DiskKeyedStore)) throw new Error("no disk store");
  return s;
}

describe("ChangelogNormalizeOperator on the disk backend", () => {
  const upsert = fc.tuple(fc.constantFrom(Kind.INSERT, Kind.UPDATE_AFTER, Kind.DELETE, Kind.UPDATE_BEFORE), fc.constantFrom("a", "b", "c", "d", "e", "f"), fc.option(fc.integer({ min: 0, max: 2 })));

  it("many keys through a cache of 2: the hashmap backend's exact changelog, the cache within the bound", () => {
    const rows: [number, unknown[]][] = [];
    for (let i = 0; i < 2000; i++) rows.push([i % 7 === 6 ? Kind.DELETE : i % 3 === 0 ? Kind.INSERT : Kind.UPDATE_AFTER, [`k${(i * 37) % 300}`, i % 5]]);
    const mem: string[] = [];
    const a = operator(undefined, mem);
    for (const [k, r] of rows) a.processElement(0, k, r);
    const backend = stateBackendFor(new Map(Object.entries(DISK_OPTIONS)));
    try {
      const disk: string[] = [];
      const b = operator(backend, disk);
      const store = storeOf(b);
      let most = 0;
      for (const [k, r] of rows) {
        b.processElement(0, k, r);
        most = Math.max(most, store.cached);
      }
      expect(disk).toEqual(mem);
      expect(mem.length).toBeGreaterThan(500);
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(2);
      expect(b.keyCount()).toBe(a.keyCount());
      expect(b.snapshotState()).toEqual(expect.arrayContaining(a.snapshotState() as unknown[]));
      expect((b.snapshotState() as unknown[]).length).toBe((a.snapshotState() as unknown[]).length);
    } finally {
      backend.dispose();
    }
  });

  it("a snapshot taken on either backend restores on either with the uninterrupted changelog", () => {
    const backends: StateBackend[] = [];
    const disk = () => { const b = stateBackendFor(new Map(Object.entries(DISK_OPTIONS))); backends.push(b); return b; };
    try {
      fc.assert(fc.property(fc.array(upsert, { maxLength: 40 }), fc.nat(), fc.constantFrom("hashmap", "disk"), fc.constantFrom("hashmap", "disk"), (records, at, from, to) => {
        const rows = records.map(([kind, k, v]): [number, unknown[]] => [kind, [k, v]]);
        const cut = rows.length === 0 ? 0 : at % (rows.length + 1);
        const whole: string[] = [];
        const a = operator(undefined, whole);
        for (const [k, r] of rows) a.processElement(0, k, r);
        const split: string[] = [];
        const b = operator(from === "disk" ? disk() : undefined, split);
        for (const [k, r] of rows.slice(0, cut)) b.processElement(0, k, r);
        const c = operator(to === "disk" ? disk() : undefined, split);
        c.restoreState(JSON.parse(JSON.stringify(b.snapshotState())));
        for (const [k, r] of rows.slice(cut)) c.processElement(0, k, r);
        expect(split).toEqual(whole);
      }), { numRuns: 60 });
    } finally {
      for (const b of backends) b.dispose();
    }
  });
});

describe("changelog normalization: checkpoints of its store restore on either backend", () => {
  const OUT = Schema.newBuilder().column("k", DataTypes.STRING()).column("v", DataTypes.INT()).build();
  const kinds = [RowKind.INSERT, RowKind.UPDATE_AFTER, RowKind.UPDATE_AFTER, RowKind.DELETE, RowKind.UPDATE_AFTER];
  const ROWS = Array.from({ length: 3000 }, (_, i) => Row.ofKind(kinds[i % 5]!, `k${(i * 7) % 400}`, i % 11));
  const metadata = (chk: string) => JSON.parse(readFileSync(join(chk, "_metadata"), "utf8")) as JobSnapshot;
  const exec = async (sink: CollectionSink, options: Record<string, string>) => {
    const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    for (const [k, v] of Object.entries(options)) e.getConfig().set(k, v);
    e.createTemporaryTable("out", sink.descriptor(OUT));
    await e.fromValues(SCHEMA, ...ROWS).executeInsert("out").await();
  };

  it("disk → disk, disk → hashmap, hashmap → disk", async () => {
    const whole = new CollectionSink();
    await exec(whole, {});
    expect(whole.changelog().length).toBeGreaterThan(3000);
    const DISK = { "state.backend.type": "disk" };
    for (const [takeOn, restoreOn] of [[DISK, DISK], [DISK, {}], [{}, DISK]] as const) {
      const dir = tmp();
      const sink = new CollectionSink();
      const checkpoints = { "execution.checkpointing.interval-records": "1000", "execution.checkpointing.dir": dir, "execution.checkpointing.num-retained": "3" };
      const onDisk: Record<string, string> = takeOn === DISK ? { "state.backend.cache-size": "8", "execution.checkpointing.incremental": "true" } : {};
      await exec(sink, { ...takeOn, ...onDisk, ...checkpoints });
      expect(sink.changelog()).toEqual(whole.changelog());
      // on the disk backend the rows are in the store's files, not in _metadata
      if (takeOn === DISK) expect(metadata(join(dir, "chk-2")).sharedFiles!.length).toBeGreaterThan(0);
      await exec(sink, { ...restoreOn, "execution.savepoint.path": join(dir, "chk-2") });
      expect(sink.changelog(), `${takeOn === DISK ? "disk" : "hashmap"} → ${restoreOn === DISK ? "disk" : "hashmap"}`).toEqual(whole.changelog());
    }
  });
});
