// METADATA columns read from a connector that provides metadata: the filesystem source's file.* keys.
import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DataTypes, EnvironmentSettings, Schema, TableDescriptor, TableEnvironment, ValidationError } from "../../src/index.js";

function files(): { dir: string; a: string; b: string } {
  const dir = mkdtempSync(join(tmpdir(), "ts-metadata-"));
  const a = join(dir, "a.csv");
  const b = join(dir, "b.csv");
  writeFileSync(a, "1,x\n2,y\n");
  writeFileSync(b, "3,z\n");
  return { dir, a, b };
}

describe("METADATA columns", () => {
  it("the filesystem source's file.path, file.name, file.size and file.modification-time, per file", async () => {
    const { dir, a, b } = files();
    const env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    env.executeSql(`CREATE TABLE T (id INT, \`file\` STRING NOT NULL METADATA FROM 'file.path' VIRTUAL, v STRING, file_name STRING METADATA FROM 'file.name',
      \`file.size\` BIGINT METADATA VIRTUAL, mtime TIMESTAMP_LTZ(3) METADATA FROM 'file.modification-time') WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'csv')`);
    expect(env.from("T").getResolvedSchema().names).toEqual(["id", "file", "v", "file_name", "file.size", "mtime"]);
    const rows = await env.executeSql("SELECT id, `file`, v, file_name, `file.size` FROM T").toArray();
    expect(rows).toEqual([
      { id: 1, file: a, v: "x", file_name: "a.csv", "file.size": 8 },
      { id: 2, file: a, v: "y", file_name: "a.csv", "file.size": 8 },
      { id: 3, file: b, v: "z", file_name: "b.csv", "file.size": 4 },
    ]);
    const times = (await env.executeSql("SELECT id, mtime FROM T WHERE id = 3").toArray()).map((r) => (r.mtime as Date).getTime());
    expect(times).toEqual([Math.floor(statSync(b).mtimeMs)]);
    // metadata columns are not physical: DESCRIBE shows them with their key
    const described = await env.executeSql("DESCRIBE T").toArray();
    expect(described.find((r) => r.name === "file")!.extras).toBe("METADATA FROM 'file.path' VIRTUAL");
  });

  it("the Table API's columnByMetadata is the same column", async () => {
    const { dir, a } = files();
    const env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    env.createTemporaryTable("T", TableDescriptor.forConnector("filesystem")
      .schema(Schema.newBuilder().column("id", DataTypes.INT()).column("v", DataTypes.STRING())
        .columnByMetadata("path", DataTypes.STRING().notNull(), "file.path", true).build())
      .option("path", dir).option("format", "csv").build());
    expect(await env.executeSql("SELECT id, path FROM T WHERE id < 3").toArray()).toEqual([{ id: 1, path: a }, { id: 2, path: a }]);
  });

  it("errors: an unknown key lists the available ones; a wrong type; a connector without metadata", async () => {
    const { dir } = files();
    const env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    env.executeSql(`CREATE TABLE U (id INT, v STRING, p STRING METADATA FROM 'file.nope') WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'csv')`);
    expect(() => env.sqlQuery("SELECT * FROM U")).toThrow("Invalid metadata key 'file.nope' in column 'p' of table 'default_catalog.default_database.U'. The DynamicTableSource of connector 'filesystem' supports the following metadata keys for reading:\nfile.path\nfile.name\nfile.size\nfile.modification-time");
    env.executeSql(`CREATE TABLE W (id INT, v STRING, s INT METADATA FROM 'file.size') WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'csv')`);
    expect(() => env.sqlQuery("SELECT * FROM W")).toThrow(/Invalid data type for metadata column 's' of table 'default_catalog.default_database.W'. The column cannot be declared as 'INT' because the type must be castable from metadata type 'BIGINT NOT NULL'/);
    env.executeSql("CREATE TABLE G (id INT, m STRING METADATA) WITH ('connector' = 'datagen', 'number-of-rows' = '1')");
    expect(() => env.sqlQuery("SELECT * FROM G")).toThrow(ValidationError);
    expect(() => env.sqlQuery("SELECT * FROM G")).toThrow(/declares metadata columns, but the underlying DynamicTableSource doesn't implement the SupportsReadingMetadata interface/);
  });
});
