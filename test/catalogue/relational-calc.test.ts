// §13 calc (CalcTestPrograms; B-01..B-05 are the same programs): two-phase restore form through SQL.
import { describe, expect, it } from "vitest";
import { DataTypes, ScalarFunction } from "../../src/index.js";
import { runRestore } from "./restore-runner.js";

/** JavaUserDefinedScalarFunctions as CALC_UDF_COMPLEX uses them (their behaviour is in the expected row). */
const JavaFunc0 = ScalarFunction.define({ name: "udf1", args: [DataTypes.BIGINT()], result: DataTypes.BIGINT(), eval: (a) => (a === null ? null : a + 1) });
const JavaFunc1 = ScalarFunction.define({
  name: "udf2", args: [DataTypes.INT(), DataTypes.INT().notNull(), DataTypes.TIMESTAMP(3)], result: DataTypes.STRING(),
  eval: (x, y, t) => `${x} and ${y} and ${t === null ? null : t.getTime()}`,
});
const JavaFunc2 = ScalarFunction.define({ name: "udf3", args: [DataTypes.STRING(), DataTypes.INT()], result: DataTypes.STRING(), eval: (s, i) => `${s}${i}` });
const UdfWithOpen = ScalarFunction.define({ name: "udf4", args: [DataTypes.STRING()], result: DataTypes.STRING(), eval: (s) => `$${s}` });
const JavaFunc5 = ScalarFunction.define({
  name: "udf5", args: [DataTypes.TIMESTAMP(3), DataTypes.INT()], result: DataTypes.TIMESTAMP(3),
  eval: (t, ms) => (t === null || ms === null ? null : new Date(t.getTime() - ms)),
});

describe("§13 calc, restored from a savepoint", () => {
  it("R-079 / B-01 calc-simple: SELECT a + 1, b", async () => {
    const r = await runRestore({
      sources: [{ name: "t", columns: "a BIGINT, b DOUBLE", before: [[420, 42.0]], after: [[421, 42.1]] }],
      sink: { name: "sink_t", columns: "a BIGINT, b DOUBLE" },
      sql: "INSERT INTO sink_t SELECT a + 1, b FROM t",
    });
    expect(r).toEqual({ before: ["+I[421, 42.0]"], after: ["+I[422, 42.1]"] });
  });

  it("R-081 calc-filter: SELECT * WHERE b > 0", async () => {
    const r = await runRestore({
      sources: [{ name: "source_t", columns: "a BIGINT, b INT, c DOUBLE, d VARCHAR", before: [[420, 1, 42.0, "hello"]], after: [[420, 1, 42.0, "hello"]] }],
      sink: { name: "sink_t", columns: "a BIGINT, b INT, c DOUBLE, d VARCHAR" },
      sql: "INSERT INTO sink_t SELECT * FROM source_t WHERE b > 0",
    });
    expect(r).toEqual({ before: ["+I[420, 1, 42.0, hello]"], after: ["+I[420, 1, 42.0, hello]"] });
  });

  it("B-03 calc-project-pushdown: CAST(a AS VARCHAR) is the whole number, the filter on a BIGINT cast", async () => {
    const r = await runRestore({
      sources: [{ name: "source_t", columns: "a BIGINT, b DOUBLE", before: [[421, 42.1]], after: [[421, 42.1]] }],
      sink: { name: "sink_t", columns: "a BIGINT, a1 VARCHAR" },
      sql: "INSERT INTO sink_t SELECT a, CAST(a AS VARCHAR) FROM source_t WHERE a > CAST(1 AS BIGINT)",
    });
    expect(r).toEqual({ before: ["+I[421, 421]"], after: ["+I[421, 421]"] });
  });

  it("R-083 / B-05 calc-sarg: a = 1 or a = 2 or a is null", async () => {
    const r = await runRestore({
      sources: [{ name: "source_t", columns: "a INT", before: [[1]], after: [[1]] }],
      sink: { name: "sink_t", columns: "a INT" },
      sql: "INSERT INTO sink_t SELECT a FROM source_t WHERE a = 1 or a = 2 or a is null",
    });
    expect(r).toEqual({ before: ["+I[1]"], after: ["+I[1]"] });
  });

  it("R-085 calc-udf-complex: catalog and temporary system functions in the projection and the filter", async () => {
    const row = [5, 11, "hello world", new Date(Date.UTC(2023, 11, 16, 1, 1, 1))];
    const r = await runRestore({
      sources: [{ name: "source_t", columns: "a BIGINT, b INT NOT NULL, c VARCHAR, d TIMESTAMP(3)", before: [row], after: [row] }],
      sink: { name: "sink_t", columns: "a BIGINT, a1 VARCHAR, b INT NOT NULL, b1 VARCHAR, c1 VARCHAR, c2 VARCHAR, d1 TIMESTAMP(3)" },
      setup: (env) => {
        env.createFunction("udf1", JavaFunc0);
        env.createFunction("udf2", JavaFunc1);
        env.createTemporaryFunction("udf3", JavaFunc2);
        env.createTemporaryFunction("udf4", UdfWithOpen);
        env.createFunction("udf5", JavaFunc5);
      },
      sql: "INSERT INTO sink_t SELECT a, cast(a as VARCHAR) as a1, b, udf2(b, b, d) as b1, udf3(c, b) as c1, udf4(substring(c, 1, 5)) as c2, "
        + "udf5(d, 1000) as d1 from source_t where (udf1(a) > 0 or (a * b) < 100) and b > 10",
    });
    const out = "+I[5, 5, 11, 11 and 11 and 1702688461000, hello world11, $hello, 2023-12-16T01:01]";
    expect(r).toEqual({ before: [out], after: [out] });
  });
});
