// Window aggregation on the disk backend: the groups of the open windows live in the backend's stores, and
// only a bounded number of them are held as columns (state.backend.cache-size). Many windows × keys through
// a tiny cache give the exact changelog of the hashmap backend; checkpoints write the stores' files
// (incremental ones only what changed) and restore on either backend.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildJobGraph, type JobGraph } from "../../src/exec/job-graph.js";
import { prepareSnapshot } from "../../src/exec/operator.js";
import { WindowAggregateOperator } from "../../src/exec/operators/window-aggregate.js";
import { stateBackendFor } from "../../src/exec/state/backend-options.js";
import type { DiskStateBackend } from "../../src/exec/state/disk-backend.js";
import type { StateBackend, StoreFiles } from "../../src/exec/state/keyed-store.js";
import { readStoreFiles } from "../../src/exec/state/store-files.js";
import { OPERATORS } from "../../src/table/wiring.js";
import { $, DataTypes, EnvironmentSettings, Row, Schema, Slide, type Table, TableEnvironment, Tumble, lit } from "../../src/index.js";
import { toJavaString } from "../../src/types/format.js";
import { KIND_SHORT } from "../../src/types/row.js";

const backends: StateBackend[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const b of backends.splice(0)) b.dispose();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const KEYS = 100;
const SECONDS = 30;

/** Events (k, v, ts), the watermark `lag` seconds behind the largest ts. */
function schema(lag: number): Schema {
  return Schema.newBuilder().column("k", DataTypes.INT()).column("v", DataTypes.BIGINT()).column("ts", "TIMESTAMP_LTZ(3)")
    .watermark("ts", `ts - INTERVAL '${lag}' SECOND`).build();
}

/** Every second, every key once in its second and once two seconds back (out of order, not late with a lag of 3 s). */
function rows(): ReturnType<typeof Row.of>[] {
  const out: ReturnType<typeof Row.of>[] = [];
  for (let t = 0; t < SECONDS; t++) {
    for (let k = 0; k < KEYS; k++) {
      const frac = ((k * 7) % 10) * 100;
      out.push(Row.of(k, t * KEYS + k, new Date(t * 1000 + frac)));
      if (t >= 2) out.push(Row.of((k * 3) % KEYS, 1, new Date((t - 2) * 1000 + frac)));
    }
  }
  return out;
}

interface Run { readonly log: string[]; readonly graph: JobGraph; readonly op: WindowAggregateOperator; readonly backend: StateBackend }

function job(table: Table<object>, options: Record<string, string>): Run {
  const config = new Map(Object.entries(options));
  const backend = stateBackendFor(config);
  backends.push(backend);
  const types = table.getResolvedSchema().types;
  const log: string[] = [];
  const graph = buildJobGraph(table.node, { batch: false, config, clock: () => 0, stateBackend: backend }, {
    record: (k, v) => { log.push(`${KIND_SHORT[k]}[${v.map((x, i) => toJavaString(types[i], x)).join(", ")}]`); },
  }, OPERATORS);
  for (const op of graph.operators) op.open();
  const op = graph.operators.find((o): o is WindowAggregateOperator => o instanceof WindowAggregateOperator)!;
  return { log, graph, op, backend };
}

function drive(run: Run, each: () => void = () => {}, n = 37): void {
  const src = run.graph.sources[0]!;
  while (src.reader.poll(src.emitter.out, n) !== "end") each();
  each();
}

type WindowKind = "tumble" | "hop";

function query(env: TableEnvironment, kind: WindowKind, lag = 3): Table<object> {
  const t = env.fromValues(schema(lag), ...rows());
  const w = kind === "tumble" ? Tumble.over(lit(1).seconds()) : Slide.over(lit(3).seconds()).every(lit(1).seconds());
  return t.window(w.on($("ts")).as("w")).groupBy($("k"), $("w"))
    .select($("k"), $("w").start().as("s"), $("v").sum().as("total"), $("v").max().as("mx"), $("v").count().as("n")) as unknown as Table<object>;
}

const DISK_TINY = { "state.backend.type": "disk", "state.backend.cache-size": "16" };

describe("window aggregation on the disk backend", () => {
  it.each(["tumble", "hop"] as const)("%s: 100 keys × 30 s of windows through a cache of 16: the hashmap backend's exact changelog, at most 16 groups resident", (kind) => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const mem = job(query(env, kind), {});
    drive(mem);
    expect(mem.op.residentGroups()).toBeUndefined();
    const disk = job(query(env, kind), DISK_TINY);
    let open = 0;
    drive(disk, () => { open = Math.max(open, disk.op.entryCount()); });
    const resident = disk.op.residentGroups()!;
    // several windows of 100 keys were open at once, never more than 16 groups held as columns
    expect(open).toBeGreaterThan(3 * KEYS);
    expect(resident.most).toBe(16);
    expect(resident.now).toBe(0);
    expect(disk.log).toEqual(mem.log);
    // one row per key and window: 30 tumbling windows, or 32 hopping ones (3 s every 1 s)
    expect(disk.log).toHaveLength(KEYS * (kind === "tumble" ? SECONDS : SECONDS + 2));
    if (kind === "tumble") {
      // key 5 in [00:00:07, 00:00:08): its own row (v = 705) and the late-by-two-seconds one of key 35 (3 * 35 % 100 = 5)
      expect(disk.log).toContain("+I[5, 1970-01-01T00:00:07, 706, 705, 2]");
    }
  });

  it("an incremental checkpoint holds only the groups records reached; checkpoint files restore on both backends", () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    // a watermark 100 s behind: no window fires before the end of input, every group stays in state until then
    const table = query(env, "tumble", 100);
    const whole = job(table, {});
    drive(whole);
    const shared = mkdtempSync(join(tmpdir(), "ts-window-disk-"));
    dirs.push(shared);
    const disk = job(table, { ...DISK_TINY, "execution.checkpointing.incremental": "true" });
    const b = disk.backend as DiskStateBackend;
    const src = disk.graph.sources[0]!;
    const checkpoint = (id: number) => {
      b.beginCheckpoint(shared, id);
      prepareSnapshot(disk.graph.operators);
      const state = disk.op.snapshotState() as { groups: StoreFiles; index: StoreFiles };
      b.endCheckpoint();
      return { state: structuredClone(state), position: src.reader.position() };
    };
    src.reader.poll(src.emitter.out, 2000);
    const first = checkpoint(1);
    expect(first.state.groups.$storeFiles).toHaveLength(1);
    // 2000 rows are seconds 0..10 (11 windows of 100 keys); 30 more: keys 0..14 of second 11 (new groups)
    // and the rows two seconds back of keys 0, 3, .., 42 (groups of second 9) — 30 groups changed
    src.reader.poll(src.emitter.out, 30);
    const second = checkpoint(2);
    expect(second.state.groups.$storeFiles).toHaveLength(2);
    const puts = (file: string) => {
      let n = 0;
      readStoreFiles([file], (_k, v) => { if (v !== undefined) n++; });
      return n;
    };
    expect(puts(first.state.groups.$storeFiles[0]!)).toBe(1100);
    expect(puts(second.state.groups.$storeFiles[1]!)).toBe(30);
    expect(puts(second.state.index.$storeFiles[1]!)).toBeLessThanOrEqual(30);
    drive(disk);
    expect(disk.log).toEqual(whole.log);
    for (const to of [{}, DISK_TINY]) {
      const restored = job(table, to);
      restored.op.restoreState(structuredClone(second.state));
      restored.graph.sources[0]!.reader.seek(second.position);
      drive(restored);
      expect(restored.log).toEqual(whole.log);
    }
  });

  it("a snapshot outside a checkpoint has the hashmap backend's inline form, groups in arrival order", () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const table = query(env, "hop");
    const half = (run: Run) => {
      run.graph.sources[0]!.reader.poll(run.graph.sources[0]!.emitter.out, 1500);
      prepareSnapshot(run.graph.operators);
      return run.op.snapshotState();
    };
    const mem = half(job(table, {}));
    const disk = half(job(table, DISK_TINY));
    expect(disk).toEqual(mem);
    expect((mem as { windows: unknown[] }).windows.length).toBeGreaterThan(3);
  });
});

// Window top-N and window joins buffer rows per window: on the disk backend in a store, one entry per row.
describe("window top-N and window joins on the disk backend", () => {
  const SQL = {
    "window top-N": "SELECT * FROM (SELECT window_start, k, v, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, k ORDER BY v DESC) AS rn "
      + "FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '1' SECOND))) WHERE rn <= 2",
    "window join": "SELECT L.k, L.window_start, L.v, R.v FROM (SELECT * FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '1' SECOND))) L "
      + "JOIN (SELECT * FROM TABLE(TUMBLE(TABLE ev2, DESCRIPTOR(ts), INTERVAL '1' SECOND))) R "
      + "ON L.window_start = R.window_start AND L.window_end = R.window_end AND L.k = R.k",
  } as const;

  const table = (env: TableEnvironment, which: keyof typeof SQL) => {
    const few = rows().filter((_r, i) => i % 7 === 0);
    env.createTemporaryView("ev", env.fromValues(schema(3), ...few) as never);
    env.createTemporaryView("ev2", env.fromValues(schema(3), ...few.filter((_r, i) => i % 2 === 0)) as never);
    return env.sqlQuery(SQL[which]) as unknown as Table<object>;
  };

  it.each(Object.keys(SQL) as (keyof typeof SQL)[])("%s: the hashmap backend's rows; checkpoint files restore on both backends", (which) => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const t = table(env, which);
    const runWhole = (options: Record<string, string>) => {
      const r = job(t, options);
      for (const s of r.graph.sources) while (s.reader.poll(s.emitter.out, 50) !== "end");
      return r.log;
    };
    const whole = runWhole({});
    expect(whole.length).toBeGreaterThan(50);
    expect(runWhole(DISK_TINY)).toEqual(whole);
    // a checkpoint of the disk backend after part of the first source, restored on each backend
    const shared = mkdtempSync(join(tmpdir(), "ts-window-rows-"));
    dirs.push(shared);
    const disk = job(t, DISK_TINY);
    const [first, ...others] = disk.graph.sources;
    for (const s of others) while (s.reader.poll(s.emitter.out, 50) !== "end");
    first!.reader.poll(first!.emitter.out, 200);
    const b = disk.backend as DiskStateBackend;
    b.beginCheckpoint(shared, 1);
    prepareSnapshot(disk.graph.operators);
    const states = structuredClone(disk.graph.operators.map((o) => o.snapshotState()));
    b.endCheckpoint();
    expect(JSON.stringify(states)).toContain("$storeFiles");
    const position = first!.reader.position();
    const positions = others.map((s) => s.reader.position());
    while (first!.reader.poll(first!.emitter.out, 50) !== "end");
    expect(disk.log).toEqual(whole);
    for (const to of [{}, DISK_TINY]) {
      const r = job(t, to);
      r.graph.operators.forEach((o, i) => o.restoreState(states[i]));
      const [f, ...os] = r.graph.sources;
      os.forEach((s, i) => s.reader.seek(positions[i]!));
      f!.reader.seek(position);
      for (const s of os) while (s.reader.poll(s.emitter.out, 50) !== "end");
      while (f!.reader.poll(f!.emitter.out, 50) !== "end");
      expect(r.log).toEqual(whole.slice(whole.length - r.log.length));
      expect(r.log.length).toBeGreaterThan(0);
    }
  });
});
