// The jdbc connector against real databases: SQLite files, PGlite (in-process PostgreSQL reached through
// pg over TCP) and, when .ci/run started one, a PostgreSQL server — the same tests for each.
import { Decimal } from "decimal.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tableContext } from "../../src/connectors/api/adapter.js";
import { jdbcConnector } from "../../src/connectors/jdbc/index.js";
import { ResolvedSchema } from "../../src/types/resolved-schema.js";
import { $, call, DataTypes, EnvironmentSettings, ExecutionError, Row, RowKind, Schema, TableDescriptor, TableEnvironment, ValidationError } from "../../src/index.js";
import { DB_VARIANTS, type DbFixture, startDb, uniqueTable } from "./databases/fixtures.js";

const env = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());

describe.each(DB_VARIANTS)("jdbc connector on %s", (variant) => {
  let db: DbFixture;
  beforeAll(async () => { db = await startDb(variant); }, 180_000); // PGlite initializes its cluster in WASM: slow on a busy machine
  afterAll(async () => { await db?.stop(); });

  const jdbc = <S extends object>(table: string, schema: Schema<S>, options: Record<string, string> = {}) => {
    let d = TableDescriptor.forConnector("jdbc").schema(schema).option("url", db.url).option("table-name", table);
    for (const [k, v] of Object.entries(options)) d = d.option(k, v);
    return d.build();
  };
  const pg = () => db.dialect === "postgres";

  it("scans every mapped type, values exact", async () => {
    const t = uniqueTable("types");
    if (pg()) {
      await db.exec(`CREATE TABLE ${t} (b boolean, s smallint, i integer, l bigint, f real, d double precision, n numeric(20, 2), c char(3), v varchar(10), tx text, dt date, tm time(3), ts timestamp(3), tz timestamptz(3))`);
      await db.exec(`INSERT INTO ${t} VALUES (true, -3, 42, 9007199254740991, 1.5, -2.25, 123456789012345678.91, 'ab', 'hé', 'x"y', '2025-02-28', '10:30:00.250', '2025-01-01 10:00:00.123', '2025-01-01 10:00:00.5+02'), (null, null, null, null, null, null, null, null, null, null, null, null, null, null)`);
    } else {
      await db.exec(`CREATE TABLE ${t} (b INTEGER, s INTEGER, i INTEGER, l INTEGER, f REAL, d REAL, n TEXT, c TEXT, v TEXT, tx TEXT, dt TEXT, tm TEXT, ts TEXT, tz TEXT)`);
      await db.exec(`INSERT INTO ${t} VALUES (1, -3, 42, 9007199254740991, 1.5, -2.25, '123456789012345678.91', 'ab ', 'hé', 'x"y', '2025-02-28', '10:30:00.250', '2025-01-01 10:00:00.123', '2025-01-01 08:00:00.500Z'), (null, null, null, null, null, null, null, null, null, null, null, null, null, null)`);
    }
    const schema = Schema.newBuilder()
      .column("b", DataTypes.BOOLEAN()).column("s", DataTypes.SMALLINT()).column("i", DataTypes.INT()).column("l", DataTypes.BIGINT())
      .column("f", DataTypes.FLOAT()).column("d", DataTypes.DOUBLE()).column("n", DataTypes.DECIMAL(20, 2)).column("c", DataTypes.CHAR(3))
      .column("v", DataTypes.VARCHAR(10)).column("tx", DataTypes.STRING()).column("dt", DataTypes.DATE()).column("tm", DataTypes.TIME(3))
      .column("ts", DataTypes.TIMESTAMP(3)).column("tz", DataTypes.TIMESTAMP_LTZ(3)).build();
    const rows = await env().from(jdbc(t, schema)).execute().toArray();
    expect(rows).toHaveLength(2);
    const r = rows[0] as Record<string, unknown>;
    expect(r).toEqual({
      b: true, s: -3, i: 42, l: 9007199254740991, f: 1.5, d: -2.25, n: new Decimal("123456789012345678.91"), c: "ab ", v: "hé", tx: 'x"y',
      dt: "2025-02-28", tm: "10:30:00.250", ts: new Date(Date.UTC(2025, 0, 1, 10, 0, 0, 123)), tz: new Date(Date.UTC(2025, 0, 1, 8, 0, 0, 500)),
    });
    expect(Object.values(rows[1] as object).every((v) => v === null)).toBe(true);
  });

  it("a partitioned scan reads every row once: the first partition takes NULL and values below the bounds, the last those above", async () => {
    const t = uniqueTable("parts");
    await db.exec(`CREATE TABLE ${t} (id INTEGER, name TEXT)`);
    const ids = [-5, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 250];
    await db.exec(`INSERT INTO ${t} VALUES ${ids.map((i) => `(${i}, 'n${i}')`).join(", ")}, (NULL, 'none')`);
    const schema = Schema.newBuilder().column("id", DataTypes.INT()).column("name", DataTypes.STRING()).build();
    const rows = await env().from(jdbc(t, schema, {
      "scan.partition.column": "id", "scan.partition.num": "3", "scan.partition.lower-bound": "1", "scan.partition.upper-bound": "10",
    })).execute().toArray();
    expect(rows.map((r) => (r as { id: number | null }).id).sort((a, b) => (a ?? -1e9) - (b ?? -1e9))).toEqual([null, ...ids]);
    // partitions are read in order: [..4] ∪ NULL, [5..7], [8..]
    const order = rows.map((r) => (r as { id: number | null }).id);
    const part = (id: number | null) => (id === null || id <= 4 ? 0 : id <= 7 ? 1 : 2);
    expect(order.map(part)).toEqual([...order.map(part)].sort());
  });

  it("validates the options, naming them", () => {
    const schema = Schema.newBuilder().column("id", DataTypes.INT()).column("name", DataTypes.STRING()).build();
    const e = env();
    expect(() => e.from(jdbc("t", schema, { "scan.partition.column": "id" }))).toThrow(/'scan.partition.num', 'scan.partition.lower-bound', 'scan.partition.upper-bound'/);
    expect(() => e.from(jdbc("t", schema, { "scan.partition.column": "name", "scan.partition.num": "2", "scan.partition.lower-bound": "0", "scan.partition.upper-bound": "9" })))
      .toThrow(/'scan.partition.column' = 'name' must be a numeric column/);
    expect(() => e.from(jdbc("t", schema, { "scan.fetch-size": "-1" }))).toThrow(ValidationError);
    expect(() => e.from(jdbc("t", schema, { "sink.buffer-flush.interval": "soon" }))).toThrow(/sink.buffer-flush.interval/);
    expect(() => e.from(jdbc("t", schema, { "scan.partition.colum": "id" }))).toThrow(/Unsupported options found for 'jdbc'[\s\S]*scan.partition.colum[\s\S]*Supported options:[\s\S]*scan.partition.column/);
    expect(() => e.from(TableDescriptor.forConnector("jdbc").schema(schema).option("url", "mysql://x").option("table-name", "t").build())).toThrow(/unsupported url 'mysql:\/\/x'/);
    expect(() => e.from(TableDescriptor.forConnector("jdbc").schema(schema).option("url", db.url).build())).toThrow(/needs the option 'table-name'/);
    const interval = Schema.newBuilder().column("iv", DataTypes.INTERVAL("SECOND")).build();
    expect(() => e.from(jdbc("t", interval))).toThrow(/column 'iv' has type INTERVAL.*, which the jdbc connector does not map/);
  });

  it("nested types: PostgreSQL maps one-dimensional arrays and refuses MAP and ROW with Flink's message; SQLite stores them as JSON", () => {
    const e = env();
    const nested = (t: ReturnType<typeof DataTypes.INT>) => Schema.newBuilder().column("x", t).build();
    const map = DataTypes.MAP(DataTypes.STRING(), DataTypes.INT());
    const row = DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT()));
    const deep = DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.INT()));
    const intKeys = DataTypes.MAP(DataTypes.INT(), DataTypes.INT());
    expect(() => e.from(jdbc("t", nested(DataTypes.ARRAY(DataTypes.STRING()) as never)))).not.toThrow();
    if (pg()) {
      expect(() => e.from(jdbc("t", nested(map as never)))).toThrow(/column 'x': The PostgreSQL dialect doesn't support type: MAP<STRING, INT>\./);
      expect(() => e.from(jdbc("t", nested(row as never)))).toThrow(/The PostgreSQL dialect doesn't support type: ROW<`a` INT>\./);
      expect(() => e.from(jdbc("t", nested(deep as never)))).toThrow(/The PostgreSQL dialect doesn't support type: ARRAY<ARRAY<INT>>\./);
    } else {
      for (const t of [map, row, deep]) expect(() => e.from(jdbc("t", nested(t as never)))).not.toThrow();
      expect(() => e.from(jdbc("t", nested(intKeys as never)))).toThrow(/column 'x' has type MAP<INT, INT>, which the jdbc connector does not map; .*MAP \(string keys\)/);
    }
  });

  it("nested types round trip through the sink and the scan, NULLs inside arrays included", async () => {
    const t = uniqueTable("nested");
    const base = Schema.newBuilder().column("id", DataTypes.INT()).column("xs", DataTypes.ARRAY(DataTypes.INT()))
      .column("ss", DataTypes.ARRAY(DataTypes.STRING())).column("ns", DataTypes.ARRAY(DataTypes.DECIMAL(20, 2)))
      .column("ts", DataTypes.ARRAY(DataTypes.TIMESTAMP(3)));
    const schema = pg() ? base.build()
      : base.column("m", DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT()))
        .column("r", DataTypes.ROW(DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.ARRAY(DataTypes.STRING())))).build();
    if (pg()) await db.exec(`CREATE TABLE ${t} (id integer, xs integer[], ss text[], ns numeric(20, 2)[], ts timestamp(3)[])`);
    else await db.exec(`CREATE TABLE ${t} (id INTEGER, xs TEXT, ss TEXT, ns TEXT, ts TEXT, m TEXT, r TEXT)`);
    const tricky = ["a,b", 'q"uote', "back\\slash", "NULL", "", " pad ", "{brace}", "héllo"];
    const at = new Date(Date.UTC(2025, 0, 1, 10, 0, 0, 123));
    const rows = [
      [1, [1, null, 3], tricky, [new Decimal("12345678901234567.89"), null], [at, null]],
      [2, [], [null], [], []],
      [3, null, null, null, null],
      [4, [null, null], [null, "x"], [new Decimal("-0.01")], [null]],
    ].map((r, i) => (pg() ? r : [...r, [new Map([["a", 9007199254740991], ["__proto__", null]]), new Map(), null, new Map([["k", 1]])][i],
      [{ a: 1, b: ["x", null] }, { a: null, b: null }, null, { a: 4, b: [] }][i]]));
    const e = env();
    await e.fromAsyncIterable(schema, rows.map((r) => Row.of(...r))).executeInsert(jdbc(t, schema)).await();
    const back = await e.from(jdbc(t, schema)).execute().toArray();
    const names = schema.columns.map((c) => c.name);
    expect(back.map((r) => names.map((n) => (r as Record<string, unknown>)[n])).sort((a, b) => (a[0] as number) - (b[0] as number))).toEqual(rows);
    if (pg()) {
      // stored as real PostgreSQL arrays: the database sees the elements and their NULLs
      expect(await db.rows(`SELECT array_length(xs, 1), xs[2] IS NULL, ss[4], ss[2], ss[4] IS NULL FROM ${t} WHERE id = 1`)).toEqual([[3, true, "NULL", 'q"uote', false]]);
      expect(await db.rows(`SELECT xs[1] IS NULL, ss[1] IS NULL, array_length(xs, 1) FROM ${t} WHERE id = 4`)).toEqual([[true, true, 2]]);
    } else {
      expect(await db.rows(`SELECT xs, m, r FROM ${t} WHERE id = 1`)).toEqual([["[1,null,3]", '{"a":9007199254740991,"__proto__":null}', '{"a":1,"b":["x",null]}']]);
    }
  });

  it("PostgreSQL arrays written by SQL are read with their NULL elements, quoting and explicit bounds", async () => {
    if (!pg()) return;
    const t = uniqueTable("pgarrays");
    await db.exec(`CREATE TABLE ${t} (id integer, xs integer[], ss text[], bs boolean[], ds date[])`);
    await db.exec(`INSERT INTO ${t} VALUES (1, '{1,NULL,-3}', ARRAY['a b', NULL, 'NULL', 'x"y', 'c\\d'], '{t,f,NULL}', '{2025-02-28,NULL}'), `
      + `(2, '[0:1]={7,8}', '{}', NULL, '{}')`);
    const schema = Schema.newBuilder().column("id", DataTypes.INT()).column("xs", DataTypes.ARRAY(DataTypes.INT())).column("ss", DataTypes.ARRAY(DataTypes.STRING()))
      .column("bs", DataTypes.ARRAY(DataTypes.BOOLEAN())).column("ds", DataTypes.ARRAY(DataTypes.DATE())).build();
    const back = await env().from(jdbc(t, schema)).execute().toArray();
    expect(back.sort((a, b) => (a as { id: number }).id - (b as { id: number }).id)).toEqual([
      { id: 1, xs: [1, null, -3], ss: ["a b", null, "NULL", 'x"y', "c\\d"], bs: [true, false, null], ds: ["2025-02-28", null] },
      { id: 2, xs: [7, 8], ss: [], bs: null, ds: [] },
    ]);
    await db.exec(`INSERT INTO ${t} (id, xs) VALUES (3, '{{1,2},{3,4}}')`);
    const err = await env().from(jdbc(t, schema)).execute().toArray().then(() => undefined, (x: unknown) => x);
    expect((err as Error).message).toMatch(/column 'xs'.*multi-dimensional array/);
  });

  it("appends rows into a table without a primary key", async () => {
    const t = uniqueTable("append");
    await db.exec(`CREATE TABLE ${t} (id INTEGER, name TEXT, amount ${pg() ? "numeric(10, 2)" : "TEXT"}, at ${pg() ? "timestamptz(3)" : "TEXT"})`);
    const schema = Schema.newBuilder().column("id", DataTypes.INT()).column("name", DataTypes.STRING()).column("amount", DataTypes.DECIMAL(10, 2)).column("at", DataTypes.TIMESTAMP_LTZ(3)).build();
    const e = env();
    const input = e.fromValues(
      DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT()), DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("amount", DataTypes.DECIMAL(10, 2)), DataTypes.FIELD("at", DataTypes.TIMESTAMP_LTZ(3))),
      Row.of(1, "it's", "1.50", new Date(Date.UTC(2025, 5, 1, 12, 0, 0, 7))), Row.of(2, null, null, null), Row.of(3, "c", "-0.01", new Date(0)),
    );
    await input.executeInsert(jdbc(t, schema, { "sink.buffer-flush.max-rows": "2" })).await();
    const back = await e.from(jdbc(t, schema)).execute().toArray();
    expect(back.sort((a, b) => (a as { id: number }).id - (b as { id: number }).id)).toEqual([
      { id: 1, name: "it's", amount: new Decimal("1.50"), at: new Date(Date.UTC(2025, 5, 1, 12, 0, 0, 7)) },
      { id: 2, name: null, amount: null, at: null },
      { id: 3, name: "c", amount: new Decimal("-0.01"), at: new Date(0) },
    ]);
  });

  it("upserts and deletes by the primary key: the table holds the changelog's final state", async () => {
    const t = uniqueTable("upsert");
    await db.exec(`CREATE TABLE ${t} (product TEXT PRIMARY KEY, n BIGINT)`);
    const schema = Schema.newBuilder().column("product", DataTypes.STRING().notNull()).column("n", DataTypes.BIGINT()).primaryKey("product").build();
    const e = env();
    const changes = e.fromChangelogAsyncIterable(
      Schema.newBuilder().column("product", DataTypes.STRING().notNull()).column("n", DataTypes.BIGINT()).build(),
      [
        Row.ofKind(RowKind.INSERT, "a", 1), Row.ofKind(RowKind.INSERT, "b", 1), Row.ofKind(RowKind.UPDATE_BEFORE, "a", 1),
        Row.ofKind(RowKind.UPDATE_AFTER, "a", 2), Row.ofKind(RowKind.INSERT, "c", 7), Row.ofKind(RowKind.DELETE, "b", 1),
        Row.ofKind(RowKind.INSERT, "d", 4),
      ],
    );
    await db.exec(`INSERT INTO ${t} VALUES ('c', 100), ('z', 26)`);
    await changes.executeInsert(jdbc(t, schema, { "sink.buffer-flush.max-rows": "3" })).await();
    expect(await db.rows(`SELECT product, n FROM ${t} ORDER BY product`)).toEqual([["a", 2], ["c", 7], ["d", 4], ["z", 26]].map(([p, n]) => [p, pg() ? String(n) : n]));
  });

  it("an aggregate into a keyed table: upserts of the running counts", async () => {
    const t = uniqueTable("counts");
    await db.exec(`CREATE TABLE ${t} (word TEXT NOT NULL PRIMARY KEY, n BIGINT NOT NULL)`);
    const e = env();
    const words = e.fromValues(DataTypes.ROW(DataTypes.FIELD("word", DataTypes.STRING().notNull())), ..."a b a c b a".split(" ").map((w) => Row.of(w)));
    const counts = words.groupBy($("word")).select($("word"), $("word").count().as("n"));
    const schema = Schema.newBuilder().column("word", DataTypes.STRING().notNull()).column("n", DataTypes.BIGINT().notNull()).primaryKey("word").build();
    await counts.executeInsert(jdbc(t, schema)).await();
    expect(await db.rows(`SELECT word, n FROM ${t} ORDER BY word`)).toEqual([["a", 3], ["b", 2], ["c", 1]].map(([w, n]) => [w, pg() ? String(n) : n]));
  });

  it("a row the database refuses fails the job with an error naming the connector, the table and the row", async () => {
    const t = uniqueTable("refuse");
    await db.exec(`CREATE TABLE ${t} (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`);
    const schema = Schema.newBuilder().column("id", DataTypes.INT().notNull()).column("name", DataTypes.STRING()).primaryKey("id").build();
    const e = env();
    const input = e.fromValues(DataTypes.ROW(DataTypes.FIELD("id", DataTypes.INT().notNull()), DataTypes.FIELD("name", DataTypes.STRING())), Row.of(1, "a"), Row.of(2, null), Row.of(3, "c"));
    e.createTemporaryTable("Refusing", jdbc(t, schema, { "sink.max-retries": "1" }));
    const err = await input.executeInsert("Refusing").await().then(() => undefined, (x: unknown) => x);
    expect(err).toBeInstanceOf(ExecutionError);
    expect((err as Error).message).toMatch(new RegExp(`^connector 'jdbc' table 'Refusing': flush failed: upsert into ${pg() ? "PostgreSQL" : "SQLite"} table '${t}' failed for row \\+I\\[2, null\\] \\(after 1 retry\\): .*(not-null|NOT NULL)`));
    // the flush is one transaction: nothing of it was written
    expect(await db.rows(`SELECT count(*) FROM ${t}`)).toEqual([[pg() ? "0" : 0]]);
  });

  it("a lookup source answers by key, as the database holds the rows at the moment of the call", async () => {
    const t = uniqueTable("dim");
    await db.exec(`CREATE TABLE ${t} (id INTEGER, region TEXT, name TEXT)`);
    await db.exec(`INSERT INTO ${t} VALUES (1, 'eu', 'Ann'), (2, 'us', 'Bob'), (2, 'us', 'Bea'), (3, NULL, 'Cy')`);
    const physical = new ResolvedSchema([{ name: "id", type: DataTypes.INT() }, { name: "region", type: DataTypes.STRING() }, { name: "name", type: DataTypes.STRING() }]);
    const table = tableContext(jdbcConnector, { tableName: "Dim", connector: "jdbc", options: new Map([["url", db.url], ["table-name", t]]), physical }, "lookup");
    const reader = await jdbcConnector.lookup!.createReader({ ...table, keys: ["id", "region"], signal: new AbortController().signal } as never);
    const sorted = async (key: unknown[]) => [...await reader.lookup(key)].map((r) => [...r]).sort();
    expect(await sorted([2, "us"])).toEqual([[2, "us", "Bea"], [2, "us", "Bob"]]);
    expect(await sorted([1, "us"])).toEqual([]);
    await db.exec(`UPDATE ${t} SET name = 'Anna' WHERE id = 1`);
    expect(await sorted([1, "eu"])).toEqual([[1, "eu", "Anna"]]);
    // SQLite answers without a Promise (better-sqlite3 is synchronous), PostgreSQL with one
    const answer = reader.lookup([1, "eu"]);
    expect(answer instanceof Promise).toBe(pg());
    await answer;
    await reader.close?.();
  });

  it("pushed lookup filters are part of the lookup query: rows failing them never leave the database", async () => {
    const t = uniqueTable("dimf");
    await db.exec(`CREATE TABLE ${t} (id INTEGER, name TEXT, age INTEGER)`);
    await db.exec(`INSERT INTO ${t} VALUES (1, 'Bob', 28), (2, 'Alice', 32), (2, 'Al', NULL), (3, 'Claire', 37)`);
    const physical = new ResolvedSchema([{ name: "id", type: DataTypes.INT() }, { name: "name", type: DataTypes.STRING() }, { name: "age", type: DataTypes.INT() }]);
    const table = tableContext(jdbcConnector, { tableName: "Dim", connector: "jdbc", options: new Map([["url", db.url], ["table-name", t]]), physical }, "lookup");
    expect(jdbcConnector.lookup!.acceptFilter!({ column: "age", op: ">", value: 30 }, table as never)).toBe(true);
    expect(jdbcConnector.lookup!.acceptFilter!({ column: "name", op: "<", value: "m" }, table as never)).toBe(false); // collations differ
    const filters = [{ column: "age", op: ">", value: 30 }, { column: "name", op: "IN", value: ["Alice", "Bob", "Claire"] }];
    const reader = await jdbcConnector.lookup!.createReader({ ...table, keys: ["id"], filters, signal: new AbortController().signal } as never) as { sql: string; lookup(k: unknown[]): unknown; close(): unknown };
    const p = (i: number) => (pg() ? `$${i}` : "?");
    expect(reader.sql).toBe(`SELECT "id", "name", "age" FROM "${t}" WHERE "id" = ${p(1)} AND "age" > ${p(2)} AND "name" IN (${p(3)}, ${p(4)}, ${p(5)})`);
    expect(await reader.lookup([1])).toEqual([]);
    expect(await reader.lookup([2])).toEqual([[2, "Alice", 32]]);
    expect(await reader.lookup([3])).toEqual([[3, "Claire", 37]]);
    await reader.close();
  });

  it("a lookup join pushes C.age > 30 into the jdbc lookup; the rows equal those of the same join filtering itself", async () => {
    const t = uniqueTable("customers_p");
    await db.exec(`CREATE TABLE ${t} (id INTEGER PRIMARY KEY, name TEXT, age INTEGER)`);
    await db.exec(`INSERT INTO ${t} VALUES (1, 'Bob', 28), (2, 'Alice', 32), (3, 'Claire', 37), (4, 'Shannon', NULL)`);
    const e = env();
    e.executeSql(`CREATE TABLE customers_p (id INT, name STRING, age INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'jdbc', 'url' = '${db.url}', 'table-name' = '${t}')`);
    const orders = Schema.newBuilder().column("order_id", DataTypes.INT()).column("customer_id", DataTypes.INT()).columnByExpression("proc_time", "PROCTIME()").build();
    e.createTemporaryView("orders_p", e.fromValues(orders, Row.of(1, 3), Row.of(2, 1), Row.of(3, 2), Row.of(4, 4), Row.of(5, 9)) as never);
    const join = (cond: string, type = "") => `SELECT O.order_id, C.name, C.age FROM orders_p AS O ${type} JOIN customers_p FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id AND ${cond}`;
    expect(e.sqlQuery(join("C.age > 30")).explain()).toMatch(/LookupJoin\(table=\[customers_p\], joinType=\[InnerJoin\], lookup=\[customer_id\], filter=\[age > 30\], changelogMode/);
    expect(e.sqlQuery(join("C.age + 0 > 30")).explain()).toMatch(/lookup=\[customer_id\], where=\[/);
    const expected = ["+I[1, Claire, 37]", "+I[3, Alice, 32]"];
    expect(await e.executeSql(join("C.age > 30")).toChangelog()).toEqual(expected);
    expect(await e.executeSql(join("C.age + 0 > 30")).toChangelog()).toEqual(expected);
    const left = ["+I[1, Claire, 37]", "+I[2, null, null]", "+I[3, Alice, 32]", "+I[4, null, null]", "+I[5, null, null]"];
    expect(await e.executeSql(join("C.age > 30", "LEFT")).toChangelog()).toEqual(left);
    expect(await e.executeSql(join("C.age + 0 > 30", "LEFT")).toChangelog()).toEqual(left);
  });

  it("a lookup join enriches a stream from the database table (cached per lookup.cache)", async () => {
    const t = uniqueTable("customers");
    await db.exec(`CREATE TABLE ${t} (id INTEGER PRIMARY KEY, name TEXT, age INTEGER)`);
    await db.exec(`INSERT INTO ${t} VALUES (1, 'Ann', 31), (2, 'Bob', 45)`);
    const e = env();
    const customers = Schema.newBuilder().column("id", DataTypes.INT().notNull()).column("name", DataTypes.STRING()).column("age", DataTypes.INT()).primaryKey("id").build();
    e.createTemporaryTable("Customers", jdbc(t, customers, { "lookup.cache": "PARTIAL", "lookup.partial-cache.max-rows": "10" }));
    const orders = e.fromValues(DataTypes.ROW(DataTypes.FIELD("order_id", DataTypes.INT()), DataTypes.FIELD("customer_id", DataTypes.INT())), Row.of(10, 1), Row.of(11, 3), Row.of(12, 2), Row.of(13, 1));
    const joined = orders.leftOuterJoinLateral(call(e.lookupFunction<{ id: number; name: string | null; age: number | null }>("Customers", "id"), $("customer_id")))
      .select($("order_id"), $("name"), $("age"));
    expect(await joined.execute().toChangelog()).toEqual(["+I[10, Ann, 31]", "+I[11, null, null]", "+I[12, Bob, 45]", "+I[13, Ann, 31]"]);
  });

  it("cancelling an insert closes its connection", async () => {
    if (!pg()) return; // SQLite has no server-side connections to count
    const t = uniqueTable("cancel");
    await db.exec(`CREATE TABLE ${t} (id INTEGER)`);
    // connections closed by earlier tests may still be going away: wait until the count is steady
    let before = await db.connections();
    for (let i = 0, steady = 0; i < 100 && steady < 3; i++) {
      await new Promise((r) => setTimeout(r, 20));
      const now = await db.connections();
      steady = now === before ? steady + 1 : 0;
      before = now;
    }
    const e = env();
    async function* forever() { for (let i = 0; ; i++) { yield Row.of(i); await new Promise((r) => setTimeout(r, 5)); } }
    const schema = Schema.newBuilder().column("id", DataTypes.INT()).build();
    const job = e.fromAsyncIterable(schema, forever()).executeInsert(jdbc(t, schema, { "sink.buffer-flush.max-rows": "5" }));
    for (let i = 0; i < 200 && Number((await db.rows(`SELECT count(*) FROM ${t}`))[0]![0]) < 5; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await db.connections()).toBe(before! + 1);
    job.getJobClient().cancel();
    await job.await().catch(() => {});
    for (let i = 0; i < 100 && (await db.connections()) !== before; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await db.connections()).toBe(before);
  });

  it("property: after any changelog, the keyed table equals the materialized changelog", async () => {
    const schema = Schema.newBuilder().column("k", DataTypes.INT().notNull()).column("v", DataTypes.STRING()).primaryKey("k").build();
    const source = Schema.newBuilder().column("k", DataTypes.INT().notNull()).column("v", DataTypes.STRING()).build();
    const step = fc.record({ key: fc.integer({ min: 0, max: 6 }), value: fc.option(fc.string({ maxLength: 4 }), { nil: null }), remove: fc.boolean() });
    await fc.assert(fc.asyncProperty(fc.array(step, { maxLength: 40 }), fc.constantFrom("0", "1", "3", "100"), async (steps, maxRows) => {
      const t = uniqueTable("prop");
      await db.exec(`CREATE TABLE ${t} (k INTEGER PRIMARY KEY, v TEXT)`);
      const state = new Map<number, string | null>();
      const rows: ReturnType<typeof Row.ofKind>[] = [];
      for (const s of steps) {
        const old = state.get(s.key);
        if (old === undefined) { rows.push(Row.ofKind(RowKind.INSERT, s.key, s.value)); state.set(s.key, s.value); }
        else if (s.remove) { rows.push(Row.ofKind(RowKind.DELETE, s.key, old)); state.delete(s.key); }
        else { rows.push(Row.ofKind(RowKind.UPDATE_BEFORE, s.key, old), Row.ofKind(RowKind.UPDATE_AFTER, s.key, s.value)); state.set(s.key, s.value); }
      }
      const e = env();
      await e.fromChangelogAsyncIterable(source, rows).executeInsert(jdbc(t, schema, { "sink.buffer-flush.max-rows": maxRows, "sink.batch.max-size": "2" })).await();
      const got = (await db.rows(`SELECT k, v FROM ${t} ORDER BY k`)).map(([k, v]) => [Number(k), v]);
      expect(got).toEqual([...state].sort((a, b) => a[0] - b[0]));
    }), { numRuns: 25 });
  }, 60_000);

  it("pushes simple filters into the scan's WHERE as bind parameters; explain shows them, the rest stays a Calc", async () => {
    const t = uniqueTable("filtered");
    await db.exec(`CREATE TABLE ${t} (id INTEGER, name TEXT, score ${pg() ? "double precision" : "REAL"}, active ${pg() ? "boolean" : "INTEGER"})`);
    await db.exec(`INSERT INTO ${t} VALUES (1, 'a', 1.5, ${pg() ? "true" : "1"}), (2, 'b', 2.5, ${pg() ? "true" : "1"}), (3, 'b', 3.5, ${pg() ? "true" : "1"}), `
      + `(4, 'c', 4.5, ${pg() ? "false" : "0"}), (5, NULL, 5.5, ${pg() ? "true" : "1"}), (6, 'a''b', NULL, NULL), (7, 'a', 7.5, ${pg() ? "true" : "1"})`);
    const e = env();
    e.executeSql(`CREATE TABLE items (id INT, name STRING, score DOUBLE, active BOOLEAN) WITH ('connector' = 'jdbc', 'url' = '${db.url}', 'table-name' = '${t}')`);
    const q = e.sqlQuery("SELECT id, name FROM items WHERE score >= 2 AND name IN ('a', 'b', 'a''b') AND active = TRUE AND id <> 3 AND name < 'z'");
    const plan = q.explain();
    expect(plan).toMatch(/SourceScan\(table=\[items\], connector=\[jdbc\], filter=\[score >= 2 AND name IN \('a', 'b', 'a''b'\) AND active = true AND id <> 3\]/);
    // string ordering is the plan's (collations differ): it stays above the scan
    expect(plan).toMatch(/Filter\(condition=\[.*name.*'z'/);
    expect(await q.execute().toChangelog()).toEqual(["+I[2, b]", "+I[7, a]"]);
    const or = e.sqlQuery("SELECT id FROM items WHERE score IS NULL OR id = 1 OR name IN ('c')");
    expect(or.explain()).toMatch(/SourceScan\(table=\[items\], connector=\[jdbc\], project=\[id, name, score\], filter=\[\(score IS NULL OR id = 1 OR name IN \('c'\)\)\]/);
    expect(await or.execute().toChangelog()).toEqual(["+I[1]", "+I[4]", "+I[6]"]);
    // an OR with a part the database cannot take stays in the plan whole
    expect(e.sqlQuery("SELECT id FROM items WHERE score IS NULL OR name > 'b'").explain()).toMatch(/Filter\(condition=\[or\(/);
    expect(await e.executeSql("SELECT id FROM items WHERE name IS NULL").toChangelog()).toEqual(["+I[5]"]);
    expect(await e.executeSql("SELECT id FROM items WHERE name IS NOT NULL AND score < 3 AND score > 1.5").toChangelog()).toEqual(["+I[2]"]);
  });

  it("SQL lookup joins against a database table (R-023, R-025 in SQL): FOR SYSTEM_TIME AS OF a PROCTIME() column", async () => {
    const t = uniqueTable("customers_t");
    await db.exec(`CREATE TABLE ${t} (id INTEGER PRIMARY KEY, name TEXT, age INTEGER, city TEXT, state TEXT, zipcode INTEGER)`);
    await db.exec(`INSERT INTO ${t} VALUES (1, 'Bob', 28, 'Mountain View', 'California', 94043), (2, 'Alice', 32, 'San Francisco', 'California', 95016), `
      + "(3, 'Claire', 37, 'Austin', 'Texas', 73301), (4, 'Shannon', 29, 'Boise', 'Idaho', 83701), (5, 'Jake', 42, 'New York City', 'New York', 10001)");
    const e = env();
    e.executeSql(`CREATE TABLE customers_t (id INT, name STRING, age INT, city STRING, state STRING, zipcode INT, PRIMARY KEY (id) NOT ENFORCED) `
      + `WITH ('connector' = 'jdbc', 'url' = '${db.url}', 'table-name' = '${t}')`);
    const orders = Schema.newBuilder().column("order_id", DataTypes.INT()).column("customer_id", DataTypes.INT()).column("total", DataTypes.DOUBLE())
      .column("order_time", DataTypes.STRING()).columnByExpression("proc_time", "PROCTIME()").build();
    e.createTemporaryView("orders_t", e.fromValues(orders, Row.of(1, 3, 44.44, "2020-10-10 00:00:01"), Row.of(2, 5, 100.02, "2020-10-10 00:00:02"),
      Row.of(4, 2, 92.61, "2020-10-10 00:00:04"), Row.of(3, 1, 23.89, "2020-10-10 00:00:03"), Row.of(6, 4, 7.65, "2020-10-10 00:00:06"),
      Row.of(5, 2, 12.78, "2020-10-10 00:00:05")) as never);
    const cols = "O.order_id, O.total, C.id, C.name, C.age, C.city, C.state, C.zipcode";
    expect(await e.executeSql(`SELECT ${cols} FROM orders_t as O JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id AND C.age > 30`).toChangelog()).toEqual([
      "+I[1, 44.44, 3, Claire, 37, Austin, Texas, 73301]", "+I[2, 100.02, 5, Jake, 42, New York City, New York, 10001]",
      "+I[4, 92.61, 2, Alice, 32, San Francisco, California, 95016]", "+I[5, 12.78, 2, Alice, 32, San Francisco, California, 95016]",
    ]);
    expect(await e.executeSql(`SELECT /*+ LOOKUP('table'='C', 'async'='true', 'capacity'='4') */ ${cols} FROM orders_t as O LEFT JOIN customers_t FOR SYSTEM_TIME AS OF O.proc_time AS C ON O.customer_id = C.id AND CAST(O.total AS INT) < C.age`).toChangelog()).toEqual([
      "+I[1, 44.44, null, null, null, null, null, null]", "+I[2, 100.02, null, null, null, null, null, null]",
      "+I[4, 92.61, null, null, null, null, null, null]", "+I[3, 23.89, 1, Bob, 28, Mountain View, California, 94043]",
      "+I[6, 7.65, 4, Shannon, 29, Boise, Idaho, 83701]", "+I[5, 12.78, 2, Alice, 32, San Francisco, California, 95016]",
    ]);
  });
});
