// Checkpoints of the disk keyed-state backend: each store writes its entries into files under the
// checkpoint directory's shared/ folder; with incremental checkpoints only what changed since the previous
// checkpoint; retention keeps a file while a retained checkpoint lists it; restoring an incremental chain
// gives what restoring a full checkpoint gives; the job's working directory goes when the job ends. A
// savepoint holds its own store files (relative names: it can be moved) and leaves the incremental chain of
// the checkpoints alone; retention reads each checkpoint's `_shared` index, not its `_metadata`.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  $, ArgumentTrait, CollectionSink, DataTypes, EnvironmentSettings, ProcessTableFunction, Row, Schema, type Table, TableEnvironment, tableArg, valueState,
} from "../../src/index.js";
import type { PositionalRow } from "../../src/index.js";
import { type JobSnapshot, SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from "../../src/exec/checkpoint/format.js";
import { sharedFilesOf, writeCheckpoint } from "../../src/exec/checkpoint/storage.js";
import { onBothBackends } from "../support/state-backends.js";
import { materialize } from "../joins/fixtures.js";

const sortedRows = (xs: readonly string[]) => [...xs].sort();

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), "ts-backend-")); dirs.push(d); return d; };
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

const Count = ProcessTableFunction.define({
  name: "Count",
  args: { r: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
  state: { c: valueState({ n: 0 }) },
  output: DataTypes.BIGINT(),
  eval(ctx, { c }) { ctx.collect(++c.n); },
});

const SINK = Schema.newBuilder().column("k", DataTypes.STRING()).column("n", DataTypes.BIGINT()).build();
const EVENTS = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()));
/** 1000 rows of distinct keys, then 1000 rows over 5 of them, then one more row. */
const ROWS = [
  ...Array.from({ length: 1000 }, (_, i) => Row.of(`k${i}`)),
  ...Array.from({ length: 1000 }, (_, i) => Row.of(`k${i % 5}`)),
  Row.of("last"),
];

async function run(sink: CollectionSink, options: Record<string, string>): Promise<void> {
  const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  for (const [k, v] of Object.entries(options)) e.getConfig().set(k, v);
  e.createTemporaryTable("out", sink.descriptor(SINK));
  await e.fromValues(EVENTS, ...ROWS).partitionBy($("k")).process(Count).executeInsert("out").await();
}

const metadata = (chk: string) => JSON.parse(readFileSync(join(chk, "_metadata"), "utf8")) as JobSnapshot;
const DISK = { "state.backend.type": "disk" };
const every1000 = (dir: string) => ({ "execution.checkpointing.interval-records": "1000", "execution.checkpointing.dir": dir, "execution.checkpointing.num-retained": "2" });

describe("checkpoints of the disk backend", () => {
  it("an incremental checkpoint of a small delta is small and lists the full file it builds on", async () => {
    const dir = tmp();
    await run(new CollectionSink(), { ...DISK, "execution.checkpointing.incremental": "true", ...every1000(dir) });
    const first = metadata(join(dir, "chk-1")).sharedFiles!;
    const second = metadata(join(dir, "chk-2")).sharedFiles!;
    expect(first).toHaveLength(1);
    expect(second).toEqual([first[0], expect.stringMatching(/-delta\.kv$/)]);
    // chk-1 holds the 1000 keys; chk-2 only the 5 keys counted since
    expect(readFileSync(second[1]!, "utf8").trim().split("\n")).toHaveLength(5);
    expect(statSync(second[1]!).size * 50).toBeLessThan(statSync(first[0]!).size);
    // the entries are in the files, not in _metadata
    expect(statSync(join(dir, "chk-2", "_metadata")).size).toBeLessThan(2000);
  });

  it("without incremental checkpoints every checkpoint is a full file", async () => {
    const dir = tmp();
    await run(new CollectionSink(), { ...DISK, ...every1000(dir) });
    const files = metadata(join(dir, "chk-2")).sharedFiles!;
    expect(files).toEqual([expect.stringMatching(/-full\.kv$/)]);
    expect(readFileSync(files[0]!, "utf8").trim().split("\n")).toHaveLength(1000);
  });

  it("retention deletes a file only when no retained checkpoint lists it", async () => {
    const dir = tmp();
    await run(new CollectionSink(), { ...DISK, "execution.checkpointing.incremental": "true", ...every1000(dir), "execution.checkpointing.num-retained": "1" });
    expect(readdirSync(dir).filter((e) => e.startsWith("chk-"))).toEqual(["chk-2"]);
    // chk-1 is gone, its full file is not: chk-2 builds on it
    const files = metadata(join(dir, "chk-2")).sharedFiles!;
    expect(files.every((f) => existsSync(f))).toBe(true);
    expect(readdirSync(join(dir, "shared")).sort()).toEqual(files.map((f) => f.slice(f.lastIndexOf("/") + 1)).sort());
  });

  it("restoring an incremental chain gives what restoring a full checkpoint gives: the uninterrupted changelog", async () => {
    const whole = new CollectionSink();
    await run(whole, {});
    for (const incremental of ["true", "false"]) {
      for (const restoreOn of [DISK, {}]) {
        const dir = tmp();
        const sink = new CollectionSink();
        await run(sink, { ...DISK, "execution.checkpointing.incremental": incremental, ...every1000(dir) });
        expect(sink.changelog()).toEqual(whole.changelog());
        // restart from chk-2: the sink is cut back to 2000 rows and gets the last one again
        await run(sink, { ...restoreOn, "execution.savepoint.path": join(dir, "chk-2") });
        expect(sink.changelog()).toEqual(whole.changelog());
        expect(sink.changelog().at(-1)).toBe("+I[last, 1]");
        expect(sink.changelog().at(-2)).toBe("+I[k4, 201]");
      }
    }
  });

  it("the job's working directory under state.backend.local-dir is removed when the job ends", async () => {
    const local = tmp();
    const sink = new CollectionSink();
    await run(sink, { ...DISK, "state.backend.local-dir": local, "state.backend.cache-size": "10" });
    expect(sink.changelog()).toHaveLength(ROWS.length);
    expect(readdirSync(local)).toEqual([]);
  });

  it("group aggregation: its checkpoint is the store's files; restoring an incremental chain on either backend continues exactly", async () => {
    const aggregate = async (sink: CollectionSink, options: Record<string, string>) => {
      const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
      for (const [k, v] of Object.entries(options)) e.getConfig().set(k, v);
      e.createTemporaryTable("out", sink.descriptor(SINK));
      await e.fromValues(EVENTS, ...ROWS).groupBy($("k")).select($("k"), $("k").count().as("n")).executeInsert("out").await();
    };
    const whole = new CollectionSink();
    await aggregate(whole, {});
    for (const restoreOn of [DISK, {}]) {
      const dir = tmp();
      const sink = new CollectionSink();
      await aggregate(sink, { ...DISK, "state.backend.cache-size": "50", "execution.checkpointing.incremental": "true", ...every1000(dir) });
      expect(sink.changelog()).toEqual(whole.changelog());
      const files = metadata(join(dir, "chk-2")).sharedFiles!;
      expect(files).toEqual([expect.stringMatching(/-full\.kv$/), expect.stringMatching(/-delta\.kv$/)]);
      // chk-1: the 1000 groups; chk-2: the 5 groups counted since
      expect(readFileSync(files[0]!, "utf8").trim().split("\n")).toHaveLength(1000);
      expect(readFileSync(files[1]!, "utf8").trim().split("\n")).toHaveLength(5);
      await aggregate(sink, { ...restoreOn, "execution.savepoint.path": join(dir, "chk-2") });
      expect(sink.changelog()).toEqual(whole.changelog());
      expect(sink.changelog().at(-1)).toBe("+I[last, 1]");
      expect(sink.changelog().at(-2)).toBe("+U[k4, 201]");
    }
  });

  describe("join, deduplication and top-N: checkpoints of their stores restore on either backend", () => {
    const KV = DataTypes.ROW(DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.BIGINT()));
    const KV_ROWS = ROWS.map((r, i) => Row.of(r.getField(0), i));
    const OUT = Schema.newBuilder().column("k", DataTypes.STRING()).column("v", DataTypes.BIGINT()).build();
    const queries: Record<string, (e: TableEnvironment) => Table<object>> = {
      "regular join": (e) => e.fromValues(KV, ...KV_ROWS).join(
        e.fromValues(DataTypes.ROW(DataTypes.FIELD("k2", DataTypes.STRING())), ...Array.from({ length: 8 }, (_, i) => Row.of(`k${i}`))),
        $("k").isEqual($("k2"))).select($("k"), $("v")) as unknown as Table<object>,
      "deduplicate, keep last": (e) => e.fromValues(KV, ...KV_ROWS).deduplicate({ keys: [$("k")], keep: "last" }) as unknown as Table<object>,
      "top-2 per key": (e) => e.fromValues(KV, ...KV_ROWS).topN(2, { partitionBy: [$("k")], orderBy: [$("v").desc()] }) as unknown as Table<object>,
    };
    for (const [name, query] of Object.entries(queries)) {
      it(name, async () => {
        const exec = async (sink: CollectionSink, options: Record<string, string>) => {
          const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
          for (const [k, v] of Object.entries(options)) e.getConfig().set(k, v);
          e.createTemporaryTable("out", sink.descriptor(OUT));
          await query(e).executeInsert("out").await();
        };
        const whole = new CollectionSink();
        await exec(whole, {});
        expect(whole.changelog().length).toBeGreaterThan(ROWS.length / 2);
        for (const restoreOn of [DISK, {}]) {
          const dir = tmp();
          const sink = new CollectionSink();
          await exec(sink, { ...DISK, "state.backend.cache-size": "20", "execution.checkpointing.incremental": "true", ...every1000(dir) });
          expect(sink.changelog()).toEqual(whole.changelog());
          // the operator's entries are in the store's files, not in _metadata
          expect(metadata(join(dir, "chk-2")).sharedFiles!.length).toBeGreaterThan(0);
          await exec(sink, { ...restoreOn, "execution.savepoint.path": join(dir, "chk-2") });
          expect(sink.changelog()).toEqual(whole.changelog());
        }
      });
    }
  });

  it("semi and anti joins over updating inputs give the same rows on both backends", async () => {
    const rows = await onBothBackends(async (options) => {
      const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
      for (const [k, v] of Object.entries(options)) e.getConfig().set(k, v);
      e.createTemporaryView("l", e.fromValues(EVENTS, ...["a", "b", "c", "d", "a"].map((k) => Row.of(k))));
      // the right side: counts per key, an updating input; keys counted twice
      e.createTemporaryView("r", e.fromValues(EVENTS, ...["b", "a", "b", "d", "d", "x"].map((k) => Row.of(k)))
        .groupBy($("k")).select($("k").as("k2"), $("k").count().as("n")));
      const semi = await e.sqlQuery("SELECT k FROM l WHERE k IN (SELECT k2 FROM r WHERE n > 1)").execute().toChangelog();
      const anti = await e.sqlQuery("SELECT k FROM l WHERE NOT EXISTS (SELECT 1 FROM r WHERE r.k2 = l.k AND n > 1)").execute().toChangelog();
      return { semi, anti };
    });
    expect(materialize(rows.semi)).toEqual(["+I[b]", "+I[d]"]);
    expect(materialize(rows.anti)).toEqual(["+I[a]", "+I[a]", "+I[c]"]);
  });

  it("a join over an aggregate's updates gives the same rows on both backends", async () => {
    const rows = await onBothBackends(async (options) => {
      const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
      for (const [k, v] of Object.entries(options)) e.getConfig().set(k, v);
      const t = e.fromValues(EVENTS, Row.of("a"), Row.of("b"), Row.of("a"));
      const counts = t.groupBy($("k")).select($("k"), $("k").count().as("n"));
      const joined = t.join(counts.select($("k").as("k2"), $("n")), $("k").isEqual($("k2"))).select($("k"), $("n"));
      return { counts: await counts.execute().toChangelog(), joined: await joined.execute().toChangelog() };
    });
    expect(rows.counts).toEqual(["+I[a, 1]", "+I[b, 1]", "-U[a, 1]", "+U[a, 2]"]);
    // both rows of key a meet the count's update (the engine's join output, equal on both backends)
    expect(sortedRows(rows.joined)).toEqual(sortedRows(["+I[a, 1]", "+I[a, 1]", "+I[b, 1]", "-U[a, 1]", "-U[a, 1]", "+U[a, 2]", "+U[a, 2]"]));
  });
});

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
async function until(what: string, done: () => boolean): Promise<void> {
  for (let i = 0; i < 5000 && !done(); i++) await sleep(2);
  if (!done()) throw new Error(`timed out waiting for ${what}`);
}

const KEY_SCHEMA = Schema.newBuilder().column("k", DataTypes.STRING()).build();
/** Rows of keys `ks`. */
const keyed = (ks: readonly string[]) => ks.map((k) => Row.of(k));
/** 1000 distinct keys (checkpoint 1 after them), then 3 new keys (the savepoint after them). */
const TO_SAVEPOINT = keyed([...Array.from({ length: 1000 }, (_, i) => `k${i}`), "a", "b", "c"]);
/** After the savepoint: a key from before it, one from before the checkpoint, then one key 995 times. */
const AFTER_SAVEPOINT = keyed(["a", "k5", ...Array.from({ length: 995 }, () => "d")]);

function countJob(options: Record<string, string>, rows: AsyncIterable<PositionalRow> | PositionalRow[], sink: CollectionSink) {
  const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  for (const [k, v] of Object.entries(options)) e.getConfig().set(k, v);
  e.createTemporaryTable("out", sink.descriptor(SINK));
  return e.fromAsyncIterable(KEY_SCHEMA, rows, { name: "events" }).partitionBy($("k")).process(Count).executeInsert("out");
}

describe("savepoints of the disk backend", () => {
  it("hold their store files in their own directory, leave the incremental chain alone, and restore after a move on both backends", async () => {
    const chk = tmp();
    const sink = new CollectionSink();
    let open!: () => void;
    const gate = new Promise<void>((r) => { open = r; });
    async function* rows(): AsyncGenerator<PositionalRow> {
      yield* TO_SAVEPOINT;
      await gate;
      yield* AFTER_SAVEPOINT;
      await new Promise<void>(() => { /* until the job is cancelled */ });
    }
    const job = countJob({ ...DISK, "execution.checkpointing.incremental": "true", ...every1000(chk) }, rows(), sink);
    await until("the rows before the savepoint", () => sink.size === TO_SAVEPOINT.length);
    const savepoint = await job.getJobClient().triggerSavepoint(tmp());
    open();
    // the savepoint took id 2 (checkpoints and savepoints count together, as in Flink): the next checkpoint is 3
    await until("checkpoint 3", () => existsSync(join(chk, "chk-3")));
    await job.getJobClient().cancel();
    await job.await().catch(() => { /* cancelled */ });

    expect(readdirSync(savepoint).sort()).toEqual(["_metadata", "s0.kv"]);
    expect(readFileSync(join(savepoint, "s0.kv"), "utf8").trim().split("\n")).toHaveLength(1003);
    expect(JSON.stringify(metadata(savepoint).operators)).toContain('"$storeFiles":["s0.kv"]');
    // chk-3 builds on chk-1's full file; its delta has every key changed since chk-1 (a, b, c before the
    // savepoint, a, k5, d after it): the savepoint did not start a new delta
    const files = metadata(join(chk, "chk-3")).sharedFiles!;
    expect(files).toEqual([expect.stringMatching(/-1-full\.kv$/), expect.stringMatching(/-3-delta\.kv$/)]);
    expect(readFileSync(files[1]!, "utf8").trim().split("\n").map((l) => l.split("\t")[0]).sort()).toEqual(['"a"', '"b"', '"c"', '"d"', '"k5"']);

    // moved elsewhere, the savepoint restores on either backend and continues as the uninterrupted job
    const moved = join(tmp(), "moved");
    renameSync(savepoint, moved);
    const whole = new CollectionSink();
    await countJob({}, [...TO_SAVEPOINT, ...AFTER_SAVEPOINT], whole).await();
    for (const restoreOn of [DISK, {}]) {
      const again = new CollectionSink();
      await countJob({ ...restoreOn, "execution.savepoint.path": moved }, AFTER_SAVEPOINT, again).await();
      expect(again.changelog()).toEqual(whole.changelog().slice(TO_SAVEPOINT.length));
      expect(again.changelog().slice(0, 3)).toEqual(["+I[a, 2]", "+I[k5, 2]", "+I[d, 1]"]);
    }
  });
});

describe("retention reads the _shared index of each checkpoint", () => {
  const snapshot = (id: number, sharedFiles: string[]): JobSnapshot => ({ format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, kind: "checkpoint", checkpointId: id, operators: {}, sources: {}, sharedFiles });

  it("a file goes when no retained checkpoint lists it; a checkpoint's _metadata is not read, an older one without index is", () => {
    const dir = tmp();
    const shared = join(dir, "shared");
    mkdirSync(shared);
    const [a, b] = [join(shared, "a.kv"), join(shared, "b.kv")];
    writeFileSync(a, "");
    writeFileSync(b, "");
    // chk-1 as written before the index existed: only _metadata lists its files
    mkdirSync(join(dir, "chk-1"));
    writeFileSync(join(dir, "chk-1", "_metadata"), JSON.stringify(snapshot(1, [a])));
    expect(sharedFilesOf(join(dir, "chk-1"))).toEqual([a]);
    writeCheckpoint(dir, snapshot(2, [b]), 2);
    expect(JSON.parse(readFileSync(join(dir, "chk-2", "_shared"), "utf8"))).toEqual([b]);
    expect(readdirSync(shared).sort()).toEqual(["a.kv", "b.kv"]);
    // retention must not parse chk-2's _metadata (a large one with the hashmap backend's state): break it
    writeFileSync(join(dir, "chk-2", "_metadata"), "{ not json");
    writeCheckpoint(dir, snapshot(3, [b]), 2);
    expect(readdirSync(dir).filter((e) => e.startsWith("chk-")).sort()).toEqual(["chk-2", "chk-3"]);
    expect(readdirSync(shared)).toEqual(["b.kv"]);
  });
});
