// The type tests' error messages, checked for their wording. A `// @ts-expect-error "<text>"` in
// test/types/*.ts states (in double quotes) the message the next line must produce; `tsc --noEmit`
// (npm test) only proves that there is an error. This test compiles a copy of the files with the
// directives removed and checks that each directive's next line reports an error (containing <text>
// when one is quoted), and that no other line does. It does so with each TypeScript the package
// supports (5.0, the newest 5.x and 7, installed as dev dependencies under aliases): every one must give
// the same errors, which is what proves that 5.0 checks columns as 7 does.
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

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

/** The compilers the type tests run under: package folder in node_modules. */
const COMPILERS = ["typescript-5.0", "typescript-5.9", "typescript"] as const;

/** Runs one compiler over the scratch project; resolves with its output. */
function tsc(dir: string, pkg: string): Promise<string> {
  const bin = join(root, "node_modules", pkg, "bin", "tsc");
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, "-p", "tsconfig.json", "--noEmit", "--pretty", "false"], { cwd: dir });
    let out = "";
    child.stdout.on("data", (d: Buffer) => { out += d.toString(); });
    child.on("error", fail);
    child.on("close", () => done(out));
  });
}

/** `file(line,col): error TSnnnn: message` plus its indented continuation lines, per file:line. */
function errorsByLine(stdout: string): Map<string, string> {
  const byLine = new Map<string, string>();
  let current: string | undefined;
  for (const l of stdout.split("\n")) {
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

/**
 * TypeScript 7 orders a union of string literals alphabetically, 5.x in the order it first met them, so a
 * column list reads `[age, name]` on 7 and `[name, age]` on 5.x. Under 5.x the lists are compared as sets.
 */
function inAnyOrder(compiler: string, text: string): string {
  if (compiler === "typescript") return text;
  return text.replace(/\[([^[\]]*)\]/g, (_, inner: string) => `[${inner.split(", ").sort().join(", ")}]`);
}

describe("type errors read as documented", () => {
  const { dir, expectations } = prepare();
  // all compilers at once (each is one process); each test awaits its own
  const outputs = new Map(COMPILERS.map((c) => [c, tsc(dir, c)]));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(COMPILERS)("%s: every @ts-expect-error line reports its stated message, and only those lines report errors", async (compiler) => {
    {
      const errors = errorsByLine(await outputs.get(compiler)!);
      // (guards against the directive pattern silently matching nothing)
      expect(expectations.filter((e) => e.text !== "").length).toBeGreaterThanOrEqual(59);
      for (const e of expectations) {
        const key = `${e.file}:${e.line}`;
        const got = errors.get(key);
        expect(got, `${key}: expected an error`).toBeDefined();
        if (e.text !== "") expect(inAnyOrder(compiler, got!), `${key}`).toContain(inAnyOrder(compiler, e.text));
      }
      const expected = new Set(expectations.map((e) => `${e.file}:${e.line}`));
      // (errors in src/ are the whole-project tsc's business, not this test's)
      const unexpected = [...errors].filter(([k]) => !k.startsWith("../") && !expected.has(k)).map(([k, m]) => `${k}: ${m}`);
      expect(unexpected, "errors on lines without @ts-expect-error").toEqual([]);
    }
  }, 600_000);
});
