// The SQL half of the bench: each SQL twin emits exactly the rows of its Table API plan (same kinds, same
// values, same order), and the parser bench's 1,000-line statement set parses into its 997 inserts.
import { describe, expect, it } from "vitest";
import { generateBids } from "../../bench/data.js";
import { runJob } from "../../bench/harness.js";
import { SQL_TWINS, statementSetText } from "../../bench/sql.js";
import { bidsTable, withWatermark } from "../../bench/source.js";
import { WORKLOADS } from "../../bench/workloads/index.js";
import { EnvironmentSettings, type Table, TableEnvironment } from "../../src/index.js";
import { parseStatement } from "../../src/sql/parser.js";
import type { JobSink } from "../../src/table/executor.js";

class AllOutputs implements JobSink {
  readonly out: string[] = [];
  record(kind: number, values: readonly unknown[]): void {
    this.out.push(`${kind}[${values.map((v) => (v instanceof Date ? v.toISOString() : String(v))).join(", ")}]`);
  }
}

describe("bench: SQL twins of W0–W4", () => {
  const data = generateBids(20_000, 3);
  for (const w of WORKLOADS.filter((x) => SQL_TWINS[x.id] !== undefined)) {
    it(`${w.id}: the SQL twin emits the Table API plan's rows`, () => {
      const twin = SQL_TWINS[w.id]!;
      const env = TableEnvironment.create(w.batch ? EnvironmentSettings.inBatchMode() : EnvironmentSettings.inStreamingMode());
      const bids = bidsTable(env, data);
      const api = w.plan(bids, env, data) as Table<object>;
      env.createTemporaryView("Bids", (twin.watermark === undefined ? bids : withWatermark(bids, env, twin.watermark)) as never);
      const sql = env.sqlQuery(twin.sql) as Table<object>;
      const a = new AllOutputs();
      const s = new AllOutputs();
      runJob(api as never, a);
      runJob(sql as never, s);
      expect(s.out.length).toBeGreaterThan(0);
      expect(s.out).toEqual(a.out);
    });
  }

  it("the parser bench's statement set: 1,000 lines, one INSERT per line", () => {
    const text = statementSetText(1000);
    expect(text.split("\n")).toHaveLength(1000);
    const stmt = parseStatement(text);
    expect(stmt.kind).toBe("StatementSet");
    expect(stmt.kind === "StatementSet" && stmt.inserts.length).toBe(997);
  });
});
