// §13 calc (CalcTestPrograms; B-01..B-05 are the same programs): two-phase restore form through SQL.
import { describe, expect, it } from "vitest";
import { runRestore } from "./restore-runner.js";

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
});
