// The type tests' error messages, checked for their wording. A `// @ts-expect-error "<text>"` in
// test/types/*.ts states (in double quotes) the message the next line must produce; `tsc --noEmit`
// (npm test) only proves that there is an error. This test compiles a copy of the files with the
// directives removed and checks that each directive's next line reports an error (containing <text>
// when one is quoted), and that no other line does.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const DIRECTIVE = /^(\s*)\/\/ @ts-expect-error(?:\s+"(.*)"\s*$|\s|$)/;

interface Expectation { file: string; line: number; text: string }

/** Copies the type tests into a scratch project (outside the tsconfig's include) without their directives. */
function prepare(): { dir: string; expectations: Expectation[] } {
  const dir = join(root, "node_modules", ".cache", `type-messages-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const expectations: Expectation[] = [];
  for (const file of readdirSync(here).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
    const lines = readFileSync(join(here, file), "utf8").split("\n");
    const out = lines.map((l, i) => {
      const m = DIRECTIVE.exec(l);
      if (!m) return l;
      expectations.push({ file, line: i + 2, text: (m[2] ?? "").trim() });
      return `${m[1]}//`;
    });
    const source = out.join("\n").replaceAll('"../../src/', `"${root}/src/`);
    writeFileSync(join(dir, file), source);
  }
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ extends: join(root, "tsconfig.json"), include: ["*.ts"] }));
  return { dir, expectations };
}

/** `file(line,col): error TSnnnn: message` plus its indented continuation lines, per file:line. */
function compile(dir: string): Map<string, string> {
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const run = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json", "--noEmit", "--pretty", "false"], { cwd: dir, encoding: "utf8" });
  const byLine = new Map<string, string>();
  let current: string | undefined;
  for (const l of run.stdout.split("\n")) {
    const m = /^(.*)\((\d+),\d+\): error (TS\d+: .*)$/.exec(l);
    if (m) {
      current = `${m[1]}:${m[2]}`;
      byLine.set(current, `${byLine.get(current) ?? ""}${m[3]}\n`);
    } else if (current && l.startsWith(" ")) {
      byLine.set(current, `${byLine.get(current)}${l.trim()}\n`);
    }
  }
  return byLine;
}

describe("type errors read as documented", () => {
  it("every @ts-expect-error line reports its stated message, and only those lines report errors", () => {
    const { dir, expectations } = prepare();
    try {
      const errors = compile(dir);
      // (guards against the directive pattern silently matching nothing)
      expect(expectations.filter((e) => e.text !== "").length).toBeGreaterThanOrEqual(59);
      for (const e of expectations) {
        const key = `${e.file}:${e.line}`;
        const got = errors.get(key);
        expect(got, `${key}: expected an error`).toBeDefined();
        if (e.text !== "") expect(got, `${key}`).toContain(e.text);
      }
      const expected = new Set(expectations.map((e) => `${e.file}:${e.line}`));
      // (errors in src/ are the whole-project tsc's business, not this test's)
      const unexpected = [...errors].filter(([k]) => !k.startsWith("../") && !expected.has(k)).map(([k, m]) => `${k}: ${m}`);
      expect(unexpected, "errors on lines without @ts-expect-error").toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
