// Checkpoints written before async-iterable and filesystem were ported onto the public connector API still
// restore: the test takes a checkpoint, rewrites its source positions and sink state into the forms the old
// internal connectors stored (a bare row count, a bare file position, a `{ dir, pending }` committable), and
// restores from it.
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { $, CollectionSink, DataTypes, EnvironmentSettings, Row, Schema, TableDescriptor, TableEnvironment } from "../../../src/index.js";
import type { PositionalRow } from "../../../src/index.js";

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), "ts-legacy-")); dirs.push(d); return d; };
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

function env(options: Record<string, string> = {}): TableEnvironment {
  const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  for (const [k, v] of Object.entries(options)) e.getConfig().set(k, v);
  return e;
}

interface Snapshot {
  sources: Record<string, { source: string; position: unknown }>;
  operators: Record<string, { operator: string; state: unknown }>;
}
const metadataOf = (chk: string) => join(chk, "_metadata");
const readSnapshot = (chk: string) => JSON.parse(readFileSync(metadataOf(chk), "utf8")) as Snapshot;
const writeSnapshot = (chk: string, s: Snapshot) => writeFileSync(metadataOf(chk), JSON.stringify(s));
const newest = (dir: string) => join(dir, readdirSync(dir).filter((d) => d.startsWith("chk-")).sort((a, b) => Number(a.slice(4)) - Number(b.slice(4))).at(-1)!);

const ORDER_SCHEMA = Schema.newBuilder().column("product", DataTypes.STRING()).column("amount", DataTypes.INT()).build();
const ROWS = [Row.of("a", 1), Row.of("b", 2), Row.of("a", 3), Row.of("c", 4), Row.of("b", 5), Row.of("a", 6), Row.of("c", 7)];

async function* openEnded(rows: readonly PositionalRow[]): AsyncGenerator<PositionalRow> {
  for (const r of rows) yield r;
  await new Promise<void>(() => { /* until the job stops */ });
}

describe("checkpoints of the connectors before the public API restore", () => {
  it("async-iterable's bare row count and the file sink's { dir, pending }: the pending file is committed, the rows continue", async () => {
    const out = join(tmp(), "out");
    const chk = tmp();
    const files = () => (existsSync(out) ? readdirSync(out).sort() : []);
    const visible = () => files().filter((f) => !f.startsWith(".")).flatMap((f) => readFileSync(join(out, f), "utf8").split("\n").filter((l) => l !== ""));
    const insert = (e: TableEnvironment, rows: AsyncIterable<PositionalRow> | PositionalRow[]) => {
      e.createTemporaryTable("files", TableDescriptor.forConnector("filesystem").schema(ORDER_SCHEMA).option("path", out).option("format", "csv").build());
      return e.fromAsyncIterable(ORDER_SCHEMA, rows, { name: "orders" }).executeInsert("files");
    };
    const config = { "execution.checkpointing.interval-records": "2", "execution.checkpointing.dir": chk, "execution.checkpointing.num-retained": "3" };
    const first = insert(env(config), openEnded(ROWS.slice(0, 5)));
    while (readdirSync(chk).filter((d) => d.startsWith("chk-")).length < 2) await new Promise((r) => setTimeout(r, 2));
    await new Promise((r) => setTimeout(r, 20));
    await first.getJobClient().cancel();
    expect(visible()).toEqual(["a,1", "b,2", "a,3", "c,4"]);

    const last = newest(chk);
    const snap = readSnapshot(last);
    const [source] = Object.values(snap.sources);
    // the position the job writes now: { at: rows read, skip: 0 } (one row per batch)
    expect(source!.position).toEqual({ at: 4, skip: 0 });
    source!.position = 4; // what the internal async-iterable reader stored: its row count
    const sink = Object.values(snap.operators).find((o) => (o.state as { committable?: unknown } | null)?.committable !== undefined)!;
    const state = sink.state as { committable: { checkpointId: number; committables: { dir: string; pending: string[] }[] } };
    const newer = state.committable.committables;
    const pendingFile = newer.flatMap((c) => c.pending).at(-1)!;
    expect(pendingFile).toMatch(/^part-.*-0-\d+\.csv$/);
    // the old sink state was the writer's committable itself; simulate a crash before its rename
    sink.state = { ...state, committable: { dir: newer[0]!.dir, pending: [pendingFile] } };
    renameSync(join(out, pendingFile), join(out, `.${pendingFile}.inprogress`));
    writeSnapshot(last, snap);
    expect(visible()).toEqual(["a,1", "b,2"]);

    await insert(env({ ...config, "execution.savepoint.path": last }), ROWS.slice(4)).await();
    expect(visible().sort()).toEqual(["a,1", "a,3", "a,6", "b,2", "b,5", "c,4", "c,7"]);
    expect(files().filter((f) => f.startsWith("."))).toEqual([]);
  });

  it("filesystem's bare file position: the restored job skips the records it had read", async () => {
    const dir = tmp();
    const lines = Array.from({ length: 30 }, (_, i) => `${"abc"[i % 3]},${i},${(i * 1.25).toFixed(2)}`);
    writeFileSync(join(dir, "a.csv"), lines.join("\n") + "\n");
    const OUT = Schema.newBuilder().column("k", DataTypes.STRING()).column("n", DataTypes.BIGINT()).column("m", DataTypes.DECIMAL(10, 2)).build();
    const run = async (config: Record<string, string>, sink: CollectionSink) => {
      const e = env(config);
      e.createTemporaryTable("src", TableDescriptor.forConnector("filesystem")
        .schema(Schema.newBuilder().column("k", DataTypes.STRING()).column("v", DataTypes.INT()).column("price", DataTypes.DECIMAL(10, 2)).build())
        .option("path", dir).option("format", "csv").build());
      e.createTemporaryTable("out", sink.descriptor(OUT));
      await e.from("src").groupBy($("k")).select($("k"), $("v").count().as("n"), $("price").max().as("m")).executeInsert("out").await();
    };
    const whole = new CollectionSink();
    await run({}, whole);
    const chk = tmp();
    const sink = new CollectionSink();
    await run({ "execution.checkpointing.interval-records": "7", "execution.checkpointing.dir": chk, "execution.checkpointing.num-retained": "50" }, sink);
    const second = join(chk, "chk-2");
    const snap = readSnapshot(second);
    const [source] = Object.values(snap.sources);
    const p = source!.position as { at: { file: number; offset: number; line: number; cr: boolean; skip: number } | null; skip: number };
    // the internal reader's position: the file, its last record boundary reached and the records after it received
    const at = p.at === null || p.at.file < 0 ? { file: 0, offset: 0, line: 1, cr: false, skip: 0 } : p.at;
    source!.position = { file: at.file, offset: at.offset, line: at.line, cr: at.cr, skip: at.skip + p.skip };
    expect(source!.position).not.toHaveProperty("at");
    // mid-file: the restore must skip what the first run had read, or the counts come out higher
    expect(at.file).toBe(0);
    expect(at.offset + at.skip + p.skip).toBeGreaterThan(0);
    writeSnapshot(second, snap);
    await run({ "execution.savepoint.path": second }, sink);
    expect(sink.changelog()).toEqual(whole.changelog());
    expect(whole.changelog().at(-1)).toBe("+U[c, 10, 36.25]");
  });
});
