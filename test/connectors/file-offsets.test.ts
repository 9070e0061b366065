import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EnvironmentSettings, TableEnvironment } from "../../src/index.js";
import { lineFile } from "../../examples/connectors/line-file-connector.js";

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), "ts-offsets-")); dirs.push(d); return d; };
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

/** Copies the filesystem table over `input` into a JSON Lines file (the example connector), returning its lines. */
async function copy(input: string, format: "csv" | "json", columns: string, out: string, config: Record<string, string>): Promise<string[]> {
  const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  for (const [k, v] of Object.entries(config)) e.getConfig().set(k, v);
  e.registerConnector(lineFile);
  e.executeSql(`CREATE TEMPORARY TABLE src (${columns}) WITH ('connector' = 'filesystem', 'path' = '${input}', 'format' = '${format}')`);
  e.executeSql(`CREATE TEMPORARY TABLE out (${columns}) WITH ('connector' = 'line-file', 'path' = '${out}', 'format' = 'json')`);
  await e.executeSql("INSERT INTO out SELECT * FROM src").await();
  return readFileSync(out, "utf8").split("\n").filter((l) => l !== "");
}

const checkpoints = (dir: string, every: number) => ({
  "execution.checkpointing.interval-records": String(every), "execution.checkpointing.dir": dir, "execution.checkpointing.num-retained": "100",
});

describe("filesystem source positions are byte offsets", () => {
  for (const format of ["csv", "json"] as const) {
    it(`${format}: restoring any checkpoint of a file whose read chunks cut multi-byte characters continues at the right record`, async () => {
      const d = tmp();
      const input = join(d, `in.${format}`);
      // ~150 KB of 1- to 4-byte characters: the 64 KiB read chunks end inside characters and inside records
      const names = Array.from({ length: 4000 }, (_, i) => `ü€𝄞${"é".repeat(i % 7)}${i}`);
      writeFileSync(input, names.map((n, i) => (format === "csv" ? `${n},${i}` : JSON.stringify({ name: n, n: i }))).join("\n") + "\n");
      const expected = names.map((n, i) => JSON.stringify({ name: n, n: i }));
      const chk = join(d, "chk");
      expect(await copy(input, format, "name STRING, n INT", join(d, "all.json"), checkpoints(chk, 997))).toEqual(expected);
      const taken = readdirSync(chk).sort((a, b) => Number(a.slice(4)) - Number(b.slice(4)));
      expect(taken).toEqual(["chk-1", "chk-2", "chk-3", "chk-4"]);
      for (const [k, c] of taken.entries()) {
        const rest = await copy(input, format, "name STRING, n INT", join(d, `rest-${k}.json`), { "execution.savepoint.path": join(chk, c) });
        expect(rest).toEqual(expected.slice(997 * (k + 1)));
      }
    });
  }

  it("rows appended between the stop and the restore are read after the checkpointed offset; line numbers continue", async () => {
    const d = tmp();
    const input = join(d, "in.csv");
    writeFileSync(input, "änne,1\nbö,2\nçe,3\n");
    const chk = join(d, "chk");
    expect(await copy(input, "csv", "name STRING, n INT", join(d, "a.json"), checkpoints(chk, 2))).toHaveLength(3);
    appendFileSync(input, "dø,4\nfive,x\n");
    const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    e.getConfig().set("execution.savepoint.path", join(chk, "chk-1"));
    e.registerConnector(lineFile);
    e.executeSql(`CREATE TEMPORARY TABLE src (name STRING, n INT) WITH ('connector' = 'filesystem', 'path' = '${input}', 'format' = 'csv')`);
    e.executeSql(`CREATE TEMPORARY TABLE out (name STRING, n INT) WITH ('connector' = 'line-file', 'path' = '${join(d, "b.json")}', 'format' = 'json')`);
    // the malformed appended line is named by its line in the file, counted across the restore
    await expect(e.executeSql("INSERT INTO out SELECT * FROM src").await()).rejects.toThrow(/in\.csv', line 5, column 2 \('n'\)/);
    writeFileSync(input, "änne,1\nbö,2\nçe,3\ndø,4\n");
    expect(await copy(input, "csv", "name STRING, n INT", join(d, "c.json"), { "execution.savepoint.path": join(chk, "chk-1") }))
      .toEqual(['{"name":"çe","n":3}', '{"name":"dø","n":4}']);
  });

  it("a checkpoint whose boundary falls between the \\r and the \\n of a line break resumes after the \\n", async () => {
    const d = tmp();
    const input = join(d, "in.csv");
    // the first read chunk (64 KiB) ends right after the first record's \r; its \n starts the second chunk
    writeFileSync(input, `${"p".repeat(65535)}\r\nq\r\nr\r\n`);
    const chk = join(d, "chk");
    expect(await copy(input, "csv", "name STRING", join(d, "a.json"), checkpoints(chk, 2))).toHaveLength(3);
    // after p and q: only r (a \n read as an empty line would be a NULL record of this one-column table)
    expect(await copy(input, "csv", "name STRING", join(d, "b.json"), { "execution.savepoint.path": join(chk, "chk-1") })).toEqual(['{"name":"r"}']);
  });
});
