import { describe, expect, it } from "vitest";
import { GreetingWithLastPurchase } from "../../examples/ptf/greeting-with-last-purchase.js";
import { orderedProcessor, OrderedProcessor } from "../../examples/ptf/ordered-processor.js";
import { events, PingLaterFunction } from "../../examples/ptf/ping-later.js";
import { TableFilter } from "../../examples/ptf/table-filter.js";
import { HashFunction } from "../../examples/table-api/hash-function.js";
import {
  DataTypes, EnvironmentSettings, Row, Schema, SqlParseError, TableEnvironment, ValidationError,
} from "../../src/index.js";
import { printed } from "../support.js";

const lines = (...l: string[]) => l.join("\n");
const newEnv = () => TableEnvironment.create(EnvironmentSettings.inStreamingMode());

const OK = lines("+--------+", "| result |", "+--------+", "|     OK |", "+--------+", "1 row in set");

/** A table `t(name STRING, score BIGINT)` and TableFilter registered, as in the seed's call syntax section. */
function filterEnv() {
  const env = newEnv();
  env.createTemporaryView("t", env.fromValues(
    DataTypes.ROW(DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("score", DataTypes.BIGINT())),
    Row.of("Bob", 12), Row.of("Alice", 142), Row.of("Charly", 101), Row.of("Dave", 100),
  ) as never);
  env.createFunction("TableFilter", TableFilter);
  return env;
}

describe("executeSql: DDL", () => {
  it("CREATE VIEW ... AS VALUES returns Flink's OK result and registers the view", async () => {
    const env = newEnv();
    expect(await printed(env.executeSql("CREATE VIEW Names(name) AS VALUES ('Bob'), ('Alice'), ('Bob')"))).toBe(OK);
    expect(env.listViews()).toEqual(["Names"]);
    expect(env.from("Names").getResolvedSchema().toShortString()).toBe("[name: VARCHAR(5) NOT NULL]");
    expect(await env.from("Names").execute().toChangelog()).toEqual(["+I[Bob]", "+I[Alice]", "+I[Bob]"]);
  });

  it("VALUES without a column list: EXPR$i names, common types over the rows", async () => {
    const env = newEnv();
    env.executeSql("CREATE TEMPORARY VIEW V AS VALUES (1, 'a', 1.5), (2, NULL, 10.25);");
    expect(env.from("V").getResolvedSchema().toShortString()).toBe("[EXPR$0: INT NOT NULL, EXPR$1: CHAR(1), EXPR$2: DECIMAL(4, 2) NOT NULL]");
    expect(await env.from("V").execute().toChangelog()).toEqual(["+I[1, a, 1.50]", "+I[2, null, 10.25]"]);
  });

  it("CREATE VIEW v AS SELECT ...: projection, aliases and WHERE over a registered view", async () => {
    const env = newEnv();
    env.executeSql("CREATE VIEW People(name, age) AS VALUES ('Alice', 35), ('Bob', 12), ('Carol', 18)");
    env.executeSql("CREATE TEMPORARY VIEW Adults AS SELECT name, age + 1 AS next, UPPER(name) FROM People WHERE age >= 18");
    const adults = env.from("Adults");
    // a select item that is neither a column nor aliased is named EXPR$<position>, as in Flink SQL
    expect(adults.getResolvedSchema().names).toEqual(["name", "next", "EXPR$2"]);
    expect(await adults.execute().toChangelog()).toEqual(["+I[Alice, 36, ALICE]", "+I[Carol, 19, CAROL]"]);
    env.executeSql("CREATE VIEW Renamed(who, later, shout) AS SELECT * FROM Adults");
    expect(await env.executeSql("SELECT who FROM Renamed WHERE later > 20").toChangelog()).toEqual(["+I[Alice]"]);
  });

  it("CREATE TABLE with a watermark and WITH options builds a connector table", async () => {
    const env = newEnv();
    const ddl = "CREATE TABLE Events (ts TIMESTAMP_LTZ(3), id STRING, val INT, WATERMARK FOR ts AS ts - INTERVAL '2' SECONDS) "
      + "WITH ('connector' = 'datagen', 'number-of-rows' = '5', 'fields.id.length' = '4')";
    expect(await printed(env.executeSql(ddl))).toBe(OK);
    expect(env.listTables()).toEqual(["Events"]);
    expect(env.from("Events").getResolvedSchema().toShortString()).toBe("[ts: TIMESTAMP_LTZ(3) *ROWTIME*, id: STRING, val: INT]");
    const rows = await env.executeSql("SELECT id, CHAR_LENGTH(id) AS n FROM Events").toArray();
    expect(rows.map((r) => r.n)).toEqual([4, 4, 4, 4, 4]);
    // the seed's SQL call on it: PARTITION BY keys, function output, rowtime
    env.createFunction("PingLaterFunction", PingLaterFunction);
    const ping = env.executeSql("SELECT * FROM PingLaterFunction(input => TABLE Events PARTITION BY id, on_time => DESCRIPTOR(`ts`))");
    expect(ping.getResolvedSchema().toShortString()).toBe("[id: STRING, EXPR$0: STRING, rowtime: TIMESTAMP_LTZ(3) NOT NULL *ROWTIME*]");
  });

  it("CREATE TABLE: computed columns, primary key, IF NOT EXISTS, TEMPORARY", () => {
    const env = newEnv();
    env.executeSql(`CREATE TEMPORARY TABLE Orders (
      id INT NOT NULL,
      price DECIMAL(10, 2),
      amount INT,
      cost AS price * amount,
      PRIMARY KEY (id) NOT ENFORCED
    ) WITH ('connector' = 'datagen', 'number-of-rows' = '1')`);
    expect(env.from("Orders").getResolvedSchema().toShortString()).toBe("[id: INT NOT NULL, price: DECIMAL(10, 2), amount: INT, cost: DECIMAL(21, 2)]");
    env.executeSql("CREATE TABLE IF NOT EXISTS Other (x INT) WITH ('connector' = 'datagen')");
    env.executeSql("CREATE TABLE IF NOT EXISTS Other (y INT) WITH ('connector' = 'datagen')");
    expect(env.from("Other").getResolvedSchema().names).toEqual(["x"]);
    expect(() => env.executeSql("CREATE TABLE Other (y INT) WITH ('connector' = 'datagen')")).toThrow(ValidationError);
  });
});

describe("executeSql: PTF calls", () => {
  it("two tables, each with PARTITION BY (seed: GreetingWithLastPurchase)", async () => {
    const env = newEnv();
    env.executeSql("CREATE VIEW Visits(name) AS VALUES ('Bob'), ('Alice'), ('Bob')");
    env.executeSql("CREATE VIEW Purchases(customer, item) AS VALUES ('Alice', 'milk')");
    env.createFunction("Greeting", GreetingWithLastPurchase);
    const result = env.executeSql("SELECT * FROM Greeting(TABLE Visits PARTITION BY name, TABLE Purchases PARTITION BY customer)");
    expect(result.getResolvedSchema().names).toEqual(["name", "customer", "EXPR$0"]);
    expect(await result.toChangelog()).toEqual([
      "+I[Bob, Bob, Hello Bob, let me know if I can help!]",
      "+I[Alice, Alice, Hello Alice, here to buy milk again?]",
      "+I[Bob, Bob, Hello Bob, let me know if I can help!]",
    ]);
  });

  it("on_time => DESCRIPTOR(ts): the seed's PingLaterFunction call prints its pings", async () => {
    const env = newEnv();
    env.createTemporaryView("Events", events(env) as never);
    env.createFunction("PingLaterFunction", PingLaterFunction);
    const sep = "+----+--------------------------------+--------------------------------+-------------------------+";
    expect(await printed(env.executeSql("SELECT * FROM PingLaterFunction(input => TABLE Events PARTITION BY id, on_time => DESCRIPTOR(`ts`))"))).toBe(lines(
      sep,
      "| op |                             id |                         EXPR$0 |                 rowtime |",
      sep,
      "| +I |                              b |                           ping | 2025-03-26 16:56:10.000 |",
      "| +I |                              a |                           ping | 2025-03-26 16:56:30.000 |",
      "| +I |                              c |                           ping | 2025-03-26 16:58:00.000 |",
      sep,
      "3 rows in set",
    ));
  });

  it("PARTITION BY ... ORDER BY (ts ASC, score DESC) gives the Table API's orderBy result", async () => {
    const env = newEnv();
    const at = (ms: number) => new Date(Date.UTC(2025, 0, 1, 12, 0, 0, ms));
    const schema = Schema.newBuilder()
      .column("name", DataTypes.STRING()).column("score", DataTypes.INT()).column("ts", DataTypes.TIMESTAMP_LTZ(3))
      .watermark("ts", "ts - INTERVAL '1' SECOND").build();
    env.createTemporaryView("Events", env.fromValues(schema,
      Row.of("Bob", 5, at(1500)), Row.of("Bob", 7, at(1200)), Row.of("Alice", 3, at(1200)), Row.of("Bob", 9, at(1200)),
      Row.of("Bob", 2, at(2600)), Row.of("Bob", 1, at(1000)), Row.of("Alice", 4, at(3000))) as never);
    env.createFunction("OrderedProcessor", OrderedProcessor);
    const sql = await env.executeSql("SELECT * FROM OrderedProcessor(input => TABLE Events PARTITION BY name ORDER BY (ts ASC, score DESC))").toChangelog();
    expect(sql.slice(0, 2)).toEqual([
      "+I[Bob, [+I[9, 2025-01-01T12:00:01.200Z]]]",
      "+I[Bob, [+I[9, 2025-01-01T12:00:01.200Z], +I[7, 2025-01-01T12:00:01.200Z]]]",
    ]);
    expect(sql).toEqual(await orderedProcessor().execute().toChangelog());
    // DESC sorts nulls last by default: saying so explicitly is the same call
    expect(await env.executeSql("SELECT * FROM OrderedProcessor(input => TABLE Events PARTITION BY name ORDER BY (ts, score DESC NULLS LAST))").toChangelog())
      .toEqual(sql);
  });

  it("PARTITION BY (a, b) with several columns; positional DEFAULT for on_time", async () => {
    const env = newEnv();
    env.executeSql("CREATE VIEW Names(name, city) AS VALUES ('Bob', 'X'), ('Bob', 'Y'), ('Bob', 'X')");
    env.createFunction("GreetingWithMemory", (await import("../../examples/ptf/greeting-with-memory.js")).GreetingWithMemory);
    const r = env.executeSql("SELECT * FROM GreetingWithMemory(TABLE Names PARTITION BY (name, city), DEFAULT, 'g1')");
    expect(r.getResolvedSchema().names).toEqual(["name", "city", "EXPR$0"]);
    expect(await r.toChangelog()).toEqual([
      "+I[Bob, X, Hello Bob, your 1 time?]", "+I[Bob, Y, Hello Bob, your 1 time?]", "+I[Bob, X, Hello Bob, your 2 time?]",
    ]);
  });

  it("a PTF call's output can be filtered and projected in the same SELECT", async () => {
    const env = filterEnv();
    expect(await env.executeSql("SELECT score * 2 AS twice FROM TableFilter(input => TABLE t, threshold => 100) WHERE score > 120").toChangelog())
      .toEqual(["+I[284]"]);
  });
});

describe("executeSql: queries with user-defined functions", () => {
  it("a function registered with createTemporaryFunction is found by name (case-insensitive)", async () => {
    const env = newEnv();
    env.createTemporaryFunction("hash", HashFunction);
    env.executeSql("CREATE VIEW Orders(id, customer_name) AS VALUES (1, 'Alice'), (2, 'Bob'), (3, 'polygenelubricants')");
    const r = await env.executeSql("SELECT id, HASH(customer_name) AS hashed_name FROM Orders WHERE id < 3").toChangelog();
    // the values of the Table API example (test/functions/seed-examples.test.ts)
    expect(r).toEqual(["+I[1, 3c6a660]", "+I[2, 10595]"]);
  });

  it("sqlQuery gives a Table for further Table API calls", async () => {
    const env = newEnv();
    env.executeSql("CREATE VIEW N(x) AS VALUES 1, 2, 3");
    const t = env.sqlQuery("SELECT x * 10 y FROM N WHERE x <> 2");
    expect(await t.execute().toChangelog()).toEqual(["+I[10]", "+I[30]"]);
    expect(() => env.sqlQuery("CREATE VIEW M AS VALUES 1")).toThrow("sqlQuery only accepts queries (SELECT, VALUES, WITH); use executeSql for CREATE VIEW");
  });
});

describe("executeSql: errors", () => {
  const err = (env: TableEnvironment, sql: string): Error => {
    try {
      env.executeSql(sql);
    } catch (e) {
      return e as Error;
    }
    throw new Error(`no error for ${sql}`);
  };

  it("syntax errors are SqlParseErrors naming line and column", () => {
    const e = err(newEnv(), "SELECT *\nFROM Names\nWHERE name =");
    expect(e).toBeInstanceOf(SqlParseError);
    expect(e.message).toBe("cannot parse SQL statement 'SELECT *\nFROM Names\nWHERE name =' at line 3, column 13: expected an expression, got end of input");
    expect(err(newEnv(), "SELECT * FROM f(TABLE t PARTITION name)").message)
      .toBe("cannot parse SQL statement 'SELECT * FROM f(TABLE t PARTITION name)' at line 1, column 35: expected BY, got 'name'");
    expect(err(newEnv(), "CREATE VIEW V AS VALUES (1, 2), (3)").message)
      .toBe("cannot parse SQL statement 'CREATE VIEW V AS VALUES (1, 2), (3)' at line 1, column 33: VALUES row 2 has 1 values but row 1 has 2");
  });

  it("constructs outside the subset are rejected as not supported", () => {
    const cases: [string, string][] = [
      ["SELECT * FROM a NATURAL JOIN b", "line 1, column 17: NATURAL JOIN is not supported by tablestream's SQL (docs/sql.md lists what is)"],
      ["SELECT * FROM t QUALIFY a > 1", "line 1, column 17: QUALIFY is not supported"],
      ["CREATE CATALOG c WITH ('type' = 'x')", "line 1, column 8: CREATE CATALOG is not supported"],
      ["DROP DATABASE d", "line 1, column 6: DROP DATABASE is not supported"],
      ["USE db1", "line 1, column 1: USE is not supported"],
      ["EXPLAIN ESTIMATED_COST SELECT * FROM t", "line 1, column 9: EXPLAIN ESTIMATED_COST is not supported"],
      ["CREATE FUNCTION f AS 'x' LANGUAGE PYTHON", "line 1, column 35: LANGUAGE PYTHON is not supported"],
    ];
    for (const [sql, message] of cases) {
      const e = err(newEnv(), sql);
      expect(e, sql).toBeInstanceOf(SqlParseError);
      expect(e.message, sql).toContain(message);
    }
  });

  it("validation errors name the position of the table or call", () => {
    const env = filterEnv();
    expect(err(env, "SELECT * FROM Missing").message).toBe("SQL validation failed. At line 1, column 15: table 'Missing' is not registered; known: [t]");
    expect(err(env, "SELECT * FROM Nope(TABLE t)").message).toMatch(/^SQL validation failed\. At line 1, column 15: Function 'Nope' is not registered/);
    expect(err(env, "SELECT * FROM TableFilter(TABLE t, DEFAULT)").message).toBe(
      "SQL validation failed. At line 1, column 15: Invalid function call to 'TableFilter': argument 'threshold' (position 1, INT NOT NULL) is not optional; pass a value, or declare it with scalarArg(type, { optional: true }).",
    );
    expect(err(env, "SELECT * FROM TableFilter(input => TABLE t, 100)").message).toMatch(/Cannot mix positional and named arguments when calling function 'TableFilter'/);
    expect(err(env, "SELECT * FROM TableFilter(input => TABLE t, treshold => 100)").message).toMatch(/unknown argument 'treshold'/);
    expect(err(env, "SELECT name, nope FROM t").message).toBe("SQL validation failed. At line 1, column 14: column 'nope' is not in [name, score]");
    expect(err(env, "SELECT name FROM t WHERE score").message).toBe("SQL validation failed. At line 1, column 20: filter: the condition score must be BOOLEAN, got BIGINT");
    expect(err(env, "CREATE VIEW V(a, b) AS SELECT name FROM t").message)
      .toBe("SQL validation failed. At line 1, column 13: the view declares 2 column names [a, b] but its query has 1 columns");
    expect(err(env, "CREATE VIEW t AS SELECT name FROM t").message).toBe("SQL validation failed. At line 1, column 13: Temporary table 't' already exists");
    expect(err(env, "CREATE TABLE x (a INT) WITH ('format' = 'csv')").message)
      .toBe("SQL validation failed. At line 1, column 14: table 'x' needs the option 'connector', e.g. WITH ('connector' = 'datagen')");
  });
});
