// The published bundles (tsup: ESM + CJS) must work on their own: a bundler that honours
// `"sideEffects": false` drops side-effect-only imports, so everything the interpreter needs is
// installed by explicit calls from src/index.ts. This test builds into a cache folder and runs
// pipelines through both bundles.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");

function build(): string {
  const out = mkdtempSync(join(root, "node_modules/.cache/dist-test-"));
  execFileSync(join(root, "node_modules/.bin/tsup"), ["--out-dir", out, "--no-sourcemap", "--silent"], { cwd: root, stdio: "pipe" });
  return out;
}

type Lib = typeof import("../../src/index.js");

async function pipelines(lib: Lib): Promise<string[]> {
  const { TableEnvironment, ProcessTableFunction, tableArg, ArgumentTrait, valueState, DataTypes, $ } = lib;
  const env = TableEnvironment.create();
  const Counter = ProcessTableFunction.define({
    name: "Counter",
    args: { input: tableArg(ArgumentTrait.SET_SEMANTIC_TABLE) },
    state: { s: valueState({ n: 0 }) },
    output: DataTypes.BIGINT(),
    eval(ctx, { s }) { s.n++; ctx.collect(s.n); },
  });
  const names = env.fromValues("Bob", "Alice", "Bob").as("name");
  const ptf = await names.partitionBy($("name")).process(Counter).execute().toChangelog();
  const agg = await names.groupBy($("name")).select($("name"), $("name").count().as("n")).execute().toChangelog();
  return [...ptf, ...agg];
}

const expected = ["+I[Bob, 1]", "+I[Alice, 1]", "+I[Bob, 2]", "+I[Bob, 1]", "+I[Alice, 1]", "-U[Bob, 1]", "+U[Bob, 2]"];

describe("built package", () => {
  const out = build();
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("runs PTF and aggregation pipelines from the ESM bundle", async () => {
    const lib = (await import(pathToFileURL(join(out, "index.js")).href)) as Lib;
    expect(await pipelines(lib)).toEqual(expected);
  });

  it("runs them from the CommonJS bundle", async () => {
    const lib = createRequire(import.meta.url)(join(out, "index.cjs")) as Lib;
    expect(await pipelines(lib)).toEqual(expected);
  });
}, 60_000);
