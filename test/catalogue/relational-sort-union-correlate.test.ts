// §9 sort-limit / limit, §10 union, §12 correlate (SortTestPrograms, LimitTestPrograms, UnionTestPrograms,
// CorrelateTestPrograms): two-phase restore form through SQL, Flink's exact rows (multisets).
import { describe, expect, it } from "vitest";
import { DataTypes, TableFunction } from "../../src/index.js";
import { type CatalogueSource, runRestore, sorted } from "./restore-runner.js";

const DATA = [[2, "a", 6], [4, "b", 8], [6, "c", 10], [1, "a", 5], [3, "b", 7], [5, "c", 9]];
const SORT_SINK = { name: "sink_t", columns: "a INT, b VARCHAR, c BIGINT" };

describe("§9 sort-limit and limit, restored from a savepoint", () => {
  it("R-065 sort-limit-asc: the top 3 by a; displaced rows are deleted, also by rows after the restore", async () => {
    const r = await runRestore({
      sources: [{ name: "source_t", columns: "a INT, b VARCHAR, c INT", before: DATA, after: [[2, "a", 6], [4, "b", 8], [1, "a", 5]] }],
      sink: SORT_SINK, sql: "INSERT INTO sink_t SELECT * from source_t ORDER BY a LIMIT 3",
    });
    expect(sorted(r.before)).toEqual(sorted(["+I[2, a, 6]", "+I[4, b, 8]", "+I[6, c, 10]", "-D[6, c, 10]", "+I[1, a, 5]", "-D[4, b, 8]", "+I[3, b, 7]"]));
    expect(sorted(r.after)).toEqual(sorted(["-D[3, b, 7]", "+I[2, a, 6]", "-D[2, a, 6]", "+I[1, a, 5]"]));
  });

  // As in Flink, a satisfied LIMIT does not end a streaming INSERT job: it runs on (dropping rows), is
  // savepointed, and the restored job drops the rows after the restore too.
  it("R-069 limit: the first 3 arrivals; the rows after the restore are dropped (the job runs on past the limit)", async () => {
    const r = await runRestore({
      sources: [{ name: "source_t", columns: "a INT, b VARCHAR, c INT", before: DATA, after: [[8, "d", 3], [7, "e", 2]] }],
      sink: SORT_SINK, sql: "INSERT INTO sink_t SELECT * from source_t LIMIT 3",
    });
    expect(r).toEqual({ before: ["+I[2, a, 6]", "+I[4, b, 8]", "+I[6, c, 10]"], after: [] });
  });
});

const T1 = "a BIGINT, b INT NOT NULL, c VARCHAR, d TIMESTAMP(3)";
const at = (day: number) => new Date(Date.UTC(2023, 11, day, 1, 1, 1));

describe("§10 union, restored from a savepoint", () => {
  it("R-070 union-two-sources: UNION suppresses duplicates across inputs and across the restore", async () => {
    const r = await runRestore({
      sources: [
        { name: "source_t1", columns: T1, before: [[420, 1, "hello", at(16)]], after: [[420, 1, "hello", at(16)], [600, 6, "hello there", at(19)]] },
        { name: "source_t2", columns: "d BIGINT, e INT NOT NULL", before: [[420, 1], [421, 2]], after: [[500, 3], [420, 1]] },
      ],
      sink: { name: "sink_t1_union_t2", columns: "a BIGINT, b INT" },
      sql: "INSERT INTO sink_t1_union_t2 SELECT * FROM (SELECT a, b FROM source_t1) UNION (SELECT d, e FROM source_t2)",
    });
    expect(sorted(r.before)).toEqual(["+I[420, 1]", "+I[421, 2]"]);
    expect(sorted(r.after)).toEqual(["+I[500, 3]", "+I[600, 6]"]);
  });

  it("R-071 union-all-two-sources: UNION ALL keeps duplicates", async () => {
    const r = await runRestore({
      sources: [
        { name: "source_t1", columns: T1, before: [[420, 1, "hello", at(16)]], after: [[600, 6, "hello there", at(19)]] },
        { name: "source_t2", columns: "d BIGINT, e INT NOT NULL", before: [[420, 1], [421, 2]], after: [[500, 3], [421, 2]] },
      ],
      sink: { name: "sink_t1_union_all_t2", columns: "a BIGINT, b INT" },
      sql: "INSERT INTO sink_t1_union_all_t2 SELECT * FROM (SELECT a, b FROM source_t1) UNION ALL (SELECT d, e FROM source_t2)",
    });
    expect(sorted(r.before)).toEqual(sorted(["+I[420, 1]", "+I[420, 1]", "+I[421, 2]"]));
    expect(sorted(r.after)).toEqual(sorted(["+I[600, 6]", "+I[500, 3]", "+I[421, 2]"]));
  });
});

/** StringSplit(str, separator): every part. */
const StringSplit = TableFunction.define({
  name: "STRING_SPLIT", args: [DataTypes.STRING(), DataTypes.STRING()], result: DataTypes.STRING(),
  eval(out, s, sep) { if (s !== null && sep !== null) for (const p of s.split(sep)) out.collect(p); },
});
/** TableFunc1(str): the '#'-separated parts when str contains '#'. */
const TableFunc1 = TableFunction.define({
  name: "func1", args: [DataTypes.STRING()], result: DataTypes.STRING(),
  eval(out, s) { if (s !== null && s.includes("#")) for (const p of s.split("#")) out.collect(p); },
});
const CORRELATE_SOURCE: CatalogueSource = {
  name: "source_t", columns: "a BIGINT, b INT NOT NULL, c VARCHAR", before: [[1, 1, "hi#there"], [2, 2, "hello#world"]], after: [[4, 4, "foo#bar"], [3, 3, "bar#fiz"]],
};
const CORRELATE_BEFORE = ["+I[hi#there, hi]", "+I[hi#there, there]", "+I[hello#world, hello]", "+I[hello#world, world]"];
const CORRELATE_AFTER = ["+I[foo#bar, foo]", "+I[foo#bar, bar]", "+I[bar#fiz, bar]", "+I[bar#fiz, fiz]"];

describe("§12 correlate, restored from a savepoint", () => {
  it("R-075 correlate-system-func: LATERAL TABLE(STRING_SPLIT(c, '#')) AS T(s)", async () => {
    const r = await runRestore({
      sources: [CORRELATE_SOURCE], sink: { name: "sink_t", columns: "a VARCHAR, b VARCHAR" },
      setup: (env) => env.createTemporaryFunction("STRING_SPLIT", StringSplit),
      sql: "INSERT INTO sink_t SELECT c, s FROM source_t, LATERAL TABLE(STRING_SPLIT(c, '#')) AS T(s)",
    });
    expect(r).toEqual({ before: CORRELATE_BEFORE, after: CORRELATE_AFTER });
  });

  it("R-077 correlate-left-join: LEFT JOIN LATERAL TABLE(func1(c)) AS T(s) ON TRUE", async () => {
    const r = await runRestore({
      sources: [CORRELATE_SOURCE], sink: { name: "sink_t", columns: "a VARCHAR, b VARCHAR" },
      setup: (env) => env.createTemporaryFunction("func1", TableFunc1),
      sql: "INSERT INTO sink_t SELECT c, s FROM source_t LEFT JOIN LATERAL TABLE(func1(c)) AS T(s) ON TRUE",
    });
    expect(r).toEqual({ before: CORRELATE_BEFORE, after: CORRELATE_AFTER });
  });
});
