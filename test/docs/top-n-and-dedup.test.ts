// docs/top-n-and-dedup.md is tested: every ```ts block is run (with the tablestream exports in scope) and
// what it prints must equal the ```text block that follows it.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { format } from "node:util";
import { describe, expect, it } from "vitest";
import * as tablestream from "../../src/index.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const text = readFileSync(join(root, "docs", "top-n-and-dedup.md"), "utf8");
const blocks = [...text.matchAll(/```(ts|text)\n([\s\S]*?)\n```/g)].map((m) => ({ lang: m[1]!, body: m[2]! }));
const examples = blocks.flatMap((b, i) => (b.lang === "ts" && blocks[i + 1]?.lang === "text" ? [{ code: b.body, output: blocks[i + 1]!.body }] : []));
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;

describe("docs/top-n-and-dedup.md", () => {
  it("has examples with their output", () => {
    expect(examples.length).toBeGreaterThanOrEqual(5);
  });
  examples.forEach(({ code, output }, i) => {
    it(`example ${i + 1} prints what the page shows`, async () => {
      const names = Object.keys(tablestream);
      const lines: string[] = [];
      const console = { log: (...args: unknown[]) => lines.push(format(...args)) };
      await new AsyncFunction("console", ...names, code)(console, ...names.map((n) => (tablestream as Record<string, unknown>)[n]));
      expect(lines.join("\n")).toBe(output);
    });
  });
});
