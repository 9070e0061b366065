import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  $, CollectionSink, DataTypes, EnvironmentSettings, ExecutionError, PositionalRow, Row, Schema, TableDescriptor, TableEnvironment, ValidationError,
} from "../../src/index.js";

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), "ts-chk-")); dirs.push(d); return d; };
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

const ORDERS = DataTypes.ROW(DataTypes.FIELD("product", DataTypes.STRING()), DataTypes.FIELD("amount", DataTypes.INT()));
const ROWS = [Row.of("a", 1), Row.of("b", 2), Row.of("a", 3), Row.of("c", 4), Row.of("b", 5), Row.of("a", 6), Row.of("c", 7)];
const SINK = Schema.newBuilder().column("product", DataTypes.STRING()).column("total", DataTypes.INT()).column("n", DataTypes.BIGINT()).build();

function env(options: Record<string, string> = {}): TableEnvironment {
  const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  for (const [k, v] of Object.entries(options)) e.getConfig().set(k, v);
  return e;
}

/** SELECT product, SUM(amount), COUNT(*) FROM orders GROUP BY product INSERT INTO out */
function totals(e: TableEnvironment, sink: CollectionSink) {
  e.createTemporaryTable("out", sink.descriptor(SINK, { "sink.changelog-mode": "all" }));
  return e.fromValues(ORDERS, ...ROWS).groupBy($("product")).select($("product"), $("amount").sum().as("total"), $("amount").count().as("n")).executeInsert("out");
}

describe("periodic checkpoints and restore", () => {
  it("a checkpoint every 3 records is one chk-<n> directory each, the newest retained", async () => {
    const dir = tmp();
    const sink = new CollectionSink();
    await totals(env({ "execution.checkpointing.interval-records": "3", "execution.checkpointing.dir": dir, "execution.checkpointing.num-retained": "2" }), sink).await();
    // 7 records: checkpoints after records 3 and 6
    expect(readdirSync(dir).sort()).toEqual(["chk-1", "chk-2"]);
    expect(readdirSync(join(dir, "chk-2")).sort()).toEqual(["_metadata", "_shared"]);
  });

  it("restoring the latest checkpoint truncates the collection sink to it and continues as the uninterrupted job", async () => {
    const uninterrupted = new CollectionSink();
    await totals(env(), uninterrupted).await();
    for (const every of [1, 2, 3, 5, 6]) {
      const dir = tmp();
      const sink = new CollectionSink();
      await totals(env({ "execution.checkpointing.interval-records": String(every), "execution.checkpointing.dir": dir, "execution.checkpointing.num-retained": "1" }), sink).await();
      expect(sink.changelog()).toEqual(uninterrupted.changelog());
      // the job restarted from its last checkpoint: the sink goes back to it and gets the rest again
      await totals(env({ "execution.savepoint.path": dir }), sink).await();
      expect(sink.changelog()).toEqual(uninterrupted.changelog());
    }
  });

  it("option errors name the option", () => {
    expect(() => totals(env({ "execution.checkpointing.interval-records": "3" }), new CollectionSink())).toThrow(ValidationError);
    expect(() => totals(env({ "execution.checkpointing.interval-records": "3" }), new CollectionSink())).toThrow(/execution\.checkpointing\.dir/);
    expect(() => totals(env({ "execution.checkpointing.interval": "soon", "execution.checkpointing.dir": tmp() }), new CollectionSink())).toThrow(/execution\.checkpointing\.interval/);
    expect(() => totals(env({ "execution.savepoint.path": join(tmp(), "nothing") }), new CollectionSink())).toThrow(ExecutionError);
  });
});

describe("savepoints", () => {
  it("stopWithSavepoint, then a new job from it, gives the uninterrupted changelog", async () => {
    const uninterrupted = new CollectionSink();
    await totals(env(), uninterrupted).await();
    const dir = tmp();
    const sink = new CollectionSink();
    const first = totals(env(), sink);
    const path = await first.getJobClient().stopWithSavepoint(dir);
    expect(existsSync(join(path, "_metadata"))).toBe(true);
    await totals(env({ "execution.savepoint.path": path }), sink).await();
    expect(sink.changelog()).toEqual(uninterrupted.changelog());
  });
});

/** Yields `rows`, then waits until the job returns the iterator (a source that has not ended). */
async function* openEnded(rows: readonly PositionalRow[]): AsyncGenerator<PositionalRow> {
  for (const r of rows) yield r;
  await new Promise<void>(() => { /* until the job stops */ });
}

const ORDER_SCHEMA = Schema.newBuilder().column("product", DataTypes.STRING()).column("amount", DataTypes.INT()).build();

describe("savepoints of any job", () => {
  it("an execute() result: stopWithSavepoint ends the stream, a new execute() continues from the savepoint", async () => {
    const dir = tmp();
    const query = (e: TableEnvironment, rows: AsyncIterable<PositionalRow> | PositionalRow[]) =>
      e.fromAsyncIterable(ORDER_SCHEMA, rows, { name: "orders" }).groupBy($("product")).select($("product"), $("amount").sum().as("total"));
    const first = query(env(), openEnded(ROWS.slice(0, 3))).execute();
    const seen: string[] = [];
    let savepoint: Promise<string> | undefined;
    for await (const r of first.collect()) {
      seen.push(`${Row.kindOf(r)}[${r.product}, ${r.total}]`);
      if (seen.length === 4) savepoint = first.getJobClient().stopWithSavepoint(dir);
    }
    expect(seen).toEqual(["+I[a, 1]", "+I[b, 2]", "-U[a, 1]", "+U[a, 4]"]);
    const path = await savepoint!;
    await expect(first.getJobClient().triggerSavepoint(dir)).rejects.toThrow("cannot take a savepoint: the job has ended");
    const second = await query(env({ "execution.savepoint.path": path }), ROWS.slice(3)).execute().toChangelog();
    expect(second).toEqual(["+I[c, 4]", "-U[b, 2]", "+U[b, 7]", "-U[a, 4]", "+U[a, 10]", "-U[c, 4]", "+U[c, 11]"]);
  });

  it("a statement set restores every sink's state and the shared aggregate", async () => {
    const dir = tmp();
    const big = new CollectionSink();
    const all = new CollectionSink();
    const set = (e: TableEnvironment, rows: AsyncIterable<PositionalRow> | PositionalRow[]) => {
      e.createTemporaryTable("big", big.descriptor(Schema.newBuilder().column("product", DataTypes.STRING()).column("total", DataTypes.INT()).build()));
      e.createTemporaryTable("all", all.descriptor(Schema.newBuilder().column("product", DataTypes.STRING()).column("total", DataTypes.INT()).build()));
      const totals = e.fromAsyncIterable(ORDER_SCHEMA, rows, { name: "orders" }).groupBy($("product")).select($("product"), $("amount").sum().as("total"));
      return e.createStatementSet().addInsert("big", totals.filter($("total").isGreater(3))).addInsert("all", totals).execute();
    };
    const first = set(env(), openEnded(ROWS.slice(0, 4)));
    while (all.size < 5) await new Promise((r) => setTimeout(r, 2));
    const path = await first.getJobClient().stopWithSavepoint(dir);
    await set(env({ "execution.savepoint.path": path }), ROWS.slice(4)).await();
    expect(all.changelog()).toEqual([
      "+I[a, 1]", "+I[b, 2]", "-U[a, 1]", "+U[a, 4]", "+I[c, 4]", "-U[b, 2]", "+U[b, 7]", "-U[a, 4]", "+U[a, 10]", "-U[c, 4]", "+U[c, 11]",
    ]);
    expect(big.changelog()).toEqual(["+U[a, 4]", "+I[c, 4]", "+U[b, 7]", "-U[a, 4]", "+U[a, 10]", "-U[c, 4]", "+U[c, 11]"]);
  });

  it("a savepoint of a job that has ended, a batch job from a savepoint and an unknown format version are errors", async () => {
    const dir = tmp();
    const r = totals(env(), new CollectionSink());
    await r.await();
    await expect(r.getJobClient().triggerSavepoint(dir)).rejects.toThrow(ExecutionError);
    const path = await totals(env(), new CollectionSink()).getJobClient().stopWithSavepoint(dir);
    const batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    batch.getConfig().set("execution.savepoint.path", path);
    expect(() => totals(batch, new CollectionSink())).toThrow("a batch job cannot start from a savepoint");
    const meta = join(path, "_metadata");
    writeFileSync(meta, readFileSync(meta, "utf8").replace('"version":1', '"version":99'));
    expect(() => totals(env({ "execution.savepoint.path": path }), new CollectionSink())).toThrow(/has snapshot format version 99; this tablestream reads version 1/);
    writeFileSync(meta, "{}");
    expect(() => totals(env({ "execution.savepoint.path": path }), new CollectionSink())).toThrow(/is not a tablestream checkpoint or savepoint/);
  });

  it("checkpoints by processing time follow the job's clock", async () => {
    const dir = tmp();
    const e = env({ "execution.checkpointing.interval": "1 s", "execution.checkpointing.dir": dir });
    let now = 0;
    e.setClock(() => (now += 1000));
    await totals(e, new CollectionSink()).await();
    expect(readdirSync(dir)).toEqual(["chk-1"]);
    const dir2 = tmp();
    const e2 = env({ "execution.checkpointing.interval": "1 h", "execution.checkpointing.dir": dir2 });
    e2.setClock(() => (now += 1000));
    await totals(e2, new CollectionSink()).await();
    expect(existsSync(dir2) ? readdirSync(dir2) : []).toEqual([]);
  });
});

describe("exactly-once file sink (two-phase commit)", () => {
  const files = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);
  const visible = (dir: string) => files(dir).filter((f) => !f.startsWith(".")).flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n").filter((l) => l !== ""));

  it("a checkpoint commits the part file in progress; a cancelled job leaves only what checkpoints cover", async () => {
    const out = join(tmp(), "out");
    const chk = tmp();
    const insert = (e: TableEnvironment, rows: AsyncIterable<PositionalRow> | PositionalRow[]) => {
      e.createTemporaryTable("files", TableDescriptor.forConnector("filesystem").schema(ORDER_SCHEMA).option("path", out).option("format", "csv").build());
      return e.fromAsyncIterable(ORDER_SCHEMA, rows, { name: "orders" }).executeInsert("files");
    };
    const config = { "execution.checkpointing.interval-records": "2", "execution.checkpointing.dir": chk, "execution.checkpointing.num-retained": "3" };
    const first = insert(env(config), openEnded(ROWS.slice(0, 5)));
    while (readdirSync(chk).filter((d) => d.startsWith("chk-")).length < 2) await new Promise((r) => setTimeout(r, 2));
    await new Promise((r) => setTimeout(r, 20));
    // two checkpoints (after 2 and 4 rows): two committed part files; row 5 is buffered for the next one
    expect(files(out).filter((f) => !f.startsWith("."))).toHaveLength(2);
    expect(visible(out)).toEqual(["a,1", "b,2", "a,3", "c,4"]);
    await first.getJobClient().cancel();
    // cancelled with checkpoints on: the uncommitted row is dropped, the restarted job writes it again
    expect(files(out).filter((f) => f.startsWith("."))).toEqual([]);
    expect(visible(out)).toEqual(["a,1", "b,2", "a,3", "c,4"]);
    await insert(env({ ...config, "execution.savepoint.path": chk }), ROWS.slice(4)).await();
    expect(visible(out).sort()).toEqual(["a,1", "a,3", "a,6", "b,2", "b,5", "c,4", "c,7"]);
    expect(files(out).filter((f) => f.startsWith("."))).toEqual([]);
  });
});


describe("replayable sources continue from their checkpointed position", () => {
  const OUT = Schema.newBuilder().column("k", DataTypes.STRING()).column("n", DataTypes.BIGINT()).column("m", DataTypes.DECIMAL(10, 2)).build();

  async function both(make: (e: TableEnvironment) => void) {
    const run = async (config: Record<string, string>, sink: CollectionSink) => {
      const e = env(config);
      make(e);
      e.createTemporaryTable("out", sink.descriptor(OUT));
      await e.from("src").groupBy($("k")).select($("k"), $("v").count().as("n"), $("price").max().as("m")).executeInsert("out").await();
    };
    const whole = new CollectionSink();
    await run({}, whole);
    const dir = tmp();
    const sink = new CollectionSink();
    await run({ "execution.checkpointing.interval-records": "7", "execution.checkpointing.dir": dir, "execution.checkpointing.num-retained": "50" }, sink);
    expect(readdirSync(dir).length).toBeGreaterThan(1);
    await run({ "execution.savepoint.path": join(dir, "chk-2") }, sink);
    return { whole: whole.changelog(), restored: sink.changelog() };
  }

  it("datagen with a seed: the same random rows after the restore", async () => {
    const r = await both((e) => e.createTemporaryTable("src", TableDescriptor.forConnector("datagen")
      .schema(Schema.newBuilder().column("k", DataTypes.STRING()).column("v", DataTypes.INT()).column("price", DataTypes.DECIMAL(10, 2)).build())
      .option("number-of-rows", "40").option("rows-per-second", "1000000").option("seed", "7")
      .option("fields.k.length", "1").option("fields.price.min", "1").option("fields.price.max", "9").build()));
    expect(r.restored).toEqual(r.whole);
  });

  it("files: the restored job skips the records it had read", async () => {
    const dir = tmp();
    const lines = Array.from({ length: 30 }, (_, i) => `${"abc"[i % 3]},${i},${(i * 1.25).toFixed(2)}`);
    writeFileSync(join(dir, "a.csv"), lines.slice(0, 17).join("\n") + "\n");
    writeFileSync(join(dir, "b.csv"), lines.slice(17).join("\n") + "\n");
    const r = await both((e) => e.createTemporaryTable("src", TableDescriptor.forConnector("filesystem")
      .schema(Schema.newBuilder().column("k", DataTypes.STRING()).column("v", DataTypes.INT()).column("price", DataTypes.DECIMAL(10, 2)).build())
      .option("path", dir).option("format", "csv").build()));
    expect(r.restored).toEqual(r.whole);
    expect(r.whole.at(-1)).toBe("+U[c, 10, 36.25]");
  });
});
