// The examples of docs/statement-sets.md, and the ```ts run blocks of the other docs listed below, are tested:
// each ```ts run block is type-checked and run, and what it prints must equal the ```text block after it.
// Blocks import "tablestream"; here that is src/. (docs/tutorial.md has its own test with the same rules.)
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { format } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const DOCS = ["statement-sets.md", "functions.md", "expressions.md", "semantics.md", "sql.md"];

interface Example { doc: string; line: number; title: string; code: string; output: string }

function examples(doc: string): Example[] {
  const lines = readFileSync(join(root, "docs", doc), "utf8").split("\n");
  const out: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== "```ts run") continue;
    const end = lines.indexOf("```", i + 1);
    const textOpen = end + 1 < lines.length && lines[end + 1] === "" ? end + 2 : end + 1;
    if (lines[textOpen] !== "```text") throw new Error(`docs/${doc}:${i + 1}: a \`\`\`ts run block must be followed by the \`\`\`text block of its output`);
    const textClose = lines.indexOf("```", textOpen + 1);
    const title = lines.slice(0, i).reverse().find((l) => /^#{2,3} /.test(l))?.replace(/^#+ /, "") ?? doc;
    out.push({ doc, line: i + 1, title, code: lines.slice(i + 1, end).join("\n"), output: lines.slice(textOpen + 1, textClose).join("\n") });
    i = textClose;
  }
  return out;
}

const all = DOCS.flatMap(examples);
const dir = join(root, "node_modules", ".cache", `doc-examples-${process.pid}`);
rmSync(dir, { recursive: true, force: true });
const fileOf = (n: number) => join(dir, `example-${n}`, "app.mts");
all.forEach((e, n) => {
  mkdirSync(dirname(fileOf(n)), { recursive: true });
  writeFileSync(fileOf(n), e.code.replace(/from "tablestream"/g, `from "${root}/src/index.js"`) + "\n");
});
writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ extends: join(root, "tsconfig.json"), include: ["*/app.mts"] }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(n: number): Promise<string> {
  const out: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => void out.push(format(...args) + "\n");
  try {
    await import(pathToFileURL(fileOf(n)).href);
  } finally {
    console.log = log;
  }
  return out.join("").replace(/\n$/, "");
}

describe("checked examples in docs/", () => {
  it("every example type-checks", () => {
    const tsc = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json", "--noEmit", "--pretty", "false"], { cwd: dir, encoding: "utf8" });
    const errors = tsc.stdout.split("\n").filter((l) => /^example-\d+\//.test(l))
      .map((l) => l.replace(/^example-(\d+)\/app\.mts/, (_m, n: string) => `docs/${all[Number(n)]!.doc}:${all[Number(n)]!.line}`));
    expect(errors).toEqual([]);
  }, 120_000);

  it.each(all.map((e, n) => [`docs/${e.doc}:${e.line} (${e.title})`, n] as const))("%s prints its output", async (_name, n) => {
    expect(await run(n)).toBe(all[n]!.output);
  }, 30_000);
});
