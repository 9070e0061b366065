// State bigger than the heap, proven: a child process with a 64 MB heap (`--max-old-space-size=64`) runs a
// PTF with value state over 1M keys. On the hashmap backend it runs out of memory; on the disk backend it
// completes with the exact result, takes a full checkpoint and a savepoint of all 1M keys (streamed from the
// store into files, never gathered in memory), and a second child restores that savepoint under the same
// heap and continues exactly. The child runs on the built package under `npm test` (dist/), else on the
// sources through tsx. The 10M-key run with a 512 MB heap is `npm run bench:state-10m` (docs/benchmarks.md).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CHILD = fileURLToPath(new URL("./bigger-than-heap-child.mjs", import.meta.url));
const BUILT = join(ROOT, "dist", "index.js");
const N = 1_000_000;
const HEAP_MB = 64;

const prebuilt = process.env.TABLESTREAM_PREBUILT !== undefined && existsSync(BUILT);
const loader = prebuilt ? [] : ["--import", "tsx"];
const entry = pathToFileURL(prebuilt ? BUILT : join(ROOT, "src", "index.ts")).href;

function runChild(args: string[]): Promise<{ code: number | null; signal: string | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, ...loader, CHILD, entry, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => { out += d.toString(); });
    child.stderr.on("data", (d: Buffer) => { err += d.toString(); });
    child.on("exit", (code, signal) => resolve({ code, signal, out, err }));
  });
}

const lines = (file: string) => readFileSync(file, "utf8").split("\n").filter((l) => l.length > 0).length;
/** 0 + 1 + … + (n-1) */
const sumBelow = (n: number) => BigInt(n) * BigInt(n - 1) / 2n;

const root = mkdtempSync(join(tmpdir(), "ts-bigger-than-heap-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe(`PTF value state of ${N.toLocaleString("en-US")} keys in a ${HEAP_MB} MB heap`, () => {
  it("the hashmap backend runs out of memory", async () => {
    const dir = join(root, "hashmap");
    mkdirSync(join(dir, "local"), { recursive: true });
    const r = await runChild(["before", "hashmap", String(N), join(dir, "local"), join(dir, "chk"), join(dir, "sp")]);
    expect(r.code === 0 && r.signal === null).toBe(false);
    expect(r.err).toContain("heap out of memory");
    expect(r.out).toBe("");
    expect(existsSync(join(dir, "sp"))).toBe(false);
  }, 600_000);

  it("the disk backend: exact rows, a checkpoint and a savepoint of every key, restored and continued exactly", async () => {
    const dir = join(root, "disk");
    const local = join(dir, "local");
    mkdirSync(local, { recursive: true });
    const before = await runChild(["before", "disk", String(N), local, join(dir, "chk"), join(dir, "sp")]);
    expect(before.err).toBe("");
    expect(before.code).toBe(0);
    // N rows, key k counted once: the sum of k × 1
    const [rows, checksum, savepoint] = before.out.trim().split(" ") as [string, string, string];
    expect(`${rows} ${checksum}`).toBe(`${N} ${sumBelow(N)}`);

    // the checkpoint after 600,000 records: its store file holds those keys, _metadata only refers to it
    expect(readdirSync(join(dir, "chk")).filter((e) => e.startsWith("chk-"))).toEqual(["chk-1"]);
    expect(readdirSync(join(dir, "chk", "chk-1")).sort()).toEqual(["_metadata", "_shared"]);
    const shared = JSON.parse(readFileSync(join(dir, "chk", "chk-1", "_shared"), "utf8")) as string[];
    expect(shared).toHaveLength(1);
    expect(lines(shared[0]!)).toBe(N * 0.6);
    // the savepoint holds its own store file of all N keys (self-contained), not the entries in _metadata
    expect(readdirSync(savepoint).sort()).toEqual(["_metadata", "s0.kv"]);
    expect(lines(join(savepoint, "s0.kv"))).toBe(N);
    expect(statSync(join(savepoint, "_metadata")).size).toBeLessThan(4096);

    const after = await runChild(["after", "disk", String(N), local, savepoint]);
    expect(after.err).toBe("");
    expect(after.code).toBe(0);
    // the keys again: each continues from its restored count 1 to 2
    expect(after.out.trim()).toBe(`${N} ${2n * sumBelow(N)}`);
    // both jobs removed their working directories
    expect(readdirSync(local)).toEqual([]);
  }, 900_000);
});
