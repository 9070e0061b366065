// The disk backend's keyed store behaves as the Map the hashmap backend uses (the seam's contract), keeps
// its write-back cache bounded, hands out copies, and writes checkpoint files that a fresh store of either
// backend reads back — a full file, then incremental ones holding only what changed.
import fc from "fast-check";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Decimal } from "decimal.js";
import { afterEach, describe, expect, it } from "vitest";
import { DiskStateBackend } from "../../src/exec/state/disk-backend.js";
import type { DiskKeyedStore } from "../../src/exec/state/disk-store.js";
import { stateBackendFor } from "../../src/exec/state/backend-options.js";
import { restoreStore, storeSnapshot } from "../../src/exec/state/snapshot-store.js";
import type { StoreFiles } from "../../src/exec/state/keyed-store.js";
import { ValidationError, valueState } from "../../src/index.js";
import { ValueStateSlot } from "../../src/exec/operators/ptf/value-state.js";
import type { ValueStateDecl } from "../../src/ptf/state.js";

const backends: DiskStateBackend[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const b of backends.splice(0)) b.dispose();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function backend(cacheSize: number, incremental = false): DiskStateBackend {
  const b = new DiskStateBackend({ localDir: undefined, cacheSize, incremental });
  backends.push(b);
  return b;
}

const tmp = () => { const d = mkdtempSync(join(tmpdir(), "ts-store-")); dirs.push(d); return d; };

type Op = { op: "set"; key: unknown; value: number } | { op: "delete"; key: unknown } | { op: "bump"; key: unknown };
const key = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom("1", "a", "", null, -0, 1n, 2n));
const ops = fc.array(fc.oneof(
  fc.record({ op: fc.constant("set" as const), key, value: fc.integer() }),
  fc.record({ op: fc.constant("delete" as const), key }),
  fc.record({ op: fc.constant("bump" as const), key }),
), { maxLength: 60 });

/** Applies `op` to a store of `{ n }` objects the way state code does: mutate what get returned in place. */
function apply(s: Map<unknown, { n: number }> | DiskKeyedStore<{ n: number }>, o: Op): unknown {
  switch (o.op) {
    case "set": s.set(o.key, { n: o.value }); return undefined;
    case "delete": s.delete(o.key); return undefined;
    case "bump": {
      const v = s.get(o.key);
      if (v !== undefined) v.n++;
      return v?.n;
    }
  }
}

describe("DiskKeyedStore", () => {
  it("answers every get, has and iteration as a Map does (random operations, caches of 1 to 4 entries)", () => {
    fc.assert(fc.property(ops, fc.integer({ min: 1, max: 4 }), (list, cacheSize) => {
      const b = new DiskStateBackend({ localDir: undefined, cacheSize, incremental: false });
      try {
        const disk = b.createStore<{ n: number }>({ name: "t" }) as DiskKeyedStore<{ n: number }>;
        const mem = new Map<unknown, { n: number }>();
        for (const o of list) {
          expect(apply(disk, o)).toEqual(apply(mem, o));
          expect(disk.has(o.key)).toBe(mem.has(o.key));
          expect(disk.cached).toBeLessThanOrEqual(cacheSize);
        }
        expect(disk.size).toBe(mem.size);
        const sort = (xs: [unknown, { n: number }][]) => xs.map(([k, v]) => [String(typeof k) + String(k), v.n]).sort();
        expect(sort([...disk])).toEqual(sort([...mem]));
      } finally {
        b.dispose();
      }
    }), { numRuns: 150 });
  });

  it("reads are copies: a value written back and read again is equal, not the same object; codec types survive", () => {
    const s = backend(1).createStore<{ d: Decimal; big: bigint; at: Date; m: Map<string, number> }>({ name: "t" });
    const v = { d: new Decimal("1.50"), big: 12345678901234567890n, at: new Date(5), m: new Map([["x", 1]]) };
    s.set("k", v);
    s.set("other", v); // the cache holds one entry: "k" is written back and dropped
    const back = s.get("k")!;
    expect(back).not.toBe(v);
    expect(back.d.toString()).toBe("1.5");
    expect(back.big).toBe(12345678901234567890n);
    expect(back.at.getTime()).toBe(5);
    expect(back.m).toEqual(new Map([["x", 1]]));
  });

  it("keeps the cache bounded and the job directory until dispose", () => {
    const b = backend(100);
    const s = b.createStore<{ n: number }>({ name: "t" }) as DiskKeyedStore<{ n: number }>;
    for (let i = 0; i < 1000; i++) s.set(i, { n: i });
    expect(s.cached).toBeLessThanOrEqual(100);
    expect(s.size).toBe(1000);
    expect(s.get(500)).toEqual({ n: 500 });
    expect(existsSync(b.dir)).toBe(true);
    b.dispose();
    expect(existsSync(b.dir)).toBe(false);
  });

  it("an incremental checkpoint holds only the changed and deleted keys; the chain restores the same entries", () => {
    const shared = join(tmp(), "shared");
    const b = backend(10, true);
    const s = b.createStore<{ n: number }>({ name: "t" });
    for (let i = 0; i < 500; i++) s.set(i, { n: i });
    b.beginCheckpoint(shared, 1);
    const full = storeSnapshot(s)! as StoreFiles;
    expect(b.endCheckpoint()).toEqual(full.$storeFiles);
    expect(full.$storeFiles).toHaveLength(1);
    s.get(7)!.n = -7;
    s.delete(8);
    s.set(1000, { n: 1000 });
    s.delete(9);
    s.set(9, { n: 99 });
    b.beginCheckpoint(shared, 2);
    const delta = storeSnapshot(s)! as StoreFiles;
    b.endCheckpoint();
    expect(delta.$storeFiles).toHaveLength(2);
    expect(delta.$storeFiles[0]).toBe(full.$storeFiles[0]);
    expect(statSync(delta.$storeFiles[1]!).size).toBeLessThan(statSync(full.$storeFiles[0]!).size / 10);
    // restored into a Map (the hashmap backend) and into a fresh disk store
    for (const target of [new Map<unknown, unknown>(), backend(3).createStore<unknown>({ name: "r" })]) {
      restoreStore(delta, target, undefined, (v) => v, 0);
      expect(target.size).toBe(500);
      expect(target.get(7)).toEqual({ n: -7 });
      expect(target.get(8)).toBeUndefined();
      expect(target.get(9)).toEqual({ n: 99 });
      expect(target.get(1000)).toEqual({ n: 1000 });
      expect(target.get(499)).toEqual({ n: 499 });
    }
  });

  it("outside a checkpoint (a savepoint) a store gives no files: its entries are inlined", () => {
    const s = backend(10).createStore<{ n: number }>({ name: "t" });
    s.set(1, { n: 1 });
    expect(storeSnapshot(s)).toBeUndefined();
    expect(storeSnapshot(new Map())).toBeUndefined();
  });
});

describe("value state with TTL on the disk backend", () => {
  it("idle keys are removed incrementally (the TTL cleaner deletes while it iterates the store)", () => {
    const H = 3_600_000;
    const slot = new ValueStateSlot("s", valueState({ n: 0 }) as unknown as ValueStateDecl<unknown>, H, backend(8));
    for (let i = 0; i < 100; i++) {
      const v = slot.load(`k${i}`, 0) as { n: number };
      v.n++;
      slot.store(`k${i}`, v, 0);
    }
    expect(slot.map.size).toBe(100);
    for (let i = 0; i < 60; i++) {
      const v = slot.load("z", 2 * H) as { n: number };
      v.n++;
      slot.store("z", v, 2 * H);
    }
    // two keys looked at per access: 120 looks cover the 100 idle keys
    expect([...slot.map.keys()]).toEqual(["z"]);
    expect(slot.peek("z", 2 * H)).toEqual({ n: 60 });
    expect(slot.times!.size).toBe(1);
  });
});

describe("state.backend.type", () => {
  it("hashmap by default; disk (or Flink's rocksdb) selects the disk backend; bad values name the option", () => {
    expect(stateBackendFor(new Map()).type).toBe("hashmap");
    for (const type of ["disk", "rocksdb"]) {
      const b = stateBackendFor(new Map([["state.backend.type", type]]));
      backends.push(b as DiskStateBackend);
      expect(b.type).toBe("disk");
    }
    expect(() => stateBackendFor(new Map([["state.backend.type", "memory"]]))).toThrow(ValidationError);
    expect(() => stateBackendFor(new Map([["state.backend.type", "memory"]]))).toThrow(/state\.backend\.type/);
    expect(() => stateBackendFor(new Map([["state.backend.type", "disk"], ["state.backend.cache-size", "0"]]))).toThrow(/state\.backend\.cache-size/);
    expect(() => stateBackendFor(new Map([["state.backend.type", "disk"], ["execution.checkpointing.incremental", "yes"]]))).toThrow(/execution\.checkpointing\.incremental/);
  });

  it("state.backend.local-dir is where the job's directory goes", () => {
    const parent = tmp();
    const b = stateBackendFor(new Map([["state.backend.type", "disk"], ["state.backend.local-dir", parent]])) as DiskStateBackend;
    backends.push(b);
    expect(b.dir.startsWith(parent)).toBe(true);
  });
});
