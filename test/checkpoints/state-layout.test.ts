// Restoring an aggregate, a join or a rank from state whose layout differs (other key types, another
// aggregate list, other row types) is an ExecutionError naming the uid and what differs. Operator uids are
// hashes of the plan, so a changed query normally gets a new uid (and its old state is unclaimed); here a
// savepoint's entry is moved to the uid of another query's operator, as a pinned uid or a plan whose hash
// did not change would leave it.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { activeBackendOptions, backendSuite } from "../support/state-backends.js";
import { CollectionSink, EnvironmentSettings, ExecutionError, Row, TableDescriptor, TableEnvironment } from "../../src/index.js";
import type { IterableAttachment } from "../../src/connectors/async-iterable.js";

const dirs: string[] = [];
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

/** An environment with endless sources `a (k INT, v BIGINT)` and `b (k INT, w STRING)` holding one row each, and a sink. */
function env(sinkColumns: string, savepoint?: string, config: Readonly<Record<string, string>> = {}): TableEnvironment {
  const e = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
  for (const [k, v] of Object.entries(config)) e.getConfig().set(k, v);
  for (const [k, v] of Object.entries(activeBackendOptions())) e.getConfig().set(k, v);
  if (savepoint !== undefined) e.getConfig().set("execution.savepoint.path", savepoint);
  const endless = (row: unknown[]) => (async function* () { yield Row.of(...row); await new Promise(() => { /* stays open */ }); })();
  for (const [name, columns, row] of [["a", "k INT, v BIGINT", [1, 10]], ["b", "k INT, w STRING", [1, "x"]]] as const) {
    e.executeSql(`CREATE TEMPORARY TABLE probe (${columns}) WITH ('connector' = 'blackhole')`);
    const schema = e.tables.get("probe")!.descriptor.schemaSpec!;
    e.dropTemporaryTable("probe");
    const att: IterableAttachment = { attachmentOf: "async-iterable", source: endless([...row]), name, changelog: false };
    e.createTemporaryTable(name, TableDescriptor.forConnector("async-iterable").schema(schema).attach(att).build());
  }
  e.executeSql(`CREATE TEMPORARY TABLE probe (${sinkColumns}) WITH ('connector' = 'blackhole')`);
  const sinkSchema = e.tables.get("probe")!.descriptor.schemaSpec!;
  e.dropTemporaryTable("probe");
  e.createTemporaryTable("out", new CollectionSink().descriptor(sinkSchema));
  return e;
}

/** Runs `sql` until its sources are read, stops it with a savepoint and returns the savepoint's `_metadata` file. */
async function savepointOf(sinkColumns: string, sql: string, config?: Readonly<Record<string, string>>): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "ts-layout-"));
  dirs.push(dir);
  const result = env(sinkColumns, undefined, config).executeSql(sql);
  await new Promise((r) => setTimeout(r, 30));
  const path = await result.getJobClient()!.stopWithSavepoint(dir);
  return join(path, readdirSync(path).find((f) => f === "_metadata")!);
}

type Snapshot = { operators: Record<string, { operator: string }> };
const uidOf = (file: string, operator: string): string => {
  const s = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  return Object.entries(s.operators).find(([, e]) => e.operator === operator)![0];
};

/** The state of `operator` in savepoint `from`, stored under the uid that operator has in savepoint `to`'s job. */
function transplant(from: string, to: string, operator: string): string {
  const s = JSON.parse(readFileSync(from, "utf8")) as Snapshot;
  const fromUid = uidOf(from, operator);
  s.operators[uidOf(to, operator)] = s.operators[fromUid]!;
  delete s.operators[fromUid];
  writeFileSync(from, JSON.stringify(s));
  return join(from, "..");
}

async function restoreError(sinkColumns: string, sql: string, savepoint: string, config?: Readonly<Record<string, string>>): Promise<ExecutionError> {
  try {
    await env(sinkColumns, savepoint, config).executeSql(sql).await();
  } catch (e) {
    return e as ExecutionError;
  }
  throw new Error("the restore succeeded");
}

// the aggregate, the join and the rank keep their state in the job's backend: the checks hold on both
backendSuite("state whose layout changed", () => {
  it("an aggregate with another aggregate list: the error names the uid and both lists", async () => {
    const A = ["k INT, s BIGINT", "INSERT INTO out SELECT k, SUM(v) FROM a GROUP BY k"] as const;
    const B = ["k INT, s BIGINT, m BIGINT", "INSERT INTO out SELECT k, COUNT(*), MAX(v) FROM a GROUP BY k"] as const;
    const a = await savepointOf(...A);
    const b = await savepointOf(...B);
    const uid = uidOf(a, "GroupAggregateOperator");
    const e = await restoreError(...A, transplant(b, a, "GroupAggregateOperator"));
    expect(e).toBeInstanceOf(ExecutionError);
    expect(e.message).toContain(`incompatible state for uid '${uid}' (GroupAggregateOperator)`);
    expect(e.message).toContain("the state layout changed (aggregates: [COUNT(): BIGINT NOT NULL, MAX(BIGINT): BIGINT] in the snapshot, [SUM(BIGINT): BIGINT] now)");
  });

  it("a two-phase (mini-batch) aggregate has the one-phase aggregate's state and its checks", async () => {
    const MB = { "table.exec.mini-batch.enabled": "true", "table.exec.mini-batch.allow-latency": "10 s", "table.exec.mini-batch.size": "5" };
    const A = ["k INT, s BIGINT", "INSERT INTO out SELECT k, SUM(v) FROM a GROUP BY k"] as const;
    const B = ["k INT, s BIGINT, m BIGINT", "INSERT INTO out SELECT k, COUNT(*), MAX(v) FROM a GROUP BY k"] as const;
    const a = await savepointOf(...A, MB);
    const uid = uidOf(a, "GroupAggregateOperator");
    const e = await restoreError(...A, transplant(await savepointOf(...B, MB), a, "GroupAggregateOperator"), MB);
    expect(e.message).toContain(`incompatible state for uid '${uid}' (GroupAggregateOperator)`);
    expect(e.message).toContain("the state layout changed (aggregates: [COUNT(): BIGINT NOT NULL, MAX(BIGINT): BIGINT] in the snapshot, [SUM(BIGINT): BIGINT] now)");
  });

  it("an aggregate keyed by another type", async () => {
    const A = ["k INT, s BIGINT", "INSERT INTO out SELECT k, SUM(v) FROM a GROUP BY k"] as const;
    const B = ["k STRING, s BIGINT", "INSERT INTO out SELECT CAST(k AS STRING), SUM(v) FROM a GROUP BY CAST(k AS STRING)"] as const;
    const a = await savepointOf(...A);
    const e = await restoreError(...A, transplant(await savepointOf(...B), a, "GroupAggregateOperator"));
    expect(e.message).toContain("the state layout changed (keys: [STRING] in the snapshot, [INT] now)");
  });

  it("a join whose right side's rows have other types", async () => {
    const A = ["k INT, v BIGINT, w STRING", "INSERT INTO out SELECT a.k, v, w FROM a JOIN b ON a.k = b.k"] as const;
    const B = ["k INT, v BIGINT, w INT", "INSERT INTO out SELECT a.k, v, w FROM a JOIN (SELECT k, CHAR_LENGTH(w) AS w FROM b) AS b ON a.k = b.k"] as const;
    const a = await savepointOf(...A);
    const uid = uidOf(a, "RegularJoinOperator");
    const e = await restoreError(...A, transplant(await savepointOf(...B), a, "RegularJoinOperator"));
    expect(e.message).toContain(`incompatible state for uid '${uid}' (RegularJoinOperator)`);
    expect(e.message).toContain("the state layout changed (right: [INT, INT] in the snapshot, [INT, STRING] now)");
  });

  it("a rank over rows of other types", async () => {
    const rank = (input: string) => `INSERT INTO out SELECT k, v FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM ${input}) WHERE rn <= 2`;
    const A = ["k INT, v BIGINT", rank("a")] as const;
    const B = ["k INT, v BIGINT", rank("(SELECT k, v, 'extra' AS x FROM a)")] as const;
    const a = await savepointOf(...A);
    const uid = uidOf(a, "RankOperator");
    const e = await restoreError(...A, transplant(await savepointOf(...B), a, "RankOperator"));
    expect(e.message).toContain(`incompatible state for uid '${uid}' (RankOperator)`);
    expect(e.message).toContain("the state layout changed (rows: [INT, BIGINT, CHAR(5) NOT NULL] in the snapshot, [INT, BIGINT] now)");
  });
});
