// A top-N without PARTITION BY on the disk backend: its one partition's rows are in the backend's store as a
// head (rankEnd + 1 rows) and sorted chunks behind it (rank/stored-rows.ts). The same changelog as the hashmap
// backend over updating input (inserts and retractions in the head and the tail, many ties) and insert-only
// input; through a cache of 4 the store stays within the bound with many chunks; a checkpoint taken on one
// backend restores on the other, in each direction, and continues with the uninterrupted changelog.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildJobGraph } from "../../src/exec/job-graph.js";
import type { Operator } from "../../src/exec/operator.js";
import { stateBackendFor } from "../../src/exec/state/backend-options.js";
import type { DiskKeyedStore } from "../../src/exec/state/disk-store.js";
import { OPERATORS } from "../../src/table/wiring.js";
import { RankOperator, type RankSpec } from "../../src/exec/operators/rank/rank-operator.js";
import { CHUNK_ROWS } from "../../src/exec/operators/rank/stored-rows.js";
import type { StateBackend } from "../../src/exec/state/keyed-store.js";
import { CollectionSink, DataTypes, EnvironmentSettings, Row, Schema, type Table, TableEnvironment } from "../../src/index.js";
import { toJavaString } from "../../src/types/format.js";
import { KIND_SHORT } from "../../src/types/row.js";

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), "ts-top-n-disk-")); dirs.push(d); return d; };
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

const N = 3000;
const EVENTS_SCHEMA = Schema.newBuilder().column("k", DataTypes.STRING()).column("v", DataTypes.BIGINT()).build();
/** 700 keys in a scrambled order (each seen 4 or 5 times), values repeating every 17 rows. */
const EVENTS = Array.from({ length: N }, (_, i) => Row.of(`k${(i * 7919) % 700}`, (i * 31) % 17));

const counts = "(SELECT k, COUNT(*) AS cnt, SUM(v) AS s FROM ev GROUP BY k)";
const QUERIES: Record<string, (e: TableEnvironment) => Table<object>> = {
  // updating input, row number, a range not starting at 1: count updates retract rows in the head and the tail
  "updating input, ROW_NUMBER BETWEEN 3 AND 7": (e) => view(e).sqlQuery(`SELECT k, cnt * 1000 + s * 10 + rn AS v FROM (
      SELECT k, cnt, s, ROW_NUMBER() OVER (ORDER BY cnt DESC) AS rn FROM ${counts}) WHERE rn BETWEEN 3 AND 7`) as unknown as Table<object>,
  // updating input without the row number, ascending: the smallest counts leave the head as they grow
  "updating input, no row number, ORDER BY cnt, s DESC": (e) => view(e).sqlQuery(`SELECT k, cnt * 1000 + s AS v FROM (
      SELECT k, cnt, s, ROW_NUMBER() OVER (ORDER BY cnt, s DESC) AS rn FROM ${counts}) WHERE rn <= 4`) as unknown as Table<object>,
  "insert-only input, ROW_NUMBER <= 3": (e) => view(e).sqlQuery(`SELECT k, v * 10 + rn AS v FROM (
      SELECT k, v, ROW_NUMBER() OVER (ORDER BY v DESC) AS rn FROM ev) WHERE rn <= 3`) as unknown as Table<object>,
};

function view(e: TableEnvironment): TableEnvironment {
  e.createTemporaryView("ev", e.fromValues(EVENTS_SCHEMA, EVENTS) as never);
  return e;
}

const OUT = Schema.newBuilder().column("k", DataTypes.STRING()).column("v", DataTypes.BIGINT()).build();
const DISK: Record<string, string> = { "state.backend.type": "disk" };
const HASHMAP: Record<string, string> = {};

describe("top-N without PARTITION BY: checkpoints restore on either backend", () => {
  for (const [name, query] of Object.entries(QUERIES)) {
    it(name, async () => {
      const exec = async (sink: CollectionSink, options: Record<string, string>) => {
        const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        for (const [k, v] of Object.entries(options)) e.getConfig().set(k, v);
        e.createTemporaryTable("out", sink.descriptor(OUT));
        await query(e).executeInsert("out").await();
      };
      const whole = new CollectionSink();
      await exec(whole, {});
      expect(whole.changelog().length).toBeGreaterThan(20);
      const disk = new CollectionSink();
      await exec(disk, { ...DISK, "state.backend.cache-size": "4" });
      expect(disk.changelog()).toEqual(whole.changelog());
      for (const [takeOn, restoreOn] of [[DISK, DISK], [DISK, HASHMAP], [HASHMAP, DISK]]) {
        const dir = tmp();
        const sink = new CollectionSink();
        const checkpoints = { "execution.checkpointing.interval-records": "1000", "execution.checkpointing.dir": dir, "execution.checkpointing.num-retained": "3" };
        const onDisk: Record<string, string> = takeOn === DISK ? { "state.backend.cache-size": "4", "execution.checkpointing.incremental": "true" } : {};
        await exec(sink, { ...takeOn, ...onDisk, ...checkpoints });
        expect(sink.changelog()).toEqual(whole.changelog());
        await exec(sink, { ...restoreOn, "execution.savepoint.path": join(dir, "chk-2") });
        expect(sink.changelog(), `${takeOn === DISK ? "disk" : "hashmap"} → ${restoreOn === DISK ? "disk" : "hashmap"}`).toEqual(whole.changelog());
      }
    });
  }
});

/** Builds the job of `table` by hand on the backend `options` ask for; drains its sources in turns of `n` rows. */
function run(table: Table<object>, options: Record<string, string>, each: (ops: readonly Operator[]) => void): string[] {
  const config = new Map(Object.entries(options));
  const backend = stateBackendFor(config);
  const types = table.getResolvedSchema().types;
  const log: string[] = [];
  try {
    const graph = buildJobGraph(table.node, { batch: false, config, clock: () => 0, stateBackend: backend, resolveFunction: table.env.planContext().resolveFunction }, {
      record: (k, v) => { log.push(`${KIND_SHORT[k]}[${v.map((x, i) => toJavaString(types[i], x)).join(", ")}]`); },
    }, OPERATORS, table.env.planContext().resolveFunction);
    for (const op of graph.operators) op.open();
    const live = new Set(graph.sources);
    while (live.size > 0) {
      for (const s of [...live]) if (s.reader.poll(s.emitter.out, 61) === "end") live.delete(s);
      each(graph.operators);
    }
    return log;
  } finally {
    backend.dispose();
  }
}

interface RankInternals {
  partitions: unknown[][][];
  single: { store: DiskKeyedStore<unknown>; head(): unknown[][]; ids: number[]; counts: number[] } | undefined;
}

describe("top-N without PARTITION BY through a cache of 4 entries", () => {
  for (const [name, query] of Object.entries(QUERIES)) {
    it(`${name}: the hashmap backend's exact changelog, the rows in the store, a bounded head`, () => {
      const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
      const mem = run(query(env()), {}, () => {});
      let most = 0;
      let head = 0;
      let chunks = 0;
      let rows = 0;
      let inMemory = -1;
      const disk = run(query(env()), { "state.backend.type": "disk", "state.backend.cache-size": "4" }, (ops) => {
        const op = ops.find((o) => o.constructor.name === "RankOperator") as unknown as RankInternals;
        const single = op.single!;
        most = Math.max(most, single.store.cached);
        head = Math.max(head, single.head().length);
        chunks = Math.max(chunks, single.ids.length);
        rows = single.head().length + single.counts.reduce((a, b) => a + b, 0);
        inMemory = op.partitions.length;
      });
      expect(disk).toEqual(mem);
      expect(mem.length).toBeGreaterThan(20);
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(4);
      expect(inMemory).toBe(0);
      if (name.startsWith("insert-only")) {
        expect(head).toBe(3); // an insert-only top-N keeps only the rows that can still rank
        expect(chunks).toBe(0);
      } else {
        expect(head).toBeLessThanOrEqual(name.includes("BETWEEN") ? 8 : 5); // rankEnd + 1
        expect(rows).toBe(700); // one row per key
        expect(chunks).toBeGreaterThan(3);
      }
    });
  }
});

/** A seeded generator (xorshift), so a failure repeats. */
function random(seed: number): () => number {
  let x = seed;
  return () => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return (x >>> 0) / 4294967296; };
}

describe("top-N without PARTITION BY: random inserts and retractions on the operator", () => {
  const schema = TableEnvironment.create(EnvironmentSettings.inStreamingMode())
    .fromValues(Schema.newBuilder().column("a", DataTypes.INT()).column("b", DataTypes.INT()).build(), [Row.of(1, 1)]).getResolvedSchema();
  const specs: [string, RankSpec][] = [
    ["rank 2..5, row number", { input: schema, partitionKeys: [], orderKeys: [{ column: 0, ascending: false, nullsFirst: false }], rankStart: 2, rankEnd: 5, rankNumber: true, appendOnly: false }],
    ["rank 1..3, no row number", { input: schema, partitionKeys: [], orderKeys: [{ column: 0, ascending: true, nullsFirst: false }], rankStart: 1, rankEnd: 3, rankNumber: false, appendOnly: false }],
  ];
  for (const [name, spec] of specs) {
    it(`${name}: the same output on both backends, through chunk splits and emptied chunks, across a snapshot`, () => {
      const next = random(12345);
      // few sort values (long runs of ties across chunks), rows distinct by b; retractions of kept and of unknown rows
      const kept: [number, number][] = [];
      const changes: [boolean, [number, number]][] = [];
      for (let i = 0; i < 6000; i++) {
        const grow = i < 3000 ? next() < 0.8 : next() < 0.35;
        if (grow || kept.length === 0) {
          const r: [number, number] = [Math.floor(next() * 6), i];
          kept.push(r);
          changes.push([true, r]);
        } else if (next() < 0.05) changes.push([false, [Math.floor(next() * 6), -1 - i]]);
        else changes.push([false, kept.splice(Math.floor(next() * kept.length), 1)[0]!]);
      }
      const runOn = (options: Record<string, string>, restoreAt: number, restoreOn?: Record<string, string>) => {
        const out: string[] = [];
        const backends: StateBackend[] = [];
        const make = (o: Record<string, string>) => {
          const backend = stateBackendFor(new Map(Object.entries(o)));
          backends.push(backend);
          const op = new RankOperator(spec, undefined, backend);
          op.out = { record: (k, r) => { out.push(`${k}${JSON.stringify(r)}`); }, watermark: () => {}, endInput: () => {} };
          op.open();
          return op;
        };
        let op = make(options);
        let chunks = 0;
        try {
          changes.forEach(([insert, r], i) => {
            if (i === restoreAt) {
              const snapshot = JSON.parse(JSON.stringify(op.snapshotState())) as unknown;
              op = make(restoreOn ?? options);
              op.restoreState(snapshot);
            }
            op.processElement(0, insert ? 0 : 3, r.slice());
            const single = (op as unknown as { single?: { ids: number[] } }).single;
            if (single !== undefined) chunks = Math.max(chunks, single.ids.length);
          });
          out.push(JSON.stringify((op.snapshotState() as { rows: unknown[][] }).rows));
        } finally {
          for (const b of backends) b.dispose();
        }
        return { out, chunks };
      };
      const disk = { "state.backend.type": "disk", "state.backend.cache-size": "3" };
      const mem = runOn({}, -1);
      expect(mem.out.length).toBeGreaterThan(30); // the output, then every row in rank order (the last line)
      const onDisk = runOn(disk, -1);
      expect(onDisk.out).toEqual(mem.out);
      expect(onDisk.chunks).toBeGreaterThan(2000 / CHUNK_ROWS);
      expect(runOn(disk, 2500, {}).out, "disk → hashmap").toEqual(mem.out);
      expect(runOn({}, 2500, disk).out, "hashmap → disk").toEqual(mem.out);
    });
  }
});
