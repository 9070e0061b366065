// A parquet source (on the public connector API) in a job's checkpoints: its position (file, row group) is
// stored with the rows of the current row group already taken, and a restored job continues exactly there.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CollectionSink, DataTypes, EnvironmentSettings, Row, Schema, TableDescriptor, TableEnvironment } from "../../src/index.js";

const dirs: string[] = [];
const tempDir = () => { const d = mkdtempSync(join(tmpdir(), "tablestream-parquet-restore-")); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

const SCHEMA = Schema.newBuilder().column("id", DataTypes.INT()).column("name", DataTypes.STRING()).build();
const ROWS = Array.from({ length: 23 }, (_, i) => Row.of(i, `n${i}`));

describe("parquet source restore", () => {
  it("restoring any checkpoint (inside a row group too) continues with exactly the rows after it", async () => {
    const dir = tempDir();
    const data = join(dir, "data");
    const write = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    const table = (path: string) => TableDescriptor.forConnector("parquet").schema(SCHEMA).option("path", path).option("parquet.row-group-size", "5").build();
    await write.fromAsyncIterable(SCHEMA, ROWS).executeInsert(table(data)).await();
    const chk = join(dir, "chk");
    const read = async (config: Record<string, string>) => {
      const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
      for (const [k, v] of Object.entries(config)) e.getConfig().set(k, v);
      const sink = new CollectionSink();
      e.createTemporaryTable("src", table(data));
      e.createTemporaryTable("out", sink.descriptor(SCHEMA));
      await e.executeSql("INSERT INTO out SELECT id, name FROM src").await();
      return sink.changelog();
    };
    const all = await read({ "execution.checkpointing.interval-records": "7", "execution.checkpointing.dir": chk, "execution.checkpointing.num-retained": "10" });
    expect(all).toHaveLength(23);
    expect(readdirSync(chk).sort()).toEqual(["chk-1", "chk-2", "chk-3"]);
    for (const k of [1, 2, 3]) expect(await read({ "execution.savepoint.path": join(chk, `chk-${k}`) })).toEqual(all.slice(7 * k));
  });
});
