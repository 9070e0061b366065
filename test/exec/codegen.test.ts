import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { generate, generatedSourceCount, withCodegenNames, nextGeneratedName } from "../../src/expressions/codegen.js";
import { $, DataTypes, EnvironmentSettings, Row, TableEnvironment } from "../../src/index.js";

describe("the code-generation funnel", () => {
  afterEach(() => { delete process.env.TABLESTREAM_DUMP_CODEGEN; });

  it("names generated functions per job: the same plan generates no new source in a second job", async () => {
    const program = () => {
      const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
      const t = env.fromValues(DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.STRING())), Row.of(1, "x"), Row.of(2, "y"));
      return t.filter($("a").isGreater(1)).select($("b"), $("a").plus(1).as("c"));
    };
    const first = (await program().execute().toArray()).map(String);
    const before = generatedSourceCount();
    const second = (await program().execute().toArray()).map(String);
    expect(first).toHaveLength(1);
    expect(second).toEqual(first);
    expect(generatedSourceCount()).toBe(before);
  });

  it("counts names within a job, restarting for every job", () => {
    const names = () => withCodegenNames(() => [nextGeneratedName("edge"), nextGeneratedName("edge"), nextGeneratedName("calc")]);
    expect(names()).toEqual(["edge0", "edge1", "calc0"]);
    expect(names()).toEqual(["edge0", "edge1", "calc0"]);
  });

  it("dumps each new source with its sourceURL when TABLESTREAM_DUMP_CODEGEN is set", () => {
    const dir = mkdtempSync(join(tmpdir(), "codegen-"));
    process.env.TABLESTREAM_DUMP_CODEGEN = dir;
    const f = generate<(x: number) => number>("test-site", "twice", ["k"], `"use strict";return function(x){return x*k;};`, [2]);
    expect(f(21)).toBe(42);
    expect(readdirSync(dir)).toEqual(["test-site--twice.js"]);
    expect(readFileSync(join(dir, "test-site--twice.js"), "utf8")).toContain("//# sourceURL=tablestream/test-site/twice.js");
  });
});
