// §25 async calc (AsyncCalcTestPrograms): async scalar functions in a projection and a filter, two-phase
// restore form through SQL, Flink's exact rows.
import { describe, expect, it } from "vitest";
import { AsyncScalarFunction, DataTypes } from "../../src/index.js";
import { runRestore } from "./restore-runner.js";

const AsyncJavaFunc0 = AsyncScalarFunction.define({ name: "udf1", args: [DataTypes.BIGINT()], result: DataTypes.BIGINT(), eval: async (l) => (l === null ? null : l + 1) });
const AsyncJavaFunc1 = AsyncScalarFunction.define({
  name: "udf2", args: [DataTypes.INT(), DataTypes.INT().notNull(), DataTypes.TIMESTAMP(3)], result: DataTypes.STRING(),
  eval: async (a, b, c) => `${a} and ${b} and ${c === null ? null : c.getTime()}`,
});
const AsyncJavaFunc2 = AsyncScalarFunction.define({ name: "udf3", args: [DataTypes.STRING(), DataTypes.INT()], result: DataTypes.STRING(), eval: async (s, i) => `${s}${i}` });
const AsyncUdfWithOpen = AsyncScalarFunction.define({ name: "udf4", args: [DataTypes.STRING()], result: DataTypes.STRING(), eval: async (s) => `$${s}` });
const AsyncJavaFunc5 = AsyncScalarFunction.define({
  name: "udf5", args: [DataTypes.TIMESTAMP(3), DataTypes.INT()], result: DataTypes.TIMESTAMP(3),
  eval: async (t, ms) => (t === null || ms === null ? null : new Date(t.getTime() - ms)),
});

// An async scalar function in WHERE runs in an AsyncCalc below the filter, as in Flink.
describe("§25 async calc, restored from a savepoint", () => {
  it("R-169 async-calc-complex: an async call in WHERE", async () => {
    const row = [5, 11, "hello world", new Date(Date.UTC(2023, 11, 16, 1, 1, 1))];
    const r = await runRestore({
      sources: [{ name: "source_t", columns: "a BIGINT, b INT NOT NULL, c VARCHAR, d TIMESTAMP(3)", before: [row], after: [row] }],
      sink: { name: "sink_t", columns: "a BIGINT, a1 VARCHAR, b INT NOT NULL, b1 VARCHAR, c1 VARCHAR, c2 VARCHAR, d1 TIMESTAMP(3)" },
      setup: (env) => {
        env.createTemporaryFunction("udf1", AsyncJavaFunc0);
        env.createTemporaryFunction("udf2", AsyncJavaFunc1);
        env.createTemporaryFunction("udf3", AsyncJavaFunc2);
        env.createTemporaryFunction("udf4", AsyncUdfWithOpen);
        env.createFunction("udf5", AsyncJavaFunc5);
      },
      sql: "INSERT INTO sink_t SELECT a, cast(a as VARCHAR) as a1, b, udf2(b, b, d) as b1, udf3(c, b) as c1, udf4(substring(c, 1, 5)) as c2, "
        + "udf5(d, 1000) as d1 from source_t where (udf1(a) > 0 or (a * b) < 100) and b > 10",
    });
    const out = "+I[5, 5, 11, 11 and 11 and 1702688461000, hello world11, $hello, 2023-12-16T01:01]";
    expect(r).toEqual({ before: [out], after: [out] });
  });

  it("R-171 async-calc-condition: WHERE udf1(a) > 6", async () => {
    const r = await runRestore({
      sources: [{ name: "source_t", columns: "a INT", before: [[5], [6], [4]], after: [[7], [3]] }],
      sink: { name: "sink_t", columns: "a INT" },
      setup: (env) => env.createTemporaryFunction("udf1", AsyncJavaFunc0),
      sql: "INSERT INTO sink_t SELECT a FROM source_t WHERE udf1(a) > 6",
    });
    expect(r).toEqual({ before: ["+I[6]"], after: ["+I[7]"] });
  });

  it("R-169's projection alone: async functions in the SELECT list, restored", async () => {
    const row = [5, 11, "hello world", new Date(Date.UTC(2023, 11, 16, 1, 1, 1))];
    const r = await runRestore({
      sources: [{ name: "source_t", columns: "a BIGINT, b INT NOT NULL, c VARCHAR, d TIMESTAMP(3)", before: [row], after: [row] }],
      sink: { name: "sink_t", columns: "a BIGINT, a1 VARCHAR, b INT NOT NULL, b1 VARCHAR, c1 VARCHAR, c2 VARCHAR, d1 TIMESTAMP(3)" },
      setup: (env) => {
        env.createTemporaryFunction("udf2", AsyncJavaFunc1);
        env.createTemporaryFunction("udf3", AsyncJavaFunc2);
        env.createTemporaryFunction("udf4", AsyncUdfWithOpen);
        env.createFunction("udf5", AsyncJavaFunc5);
      },
      sql: "INSERT INTO sink_t SELECT a, cast(a as VARCHAR) as a1, b, udf2(b, b, d) as b1, udf3(c, b) as c1, udf4(substring(c, 1, 5)) as c2, "
        + "udf5(d, 1000) as d1 from source_t where b > 10",
      beforeRows: 1,
    });
    const out = "+I[5, 5, 11, 11 and 11 and 1702688461000, hello world11, $hello, 2023-12-16T01:01]";
    expect(r).toEqual({ before: [out], after: [out] });
  });

  it("a row whose async call is in flight at the savepoint is called again after the restore: neither lost nor doubled", async () => {
    const Slow = AsyncScalarFunction.define({
      name: "slow", args: [DataTypes.INT()], result: DataTypes.INT(),
      eval: (a) => new Promise<number | null>((resolve) => { setTimeout(() => resolve(a === null ? null : a * 10), 50); }),
    });
    const r = await runRestore({
      sources: [{ name: "source_t", columns: "a INT", before: [[1], [2]], after: [[3]] }],
      sink: { name: "sink_t", columns: "a INT, b INT" },
      setup: (env) => env.createTemporaryFunction("slow", Slow),
      sql: "INSERT INTO sink_t SELECT a, slow(a) FROM source_t",
    });
    // the savepoint is (normally) taken while the calls for 1 and 2 wait: their rows are in it and come out
    // after the restore; either way every row comes out exactly once
    expect([...r.before, ...r.after].sort()).toEqual(["+I[1, 10]", "+I[2, 20]", "+I[3, 30]"]);
    expect(r.after).toContain("+I[3, 30]");
  });
});
