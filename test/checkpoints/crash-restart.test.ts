// A job killed with SIGKILL in the middle and restarted from its last checkpoint neither loses nor
// duplicates a row in its file sink (two-phase commit: part files become visible only once a checkpoint
// that covers them is on disk; the restarted job writes everything after that checkpoint again).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CHILD = fileURLToPath(new URL("./crash-child.ts", import.meta.url));
const ROWS = 3000;

function visibleLines(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => !f.startsWith(".")).flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n").filter((l) => l.length > 0));
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe("a job killed with SIGKILL restarts from its last checkpoint", () => {
  it("loses and duplicates nothing in a file sink", async () => {
    const root = mkdtempSync(join(tmpdir(), "ts-crash-"));
    const sink = join(root, "out");
    const checkpoints = join(root, "chk");
    try {
      const child = spawn(process.execPath, ["--import", "tsx", CHILD, sink, checkpoints, "fresh"], { stdio: "ignore" });
      const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
      // kill it once a few checkpoints are complete, long before its 3000 rows are through
      for (let i = 0; i < 600 && !(existsSync(checkpoints) && readdirSync(checkpoints).some((d) => /^chk-([3-9]|\d\d)$/.test(d))); i++) await sleep(25);
      child.kill("SIGKILL");
      await exited;
      const atCrash = visibleLines(sink);
      expect(atCrash.length).toBeGreaterThan(0);
      expect(atCrash.length).toBeLessThan(ROWS);
      // what is visible is a prefix of checkpoints: every id once, each key's counts without a gap
      expect(new Set(atCrash).size).toBe(atCrash.length);
      const restarted = spawnSync(process.execPath, ["--import", "tsx", CHILD, sink, checkpoints, "restore"], { encoding: "utf8" });
      expect(restarted.stderr).toBe("");
      expect(restarted.stdout).toBe("done\n");
      const lines = visibleLines(sink).sort();
      const expected = Array.from({ length: ROWS }, (_, i) => `${(i + 1) % 5},${i + 1},${Math.ceil((i + 1) / 5)}`).sort();
      expect(lines).toEqual(expected);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
