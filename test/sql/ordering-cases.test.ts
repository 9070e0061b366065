// Flink's rank, deduplication, sort / limit and union programs (R-039 .. R-071) in SQL form, with Flink's rows.
// The Table API forms are in test/table/ordering-cases.test.ts; the fixtures are theirs. Restore programs run
// with a real restore (snapshot after the "before" rows).
import { describe, expect, it } from "vitest";
import { $, DataTypes, Row, RowKind, Schema, type Table, TableEnvironment, EnvironmentSettings } from "../../src/index.js";
import { restoreRun, sorted } from "../table/relational-support.js";

const streaming = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());
const batch = () => TableEnvironment.create(EnvironmentSettings.inBatchMode());

const ABC = DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.STRING()), DataTypes.FIELD("c", DataTypes.INT()));
const DATA = [Row.of(2, "a", 6), Row.of(4, "b", 8), Row.of(6, "c", 10), Row.of(1, "a", 5), Row.of(3, "b", 7), Row.of(5, "c", 9)];

const withView = (env: TableEnvironment, name: string, t: Table<object>) => { env.createTemporaryView(name, t as never); return env; };
const q = (env: TableEnvironment, sql: string) => env.sqlQuery(sql) as unknown as Table<object>;

describe("rank (top-N) in SQL", () => {
  it("R-039 rank-test-retract-strategy: row_number() over (partition by b order by c) as c ... where c = 1", () => {
    const env = streaming();
    withView(env, "MyTable", env.fromValues(ABC, ...DATA, Row.of(4, "d", 7), Row.of(3, "e", 8), Row.ofKind(RowKind.DELETE, 0, "none", 0)));
    const t = q(env, "select * from (select a, b, row_number() over(partition by b order by c) as c from MyTable) where c = 1");
    expect(t.explain()).toContain("Rank");
    expect(t.changelogMode()).toBe("[I,D]");
    const r = restoreRun(t, DATA.length);
    expect(r.before).toEqual([
      "+I[2, a, 1]", "+I[4, b, 1]", "+I[6, c, 1]", "-D[2, a, 1]", "+I[1, a, 1]", "-D[4, b, 1]", "+I[3, b, 1]", "-D[6, c, 1]", "+I[5, c, 1]",
    ]);
    expect(r.after).toEqual(["+I[4, d, 1]", "+I[3, e, 1]"]);
  });

  it("rn < N, N >= rn, rn BETWEEN a AND b and an extra condition next to the bound", async () => {
    const env2 = batch();
    withView(env2, "T", env2.fromValues(ABC, ...DATA));
    const ranks = async (where: string) => sorted(await env2.executeSql(`SELECT a, rn FROM (SELECT a, ROW_NUMBER() OVER (ORDER BY a DESC) AS rn FROM T) WHERE ${where}`).toChangelog());
    expect(await ranks("rn < 3")).toEqual(["+I[5, 2]", "+I[6, 1]"]);
    expect(await ranks("2 >= rn")).toEqual(["+I[5, 2]", "+I[6, 1]"]);
    expect(await ranks("rn BETWEEN 2 AND 3")).toEqual(["+I[4, 3]", "+I[5, 2]"]);
    expect(await ranks("rn <= 3 AND a <> 5")).toEqual(["+I[4, 3]", "+I[6, 1]"]);
  });

  it("ROW_NUMBER() outside the pattern is an error saying where it works", () => {
    const env = streaming();
    withView(env, "T", env.fromValues(ABC, ...DATA));
    expect(() => env.sqlQuery("SELECT a, ROW_NUMBER() OVER (ORDER BY a) AS rn FROM T"))
      .toThrow("SQL validation failed. At line 1, column 11: ROW_NUMBER() OVER (...) is supported in the top-N and deduplication patterns only");
  });
});

describe("deduplication in SQL", () => {
  const before = [
    Row.of(1, "terry", "pen", 1000), Row.of(2, "alice", "pen", 2000), Row.of(3, "bob", "pen", 3000), Row.of(4, "bob", "apple", 4000),
    Row.of(5, "fish", "apple", 5000),
  ];
  const after = [Row.of(6, "jerry", "pen", 6000), Row.of(7, "larry", "apple", 7000), Row.of(8, "bill", "banana", 8000), Row.of(9, "carol", "apple", 9000)];
  const base = () => Schema.newBuilder().column("order_id", DataTypes.BIGINT()).column("user", DataTypes.STRING())
    .column("product", DataTypes.STRING()).column("order_time", DataTypes.BIGINT());

  const eventTimeEnv = () => {
    const env = streaming();
    const schema = base().column("event_time", DataTypes.TIMESTAMP(3)).watermark("event_time", "`event_time` - INTERVAL '5' SECOND").build();
    const withTime = (r: ReturnType<typeof Row.of>) => Row.of(...r.values, new Date((r.values[3] as number) * 1000));
    return withView(env, "MyTable", env.fromValues(schema, ...[...before, ...after].map(withTime)));
  };

  it("R-042 deduplicate-asc: ORDER BY event_time ASC keeps the first row per product", () => {
    const t = q(eventTimeEnv(), `select order_id, user, product, order_time 
  FROM (  SELECT *,    ROW_NUMBER() OVER (PARTITION BY product ORDER BY event_time ASC) AS row_num
    FROM MyTable)WHERE row_num = 1`);
    expect(t.changelogMode()).toBe("[I,UB,UA]");
    const r = restoreRun(t, before.length);
    expect(r.before).toEqual(["+I[1, terry, pen, 1000]", "+I[4, bob, apple, 4000]"]);
    expect(r.after).toEqual(["+I[8, bill, banana, 8000]"]);
  });

  it("ORDER BY event_time DESC keeps the last row per product; the same changelog as Table.deduplicate", async () => {
    const env = eventTimeEnv();
    const sql = await env.executeSql("SELECT order_id, product FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY product ORDER BY event_time DESC) AS rn FROM MyTable) WHERE rn = 1").toChangelog();
    const api = await env.from("MyTable").deduplicate({ keys: [$("product")], keep: "last", orderBy: $("event_time") })
      .select($("order_id"), $("product")).execute().toChangelog();
    expect(sql).toEqual(api);
    expect(sql.filter((l) => !l.startsWith("-"))).toContain("+U[9, apple]");
  });
});

describe("sort / limit in SQL", () => {
  const env = (rows: readonly ReturnType<typeof Row.of>[] = DATA, e = streaming()) => withView(e, "source_t", e.fromValues(ABC, ...(rows as typeof DATA)));

  it("R-065 sort-limit-asc: ORDER BY a LIMIT 3", () => {
    const t = q(env([...DATA, Row.of(2, "a", 6), Row.of(4, "b", 8), Row.of(1, "a", 5)]), "SELECT * from source_t ORDER BY a LIMIT 3");
    expect(t.changelogMode()).toBe("[I,D]");
    const r = restoreRun(t, DATA.length);
    expect(r.before).toEqual(["+I[2, a, 6]", "+I[4, b, 8]", "+I[6, c, 10]", "-D[6, c, 10]", "+I[1, a, 5]", "-D[4, b, 8]", "+I[3, b, 7]"]);
    expect(r.after).toEqual(["-D[3, b, 7]", "+I[2, a, 6]", "-D[2, a, 6]", "+I[1, a, 5]"]);
  });

  const SORTED = ["+I[1, a, 5]", "+I[2, a, 6]", "+I[3, b, 7]", "+I[4, b, 8]", "+I[5, c, 9]", "+I[6, c, 10]"];

  it("R-067 sort-asc: ORDER BY a (streaming with table.exec.non-temporal-sort.enabled, and batch)", async () => {
    const s = env();
    s.getConfig().set("table.exec.non-temporal-sort.enabled", "true");
    expect(await s.executeSql("SELECT * from source_t ORDER BY a").toChangelog()).toEqual(SORTED);
    expect(await env(DATA, batch()).executeSql("SELECT * from source_t ORDER BY a").toChangelog()).toEqual(SORTED);
  });

  it("R-069 limit: LIMIT 3 keeps the first three arrivals", () => {
    const t = q(env([...DATA, Row.of(8, "d", 3), Row.of(7, "e", 2)]), "SELECT * from source_t LIMIT 3");
    expect(t.changelogMode()).toBe("[I]");
    const r = restoreRun(t, DATA.length);
    expect(r.before).toEqual(["+I[2, a, 6]", "+I[4, b, 8]", "+I[6, c, 10]"]);
    expect(r.after).toEqual([]);
  });

  it("ORDER BY ... DESC, OFFSET ... ROWS FETCH NEXT ... ROWS ONLY (batch)", async () => {
    expect(await env(DATA, batch()).executeSql("SELECT a, b FROM source_t ORDER BY b DESC, a OFFSET 1 ROWS FETCH NEXT 3 ROWS ONLY").toChangelog())
      .toEqual(["+I[6, c]", "+I[3, b]", "+I[4, b]"]);
    expect(await env(DATA, batch()).executeSql("SELECT a FROM source_t ORDER BY a DESC LIMIT 2").toChangelog()).toEqual(["+I[6]", "+I[5]"]);
  });
});

describe("set operations in SQL", () => {
  const t1Type = DataTypes.ROW(DataTypes.FIELD("a", DataTypes.BIGINT()), DataTypes.FIELD("b", DataTypes.INT().notNull()),
    DataTypes.FIELD("c", DataTypes.STRING()), DataTypes.FIELD("d", DataTypes.TIMESTAMP(3)));
  const t2Type = DataTypes.ROW(DataTypes.FIELD("d", DataTypes.BIGINT()), DataTypes.FIELD("e", DataTypes.INT().notNull()));
  const ts = (s: string) => new Date(s);
  const env = (t1: ReturnType<typeof Row.of>[], t2: ReturnType<typeof Row.of>[]) => {
    const e = streaming();
    withView(e, "source_t1", e.fromValues(t1Type, ...t1));
    return withView(e, "source_t2", e.fromValues(t2Type, ...t2));
  };

  it("R-071 union-all-two-sources", async () => {
    const e = env([Row.of(420, 1, "hello", ts("2023-12-16T01:01:01Z")), Row.of(600, 6, "hello there", ts("2023-12-19T01:01:01Z"))],
      [Row.of(420, 1), Row.of(421, 2), Row.of(500, 3), Row.of(421, 2)]);
    expect(sorted(await e.executeSql("SELECT * FROM (SELECT a, b FROM source_t1) UNION ALL (SELECT d, e FROM source_t2)").toChangelog()))
      .toEqual(sorted(["+I[420, 1]", "+I[420, 1]", "+I[421, 2]", "+I[600, 6]", "+I[500, 3]", "+I[421, 2]"]));
  });

  it("R-070 union-two-sources", async () => {
    const e = env([Row.of(420, 1, "hello", ts("2023-12-16T01:01:01Z")), Row.of(420, 1, "hello", ts("2023-12-16T01:01:01Z")),
      Row.of(600, 6, "hello there", ts("2023-12-19T01:01:01Z"))], [Row.of(420, 1), Row.of(421, 2), Row.of(500, 3), Row.of(420, 1)]);
    expect(sorted(await e.executeSql("SELECT * FROM (SELECT a, b FROM source_t1) UNION (SELECT d, e FROM source_t2)").toChangelog()))
      .toEqual(sorted(["+I[420, 1]", "+I[421, 2]", "+I[600, 6]", "+I[500, 3]"]));
  });

  it("INTERSECT [ALL] and EXCEPT [ALL] (batch); INTERSECT binds tighter than UNION", async () => {
    const e = batch();
    e.executeSql("CREATE VIEW X (k) AS VALUES 1, 1, 1, 2, 3");
    e.executeSql("CREATE VIEW Y (k) AS VALUES 1, 1, 3, 4");
    const rows = async (sql: string) => sorted(await e.executeSql(sql).toChangelog());
    expect(await rows("SELECT k FROM X INTERSECT SELECT k FROM Y")).toEqual(["+I[1]", "+I[3]"]);
    expect(await rows("SELECT k FROM X INTERSECT ALL SELECT k FROM Y")).toEqual(["+I[1]", "+I[1]", "+I[3]"]);
    expect(await rows("SELECT k FROM X EXCEPT SELECT k FROM Y")).toEqual(["+I[2]"]);
    expect(await rows("SELECT k FROM X EXCEPT ALL SELECT k FROM Y")).toEqual(["+I[1]", "+I[2]"]);
    expect(await rows("SELECT k FROM Y UNION ALL SELECT k FROM X INTERSECT SELECT k FROM Y")).toEqual(["+I[1]", "+I[1]", "+I[1]", "+I[3]", "+I[3]", "+I[4]"]);
  });
});
