// PTF ORDER BY sort buffers and MATCH_RECOGNIZE on the disk backend: their waiting rows are in the backend's
// stores, so a checkpoint holds the stores' files; a checkpoint taken on one backend restores on the other and
// continues with the uninterrupted changelog; through a `state.backend.cache-size` of 4 with 50 partitions
// each gives the hashmap backend's exact rows while its caches stay within the bound.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildJobGraph } from "../../src/exec/job-graph.js";
import type { Operator } from "../../src/exec/operator.js";
import { stateBackendFor } from "../../src/exec/state/backend-options.js";
import { DiskKeyedStore } from "../../src/exec/state/disk-store.js";
import type { JobSnapshot } from "../../src/exec/checkpoint/format.js";
import { OPERATORS } from "../../src/table/wiring.js";
import {
  $, ArgumentTrait, CollectionSink, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, Schema, type Table, TableEnvironment, tableArg, valueState,
} from "../../src/index.js";
import { toJavaString } from "../../src/types/format.js";
import { onBothBackends } from "../support/state-backends.js";
import { KIND_SHORT } from "../../src/types/row.js";

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), "ts-ptf-match-disk-")); dirs.push(d); return d; };
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

const N = 3000;
const EVENTS_SCHEMA = Schema.newBuilder().column("k", DataTypes.STRING()).column("v", DataTypes.BIGINT())
  .column("rowtime", DataTypes.TIMESTAMP(3)).watermark("rowtime", "`rowtime` - INTERVAL '3' SECOND").build();
const second = (s: number) => new Date(Date.UTC(2020, 0, 1) + s * 1000);
/** 50 keys, values repeating every 13 rows, times rising with some disorder (within the watermark's delay) and ties. */
const EVENTS = Array.from({ length: N }, (_, i) => Row.of(`k${i % 50}`, i % 13, second(i - (i % 3) + (i % 5 === 0 ? 2 : 0))));

/** Order-sensitive: each row's value weighted by its position in its partition, and the partition's running hash. */
const OrderedSum = ProcessTableFunction.define({
  name: "OrderedSum",
  args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { st: valueState<{ n: number; h: number }>({ n: 0, h: 0 }) },
  output: DataTypes.ROW(DataTypes.FIELD("v", DataTypes.BIGINT())),
  eval(ctx, { st }, { r }) {
    st.n++;
    st.h = (st.h * 31 + (r.v as number) * st.n) % 1_000_003;
    ctx.collect({ v: st.h });
  },
});

const QUERIES: Record<string, (e: TableEnvironment) => Table<object>> = {
  "PTF ORDER BY rowtime, v DESC": (e) => e.fromValues(EVENTS_SCHEMA, EVENTS).partitionBy($("k")).orderBy($("rowtime").asc(), $("v").desc())
    .process(OrderedSum) as unknown as Table<object>,
  "MATCH_RECOGNIZE ORDER BY rowtime, v": (e) => {
    e.createTemporaryView("ev", e.fromValues(EVENTS_SCHEMA, EVENTS) as never);
    return e.sqlQuery(`SELECT * FROM ev MATCH_RECOGNIZE (
      PARTITION BY k ORDER BY rowtime, v MEASURES FIRST(A.v) * 100 + B.v AS v ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW
      PATTERN (A+ B) DEFINE A AS A.v < 6, B AS B.v > 8)`) as unknown as Table<object>;
  },
  // partial matches overlap (SKIP TO NEXT ROW) and expire (WITHIN) at rows and at watermarks
  "MATCH_RECOGNIZE WITHIN, SKIP TO NEXT ROW": (e) => {
    e.createTemporaryView("ev", e.fromValues(EVENTS_SCHEMA, EVENTS) as never);
    return e.sqlQuery(`SELECT * FROM ev MATCH_RECOGNIZE (
      PARTITION BY k ORDER BY rowtime MEASURES FIRST(A.v) * 1000 + COUNT(B.v) * 10 + C.v AS v ONE ROW PER MATCH AFTER MATCH SKIP TO NEXT ROW
      PATTERN (A B+? C) WITHIN INTERVAL '200' SECOND DEFINE A AS A.v < 4, B AS B.v <> 12, C AS C.v = 12)`) as unknown as Table<object>;
  },
};

const OUT = Schema.newBuilder().column("k", DataTypes.STRING()).column("v", DataTypes.BIGINT()).build();
const DISK: Record<string, string> = { "state.backend.type": "disk" };
const HASHMAP: Record<string, string> = {};
const metadata = (chk: string) => JSON.parse(readFileSync(join(chk, "_metadata"), "utf8")) as JobSnapshot;

describe("PTF sort buffers and MATCH_RECOGNIZE: checkpoints of their stores restore on either backend", () => {
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
      expect(whole.changelog().length).toBeGreaterThan(100);
      // taken on the disk backend, restored on both; taken on the hashmap backend, restored on the disk one
      for (const [takeOn, restoreOn] of [[DISK, DISK], [DISK, HASHMAP], [HASHMAP, DISK]]) {
        const dir = tmp();
        const sink = new CollectionSink();
        const checkpoints = { "execution.checkpointing.interval-records": "1000", "execution.checkpointing.dir": dir, "execution.checkpointing.num-retained": "3" };
        const onDisk: Record<string, string> = takeOn === DISK ? { "state.backend.cache-size": "8", "execution.checkpointing.incremental": "true" } : {};
        await exec(sink, { ...takeOn, ...onDisk, ...checkpoints });
        expect(sink.changelog()).toEqual(whole.changelog());
        // on the disk backend the operator's entries are in its store's files, not in _metadata
        if (takeOn === DISK) expect(metadata(join(dir, "chk-2")).sharedFiles!.length).toBeGreaterThan(0);
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

/** The disk stores an operator holds, in its fields or a few levels below (a PTF's sort buffers are in its inputs). */
function storesOf(op: Operator): DiskKeyedStore<unknown>[] {
  const out: DiskKeyedStore<unknown>[] = [];
  const seen = new Set<unknown>();
  const walk = (x: unknown, depth: number): void => {
    if (x === null || typeof x !== "object" || seen.has(x) || x instanceof Map || x instanceof Set) return;
    seen.add(x);
    if (x instanceof DiskKeyedStore) { out.push(x); return; }
    if (depth === 0) return;
    const values = Array.isArray(x) ? x.slice(0, 8) : Object.values(x as Record<string, unknown>);
    for (const v of values) walk(v, depth - 1);
  };
  walk(op, 4);
  return out;
}

describe("PTF sort buffers and MATCH_RECOGNIZE through a cache of 4 entries", () => {
  for (const [name, query] of Object.entries(QUERIES)) {
    it(`${name}: the hashmap backend's exact changelog, every cache within the bound`, () => {
      const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
      const mem = run(query(env()), {}, () => {});
      let stores = 0;
      let most = 0;
      const disk = run(query(env()), { "state.backend.type": "disk", "state.backend.cache-size": "4" }, (ops) => {
        const all = ops.flatMap(storesOf);
        stores = Math.max(stores, all.length);
        for (const s of all) most = Math.max(most, s.cached);
      });
      expect(stores).toBeGreaterThan(0);
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(4);
      expect(disk).toEqual(mem);
      expect(mem.length).toBeGreaterThan(100);
    });
  }

  it("MATCH_RECOGNIZE keeps its partial matches in the store: one entry per partition key, none in memory", () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    let entries = 0;
    let live = -1;
    let most = 0;
    run(QUERIES["MATCH_RECOGNIZE WITHIN, SKIP TO NEXT ROW"]!(env), { "state.backend.type": "disk", "state.backend.cache-size": "4" }, (ops) => {
      const op = ops.find((o) => o.constructor.name === "MatchRecognizeOperator") as unknown as { partitions: unknown[]; store: DiskKeyedStore<unknown> };
      entries = op.store.size;
      live = op.partitions.length;
      most = Math.max(most, op.store.cached);
    });
    expect(entries).toBe(50);
    expect(live).toBe(0);
    expect(most).toBeLessThanOrEqual(4);
  });
});

describe("MATCH_RECOGNIZE WITHIN on the disk backend: a watermark expires stored partial matches", () => {
  // key a: a partial match begun at 0 s (A B B B C) is alive when the match begun at 1 s (A C) completes, so that
  // one waits; no further row of a comes, only the watermark (key b's rows) expires the first one at 5 s
  const schema = Schema.newBuilder().column("k", DataTypes.STRING()).column("v", DataTypes.BIGINT())
    .column("rowtime", DataTypes.TIMESTAMP(3)).watermark("rowtime", "`rowtime`").build();
  const rows = [Row.of("a", 1, second(0)), Row.of("a", 1, second(1)), Row.of("a", 9, second(2)),
    ...Array.from({ length: 20 }, (_, i) => Row.of("b", 0, second(3 + i)))];
  it("the waiting match goes out at the watermark that expires the earlier partial match, on both backends", async () => {
    const out = await onBothBackends(async (options) => {
      const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
      for (const [k, v] of Object.entries(options)) e.getConfig().set(k, v);
      e.createTemporaryView("ev", e.fromValues(schema, rows) as never);
      const sink = new CollectionSink();
      e.createTemporaryTable("out", sink.descriptor(OUT));
      await (e.sqlQuery(`SELECT * FROM ev MATCH_RECOGNIZE (
        PARTITION BY k ORDER BY rowtime MEASURES FIRST(A.v) * 10 + C.v AS v ONE ROW PER MATCH
        PATTERN (A C | A B B B C) WITHIN INTERVAL '5' SECOND DEFINE A AS A.v = 1, C AS C.v = 9)`) as unknown as Table<object>)
        .executeInsert("out").await();
      return sink.changelog();
    });
    expect(out).toEqual(["+I[a, 19]"]);
  });
});
