// Interval and temporal joins, event-time OVER, session windows, DISTINCT and the temporal sort on the disk backend: their
// keyed state is in the backend's stores, so a checkpoint holds the stores' files; a checkpoint taken on one
// backend restores on the other and continues with the uninterrupted changelog; through a tiny
// `state.backend.cache-size` every operator gives the hashmap backend's exact rows while its caches stay
// within the bound.
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
  $, CollectionSink, DataTypes, EnvironmentSettings, Over, Row, Schema, Session, type Table, TableEnvironment, UNBOUNDED_RANGE, call, lit, rowInterval,
} from "../../src/index.js";
import { toJavaString } from "../../src/types/format.js";
import { KIND_SHORT } from "../../src/types/row.js";

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), "ts-event-disk-")); dirs.push(d); return d; };
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

const N = 3000;
const EVENTS_SCHEMA = Schema.newBuilder().column("k", DataTypes.STRING()).column("v", DataTypes.BIGINT())
  .column("rowtime", DataTypes.TIMESTAMP(3)).watermark("rowtime", "`rowtime` - INTERVAL '3' SECOND").build();
const OTHER_SCHEMA = Schema.newBuilder().column("k2", DataTypes.STRING()).column("v2", DataTypes.BIGINT())
  .column("rt2", DataTypes.TIMESTAMP(3)).watermark("rt2", "`rt2` - INTERVAL '3' SECOND").build();
const second = (s: number) => new Date(Date.UTC(2020, 0, 1) + s * 1000);
/** 50 keys, values repeating every 13 rows, times rising with some disorder (within the watermark's delay). */
const EVENTS = Array.from({ length: N }, (_, i) => Row.of(`k${i % 50}`, i % 13, second(i + (i % 3))));
/** Another input: versions / partners of 40 of the keys, every third second. */
const OTHER = Array.from({ length: N / 3 }, (_, i) => Row.of(`k${i % 40}`, 100 + i, second(3 * i)));

const events = (e: TableEnvironment) => e.fromValues(EVENTS_SCHEMA, EVENTS);
const other = (e: TableEnvironment) => e.fromValues(OTHER_SCHEMA, OTHER);
const kv = (t: Table<object>) => t as unknown as Table<object>;

const QUERIES: Record<string, (e: TableEnvironment) => Table<object>> = {
  "interval join (full outer)": (e) => kv(events(e).fullOuterJoin(other(e), $("k").isEqual($("k2"))
    .and($("rowtime").between($("rt2").minus(lit(2).seconds()), $("rt2").plus(lit(1).seconds())))).select($("k"), $("v2").as("v"))),
  "temporal table function join (left outer)": (e) => kv(events(e).leftOuterJoinLateral(
    call(other(e).createTemporalTableFunction($("rt2"), $("k2")), $("rowtime")), $("k").isEqual($("k2"))).select($("k"), $("v2").as("v"))),
  "OVER RANGE UNBOUNDED PRECEDING": (e) => kv(events(e).window(Over.partitionBy($("k")).orderBy($("rowtime")).preceding(UNBOUNDED_RANGE).as("w"))
    .select($("k"), $("v").sum().over($("w")).as("v"))),
  "OVER ROWS 2 PRECEDING": (e) => kv(events(e).window(Over.partitionBy($("k")).orderBy($("rowtime")).preceding(rowInterval(2)).as("w"))
    .select($("k"), $("v").max().over($("w")).as("v"))),
  // a key every 50 s (±2 s): with a gap of 49 s some rows merge into their key's session, others open a new one
  "SESSION window (gap 49 s)": (e) => kv(events(e).window(Session.withGap(lit(49).seconds()).on($("rowtime")).as("w"))
    .groupBy($("k"), $("w")).select($("k"), $("v").sum().as("v"))),
  "SESSION window (gap 50 s)": (e) => kv(events(e).window(Session.withGap(lit(50).seconds()).on($("rowtime")).as("w"))
    .groupBy($("k"), $("w")).select($("k"), $("v").max().as("v"))),
  "DISTINCT": (e) => kv(events(e).select($("k"), $("v")).distinct()),
  "ORDER BY rowtime": (e) => kv(events(e).orderBy($("rowtime"), $("v")).select($("k"), $("v"))),
};

const OUT = Schema.newBuilder().column("k", DataTypes.STRING()).column("v", DataTypes.BIGINT()).build();
const DISK: Record<string, string> = { "state.backend.type": "disk" };
const HASHMAP: Record<string, string> = {};
const metadata = (chk: string) => JSON.parse(readFileSync(join(chk, "_metadata"), "utf8")) as JobSnapshot;

describe("event-time operators: checkpoints of their stores restore on either backend", () => {
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

/** The disk stores an operator holds in its own fields. */
function storesOf(op: Operator): DiskKeyedStore<unknown>[] {
  return Object.values(op as unknown as Record<string, unknown>).filter((v): v is DiskKeyedStore<unknown> => v instanceof DiskKeyedStore);
}

describe("event-time operators through a cache of 4 entries", () => {
  for (const [name, query] of Object.entries(QUERIES)) {
    it(`${name}: the hashmap backend's exact changelog, every cache within the bound`, () => {
      const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
      const mem = run(query(env), {}, () => {});
      let stores = 0;
      let most = 0;
      const disk = run(query(env), { "state.backend.type": "disk", "state.backend.cache-size": "4" }, (ops) => {
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
});
