// The packed package as users get it: `npm run build`, `npm pack`, and the tarball unpacked into a fresh
// consumer project (test/package/consumer/*) whose other dependencies are links to this worktree's
// node_modules (no network, no registry). The consumer is type-checked with skipLibCheck: false under
// TypeScript 5.0, 5.9 and 7 with node16, nodenext and bundler resolution, emits declarations for a module
// that exports a PTF, an expression helper and a table (declaration: true), must report each mistake in
// mistakes.ts as a compile error naming the column or argument, and runs under node as ESM, as a .cts
// file compiled to CommonJS and as plain `require`. attw checks the tarball too.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = join(import.meta.dirname, "../..");
const modules = join(root, "node_modules");
const COMPILERS = ["typescript-5.0", "typescript-5.9", "typescript"] as const;
const RESOLUTIONS = {
  node16: { module: "node16", moduleResolution: "node16" },
  nodenext: { module: "nodenext", moduleResolution: "nodenext" },
  bundler: { module: "esnext", moduleResolution: "bundler" },
} as const;

let work: string;
let project: string;
let tarball: string;

/** Runs a command; resolves with its exit code and output instead of throwing. */
async function sh(cmd: string, args: string[], cwd: string): Promise<{ code: number; out: string }> {
  try {
    const r = await run(cmd, args, { cwd, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === "number" ? err.code : 1, out: `${err.stdout ?? ""}${err.stderr ?? ""}` };
  }
}

function link(name: string, into: string): void {
  const target = join(into, "node_modules", name);
  mkdirSync(dirname(target), { recursive: true });
  symlinkSync(join(modules, name), target, "dir");
}

beforeAll(async () => {
  // `npm test` builds once before vitest starts (TABLESTREAM_PREBUILT): rebuilding here would wipe dist/
  // under the notebook tests running beside this file
  if (!process.env.TABLESTREAM_PREBUILT) {
    const build = await sh("npm", ["run", "build", "--silent"], root);
    if (build.code !== 0) throw new Error(`npm run build failed:\n${build.out}`);
  }
  mkdirSync(join(modules, ".cache"), { recursive: true });
  work = mkdtempSync(join(modules, ".cache", "consumers-"));
  const pack = await sh("npm", ["pack", "--silent", "--pack-destination", work], root);
  if (pack.code !== 0) throw new Error(`npm pack failed:\n${pack.out}`);
  tarball = join(work, pack.out.trim().split("\n").pop()!);
  project = join(work, "project");
  cpSync(join(import.meta.dirname, "consumer"), project, { recursive: true });
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  const installed = join(project, "node_modules", "tablestream");
  mkdirSync(installed, { recursive: true });
  const untar = await sh("tar", ["-xzf", tarball, "-C", installed, "--strip-components=1"], work);
  if (untar.code !== 0) throw new Error(`tar failed:\n${untar.out}`);
  for (const dep of ["decimal.js", "fast-check", "immer", "@types/node"]) link(dep, project);
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** `file(line,col): error TSnnnn: message` lines, by file:line. */
function errorsByLine(out: string): Map<string, string> {
  const byLine = new Map<string, string>();
  let current: string | undefined;
  for (const l of out.split("\n")) {
    const m = /^(.*?)\((\d+),\d+\): error (TS\d+: .*)$/.exec(l);
    if (m) {
      current = `${m[1]}:${m[2]}`;
      byLine.set(current, `${byLine.get(current) ?? ""}${m[3]}\n`);
    } else if (current && l.startsWith(" ")) byLine.set(current, `${byLine.get(current)}${l.trim()}\n`);
  }
  return byLine;
}

/** The `// expect: text` marks of mistakes.ts, by file:line. */
function expectedMistakes(): Map<string, string> {
  const marks = new Map<string, string>();
  readFileSync(join(import.meta.dirname, "consumer", "mistakes.ts"), "utf8").split("\n").forEach((l, i) => {
    const m = /\/\/ expect: (.*)$/.exec(l);
    if (m) marks.set(`mistakes.ts:${i + 1}`, m[1]!.trim());
  });
  return marks;
}

function tsconfig(compiler: string, resolution: keyof typeof RESOLUTIONS): string {
  // (written here, not in consumer/: each compiler and resolution gets its own outDir)
  const name = `tsconfig.${compiler}.${resolution}.json`;
  writeFileSync(join(project, name), JSON.stringify({
    compilerOptions: {
      // no @types/node: the package's declarations need none, and checking them would double the time of 5.x
      ...RESOLUTIONS[resolution], target: "ES2022", lib: ["ES2022", "DOM"], types: [], strict: true, skipLibCheck: false,
      declaration: true, emitDeclarationOnly: true, outDir: `types-${compiler}-${resolution}`,
    },
    // a .cts file is CommonJS, which bundler resolution (module esnext) does not compile
    include: ["*.ts", ...(resolution === "bundler" ? [] : ["*.cts"])],
  }));
  return name;
}

describe("the packed package in fresh consumer projects", () => {
  it("installs: the tarball holds the entry points, declarations for import and require, LICENSE and README", () => {
    const pkg = join(project, "node_modules", "tablestream");
    const files = readdirSync(pkg, { recursive: true }).map(String);
    for (const f of ["LICENSE", "README.md", "dist/index.js", "dist/index.cjs", "dist/index.d.ts", "dist/index.d.cts",
      "dist/testing/index.d.cts", "testing/package.json", "docs/typing.md"]) expect(files, f).toContain(f);
  });

  it("README and docs link only to files inside the package", () => {
    const pkg = join(project, "node_modules", "tablestream");
    // the Markdown pages (docs/ also holds the notebooks and their images)
    const docs = ["README.md", ...readdirSync(join(pkg, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
    const broken: string[] = [];
    for (const doc of docs) {
      for (const m of readFileSync(join(pkg, doc), "utf8").matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        try { readFileSync(join(pkg, dirname(doc), target)); } catch { broken.push(`${doc} -> ${target}`); }
      }
    }
    expect(broken).toEqual([]);
  });

  const checks = COMPILERS.flatMap((c) => (Object.keys(RESOLUTIONS) as (keyof typeof RESOLUTIONS)[]).map((r) => [c, r] as const));
  // the compiles run two at a time (the machine has two cores), started by the first test that needs one
  let compiles: Map<string, Promise<string>> | undefined;
  function compiled(compiler: string, resolution: keyof typeof RESOLUTIONS): Promise<string> {
    if (!compiles) {
      compiles = new Map();
      const lanes: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];
      checks.forEach(([c, r], i) => {
        const lane = i % lanes.length;
        const p = lanes[lane]!.then(() => sh(process.execPath, [join(modules, c, "bin", "tsc"), "-p", tsconfig(c, r), "--pretty", "false"], project))
          .then((res) => res.out);
        lanes[lane] = p;
        compiles!.set(`${c}/${r}`, p);
      });
    }
    return compiles.get(`${compiler}/${resolution}`)!;
  }
  it.each(checks)("%s, %s resolution: compiles with skipLibCheck: false and declaration: true; each mistake is an error naming it", async (compiler, resolution) => {
    const out = await compiled(compiler, resolution);
    const errors = errorsByLine(out);
    const expected = expectedMistakes();
    for (const [where, text] of expected) expect(errors.get(where), where).toContain(text);
    const unexpected = [...errors].filter(([k]) => !expected.has(k)).map(([k, m]) => `${k}: ${m}`);
    expect(unexpected).toEqual([]);
    const dts = readFileSync(join(project, `types-${compiler}-${resolution}`, "ptf-module.d.ts"), "utf8");
    expect(dts).toContain("export declare const Threshold: ProcessTableFunction<");
  }, 600_000);

  it("runs: ESM, a .cts file compiled to CommonJS, and plain require", async () => {
    writeFileSync(join(project, "tsconfig.run.json"), JSON.stringify({
      compilerOptions: { module: "nodenext", moduleResolution: "nodenext", target: "ES2022", lib: ["ES2022"], types: ["node"], strict: true, outDir: "out", noEmitOnError: false },
      files: ["main.ts", "ptf-module.ts", "consumer.cts"],
    }));
    const tsc = await sh(process.execPath, [join(modules, "typescript", "bin", "tsc"), "-p", "tsconfig.run.json", "--pretty", "false"], project);
    expect(tsc.out).toBe("");
    cpSync(join(project, "plain.cjs"), join(project, "out", "plain.cjs"));
    const esm = JSON.parse((await run(process.execPath, ["out/main.js"], { cwd: project })).stdout);
    expect(esm).toEqual({
      a: "Alice", n: 1, kind: "+I", kit: "function",
      rows: ["+I[Alice, 1, false]", "+I[Bob, 1, false]", "+I[Alice, 2, true]"],
      older: ["+I[Alice, 36]", "+I[Bob, 13]", "+I[Alice, 41]"],
    });
    const cts = JSON.parse((await run(process.execPath, ["out/consumer.cjs"], { cwd: project })).stdout);
    expect(cts).toEqual(["+I[2]", "+I[4]"]);
    const cjs = JSON.parse((await run(process.execPath, ["out/plain.cjs"], { cwd: project })).stdout);
    expect(cjs).toEqual({ rows: ["+I[a, 1]", "+I[b, 1]", "-U[a, 1]", "+U[a, 2]"], kit: "function" });
  }, 600_000);

  it("attw reports no problem for node10, node16 (CJS and ESM) and bundler", async () => {
    const r = await sh(process.execPath, [join(modules, "@arethetypeswrong", "cli", "dist", "index.js"), tarball, "--format", "json"], work);
    const report = JSON.parse(r.out) as { analysis: { problems: unknown[] } };
    expect(report.analysis.problems).toEqual([]);
    expect(r.code).toBe(0);
  }, 600_000);
});
