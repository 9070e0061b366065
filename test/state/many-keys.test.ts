// State bigger than the heap: a child process with `--max-old-space-size` runs a W5-like PTF over 1M
// distinct keys on the disk backend (every key seen twice), and its output is exact — the count of rows
// and a checksum over them. 10M keys (bench/scripts/many-keys.ts, docs/benchmarks.md) take minutes on a
// shared CI machine, so the test uses 1M; the heap limit is the same.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CHILD = fileURLToPath(new URL("./many-keys-child.ts", import.meta.url));
const N = 1_000_000;

function runChild(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--max-old-space-size=512", "--import", "tsx", CHILD, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => { out += d.toString(); });
    child.stderr.on("data", (d: Buffer) => { err += d.toString(); });
    child.on("exit", (code) => resolve({ code, out, err }));
  });
}

describe("PTF value state larger than the heap on the disk backend", () => {
  it("1M keys with --max-old-space-size=512: every row out, exact checksum, working directory removed", async () => {
    const local = mkdtempSync(join(tmpdir(), "ts-many-keys-"));
    try {
      const r = await runChild([String(N), "disk", local]);
      expect(r.err).toBe("");
      expect(r.code).toBe(0);
      // 2N rows; key k gives counts 1 and 2: the sum of k × count is 3 × (0 + … + N-1)
      const expected = 3n * (BigInt(N) * BigInt(N - 1)) / 2n;
      expect(r.out.trim()).toBe(`${2 * N} ${expected}`);
      expect(readdirSync(local)).toEqual([]);
    } finally {
      rmSync(local, { recursive: true, force: true });
    }
  }, 900_000);
});
