// The watching filesystem source (Flink's 'source.monitor-interval'): new files appearing in the directory
// while the job runs are read, each once; positions name the files done and the offset in the current one.
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EnvironmentSettings, TableEnvironment, ValidationError } from "../../src/index.js";

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), "ts-monitor-")); dirs.push(d); return d; };
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

const ddl = (dir: string, interval = "20 ms") =>
  `CREATE TEMPORARY TABLE src (name STRING, n INT) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'csv', 'source.monitor-interval' = '${interval}')`;

/** Writes a file under a hidden name and renames it into place (the source never sees it half-written). */
function publish(dir: string, name: string, lines: string[]): void {
  const hidden = join(dir, `.${name}.tmp`);
  writeFileSync(hidden, lines.map((l) => `${l}\n`).join(""));
  renameSync(hidden, join(dir, name));
}

const until = async (cond: () => boolean, what: string) => {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!cond()) throw new Error(`timed out waiting for ${what}`);
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("filesystem source with source.monitor-interval", () => {
  it("reads the files present, then each new file once as it appears, until cancelled", async () => {
    const dir = tmp();
    publish(dir, "a.csv", ["a,1", "b,2"]);
    const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    e.executeSql(ddl(dir));
    const result = e.executeSql("SELECT name, n FROM src WHERE n > 0");
    const seen: string[] = [];
    const reading = (async () => { for await (const r of result.collect()) seen.push(`${(r as { name: string }).name}${(r as { n: number }).n}`); })();
    await until(() => seen.length === 2, "the first file");
    publish(dir, "b.csv", ["c,3", "zero,0"]);
    publish(dir, "_ignored.csv", ["hidden,9"]);
    await until(() => seen.length === 3, "the second file");
    await pause(100); // several listings: nothing is read twice
    publish(dir, "0-early-name.csv", ["d,4"]); // sorts before the files read: still read, once
    await until(() => seen.length === 4, "the third file");
    await pause(100);
    expect(seen).toEqual(["a1", "b2", "c3", "d4"]);
    await result.getJobClient().cancel();
    await reading;
    expect(seen).toEqual(["a1", "b2", "c3", "d4"]);
  });

  it("the table is unbounded: batch mode refuses it; bad intervals are errors naming the option", () => {
    const dir = tmp();
    const batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    batch.executeSql(ddl(dir));
    expect(() => batch.sqlQuery("SELECT * FROM src").execute()).toThrow(/unbounded table 'src' in batch mode/);
    const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    e.executeSql(ddl(dir, "0 s"));
    expect(() => e.sqlQuery("SELECT * FROM src")).toThrow(ValidationError);
    expect(() => e.sqlQuery("SELECT * FROM src")).toThrow(/'source.monitor-interval' must be greater than 0, got '0 s'/);
    const f = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    f.executeSql(ddl(dir, "soon"));
    expect(() => f.sqlQuery("SELECT * FROM src")).toThrow(/option 'source.monitor-interval' must be a duration/);
  });

  it("a savepoint stores the files done and the offset in the current one: the restored job reads only new rows", async () => {
    const dir = tmp();
    const sp = tmp();
    publish(dir, "a.csv", ["a,1", "b,2"]);
    publish(dir, "b.csv", ["c,3"]);
    const run = async (from: string | undefined, waitFor: number, then?: () => void) => {
      const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
      if (from !== undefined) e.getConfig().set("execution.savepoint.path", from);
      e.executeSql(ddl(dir));
      const result = e.executeSql("SELECT name, n FROM src");
      const seen: string[] = [];
      const reading = (async () => { for await (const r of result.collect()) seen.push(`${(r as { name: string }).name}${(r as { n: number }).n}`); })();
      await until(() => seen.length >= waitFor, `${waitFor} rows`);
      then?.();
      if (then) await until(() => seen.length >= waitFor + 1, "the new file");
      const path = await result.getJobClient().stopWithSavepoint(sp);
      await reading.catch(() => {});
      return { seen, path };
    };
    const first = await run(undefined, 3);
    expect(first.seen).toEqual(["a1", "b2", "c3"]);
    // while the job is stopped: a new file, and rows appended to the file being read last
    publish(dir, "0-c.csv", ["d,4"]); // sorts first: the stored file list, not the listing order, says where the job was
    writeFileSync(join(dir, "b.csv"), "c,3\ne,5\n");
    const second = await run(first.path, 2, () => publish(dir, "d.csv", ["f,6"]));
    expect(second.seen).toEqual(["e5", "d4", "f6"]);
  });
});
