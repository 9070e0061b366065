// The query-evolution example of docs/checkpoints.md (examples/checkpoints/query-evolution.ts), with its output.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { queryEvolution } from "../../examples/checkpoints/query-evolution.js";

describe("docs/checkpoints.md: query evolution", () => {
  it("the PTF's totals continue in version 2 of the query", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ts-doc-"));
    try {
      const sink = await queryEvolution(dir);
      expect(sink.changelog()).toEqual([
        "+I[ann, 30]", "+I[bob, 5]", "+I[ann, 42]",
        "+I[bob, 25 in 2 orders]", "+I[ann, 50 in 3 orders]",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
