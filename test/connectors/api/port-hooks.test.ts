// What the public connector API gained so that filesystem and async-iterable could be written against it:
// SourceDefinition.replayable and legacyPosition, SinkDefinition.legacyCommittables, SourceContext.metrics and
// physicalColumns, SourcePartitions.defaultName, and a `format` option of the connector's own.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  EnvironmentSettings, TableEnvironment, ValidationError, defineConnector, option,
  type JsonValue, type PartitionSpec, type SinkBatch, type SourceBatch, type SourceContext,
} from "../../../src/index.js";

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), "ts-port-hooks-")); dirs.push(d); return d; };
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

/** An external queue (consumed rows are gone, as an iterable's) and what the connector was told. */
interface Feed {
  queue: number[];
  restoredFrom: (JsonValue | undefined)[];
  written: number[];
  pendingSeen: JsonValue[][];
  committed: JsonValue[];
  /** Once set, an empty queue ends the source (the restored job runs to its end and commits). */
  ends: boolean;
}
const feed = (rows: number[]): Feed => ({ queue: [...rows], restoredFrom: [], written: [], pendingSeen: [], committed: [], ends: false });

interface FeedOptions { replayable?: boolean; legacyPosition?: boolean; legacyCommittables?: boolean }

/** Source: batches of three from the queue, an empty batch when it is empty (unbounded). Sink: one transaction per checkpoint. */
function feedConnector(f: Feed, o: FeedOptions) {
  return defineConnector({
    name: "feed",
    options: {},
    source: {
      bounded: () => false,
      ...(o.replayable !== undefined ? { replayable: o.replayable } : {}),
      ...(o.legacyPosition ? { legacyPosition: (stored: JsonValue) => (stored as { count: number }).count } : {}),
      createReader: (ctx) => {
        f.restoredFrom.push(ctx.restoreFrom);
        let count = typeof ctx.restoreFrom === "number" ? ctx.restoreFrom : 0;
        return {
          read(): SourceBatch | null {
            if (f.ends && f.queue.length === 0) return null;
            const rows = f.queue.splice(0, 3).map((v) => [v]);
            count += rows.length;
            return { rows };
          },
          position: () => count,
          close: () => {},
        };
      },
    },
    sink: {
      ...(o.legacyCommittables ? { legacyCommittables: (stored: JsonValue) => [(stored as { txn: string }).txn] } : {}),
      createWriter: (ctx) => {
        f.pendingSeen.push([...ctx.pendingCommittables]);
        return {
          write: (b: SinkBatch) => { for (const r of b.rows) f.written.push(r[0] as number); },
          prepareCommit: (id: number) => `tx-${id}`,
          commit: (list: readonly JsonValue[]) => { for (const c of list) if (!f.committed.includes(c)) f.committed.push(c); },
          close: () => {},
        };
      },
    },
  });
}

function feedJob(f: Feed, o: FeedOptions, config: Record<string, string>) {
  const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  for (const [k, v] of Object.entries(config)) e.getConfig().set(k, v);
  e.registerConnector(feedConnector(f, o));
  e.executeSql("CREATE TEMPORARY TABLE src (v INT) WITH ('connector' = 'feed')");
  e.executeSql("CREATE TEMPORARY TABLE out (v INT) WITH ('connector' = 'feed')");
  return e.executeSql("INSERT INTO out SELECT v FROM src");
}

interface Snapshot {
  sources: Record<string, { source: string; position: unknown }>;
  operators: Record<string, { operator: string; state: unknown }>;
}
const newest = (dir: string) => join(dir, readdirSync(dir).filter((d) => d.startsWith("chk-")).sort((a, b) => Number(a.slice(4)) - Number(b.slice(4))).at(-1)!);
const readSnapshot = (chk: string) => JSON.parse(readFileSync(join(chk, "_metadata"), "utf8")) as Snapshot;
const writeSnapshot = (chk: string, s: Snapshot) => writeFileSync(join(chk, "_metadata"), JSON.stringify(s));
const sinkEntry = (s: Snapshot) => Object.values(s.operators).find((op) => (op.state as { committable?: unknown } | null)?.committable !== undefined)!;

/** Runs the first job until 7 of its rows went by (checkpoints every 4 records), cancels it and returns its newest checkpoint. */
async function firstRun(f: Feed, o: FeedOptions): Promise<string> {
  const chk = tmp();
  const job = feedJob(f, o, { "execution.checkpointing.interval-records": "4", "execution.checkpointing.dir": chk, "execution.checkpointing.num-retained": "3" });
  for (let i = 0; i < 4000 && f.queue.length > 0; i++) await new Promise((r) => setTimeout(r, 1));
  await new Promise((r) => setTimeout(r, 20));
  await job.getJobClient()!.cancel();
  return newest(chk);
}

describe("connector API: sources that cannot replay (SourceDefinition.replayable)", () => {
  it("the checkpoint's position is mid-batch; a replayable source drops the rows taken, a non-replayable one drops none", async () => {
    for (const replayable of [true, false]) {
      const f = feed([1, 2, 3, 4, 5, 6, 7]);
      const chk = await firstRun(f, { replayable });
      // batches [1,2,3] [4,5,6] [7]: the checkpoint after 4 records is one row into the second batch
      expect(Object.values(readSnapshot(chk).sources)[0]!.position).toEqual({ at: 3, skip: 1 });
      // the cancelled job wrote what its checkpoint covered
      expect(f.written).toEqual([1, 2, 3, 4]);
      f.queue.push(10, 11, 12);
      f.ends = true;
      await feedJob(f, { replayable }, { "execution.savepoint.path": chk }).await();
      expect(f.restoredFrom).toEqual([undefined, 3]);
      // the rows after the checkpoint: a replayable source would return row 4 again, so the job drops one row
      expect(f.written.slice(4)).toEqual(replayable ? [11, 12] : [10, 11, 12]);
    }
  });
});

describe("connector API: checkpoints of an earlier version of a connector", () => {
  it("legacyPosition and legacyCommittables translate the stored forms; the restored writer commits the old transaction", async () => {
    const f = feed([1, 2, 3, 4, 5]);
    const chk = await firstRun(f, {});
    const snap = readSnapshot(chk);
    const source = Object.values(snap.sources)[0]!;
    expect(source.position).toEqual({ at: 3, skip: 1 });
    source.position = { count: 4 };
    sinkEntry(snap).state = { ...(sinkEntry(snap).state as object), committable: { txn: "old-7" } };
    writeSnapshot(chk, snap);
    expect(f.written).toEqual([1, 2, 3, 4]);
    f.queue.push(20, 21);
    f.ends = true;
    await feedJob(f, { legacyPosition: true, legacyCommittables: true }, { "execution.savepoint.path": chk }).await();
    // a legacy position is the position to resume after: nothing of the first batch is dropped
    expect(f.restoredFrom).toEqual([undefined, 4]);
    expect(f.pendingSeen).toEqual([[], ["old-7"]]);
    expect(f.committed).toContain("old-7");
    expect(f.written.slice(4)).toEqual([20, 21]);
  });

  it("without the hooks, such a checkpoint is an error naming the stored value", async () => {
    const f = feed([1, 2, 3, 4, 5]);
    const chk = await firstRun(f, {});
    const snap = readSnapshot(chk);
    Object.values(snap.sources)[0]!.position = { count: 4 };
    writeSnapshot(chk, snap);
    await expect(feedJob(f, {}, { "execution.savepoint.path": chk }).await()).rejects.toThrow('cannot restore from the position {"count":4}');
    const f2 = feed([1, 2, 3, 4, 5]);
    const chk2 = await firstRun(f2, {});
    const snap2 = readSnapshot(chk2);
    sinkEntry(snap2).state = { ...(sinkEntry(snap2).state as object), committable: { txn: "old-7" } };
    writeSnapshot(chk2, snap2);
    await expect(feedJob(f2, {}, { "execution.savepoint.path": chk2 }).await()).rejects.toThrow("the checkpoint's sink state is not { checkpointId, committables }");
  });
});

describe("connector API: the scan's context", () => {
  function scanned(seen: SourceContext[], o: { defaultName?: string } = {}) {
    return defineConnector({
      name: "scanned",
      options: {},
      source: {
        pushdown: { projection: true },
        partitions: { list: (): PartitionSpec[] => [{ dt: "2024" }, { dt: "NONE" }], ...(o.defaultName !== undefined ? { defaultName: () => o.defaultName! } : {}) },
        createReader: (ctx) => {
          seen.push(ctx);
          let polls = 0;
          ctx.metrics.gauge("numPolls", () => polls);
          return {
            read(): SourceBatch | null {
              polls++;
              if (polls > 1) return null;
              const all = [[1, "x", "2024"], [2, "y", "2024"]];
              return { rows: all.map((r) => (ctx.projection ?? [0, 1, 2]).map((i) => r[i])) };
            },
            position: () => polls,
            close: () => {},
          };
        },
      },
    });
  }

  it("metrics: a gauge the reader registers is in the job's metrics under `<connector>[<table>]`", async () => {
    const seen: SourceContext[] = [];
    const env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    env.registerConnector(scanned(seen));
    env.executeSql("CREATE TABLE t (id INT, v STRING, dt STRING) PARTITIONED BY (dt) WITH ('connector' = 'scanned')");
    const result = env.executeSql("SELECT id, v, dt FROM t");
    expect(await result.toChangelog()).toEqual(["+I[1, x, 2024]", "+I[2, y, 2024]"]);
    expect(seen[0]!.metrics.scope).toBe("scanned[t]");
    expect(result.getMetrics()).toMatchObject({ "scanned[t].numPolls": 2, "scanned[t].numRecordsOut": 2 });
  });

  it("physicalColumns: the declared columns, while `columns` are the projected ones", async () => {
    const seen: SourceContext[] = [];
    const env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    env.registerConnector(scanned(seen));
    env.executeSql("CREATE TABLE t (id INT, v STRING, dt STRING) PARTITIONED BY (dt) WITH ('connector' = 'scanned')");
    expect(await env.executeSql("SELECT v FROM t").toChangelog()).toEqual(["+I[x]", "+I[y]"]);
    expect(seen[0]!.columns.map((c) => c.name)).toEqual(["v"]);
    expect(seen[0]!.projection).toEqual([1]);
    expect(seen[0]!.physicalColumns.map((c) => c.name)).toEqual(["id", "v", "dt"]);
  });

  it("partitions.defaultName: the partition text that stands for NULL when pruning (default __DEFAULT_PARTITION__)", async () => {
    for (const [defaultName, left] of [["NONE", [{ dt: "NONE" }]], [undefined, []]] as const) {
      const seen: SourceContext[] = [];
      const env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
      env.registerConnector(scanned(seen, defaultName === undefined ? {} : { defaultName }));
      env.executeSql("CREATE TABLE t (id INT, v STRING, dt STRING) PARTITIONED BY (dt) WITH ('connector' = 'scanned')");
      await env.executeSql("SELECT id FROM t WHERE dt IS NULL").toChangelog();
      expect(seen[0]!.partitions).toEqual(left);
    }
  });
});

describe("connector API: a `format` option of the connector's own", () => {
  it("a connector without `formats` may declare `format`; with `formats` it stays reserved", async () => {
    const seen: string[] = [];
    const own = defineConnector({
      name: "own-format",
      options: { format: option.enum(["lines", "words"], { required: true }) },
      source: {
        createReader: (ctx) => {
          const fmt: "lines" | "words" = ctx.options.format;
          seen.push(fmt);
          let done = false;
          return { read: (): SourceBatch | null => (done ? null : (done = true, { rows: [[fmt]] })), position: () => (done ? 1 : 0), close: () => {} };
        },
      },
    });
    const env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    env.registerConnector(own);
    env.executeSql("CREATE TABLE t (s STRING) WITH ('connector' = 'own-format', 'format' = 'words')");
    expect(await env.executeSql("SELECT s FROM t").toChangelog()).toEqual(["+I[words]"]);
    expect(seen).toEqual(["words"]);
    env.executeSql("CREATE TABLE bad (s STRING) WITH ('connector' = 'own-format', 'format' = 'csv')");
    expect(() => env.executeSql("SELECT s FROM bad")).toThrow(/option 'format' of table 'bad'/);
    expect(() => defineConnector({ name: "both", options: { format: option.string() }, formats: true, source: { createReader: () => ({ read: () => null, position: () => 0, close: () => {} }) } }))
      .toThrow(new ValidationError("connector 'both': option 'format' is reserved"));
  });
});
