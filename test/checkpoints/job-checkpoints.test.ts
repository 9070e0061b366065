import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { $, CollectionSink, DataTypes, EnvironmentSettings, ExecutionError, Row, Schema, TableEnvironment, ValidationError } from "../../src/index.js";

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
    expect(readdirSync(join(dir, "chk-2"))).toEqual(["_metadata"]);
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
