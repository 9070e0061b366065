// EXECUTE STATEMENT SET, EXPLAIN of a statement set and INSERT OVERWRITE, through executeSql.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EnvironmentSettings, SqlParseError, TableEnvironment, ValidationError } from "../../src/index.js";
import {
  CHECKOUT_SPLIT, CHECKOUTS_VIEW, FAN_OUT_SAME, FAN_OUT_TWO_UIDS, checkoutSetup, fanOutSetup,
} from "../../examples/sql/statement-sets.js";

const explained = async (env: TableEnvironment, sql: string) => (await env.executeSql(sql).toArray())[0]!.result as string;

describe("EXECUTE STATEMENT SET (seed 000, as written)", () => {
  it("fan-out with uid 'same': one job, one stateful PTF operator, split into bob_sink and alice_sink", async () => {
    const { env, bob, alice } = fanOutSetup();
    const plan = await explained(env, `EXPLAIN ${FAN_OUT_SAME.replace("EXECUTE ", "")}`);
    expect(plan.match(/Process\(/g)).toHaveLength(1);
    expect(plan).toContain("Reused(reference_id=[1])");
    const result = env.executeSql(FAN_OUT_SAME);
    expect(result.getResolvedSchema().names).toEqual(["default_catalog.default_database.bob_sink", "default_catalog.default_database.alice_sink"]);
    expect(await result.toArray()).toEqual([{ "default_catalog.default_database.bob_sink": -1, "default_catalog.default_database.alice_sink": -1 }]);
    await result.await();
    expect(bob.changelog()).toEqual(["+I[Bob, Hello Bob, your 1 time?]", "+I[Bob, Hello Bob, your 2 time?]"]);
    expect(alice.changelog()).toEqual(["+I[Alice, Hello Alice, your 1 time?]"]);
  });

  it("fan-out with uids 'ptf1' and 'ptf2': two stateful operators over the one table t", async () => {
    const { env, bob, alice } = fanOutSetup();
    const plan = await explained(env, `EXPLAIN ${FAN_OUT_TWO_UIDS}`);
    expect(plan.match(/Process\(/g)).toHaveLength(2);
    expect(plan.match(/Values\(/g)).toHaveLength(1);
    await env.executeSql(FAN_OUT_TWO_UIDS).await();
    expect(bob.changelog()).toEqual(["+I[Bob, Hello Bob, your 1 time?]", "+I[Bob, Hello Bob, your 2 time?]"]);
    expect(alice.changelog()).toEqual(["+I[Alice, Hello Alice, your 1 time?]"]);
  });

  it("the same uid for two different calls is the Table API's error", () => {
    const { env } = fanOutSetup();
    env.executeSql("CREATE VIEW t2(name) AS VALUES ('Alice')");
    expect(() => env.executeSql(`EXECUTE STATEMENT SET BEGIN
INSERT INTO bob_sink SELECT * FROM f(r => TABLE t PARTITION BY name, uid => 'same') WHERE name = 'Bob';
INSERT INTO alice_sink SELECT * FROM f(r => TABLE t2 PARTITION BY name, uid => 'same') WHERE name = 'Alice';
END;`)).toThrow(/Duplicate unique identifier/);
  });

  it("shopping cart: the Checkouts view split into EmailNotifications and CheckoutEvents, the PTF once", async () => {
    const { env, emails, checkouts } = checkoutSetup();
    expect(await env.executeSql(CHECKOUTS_VIEW).toArray()).toEqual([{ result: "OK" }]);
    expect((await explained(env, `EXPLAIN ${CHECKOUT_SPLIT}`)).match(/Process\(/g)).toHaveLength(1);
    await env.executeSql(CHECKOUT_SPLIT).await();
    // INTERVAL '1' DAY reminders: only Alice's cart is still open when the watermark passes its reminder
    expect(emails.changelog()).toEqual(["+I[Alice, REMINDER, {1=1}, 2025-03-28T12:00:21Z]"]);
    expect(checkouts.changelog()).toEqual(["+I[Bob, CHECKOUT, {2=1, 5=1}, 2025-03-27T12:01:50Z]"]);
  });

  it("errors: an empty set, a non-INSERT inside, a missing semicolon, an unknown sink with its position", () => {
    const { env } = fanOutSetup();
    expect(() => env.executeSql("EXECUTE STATEMENT SET BEGIN END")).toThrow("line 1, column 29: a STATEMENT SET needs at least one INSERT");
    expect(() => env.executeSql("EXECUTE STATEMENT SET BEGIN SELECT 1 FROM t; END")).toThrow(SqlParseError);
    expect(() => env.executeSql("EXECUTE STATEMENT SET BEGIN SELECT 1 FROM t; END")).toThrow("line 1, column 29: expected INSERT: a statement set holds INSERT statements only, got 'SELECT'");
    expect(() => env.executeSql("EXECUTE STATEMENT SET\nBEGIN\nINSERT INTO bob_sink SELECT name, name FROM t\nEND")).toThrow("line 4, column 1: expected ';', got 'END'");
    expect(() => env.executeSql("EXECUTE STATEMENT SET\nBEGIN\nINSERT INTO bob_snk SELECT name, name AS greeting FROM t;\nEND"))
      .toThrow("SQL validation failed. At line 3, column 13: table 'bob_snk' is not registered; known: [alice_sink, bob_sink, t]; did you mean 'bob_sink'?");
  });
});

describe("INSERT OVERWRITE", () => {
  it("in batch mode replaces a filesystem table's files; INSERT INTO appends", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ts-sql-overwrite-"));
    const env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    env.executeSql(`CREATE TABLE Out (a INT) WITH ('connector' = 'filesystem', 'path' = '${dir}/out', 'format' = 'csv')`);
    const lines = () => readdirSync(join(dir, "out")).flatMap((f) => readFileSync(join(dir, "out", f), "utf8").split("\n").filter(Boolean)).sort();
    await env.executeSql("INSERT INTO Out VALUES (1), (2)").await();
    await env.executeSql("INSERT INTO Out VALUES (3)").await();
    expect(lines()).toEqual(["1", "2", "3"]);
    await env.executeSql("INSERT OVERWRITE Out VALUES (7), (8)").await();
    expect(lines()).toEqual(["7", "8"]);
    expect(await env.executeSql("SELECT * FROM Out").toArray()).toEqual([{ a: 7 }, { a: 8 }]);
  });

  it("a failed INSERT OVERWRITE keeps the old files and leaves no staged file; a later one replaces them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ts-sql-overwrite-fail-"));
    const env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    env.executeSql(`CREATE TABLE Out (a INT) WITH ('connector' = 'filesystem', 'path' = '${dir}/out', 'format' = 'csv')`);
    const lines = () => readdirSync(join(dir, "out")).flatMap((f) => readFileSync(join(dir, "out", f), "utf8").split("\n").filter(Boolean)).sort();
    await env.executeSql("INSERT INTO Out VALUES (1), (2)").await();
    const before = readdirSync(join(dir, "out"));
    // the third row fails the CAST after two rows were written
    const failing = env.executeSql("INSERT OVERWRITE Out SELECT CAST(s AS INT) FROM (VALUES ('7'), ('8'), ('x')) AS t (s)");
    await expect(failing.await()).rejects.toThrow(/x/);
    expect(readdirSync(join(dir, "out"))).toEqual(before);
    expect(lines()).toEqual(["1", "2"]);
    await env.executeSql("INSERT OVERWRITE Out VALUES (9)").await();
    expect(lines()).toEqual(["9"]);
  });

  it("is rejected in streaming mode and for sinks without overwrite support", () => {
    const env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    env.executeSql("CREATE TABLE Out (a INT) WITH ('connector' = 'filesystem', 'path' = '/tmp/never-written', 'format' = 'csv')");
    expect(() => env.executeSql("INSERT OVERWRITE Out VALUES (1)"))
      .toThrow("SQL validation failed. At line 1, column 18: INSERT OVERWRITE is supported in batch mode only (Flink: Streaming mode not support overwrite.)");
    const batch = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    batch.executeSql("CREATE TABLE Hole (a INT) WITH ('connector' = 'blackhole')");
    expect(() => batch.executeSql("INSERT OVERWRITE Hole VALUES (1)")).toThrow(ValidationError);
  });
});
