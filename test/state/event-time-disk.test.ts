// Interval and temporal joins, event-time OVER, DISTINCT and the temporal sort on the disk backend: their
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
  $, CollectionSink, DataTypes, EnvironmentSettings, Over, Row, Schema, type Table, TableEnvironment, UNBOUNDED_RANGE, call, lit, rowInterval,
} from "../../src/index.js";
import { toJavaString } from "../../src/types/format.js";
import { KIND_SHORT } from "../../src/types/row.js";

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), "ts-event-disk-")); dirs.push(d); return d; };
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

const N = 3000;
const pad = (n: number) => String(n).padStart(2, "0");
/** Second `s` of 2020-01-01 as text (TO_TIMESTAMP's format). */
const at = (s: number) => `2020-01-01 ${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
const schema = (k: string, v: string, t: string, rt: string) => Schema.newBuilder()
  .column(k, DataTypes.STRING()).column(v, DataTypes.BIGINT()).column(t, DataTypes.STRING())
  .columnByExpression(rt, `TO_TIMESTAMP(\`${t}\`)`).watermark(rt, `\`${rt}\` - INTERVAL '3' SECOND`).build();
/** 50 keys, values repeating every 13 rows, times rising with some disorder (within the watermark's delay). */
const EVENTS = Array.from({ length: N }, (_, i) => Row.of(`k${i % 50}`, i % 13, at(i + (i % 3))));
/** Another input: versions / partners of 40 of the keys, every third second. */
const OTHER = Array.from({ length: N / 3 }, (_, i) => Row.of(`k${i % 40}`, 100 + i, at(3 * i)));

const events = (e: TableEnvironment) => e.fromValues(schema("k", "v", "t", "rowtime"), EVENTS);
const other = (e: TableEnvironment) => e.fromValues(schema("k2", "v2", "t2", "rt2"), OTHER);
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
  "DISTINCT": (e) => kv(events(e).select($("k"), $("v")).distinct()),
  "ORDER BY rowtime": (e) => kv(events(e).orderBy($("rowtime"), $("v")).select($("k"), $("v"))),
};

const OUT = Schema.newBuilder().column("k", DataTypes.STRING()).column("v", DataTypes.BIGINT()).build();
const DISK = { "state.backend.type": "disk" };
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
      for (const [takeOn, restoreOn] of [[DISK, DISK], [DISK, {}], [{}, DISK]] as const) {
        const dir = tmp();
        const sink = new CollectionSink();
        const checkpoints = { "execution.checkpointing.interval-records": "1000", "execution.checkpointing.dir": dir, "execution.checkpointing.num-retained": "3" };
        const onDisk = takeOn === DISK ? { "state.backend.cache-size": "8", "execution.checkpointing.incremental": "true" } : {};
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
