// A checked docs page (docs/tutorial.md, docs/joins.md): every ```ts block is type-checked (no errors allowed) and run, and what it
// prints must equal the ```text block that follows it; every ```ts compile-error block must fail to
// compile with exactly the errors in the ```text block that follows it (as `tsc --noEmit --pretty false`
// prints them, for a file named app.mts). A compile-error block's output may be followed by a second
// ```text typescript-5.9 block: the errors as TypeScript 5.9 prints them (the TypeScript 5.x form), checked
// by a second compiler run.
//
// How: each block is written to node_modules/.cache/tutorial-<pid>/step-<n>/app.mts with its imports of
// "tablestream" pointed at src/; one `tsc` run checks all of them, while the runnable blocks are imported
// one after another in this process, with console.log and process.stdout captured.
//
// After a deliberate change of output, `TUTORIAL_UPDATE=1 npx vitest run test/docs/<page>.test.ts`
// rewrites the output blocks; read the diff of the page before keeping it.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { format } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const UPDATE = process.env.TUTORIAL_UPDATE === "1";





/** A fenced block: its info string, its text, and the lines (0-based) of its fences. */
interface Fence { info: string; body: string; open: number; close: number }
interface Step { kind: "run" | "compile-error"; title: string; code: Fence; output: Fence; output5?: Fence }
/** The info string of the optional block with a compile-error block's errors as TypeScript 5.x prints them. */
const TS5_OUTPUT = "text typescript-5.9";

function fences(lines: readonly string[], doc: string): Fence[] {
  const out: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^```(.*)$/.exec(lines[i]!);
    if (!m) continue;
    const close = lines.findIndex((l, j) => j > i && l === "```");
    if (close < 0) throw new Error(`${doc}:${i + 1}: unclosed code block`);
    out.push({ info: m[1]!.trim(), body: lines.slice(i + 1, close).join("\n"), open: i, close });
    i = close;
  }
  return out;
}

/** Pairs each code block with the output block after it; any other kind of block is refused. */
function steps(lines: readonly string[], doc: string): Step[] {
  const all = fences(lines, doc);
  const result: Step[] = [];
  for (let i = 0; i < all.length; i++) {
    const f = all[i]!;
    const at = `${doc}:${f.open + 1}`;
    if (f.info === "sh") continue; // shell commands for the reader, not run
    if (f.info !== "ts" && f.info !== "ts compile-error") {
      throw new Error(`${at}: a \`\`\`${f.info} block; a checked page has only ts, ts compile-error, text (after one of those) and sh blocks`);
    }
    const output = all[i + 1];
    if (output?.info !== "text") throw new Error(`${at}: a code block must be followed by the \`\`\`text block of its output`);
    const heading = lines.slice(0, f.open).reverse().find((l) => /^#{2,3} /.test(l)) ?? "(no heading)";
    const kind = f.info === "ts" ? "run" : "compile-error";
    const output5 = kind === "compile-error" && all[i + 2]?.info === TS5_OUTPUT ? all[i + 2] : undefined;
    result.push({ kind, title: heading.replace(/^#+ /, ""), code: f, output, output5 });
    i += output5 ? 2 : 1;
  }
  return result;
}

/** Registers the tests of docs/<page>: at least `minimum` blocks of each kind, each compiling and printing as shown. */
export function checkDocPage(page: string, minimum: { run: number; compileError: number }): void {
  const path = join(root, "docs", page);
  const doc = `docs/${page}`;
  const markdown = readFileSync(path, "utf8");
  const lines = markdown.split("\n");
  const tutorial = steps(lines, doc);

  // ---- the blocks as files ----
  const dir = join(root, "node_modules", ".cache", `${page.replace(/\.md$/, "")}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  const fileOf = (n: number) => join(dir, `step-${n}`, "app.mts");
  tutorial.forEach((s, n) => {
    mkdirSync(dirname(fileOf(n)), { recursive: true });
    const source = s.code.body.replace(/from "tablestream(\/testing|\/notebook)?"/g, (_m, sub: string | undefined) =>
      `from "${root}/src${sub ?? ""}/index.js"`);
    writeFileSync(fileOf(n), source + "\n");
  });
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ extends: join(root, "tsconfig.json"), include: ["*/app.mts"] }));

  /** tsc's errors per step (`app.mts(9,1): error TS...` plus continuation lines), started at once. */
  const compile = (compiler: string): Promise<Map<number, string>> => new Promise((done, fail) => {
    const tsc = spawn(process.execPath, [join(root, "node_modules", compiler, "bin", "tsc"), "-p", "tsconfig.json", "--noEmit", "--pretty", "false"], { cwd: dir });
    let stdout = "";
    tsc.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    tsc.on("error", fail);
    tsc.on("close", () => {
      const byStep = new Map<number, string>();
      let current: number | undefined;
      for (const l of stdout.split("\n")) {
        const m = /^step-(\d+)\/(app\.mts\(\d+,\d+\): error .*)$/.exec(l);
        if (m) {
          current = Number(m[1]);
          byStep.set(current, `${byStep.get(current) ?? ""}${m[2]}\n`);
        } else if (l.startsWith(" ") && current !== undefined) {
          byStep.set(current, `${byStep.get(current)}${l}\n`);
        } else {
          current = undefined; // errors outside the blocks (src/ mid-edit) are the whole-project tsc's business
        }
      }
      done(byStep);
    });
  });
  const compiled = compile("typescript");
  const compiled5 = tutorial.some((s) => s.output5) ? compile("typescript-5.9") : undefined;

  /** Runs one block's module and returns what it printed (console.log and process.stdout). */
  async function run(n: number): Promise<string> {
    const out: string[] = [];
    const log = console.log;
    const write = process.stdout.write;
    console.log = (...args: unknown[]) => void out.push(format(...args) + "\n");
    process.stdout.write = ((chunk: string | Uint8Array) => {
      out.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
      return true;
    }) as typeof process.stdout.write;
    try {
      await import(pathToFileURL(fileOf(n)).href);
    } finally {
      console.log = log;
      process.stdout.write = write;
    }
    return out.join("").replace(/\n$/, "");
  }

  /** What a block printed or reported, by its output block (rewritten with TUTORIAL_UPDATE=1). */
  const actual = new Map<Fence, string>();

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    if (!UPDATE || actual.size === 0) return;
    const updated = [...lines];
    for (const [{ open, close }, text] of [...actual].sort(([a], [b]) => b.open - a.open)) {
      updated.splice(open + 1, close - open - 1, ...text.split("\n"));
    }
    writeFileSync(path, updated.join("\n"));
  });

  describe(doc, () => {
    it("has its steps: runnable blocks and compile-error blocks, each with its output", () => {
      // (guards against the block pattern silently matching nothing)
      expect(tutorial.filter((s) => s.kind === "run").length).toBeGreaterThanOrEqual(minimum.run);
      expect(tutorial.filter((s) => s.kind === "compile-error").length).toBeGreaterThanOrEqual(minimum.compileError);
    });

    it("every block compiles as documented: runnable ones without errors, compile-error ones with exactly the errors shown", async () => {
      const errors = await compiled;
      tutorial.forEach((s, n) => {
        const got = (errors.get(n) ?? "").replace(/\n$/, "");
        const where = `${doc}:${s.code.open + 1} (${s.title})`;
        if (s.kind === "run") {
          expect.soft(got, `${where} must compile`).toBe("");
        } else {
          expect.soft(got, `${where}: no compile error`).not.toBe("");
          if (UPDATE) actual.set(s.output, got);
          else expect.soft(got, where).toBe(s.output.body);
        }
      });
    }, 120_000);

    if (compiled5) {
      it("compile-error blocks with a TypeScript 5.x form report exactly those errors under TypeScript 5.9", async () => {
        const errors = await compiled5;
        for (const [n, s] of tutorial.entries()) {
          if (!s.output5) continue;
          const got = (errors.get(n) ?? "").replace(/\n$/, "");
          if (UPDATE) actual.set(s.output5, got);
          else expect.soft(got, `${doc}:${s.code.open + 1} (${s.title}), TypeScript 5.9`).toBe(s.output5.body);
        }
      }, 120_000);
    }

    tutorial.forEach((s, n) => {
      if (s.kind !== "run") return;
      it(`prints what it shows: ${s.title} (line ${s.code.open + 1})`, async () => {
        const printed = await run(n);
        if (UPDATE) actual.set(s.output, printed);
        else expect(printed).toBe(s.output.body);
      }, 20_000);
    });
  });
}
